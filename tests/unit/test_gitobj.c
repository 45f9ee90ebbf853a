/* Unit tests for src/io/gitobj.c: ancestry read from the object files,
 * compared with `git merge-base --is-ancestor` on every pair of commits of
 * a repository that git makes here (merges, a pack with commits stored as
 * deltas, loose commits after it, a clone that borrows through
 * alternates, a pack whose deltas name their bases by id). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io/gitobj.h"
#include "util/error.h"
#include "util/xalloc.h"

static char *tmp;

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

/* the first line that cmd prints */
static char *line_of(const char *cmd)
{
	char buf[4096] = "";
	FILE *p = popen(cmd, "r");

	assert_non_null(p);
	if (!fgets(buf, sizeof(buf), p))
		buf[0] = 0;
	pclose(p);
	buf[strcspn(buf, "\n")] = 0;
	return xstrdup(buf);
}

/* git commit with a long message most commits share, so that pack-objects
 * stores commits as deltas of one another */
#define COMMIT                                                                 \
	"GIT_COMMITTER_DATE=\"$((1700000000 + n * 60)) +0000\" "               \
	"git commit -q --allow-empty -F - <<EOF\n"                             \
	"change $n\n\n$(seq 1 200 | sed 's/^/shared line /')\nEOF\n"           \
	"n=$((n + 1))\n"

static int setup(void **state)
{
	char tmpl[] = "/tmp/gcamp-gitobj.XXXXXX";
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
	unsetenv("GIT_OBJECT_DIRECTORY");
	unsetenv("GIT_ALTERNATE_OBJECT_DIRECTORIES");
	free(home);
	/* main and side fork, side merges main back, main goes on; all of
	 * it packed; then loose commits on both; then a shared clone */
	sh("cd '%s' && git init -q -b main r && cd r && n=0 &&\n" COMMIT COMMIT
	   "git checkout -q -b side\n" COMMIT COMMIT
	   "git checkout -q main\n" COMMIT
	   "git checkout -q side && git merge -q --no-edit main\n" COMMIT
	   "git checkout -q main\n" COMMIT COMMIT
	   "git repack -q -a -d -f --depth=50 --window=50\n" COMMIT
	   "git checkout -q side\n" COMMIT
	   "cd .. && git clone -q --shared r c && cd c && n=100 &&\n" COMMIT
		   COMMIT "cd .. && git clone -q --no-local r d && cd d && "
	   "git -c repack.useDeltaBaseOffset=false repack -q -a -d -f "
	   "--depth=50 --window=50",
	   tmp);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	sh("rm -rf '%s'", tmp);
	free(tmp);
	return 0;
}

/* the setup is a test only when the pack holds commits stored as deltas */
static void pack_holds_commit_deltas(void **state)
{
	char *cmd = xasprintf("cd '%s/r' && git verify-pack -v "
			      ".git/objects/pack/*.idx | "
			      "awk '$2 == \"commit\" && NF >= 7' | wc -l",
			      tmp);
	char *n = line_of(cmd);

	(void)state;
	assert_true(atoi(n) > 0);
	free(n);
	free(cmd);
}

static void check_pairs(const char *repo)
{
	char *cmd = xasprintf("cd '%s/%s' && git rev-list --all", tmp, repo);
	char *objects = xasprintf("%s/%s/.git/objects", tmp, repo);
	char ids[64][41];
	size_t n = 0, i, k, yes = 0, no = 0;
	FILE *p = popen(cmd, "r");

	assert_non_null(p);
	while (n < 64 && fgets(ids[n], sizeof(ids[n]), p)) {
		ids[n][40] = 0;
		fgetc(p); /* the newline */
		n++;
	}
	pclose(p);
	assert_true(n >= 10);
	for (i = 0; i < n; i++)
		for (k = 0; k < n; k++) {
			char *git = xasprintf("cd '%s/%s' && git merge-base "
					      "--is-ancestor %s %s",
					      tmp, repo, ids[i], ids[k]);
			int want = system(git) == 0;
			int got = gitobj_is_ancestor(objects, ids[i], ids[k]);

			if (got != want)
				print_error("%s %s: git %d, ours %d\n", ids[i],
					    ids[k], want, got);
			assert_int_equal(got, want);
			yes += want;
			no += !want;
			free(git);
		}
	/* both answers were asked for */
	assert_true(yes > n && no > n);
	free(objects);
	free(cmd);
}

static void ancestry_matches_git_in_a_packed_and_loose_repository(void **state)
{
	(void)state;
	check_pairs("r");
}

static void ancestry_matches_git_through_alternates(void **state)
{
	(void)state;
	check_pairs("c");
}

/* deltas that name their base by id (REF_DELTA), as packs made without
 * repack.useDeltaBaseOffset hold them */
static void ancestry_matches_git_with_bases_named_by_id(void **state)
{
	(void)state;
	check_pairs("d");
}

static void a_missing_commit_cannot_be_told(void **state)
{
	char *objects = xasprintf("%s/r/.git/objects", tmp);
	char *cmd = xasprintf("cd '%s/r' && git rev-parse HEAD", tmp);
	char *head = line_of(cmd);

	(void)state;
	assert_int_equal(
		gitobj_is_ancestor(objects,
				   "0123456789012345678901234567890123456789",
				   head),
		GCAMP_ENOTFOUND);
	assert_int_equal(gitobj_is_ancestor(objects, head, "not hex"),
			 GCAMP_ENOTFOUND);
	free(head);
	free(cmd);
	free(objects);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(pack_holds_commit_deltas),
		cmocka_unit_test(
			ancestry_matches_git_in_a_packed_and_loose_repository),
		cmocka_unit_test(ancestry_matches_git_through_alternates),
		cmocka_unit_test(ancestry_matches_git_with_bases_named_by_id),
		cmocka_unit_test(a_missing_commit_cannot_be_told),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
