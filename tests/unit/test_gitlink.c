/* Unit tests for src/libgit2-stubs.c: libgit2 linked statically starts without
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
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

/* libgit2 1.5 leaks a few bytes of its HTTP and SSH transports when their
 * stream cannot be made, a path the tool never takes; the clone runs in a
 * child that leaves with _exit, so the leak checker looks at our code only,
 * and the child sends libgit2's message back through a pipe. */
static void clone_fails_with(const char *url, const char *want)
{
	char dir[] = "/tmp/gcamp-gitlink-XXXXXX", msg[512] = "", cmd[64];
	int fds[2], status;
	ssize_t n;
	pid_t pid;

	assert_non_null(mkdtemp(dir));
	assert_int_equal(pipe(fds), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		git_repository *repo = NULL;
		const git_error *e;
		int rc = git_clone(&repo, url, dir, NULL);

		e = git_error_last();
		if (rc < 0 && !repo && e)
			(void)!write(fds[1], e->message, strlen(e->message));
		_exit(rc < 0 ? 0 : 1);
	}
	close(fds[1]);
	n = read(fds[0], msg, sizeof(msg) - 1);
	close(fds[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	assert_true(n > 0);
	msg[n] = '\0';
	if (!strstr(msg, want))
		fail_msg("%s: '%s', want '%s'", url, msg, want);
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
