/* Unit tests for src/util: buffers, string vectors, suggestions, errors. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "util/buf.h"
#include "util/error.h"
#include "util/strvec.h"
#include "util/suggest.h"

static void buf_grows_and_stays_terminated(void **state)
{
	struct buf b = BUF_INIT;
	int i;

	(void)state;
	assert_string_equal(b.ptr, "");
	for (i = 0; i < 1000; i++)
		buf_addf(&b, "%d,", i % 10);
	assert_int_equal(b.len, 2000);
	assert_int_equal(b.ptr[b.len], '\0');
	assert_memory_equal(b.ptr, "0,1,2,", 6);
	buf_reset(&b);
	assert_string_equal(b.ptr, "");
	buf_puts(&b, "x  \n");
	buf_rtrim(&b);
	assert_string_equal(b.ptr, "x");
	buf_release(&b);
	assert_int_equal(b.len, 0);
	buf_release(NULL);
}

static void buf_detach_hands_over(void **state)
{
	struct buf b = BUF_INIT;
	char *s;

	(void)state;
	s = buf_detach(&b); /* never allocated: still a fresh "" */
	assert_string_equal(s, "");
	free(s);
	buf_puts(&b, "hello");
	s = buf_detach(&b);
	assert_string_equal(s, "hello");
	assert_string_equal(b.ptr, "");
	free(s);
}

static void strvec_pushf_appends_the_formatted_string(void **state)
{
	struct strvec sv = STRVEC_INIT;
	char long_name[2001];

	(void)state;
	memset(long_name, 'x', 2000);
	long_name[2000] = '\0';
	assert_string_equal(strvec_pushf(&sv, "#%ld %s", 12L, "a"), "#12 a");
	strvec_pushf(&sv, "moved %s", long_name);
	strvec_pushf(&sv, "%s", "");
	assert_int_equal(sv.nr, 3);
	assert_string_equal(sv.v[0], "#12 a");
	assert_int_equal(strlen(sv.v[1]), 2006);
	assert_string_equal(sv.v[2], "");
	assert_null(sv.v[3]);
	strvec_clear(&sv);
}

static void strvec_push_sort_clear(void **state)
{
	struct strvec sv = STRVEC_INIT;

	(void)state;
	strvec_push(&sv, "b");
	strvec_push(&sv, "c");
	strvec_push(&sv, "a");
	strvec_sort(&sv);
	assert_int_equal(sv.nr, 3);
	assert_string_equal(sv.v[0], "a");
	assert_string_equal(sv.v[2], "c");
	assert_null(sv.v[3]);
	strvec_clear(&sv);
	assert_null(sv.v);
	strvec_clear(NULL);
}

static void distance_matches_known_values(void **state)
{
	(void)state;
	assert_int_equal(suggest_distance("", ""), 0);
	assert_int_equal(suggest_distance("status", "status"), 0);
	/* one transposition counts once (optimal string alignment) */
	assert_int_equal(suggest_distance("stauts", "status"), 1);
	assert_int_equal(suggest_distance("kitten", "sitting"), 3);
	assert_int_equal(suggest_distance("", "abc"), 3);
	assert_int_equal(suggest_distance("init", "config"), 4);
}

static void closest_orders_by_distance(void **state)
{
	const char *names[] = {"config", "init", "status", "stash"};
	const char *out[4];
	size_t n;

	(void)state;
	n = suggest_closest(out, 4, "stats", names, 4);
	assert_int_equal(n, 2);
	assert_string_equal(out[0], "status"); /* 1 edit */
	assert_string_equal(out[1], "stash");  /* 2 edits */
	n = suggest_closest(out, 4, "zzzzzz", names, 4);
	assert_int_equal(n, 0);
	/* a prefix is always offered */
	n = suggest_closest(out, 4, "conf", names, 4);
	assert_true(n >= 1);
	assert_string_equal(out[0], "config");
}

static void error_first_message_wins(void **state)
{
	struct error err = ERROR_INIT;
	int rc;

	(void)state;
	rc = error_set(&err, GCAMP_ENOTFOUND, "no stash named '%s'", "x");
	assert_int_equal(rc, GCAMP_ENOTFOUND);
	rc = error_set(&err, GCAMP_EFATAL, "generic failure");
	assert_int_equal(rc, GCAMP_EFATAL);
	error_hint(&err, "a hint for the generic failure");
	assert_int_equal(err.code, GCAMP_ENOTFOUND);
	assert_string_equal(err.msg, "no stash named 'x'");
	assert_string_equal(err.hint, "");
	error_clear(&err);
	assert_int_equal(err.code, 0);
	assert_string_equal(err.msg, "");
}

static void error_exit_codes_follow_git(void **state)
{
	(void)state;
	assert_int_equal(error_exit_code(GCAMP_OK), 0);
	assert_int_equal(error_exit_code(GCAMP_EREFUSED), 1);
	assert_int_equal(error_exit_code(GCAMP_EUSAGE), 129);
	assert_int_equal(error_exit_code(GCAMP_EFATAL), 128);
	assert_int_equal(error_exit_code(GCAMP_EDB), 128);
	assert_int_equal(error_exit_code(GCAMP_ENOREPO), 128);
	assert_int_equal(error_exit_code(GCAMP_ENOTINIT), 128);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(buf_grows_and_stays_terminated),
		cmocka_unit_test(buf_detach_hands_over),
		cmocka_unit_test(strvec_push_sort_clear),
		cmocka_unit_test(strvec_pushf_appends_the_formatted_string),
		cmocka_unit_test(distance_matches_known_values),
		cmocka_unit_test(closest_orders_by_distance),
		cmocka_unit_test(error_first_message_wins),
		cmocka_unit_test(error_exit_codes_follow_git),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
