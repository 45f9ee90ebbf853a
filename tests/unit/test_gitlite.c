/* Unit tests for what status and resume read without libgit2
 * (src/io/gitlite.c): ref name rules checked against git itself, refs
 * loose and packed, the work tree as git finds it, and the configuration
 * reads and writes of src/io/gitcfg.c over it. Each test works in a
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
#include <sys/wait.h>
#include <unistd.h>

#include "io/gitcfg.h"
#include "io/gitlite.h"
#include "io/repo.h"
#include "util/xalloc.h"

static char *tmp;

/* Runs argv (NULL-terminated) with stdout and stderr to /dev/null; its
 * exit status. */
static int run(const char *const *argv)
{
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		if (!freopen("/dev/null", "w", stdout) ||
		    !freopen("/dev/null", "w", stderr))
			_exit(126);
		execvp(argv[0], (char *const *)argv);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

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
	char tmpl[] = "/tmp/gcamp-gitlite.XXXXXX";
	char *home;

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
	unsetenv("GIT_CONFIG_PARAMETERS");
	unsetenv("GIT_CONFIG_COUNT");
	free(home);
	sh("cd '%s' && git init -q -b main r && cd r && mkdir -p sub/dir && "
	   "git commit -q --allow-empty -m one && "
	   "git commit -q --allow-empty -m two",
	   tmp);
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

static void cd(const char *rel)
{
	char *dir = xasprintf("%s/%s", tmp, rel);

	assert_int_equal(chdir(dir), 0);
	free(dir);
}

/* Our rules give what `git check-ref-format` gives, name by name. */
static void ref_names_as_git(void **state)
{
	static const char *const names[] = {
		"main",	    "feature/x", "a.b",	     "v1.0",	"x-y_z",
		"-dash",    "HEAD",	 "@",	     "a@b",	"a@{b",
		"a..b",	    ".hidden",	 "a/.b",     "a.",	"a/",
		"a//b",	    "a.lock",	 "a.lock/b", "x.lockx", "sp ace",
		"ti~lde",   "ca^ret",	 "co:lon",   "qu?est",	"st*ar",
		"br[acket", "back\\sl",	 "tab\tx",   "del\x7f", "é",
		"a/b/c",    "/lead",	 "",	     "origin",	"my remote",
		"re.mote",
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(names) / sizeof(*names); i++) {
		const char *branch[] = {"git", "check-ref-format", "--branch",
					names[i], NULL};
		char *ref = xasprintf("refs/remotes/%s/test", names[i]);
		const char *remote[] = {"git", "check-ref-format", ref, NULL};
		int git_branch = run(branch) == 0;
		int git_remote = *names[i] && run(remote) == 0;

		if (gitlite_branch_name_valid(names[i]) != git_branch)
			fail_msg("branch name '%s': git says %d", names[i],
				 git_branch);
		if (gitlite_remote_name_valid(names[i]) != git_remote)
			fail_msg("remote name '%s': git says %d", names[i],
				 git_remote);
		free(ref);
	}
}

static int collect(const char *refname, const char *oid, void *data)
{
	struct strvec *out = data;

	strvec_push(out, refname);
	strvec_push(out, oid);
	return 0;
}

/* What io/refs.h promises, from either backend, over the refs below. */
static void expect_refs(const struct refs *r)
{
	struct strvec refs = STRVEC_INIT;
	struct error err = ERROR_INIT;
	char one[REFS_HEX_SIZE], two[REFS_HEX_SIZE], *branch = NULL;

	assert_int_equal(refs_resolve(two, r, "HEAD"), 0);
	assert_int_equal(refs_branch_tip(one, r, NULL, "main"), 0);
	assert_string_equal(one, two);
	assert_int_equal(refs_head_branch(&branch, r, &err), 0);
	assert_string_equal(branch, "main");
	free(branch);
	assert_int_equal(refs_resolve(one, r, "refs/campaign/stash/b"), 0);
	assert_int_equal(
		refs_for_each_prefix(r, "refs/campaign/stash/", collect, &refs),
		0);
	/* in name order; c is loose again, and wins over its packed line */
	assert_int_equal(refs.nr, 8);
	assert_string_equal(refs.v[0], "refs/campaign/stash/0");
	assert_string_equal(refs.v[1], two);
	assert_string_equal(refs.v[2], "refs/campaign/stash/a/deep");
	assert_string_equal(refs.v[3], two);
	assert_string_equal(refs.v[4], "refs/campaign/stash/b");
	assert_string_equal(refs.v[5], one);
	assert_string_equal(refs.v[6], "refs/campaign/stash/c");
	assert_string_equal(refs.v[7], one);
	assert_int_equal(refs_branch_tip(one, r, "origin", "nothere"),
			 GCAMP_ENOTFOUND);
	strvec_clear(&refs);
}

static void refs_loose_over_packed(void **state)
{
	struct gitlite g = GITLITE_INIT;
	struct error err = ERROR_INIT;
	git_repository *repo = NULL;
	struct refs r;

	(void)state;
	cd("r");
	sh("git update-ref refs/campaign/stash/b HEAD~1 && "
	   "git update-ref refs/campaign/stash/a/deep HEAD && "
	   "git update-ref refs/campaign/stash/c HEAD && "
	   "git pack-refs --all && "
	   "git update-ref refs/campaign/stash/c HEAD~1 && "
	   "git update-ref refs/campaign/stash/0 HEAD && "
	   "git symbolic-ref refs/campaign/stash/sym refs/heads/main && "
	   "git update-ref refs/campaign/other HEAD");
	assert_int_equal(gitlite_open_flags(&g, GITLITE_NO_GIT, &err), 0);
	gitlite_refs(&r, &g);
	expect_refs(&r);
	/* the libgit2 backend gives the same answers */
	assert_int_equal(repo_open(&repo, &err), 0);
	repo_refs(&r, repo);
	expect_refs(&r);
	git_repository_free(repo);
	gitlite_release(&g);
}

static void expect_work_tree(const char *want_rel)
{
	struct gitlite g = GITLITE_INIT;
	struct error err = ERROR_INIT;
	char *want = want_rel ? xasprintf("%s/%s", tmp, want_rel) : NULL;
	char *real = want ? realpath(want, NULL) : NULL;

	assert_int_equal(gitlite_open_flags(&g, GITLITE_NO_GIT, &err), 0);
	if (real)
		assert_string_equal(g.work_tree, real);
	else
		assert_null(g.work_tree);
	gitlite_release(&g);
	free(want);
	free(real);
}

static void work_tree_as_git_finds_it(void **state)
{
	char *gd;

	(void)state;
	cd("r/sub/dir");
	expect_work_tree("r");
	cd("");
	sh("git clone -q --bare r b.git && git -C r worktree add -q ../wt");
	cd("b.git");
	expect_work_tree(NULL);
	cd("wt");
	expect_work_tree("wt");
	/* GIT_DIR: the current folder, or GIT_WORK_TREE */
	gd = xasprintf("%s/r/.git", tmp);
	setenv("GIT_DIR", gd, 1);
	cd("r/sub");
	expect_work_tree("r/sub");
	setenv("GIT_WORK_TREE", "..", 1);
	expect_work_tree("r");
	unsetenv("GIT_WORK_TREE");
	unsetenv("GIT_DIR");
	free(gd);
	/* core.bare wins over the .git folder */
	sh("git -C '%s/r' config core.bare true", tmp);
	cd("r");
	expect_work_tree(NULL);
	sh("git -C '%s/r' config core.bare false", tmp);
}

static void config_reads_and_writes(void **state)
{
	struct gitlite g = GITLITE_INIT;
	struct error err = ERROR_INIT;
	struct strvec all = STRVEC_INIT;
	git_repository *repo = NULL;
	struct gitcfg *c = NULL;
	const char *v;

	(void)state;
	cd("r");
	sh("git config campaign.name first && "
	   "git config --add campaign.flaky A && "
	   "git config --add campaign.flaky B");
	setenv("GIT_CONFIG_PARAMETERS", "'campaign.base'='dev'", 1);
	assert_int_equal(gitlite_open_flags(&g, GITLITE_NO_GIT, &err), 0);
	assert_int_equal(gitcfg_open(&c, &g, NULL, &err), 0);
	assert_int_equal(gitcfg_get(&v, c, "Campaign.Name"), 0);
	assert_string_equal(v, "first");
	assert_int_equal(gitcfg_get(&v, c, "campaign.base"), 0);
	assert_string_equal(v, "dev");
	assert_int_equal(gitcfg_get_all(&all, c, "campaign.flaky", &err), 0);
	assert_int_equal(all.nr, 2);
	strvec_clear(&all);
	/* writes reach the file and the next read */
	assert_int_equal(gitcfg_set(c, "campaign.name", "second", &err), 0);
	assert_int_equal(gitcfg_ensure(c, "campaign.flaky", "C", &err), 0);
	assert_int_equal(gitcfg_ensure(c, "campaign.flaky", "A", &err), 0);
	assert_int_equal(gitcfg_get(&v, c, "campaign.name"), 0);
	assert_string_equal(v, "second");
	assert_int_equal(gitcfg_get_all(&all, c, "campaign.flaky", &err), 0);
	assert_int_equal(all.nr, 3);
	strvec_clear(&all);
	sh("test \"$(git config campaign.name)\" = second");
	assert_int_equal(gitcfg_unset(c, "campaign.name", &err), 0);
	assert_int_equal(gitcfg_get(&v, c, "campaign.name"), GCAMP_ENOTFOUND);
	assert_int_equal(gitcfg_unset(c, "campaign.name", &err),
			 GCAMP_ENOTFOUND);
	gitcfg_free(c);
	gitlite_release(&g);
	unsetenv("GIT_CONFIG_PARAMETERS");

	/* an include: gitlite marks it, libgit2 follows it */
	sh("printf '[campaign]\\n\\tbase = included\\n' > ../inc && "
	   "git config include.path ../../inc");
	assert_int_equal(gitlite_open_flags(&g, GITLITE_NO_GIT, &err), 0);
	assert_int_equal(g.includes, 1);
	assert_null(gitlite_get(&g, "campaign.base"));
	assert_int_equal(repo_open(&repo, &err), 0);
	assert_int_equal(gitcfg_open(&c, &g, repo, &err), 0);
	assert_int_equal(gitcfg_get(&v, c, "campaign.base"), 0);
	assert_string_equal(v, "included");
	assert_int_equal(gitcfg_set(c, "campaign.name", "third", &err), 0);
	assert_int_equal(gitcfg_get(&v, c, "campaign.base"), 0);
	assert_string_equal(v, "included");
	assert_int_equal(gitcfg_get(&v, c, "campaign.name"), 0);
	assert_string_equal(v, "third");
	gitcfg_free(c);
	git_repository_free(repo);
	gitlite_release(&g);
	sh("git config --unset include.path");
	repo_lib_shutdown();
}

/* A config with an include is read by `git config`, which finds the
 * repository as we did: from a subfolder, and without our process being
 * given GIT_DIR (which would make the folder we run in the top of the work
 * tree for every program we run later). */
static void config_through_git_leaves_git_dir_unset(void **state)
{
	struct gitlite g = GITLITE_INIT;
	struct error err = ERROR_INIT;
	const char *v;

	(void)state;
	cd("r");
	sh("printf '[campaign]\\n\\tbase = included\\n' > ../inc && "
	   "git config include.path ../../inc");
	cd("r/sub/dir");
	assert_null(getenv("GIT_DIR"));
	assert_int_equal(gitlite_open(&g, &err), 0);
	assert_int_equal(g.includes, 1);
	v = gitlite_get(&g, "campaign.base");
	assert_non_null(v);
	assert_string_equal(v, "included");
	assert_null(getenv("GIT_DIR"));
	gitlite_release(&g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(ref_names_as_git),
		cmocka_unit_test_setup_teardown(refs_loose_over_packed, setup,
						teardown),
		cmocka_unit_test_setup_teardown(work_tree_as_git_finds_it,
						setup, teardown),
		cmocka_unit_test_setup_teardown(config_reads_and_writes, setup,
						teardown),
		cmocka_unit_test_setup_teardown(
			config_through_git_leaves_git_dir_unset, setup,
			teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
