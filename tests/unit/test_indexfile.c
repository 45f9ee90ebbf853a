/* Unit tests for src/io/indexfile.c: the cache-tree root of index files
 * that git writes here (versions 2, 3 and 4), checked against
 * `git write-tree`, and the cases it must leave to a full compare. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/indexfile.h"
#include "util/error.h"
#include "util/xalloc.h"

static char *tmp, *index_path;

static void sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void sh(const char *fmt, ...)
{
	char cmd[4096];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	assert_true(n > 0 && (size_t)n < sizeof(cmd));
	assert_int_equal(system(cmd), 0);
}

static char *line_of(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));
static char *line_of(const char *fmt, ...)
{
	char cmd[4096], buf[4096] = "";
	va_list ap;
	FILE *p;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	assert_non_null(p = popen(cmd, "r"));
	if (!fgets(buf, sizeof(buf), p))
		buf[0] = 0;
	pclose(p);
	buf[strcspn(buf, "\n")] = 0;
	return xstrdup(buf);
}

static int setup(void **state)
{
	char tmpl[] = "/tmp/gcamp-indexfile.XXXXXX";
	char *home;

	(void)state;
	tmp = xstrdup(mkdtemp(tmpl));
	home = xasprintf("%s/home", tmp);
	sh("mkdir -p '%s'", home);
	setenv("HOME", home, 1);
	setenv("GIT_CONFIG_NOSYSTEM", "1", 1);
	setenv("GIT_AUTHOR_NAME", "A U Thor", 1);
	setenv("GIT_AUTHOR_EMAIL", "a@example.com", 1);
	setenv("GIT_COMMITTER_NAME", "C O Mitter", 1);
	setenv("GIT_COMMITTER_EMAIL", "c@example.com", 1);
	unsetenv("GIT_DIR");
	unsetenv("GIT_INDEX_FILE");
	free(home);
	/* folders, names that sort around a folder's '/', long paths */
	sh("cd '%s' && git init -q -b main r && cd r && mkdir -p a/b c && "
	   "for f in a/x a/b/y a-b a.b c/z top; do echo $f >$f; done && "
	   "echo long >c/$(printf 'n%%.0s' $(seq 1 200)) && "
	   "git add . && git commit -q -m one && git checkout -q -b two",
	   tmp);
	index_path = xasprintf("%s/r/.git/index", tmp);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	sh("rm -rf '%s'", tmp);
	free(index_path);
	free(tmp);
	return 0;
}

/* indexfile_tree's answer, or "" when it cannot tell */
static char *ours(void)
{
	unsigned char sum[20];
	char hex[41];

	return xstrdup(indexfile_tree(hex, sum, index_path) == 0 ? hex : "");
}

static void check_version(int version)
{
	char *want, *got;

	sh("cd '%s/r' && git update-index --index-version %d && "
	   "git write-tree >/dev/null",
	   tmp, version);
	want = line_of("cd '%s/r' && git write-tree", tmp);
	got = ours();
	assert_string_equal(got, want);
	free(want);
	free(got);
}

static void the_root_of_a_version_2_index_is_git_write_tree(void **state)
{
	(void)state;
	check_version(2);
}

/* git writes version 3 only for entries with extended flags: one marked
 * skip-worktree, which keeps the cache-tree whole */
static void the_root_of_a_version_3_index_is_git_write_tree(void **state)
{
	char *v;

	(void)state;
	sh("cd '%s/r' && git update-index --skip-worktree top", tmp);
	check_version(3);
	v = line_of("od -An -tu1 -j7 -N1 '%s' | tr -d ' '", index_path);
	assert_string_equal(v, "3");
	free(v);
	sh("cd '%s/r' && git update-index --no-skip-worktree top", tmp);
}

/* git leaves the root invalid while an intent-to-add entry is there */
static void
an_intent_to_add_entry_leaves_the_answer_to_a_full_compare(void **state)
{
	char *got;

	(void)state;
	sh("cd '%s/r' && echo new >ita && git add -N ita && "
	   "git write-tree >/dev/null",
	   tmp);
	got = ours();
	assert_string_equal(got, "");
	free(got);
	sh("cd '%s/r' && git rm -q --cached ita && rm ita", tmp);
}

static void the_root_of_a_version_4_index_is_git_write_tree(void **state)
{
	(void)state;
	check_version(4);
	check_version(2);
}

static void a_staged_change_leaves_the_answer_to_a_full_compare(void **state)
{
	char *got, *want;

	(void)state;
	sh("cd '%s/r' && echo more >>a/b/y && git add a/b/y", tmp);
	got = ours();
	assert_string_equal(got, "");
	free(got);
	/* git write-tree makes the cache-tree whole again */
	want = line_of("cd '%s/r' && git write-tree", tmp);
	got = ours();
	assert_string_equal(got, want);
	free(got);
	free(want);
	sh("cd '%s/r' && git reset -q --hard", tmp);
}

static void the_checksum_is_the_files_last_bytes(void **state)
{
	unsigned char sum[20];
	char hex[41], *want, got[41];
	size_t i;

	(void)state;
	sh("cd '%s/r' && git write-tree >/dev/null", tmp);
	assert_int_equal(indexfile_tree(hex, sum, index_path), 0);
	want = line_of("tail -c 20 '%s' | od -An -tx1 | tr -d ' \\n'",
		       index_path);
	for (i = 0; i < 20; i++)
		snprintf(got + 2 * i, 3, "%02x", sum[i]);
	assert_string_equal(got, want);
	free(want);
}

static void no_file_or_no_index_cannot_tell(void **state)
{
	unsigned char sum[20];
	char hex[41], *path = xasprintf("%s/r/top", tmp);

	(void)state;
	assert_int_equal(indexfile_tree(hex, sum, "/nonexistent/index"),
			 GCAMP_ENOTFOUND);
	assert_int_equal(indexfile_tree(hex, sum, path), GCAMP_ENOTFOUND);
	free(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(
			the_root_of_a_version_2_index_is_git_write_tree),
		cmocka_unit_test(
			the_root_of_a_version_3_index_is_git_write_tree),
		cmocka_unit_test(
			the_root_of_a_version_4_index_is_git_write_tree),
		cmocka_unit_test(
			an_intent_to_add_entry_leaves_the_answer_to_a_full_compare),
		cmocka_unit_test(
			a_staged_change_leaves_the_answer_to_a_full_compare),
		cmocka_unit_test(the_checksum_is_the_files_last_bytes),
		cmocka_unit_test(no_file_or_no_index_cannot_tell),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
