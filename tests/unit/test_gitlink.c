/* Unit tests for src/gitlink.c: libgit2 linked statically starts without
 * setting up TLS or SSH, and says so clearly should anything ask it for
 * them (the tool fetches and pushes through the git program). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <git2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void clone_fails_with(const char *url, const char *want)
{
	char dir[] = "/tmp/gcamp-gitlink-XXXXXX";
	git_repository *repo = NULL;
	const git_error *e;
	char cmd[64];

	assert_non_null(mkdtemp(dir));
	assert_true(git_clone(&repo, url, dir, NULL) < 0);
	assert_null(repo);
	e = git_error_last();
	assert_non_null(e);
	if (!strstr(e->message, want))
		fail_msg("%s: '%s', want '%s'", url, e->message, want);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

static void no_tls_and_no_ssh_in_libgit2(void **state)
{
	(void)state;
	assert_true(git_libgit2_init() > 0);
	clone_fails_with("https://127.0.0.1:1/x.git",
			 "git-campaign has no TLS in libgit2: use git");
	clone_fails_with("ssh://127.0.0.1:1/x.git",
			 "git-campaign has no SSH in libgit2: use git");
	git_libgit2_shutdown();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(no_tls_and_no_ssh_in_libgit2),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
