/* Unit tests for src/io/proc.c: output capture, exit status, signals,
 * timeouts, the output cap, the spawn options, stdin data and the child's
 * own environment. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <time.h>
#include <sys/wait.h>

#include "io/proc.h"

static void run_sh(struct proc_result *res, const char *script,
		   const struct proc_opts *o)
{
	const char *argv[] = {"sh", "-c", script, NULL};
	struct error err = ERROR_INIT;

	assert_int_equal(proc_run(res, argv, o, &err), 0);
	assert_int_equal(err.code, 0);
}

static void capture_and_status(void **state)
{
	struct proc_result res = PROC_RESULT_INIT;

	(void)state;
	run_sh(&res, "echo out; echo err >&2; echo more; exit 3", NULL);
	assert_int_equal(res.status, 3);
	assert_int_equal(res.signaled, 0);
	assert_string_equal(res.out.ptr, "out\nmore\n");
	assert_string_equal(res.err.ptr, "err\n");
	assert_true(res.wall_s >= 0);
	run_sh(&res, "true", NULL);
	assert_int_equal(res.status, 0);
	assert_string_equal(res.out.ptr, "");
	proc_result_release(&res);
}

static void signals_and_timeout(void **state)
{
	struct proc_result res = PROC_RESULT_INIT;
	struct proc_opts o = {0};

	(void)state;
	run_sh(&res, "kill -TERM $$", NULL);
	assert_int_equal(res.signaled, 1);
	assert_int_equal(res.status, 128 + 15);
	o.timeout_ms = 100;
	run_sh(&res, "echo started; exec sleep 20", &o);
	assert_int_equal(res.timed_out, 1);
	assert_int_equal(res.signaled, 1);
	assert_int_equal(res.status, 128 + 9);
	assert_string_equal(res.out.ptr, "started\n");
	assert_true(res.wall_s < 10);
	proc_result_release(&res);
}

static void cap_keeps_the_tail(void **state)
{
	struct proc_result res = PROC_RESULT_INIT;
	struct proc_opts o = {0};

	(void)state;
	o.cap = 10;
	/* 200000 bytes, more than one read and than twice the cap */
	run_sh(&res,
	       "i=0; while [ $i -lt 20000 ]; do printf 123456789x; "
	       "i=$((i+1)); done; printf END >&2",
	       &o);
	assert_int_equal(res.status, 0);
	assert_int_equal(res.out.len, 10);
	assert_string_equal(res.out.ptr, "123456789x");
	assert_int_equal(res.out_truncated, 1);
	assert_string_equal(res.err.ptr, "END");
	assert_int_equal(res.err_truncated, 0);
	proc_result_release(&res);
}

static void options(void **state)
{
	struct proc_result res = PROC_RESULT_INIT;
	const char *env[] = {"CAMPAIGN_PROC_TEST=yes", NULL};
	struct proc_opts o = {0};

	(void)state;
	o.dir = "/";
	o.stdin_null = 1;
	o.env = env;
	run_sh(&res, "pwd; echo $CAMPAIGN_PROC_TEST; cat", &o);
	assert_int_equal(res.status, 0);
	assert_string_equal(res.out.ptr, "/\nyes\n");
	proc_result_release(&res);
}

static void stdin_data_and_child_env_leave_our_environment_alone(void **state)
{
	struct proc_result res = PROC_RESULT_INIT;
	const char *env[] = {"GCAMP_PROC_CHILD_ONLY=yes", "GCAMP_PROC_OURS",
			     "GCAMP_PROC_OVERRIDE=child", NULL};
	struct proc_opts o = {0};

	(void)state;
	setenv("GCAMP_PROC_OURS", "ours", 1);
	setenv("GCAMP_PROC_OVERRIDE", "parent", 1);
	unsetenv("GCAMP_PROC_CHILD_ONLY");
	o.in = "line one\nline two\n";
	o.in_len = strlen(o.in);
	o.env = env;
	run_sh(&res,
	       "cat; echo \"$GCAMP_PROC_CHILD_ONLY\"; "
	       "echo \"${GCAMP_PROC_OURS-removed}\"; "
	       "echo \"$GCAMP_PROC_OVERRIDE\"",
	       &o);
	assert_int_equal(res.status, 0);
	assert_string_equal(res.out.ptr,
			    "line one\nline two\nyes\nremoved\nchild\n");
	/* the changes were the child's alone */
	assert_null(getenv("GCAMP_PROC_CHILD_ONLY"));
	assert_string_equal(getenv("GCAMP_PROC_OURS"), "ours");
	assert_string_equal(getenv("GCAMP_PROC_OVERRIDE"), "parent");
	/* empty data: the child reads end of file at once */
	o.in = "";
	o.in_len = 0;
	o.env = NULL;
	run_sh(&res, "wc -c", &o);
	assert_int_equal(atoi(res.out.ptr), 0);
	unsetenv("GCAMP_PROC_OURS");
	unsetenv("GCAMP_PROC_OVERRIDE");
	proc_result_release(&res);
}

static void a_user_command_gets_no_token_variables(void **state)
{
	struct proc_result res = PROC_RESULT_INIT;
	const char *env[] = {"GITHUB_TOKEN=from-changes", "GCAMP_PROC_KEPT=k",
			     NULL};
	const char *script = "echo \"${GH_TOKEN-none} ${GITHUB_TOKEN-none} "
			     "${GH_ENTERPRISE_TOKEN-none} "
			     "${GITHUB_ENTERPRISE_TOKEN-none} "
			     "${GCAMP_PROC_KEPT-none}\"";
	struct proc_opts o = {0};
	size_t i;

	(void)state;
	for (i = 0; proc_token_vars[i]; i++)
		setenv(proc_token_vars[i], "secret", 1);
	/* git and gh keep them */
	run_sh(&res, script, &o);
	assert_string_equal(res.out.ptr, "secret secret secret secret none\n");
	o.no_tokens = 1;
	run_sh(&res, script, &o);
	assert_string_equal(res.out.ptr, "none none none none none\n");
	o.env = env;
	run_sh(&res, script, &o);
	assert_string_equal(res.out.ptr, "none none none none k\n");
	for (i = 0; proc_token_vars[i]; i++) {
		assert_string_equal(getenv(proc_token_vars[i]), "secret");
		unsetenv(proc_token_vars[i]);
	}
	proc_result_release(&res);
}

static int pipe_signals;

static void count_pipe(int sig)
{
	(void)sig;
	pipe_signals++;
}

static void sigpipe_state(struct sigaction *act, int *blocked, int *pending)
{
	sigset_t set;

	assert_int_equal(sigaction(SIGPIPE, NULL, act), 0);
	assert_int_equal(sigprocmask(SIG_BLOCK, NULL, &set), 0);
	*blocked = sigismember(&set, SIGPIPE);
	assert_int_equal(sigpending(&set), 0);
	*pending = sigismember(&set, SIGPIPE);
}

/* More than a pipe holds, to a child that exits without reading: the write
 * meets a closed pipe, and neither kills us nor leaves a trace. */
static void unread_stdin_leaves_sigpipe_as_it_was(void **state)
{
	static char big[1 << 20];
	struct proc_result res = PROC_RESULT_INIT;
	struct proc_opts o = {0};
	struct sigaction act, now, old;
	int blocked, pending;

	(void)state;
	memset(big, 'x', sizeof(big));
	o.in = big;
	o.in_len = sizeof(big);
	/* the default disposition: an unprotected write would end the test */
	signal(SIGPIPE, SIG_DFL);
	run_sh(&res, "exit 7", &o);
	assert_int_equal(res.status, 7);
	sigpipe_state(&now, &blocked, &pending);
	assert_true(now.sa_handler == SIG_DFL);
	assert_false(blocked);
	assert_false(pending);

	/* ignored, it stays ignored */
	signal(SIGPIPE, SIG_IGN);
	run_sh(&res, "exit 0", &o);
	assert_int_equal(res.status, 0);
	sigpipe_state(&now, &blocked, &pending);
	assert_true(now.sa_handler == SIG_IGN);
	assert_false(blocked);
	signal(SIGPIPE, SIG_DFL);

	/* a handler of the caller's stays, and is not called */
	memset(&act, 0, sizeof(act));
	act.sa_handler = count_pipe;
	sigemptyset(&act.sa_mask);
	assert_int_equal(sigaction(SIGPIPE, &act, &old), 0);
	pipe_signals = 0;
	run_sh(&res, "exec 0<&-; sleep 0.1", &o);
	assert_int_equal(res.status, 0);
	sigpipe_state(&now, &blocked, &pending);
	assert_true(now.sa_handler == count_pipe);
	assert_false(blocked);
	assert_false(pending);
	assert_int_equal(pipe_signals, 0);
	assert_int_equal(sigaction(SIGPIPE, &old, NULL), 0);
	proc_result_release(&res);
}

static void cannot_run(void **state)
{
	struct proc_result res = PROC_RESULT_INIT;
	const char *argv[] = {"gcamp-no-such-program", NULL};
	struct error err = ERROR_INIT;

	(void)state;
	assert_int_equal(proc_run(&res, argv, NULL, &err), GCAMP_EFATAL);
	assert_string_equal(err.msg, "cannot run 'gcamp-no-such-program': "
				     "No such file or directory");
	proc_result_release(&res);
}

static void last_line(void **state)
{
	struct buf out = BUF_INIT;

	(void)state;
	proc_last_line(&out, "first\nsecond\n\n");
	assert_string_equal(out.ptr, "second");
	proc_last_line(&out, "x\nCounting 10%\rCounting 100%, done.\n");
	assert_string_equal(out.ptr, "Counting 100%, done.");
	proc_last_line(&out, "");
	assert_string_equal(out.ptr, "");
	proc_last_line(&out, "only");
	assert_string_equal(out.ptr, "only");
	buf_release(&out);
}

/* a killed process its parent has not reaped yet (a zombie, as where
 * nothing reaps orphans) is gone; a running one and a stopped one are not */
static void a_zombie_is_not_alive(void **state)
{
	struct timespec nap = {0, 50 * 1000 * 1000};
	pid_t pid;
	int st;

	(void)state;
	assert_false(proc_alive(0));
	assert_false(proc_alive((long long)getpid()));
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		pause();
		_exit(0);
	}
	assert_true(proc_alive(pid));
	kill(pid, SIGKILL);
	nanosleep(&nap, NULL); /* dead, not reaped: a zombie */
	assert_false(proc_alive(pid));
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_false(proc_alive(pid));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(capture_and_status),
		cmocka_unit_test(signals_and_timeout),
		cmocka_unit_test(cap_keeps_the_tail),
		cmocka_unit_test(options),
		cmocka_unit_test(
			stdin_data_and_child_env_leave_our_environment_alone),
		cmocka_unit_test(a_user_command_gets_no_token_variables),
		cmocka_unit_test(unread_stdin_leaves_sigpipe_as_it_was),
		cmocka_unit_test(cannot_run),
		cmocka_unit_test(last_line),
		cmocka_unit_test(a_zombie_is_not_alive),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
