/* Unit tests for src/core/stack/treediff.c: the files one tree changes
 * against another, checked against `git diff-tree -r --no-renames` on
 * commits git makes here (edits deep in folders, adds and deletes, a mode
 * change, a file that becomes a folder and back, a symbolic link). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/stack/treediff.h"
#include "util/strvec.h"
#include "util/xalloc.h"

static char *tmp;
static git_repository *repo;

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

static int setup(void **state)
{
	char tmpl[] = "/tmp/gcamp-treediff.XXXXXX";
	char *home, *path;

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
	free(home);
	/* c0 .. c6, each on the one before */
	sh("cd '%s' && git init -q -b main r && cd r && "
	   "mkdir -p a/b/c d && for f in a/b/c/x a/b/y a/z d/w top; do "
	   "echo $f >$f; done && git add . && git commit -q -m c0 && "
	   "echo more >>a/b/c/x && git commit -q -am c1 && "
	   "echo new >a/b/new && git rm -q d/w && git add . && "
	   "git commit -q -m c2 && chmod +x top && git commit -q -am c3 && "
	   "git rm -q top && mkdir top && echo in >top/f && git add . && "
	   "git commit -q -m c4 && git rm -q -r top && echo back >top && "
	   "ln -s a/z link && git add . && git commit -q -m c5 && "
	   "rm link && ln -s top link && git commit -q -am c6",
	   tmp);
	path = xasprintf("%s/r", tmp);
	git_libgit2_init();
	assert_int_equal(git_repository_open(&repo, path), 0);
	free(path);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	git_repository_free(repo);
	git_libgit2_shutdown();
	sh("rm -rf '%s'", tmp);
	free(tmp);
	return 0;
}

static git_tree *tree_of(const char *rev)
{
	git_object *o = NULL;
	git_tree *t = NULL;

	assert_int_equal(git_revparse_single(&o, repo, rev), 0);
	assert_int_equal(git_object_peel((git_object **)&t, o, GIT_OBJECT_TREE),
			 0);
	git_object_free(o);
	return t;
}

/* "STATUS MODE PATH" lines as git diff-tree prints them, sorted */
static void git_says(struct strvec *out, const char *a, const char *b)
{
	char *cmd = xasprintf("cd '%s/r' && git diff-tree -r --no-renames "
			      "%s %s | awk '{ print $5, $2, $6 }' | sort",
			      tmp, a, b);
	char line[4096];
	FILE *p = popen(cmd, "r");

	assert_non_null(p);
	while (fgets(line, sizeof(line), p)) {
		line[strcspn(line, "\n")] = 0;
		strvec_push(out, line);
	}
	pclose(p);
	free(cmd);
}

static void ours_say(struct strvec *out, const char *a, const char *b)
{
	struct tree_changes ch = TREE_CHANGES_INIT;
	git_tree *ta = tree_of(a), *tb = tree_of(b);
	size_t i;

	assert_int_equal(stack_tree_changes(&ch, repo, ta, tb), 0);
	for (i = 0; i < ch.n; i++) {
		const struct tree_change *c = &ch.v[i];
		char st = !c->had ? 'A' : !c->has ? 'D' : 'M';

		/* git's typechange (a file to a link) is a change here */
		if (c->had && c->has &&
		    (c->old_mode == GIT_FILEMODE_LINK) !=
			    (c->new_mode == GIT_FILEMODE_LINK))
			st = 'T';
		strvec_pushf(out, "%c %06o %s", st,
			     (unsigned)(c->has ? c->new_mode : 0), c->path);
	}
	strvec_sort(out);
	stack_tree_changes_release(&ch);
	git_tree_free(ta);
	git_tree_free(tb);
}

static void check(const char *a, const char *b)
{
	struct strvec want = STRVEC_INIT, got = STRVEC_INIT;
	size_t i;

	git_says(&want, a, b);
	ours_say(&got, a, b);
	assert_true(want.nr > 0);
	assert_int_equal(got.nr, want.nr);
	for (i = 0; i < want.nr; i++)
		assert_string_equal(got.v[i], want.v[i]);
	strvec_clear(&want);
	strvec_clear(&got);
}

static void each_commit_changes_what_git_diff_tree_says(void **state)
{
	static const char *const revs[] = {"main~6", "main~5", "main~4",
					   "main~3", "main~2", "main~1",
					   "main"};
	size_t i;

	(void)state;
	for (i = 0; i + 1 < sizeof(revs) / sizeof(*revs); i++)
		check(revs[i], revs[i + 1]);
}

static void distant_trees_and_the_reverse_change_as_git_diff_tree(void **state)
{
	(void)state;
	check("main~6", "main");
	check("main", "main~6");
	check("main~3", "main~1");
}

static void equal_trees_change_nothing(void **state)
{
	struct tree_changes ch = TREE_CHANGES_INIT;
	git_tree *t = tree_of("main");

	(void)state;
	assert_int_equal(stack_tree_changes(&ch, repo, t, t), 0);
	assert_int_equal(ch.n, 0);
	stack_tree_changes_release(&ch);
	git_tree_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(each_commit_changes_what_git_diff_tree_says),
		cmocka_unit_test(
			distant_trees_and_the_reverse_change_as_git_diff_tree),
		cmocka_unit_test(equal_trees_change_nothing),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
