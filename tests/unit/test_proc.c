/* Unit tests for src/io/proc.c: output capture, exit status, signals,
 * timeouts, the output cap and the spawn options. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(capture_and_status),
		cmocka_unit_test(signals_and_timeout),
		cmocka_unit_test(cap_keeps_the_tail),
		cmocka_unit_test(options),
		cmocka_unit_test(cannot_run),
		cmocka_unit_test(last_line),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
