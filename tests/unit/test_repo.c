/* Unit tests for the checks of src/io/repo.c that work on a repository's
 * files: "are there local changes?", git's own operation under way, and
 * the branch checked out in another worktree. Each test works in a
 * repository of its own, made by the real git. */
#define _XOPEN_SOURCE 700
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io/repo.h"
#include "util/xalloc.h"

static char *tmp;

/* Runs a shell command in the test's folder; fails the test unless it
 * succeeds. */
static void sh(const char *fmt, ...)
{
	char cmd[2048];
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
	char tmpl[] = "/tmp/gcamp-repo.XXXXXX";
	char *home, *dir;

	(void)state;
	tmp = xstrdup(mkdtemp(tmpl));
	home = xasprintf("%s/home", tmp);
	sh("mkdir -p '%s'", home);
	setenv("HOME", home, 1);
	setenv("XDG_CONFIG_HOME", home, 1);
	setenv("GIT_CONFIG_NOSYSTEM", "1", 1);
	setenv("GIT_AUTHOR_NAME", "A U Thor", 1);
	setenv("GIT_AUTHOR_EMAIL", "a@example.com", 1);
	setenv("GIT_COMMITTER_NAME", "C O Mitter", 1);
	setenv("GIT_COMMITTER_EMAIL", "c@example.com", 1);
	unsetenv("GIT_DIR");
	unsetenv("GIT_WORK_TREE");
	unsetenv("GIT_COMMON_DIR");
	free(home);
	sh("cd '%s' && git init -q -b main r && cd r && echo aaaa >f && "
	   "git add f && git commit -q -m one",
	   tmp);
	dir = xasprintf("%s/r", tmp);
	assert_int_equal(chdir(dir), 0);
	free(dir);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	assert_int_equal(chdir("/"), 0);
	sh("rm -rf '%s'", tmp);
	free(tmp);
	return 0;
}

/* repo_worktree_dirty on a repository opened afresh, as a command does */
static int dirty(char **paths)
{
	struct error err = ERROR_INIT;
	git_repository *repo = NULL;
	int rc;

	assert_int_equal(repo_open(&repo, &err), 0);
	rc = repo_worktree_dirty(repo, paths, &err);
	error_clear(&err);
	git_repository_free(repo);
	return rc;
}

static void worktree_dirty_counts_tracked_changes_only(void **state)
{
	char *paths = NULL;

	(void)state;
	assert_int_equal(dirty(&paths), 0);
	assert_null(paths);
	sh("echo new >untracked");
	assert_int_equal(dirty(&paths), 0);
	/* same size, and as new as the index: the stat data cannot tell */
	sh("echo bbbb >f");
	assert_int_equal(dirty(&paths), 1);
	assert_string_equal(paths, "'f'");
	free(paths);
	sh("git add f && git commit -q -m two && sleep 1 && "
	   "git update-index --refresh >/dev/null");
	assert_int_equal(dirty(NULL), 0);
	sh("echo cc >g && git add g");
	assert_int_equal(dirty(&paths), 1);
	assert_string_equal(paths, "'g'");
	free(paths);
}

static void check_state_refuses_a_merge_under_way(void **state)
{
	struct error err = ERROR_INIT;
	git_repository *repo = NULL;

	(void)state;
	assert_int_equal(repo_open(&repo, &err), 0);
	assert_int_equal(repo_check_state(repo, &err), 0);
	sh("git checkout -q -b side && echo side >f && git commit -qam side && "
	   "git checkout -q main && echo main >f && git commit -qam main && "
	   "! git merge -q side >/dev/null 2>&1");
	assert_int_equal(repo_check_state(repo, &err), GCAMP_EFATAL);
	assert_string_equal(err.msg,
			    "the repository is in the middle of a merge");
	error_clear(&err);
	git_repository_free(repo);
}

static void branch_elsewhere_names_the_other_worktree(void **state)
{
	struct error err = ERROR_INIT;
	git_repository *repo = NULL;
	char *where = NULL, *want = xasprintf("%s/wt", tmp);
	char *real, *got;

	(void)state;
	sh("git worktree add -q ../wt -b feat");
	real = realpath(want, NULL);
	assert_int_equal(repo_open(&repo, &err), 0);
	repo_branch_elsewhere(&where, repo, "feat");
	assert_non_null(where);
	got = realpath(where, NULL); /* the path git wrote in its gitdir */
	assert_non_null(got);
	assert_string_equal(got, real);
	free(got);
	free(where);
	repo_branch_elsewhere(&where, repo, "main"); /* ours */
	assert_null(where);
	repo_branch_elsewhere(&where, repo, "nothere");
	assert_null(where);
	git_repository_free(repo);
	assert_int_equal(chdir(want), 0);
	assert_int_equal(repo_open(&repo, &err), 0);
	repo_branch_elsewhere(&where, repo, "main");
	assert_string_equal(where, "the main work tree");
	free(where);
	repo_branch_elsewhere(&where, repo, "feat");
	assert_null(where);
	git_repository_free(repo);
	free(real);
	free(want);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(
			worktree_dirty_counts_tracked_changes_only, setup,
			teardown),
		cmocka_unit_test_setup_teardown(
			check_state_refuses_a_merge_under_way, setup, teardown),
		cmocka_unit_test_setup_teardown(
			branch_elsewhere_names_the_other_worktree, setup,
			teardown),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);

	repo_lib_shutdown();
	return rc;
}
