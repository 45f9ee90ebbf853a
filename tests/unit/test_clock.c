/* Unit tests for src/util/clock: ISO-8601 stamps, the monotonic clock and
 * days_from_civil against known dates. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/clock.h"

static void days_from_civil_matches_known_dates(void **state)
{
	(void)state;
	assert_int_equal(clock_days_from_civil(1970, 1, 1), 0);
	assert_int_equal(clock_days_from_civil(1970, 1, 2), 1);
	assert_int_equal(clock_days_from_civil(1969, 12, 31), -1);
	assert_int_equal(clock_days_from_civil(2000, 1, 1), 10957);
	assert_int_equal(clock_days_from_civil(2000, 2, 29), 11016);
	assert_int_equal(clock_days_from_civil(2000, 3, 1), 11017);
	assert_int_equal(clock_days_from_civil(2024, 2, 29), 19782);
	assert_int_equal(clock_days_from_civil(2024, 3, 1), 19783);
	/* 1900 is no leap year, 2000 is: both have a March 1 */
	assert_int_equal(clock_days_from_civil(1900, 3, 1) -
				 clock_days_from_civil(1900, 2, 28),
			 1);
	assert_int_equal(clock_days_from_civil(2038, 1, 19), 24855);
	assert_int_equal(clock_days_from_civil(1, 1, 1), -719162);
}

static void days_from_civil_agrees_with_gmtime(void **state)
{
	long long d;

	(void)state;
	/* every day from 1900 to 2100 */
	for (d = -25567; d <= 47482; d++) {
		time_t t = (time_t)(d * 86400);
		struct tm tm;

		assert_non_null(gmtime_r(&t, &tm));
		assert_int_equal(clock_days_from_civil(tm.tm_year + 1900LL,
						       tm.tm_mon + 1,
						       tm.tm_mday),
				 d);
	}
}

static void iso_writes_utc_seconds(void **state)
{
	char s[CLOCK_ISO_SIZE];

	(void)state;
	clock_iso(s, 0);
	assert_string_equal(s, "1970-01-01T00:00:00Z");
	clock_iso(s, 951782400); /* 2000-02-29 */
	assert_string_equal(s, "2000-02-29T00:00:00Z");
	clock_iso(s, 1709251199);
	assert_string_equal(s, "2024-02-29T23:59:59Z");
	clock_iso(s, 253402300799); /* the last second that fits */
	assert_string_equal(s, "9999-12-31T23:59:59Z");
	clock_iso(s, 253402300800);
	assert_string_equal(s, "");
}

static void now_iso_is_a_stamp_of_now(void **state)
{
	char s[CLOCK_ISO_SIZE], before[CLOCK_ISO_SIZE], after[CLOCK_ISO_SIZE];
	time_t t = time(NULL);

	(void)state;
	clock_iso(before, t);
	clock_now_iso(s);
	clock_iso(after, time(NULL));
	assert_int_equal(strlen(s), CLOCK_ISO_SIZE - 1);
	assert_int_equal(s[10], 'T');
	assert_int_equal(s[19], 'Z');
	assert_true(strcmp(before, s) <= 0);
	assert_true(strcmp(s, after) <= 0);
}

static void now_s_never_goes_back(void **state)
{
	double a, b;
	struct timespec ten_ms = {0, 10000000};

	(void)state;
	a = clock_now_s();
	nanosleep(&ten_ms, NULL);
	b = clock_now_s();
	assert_true(b - a >= 0.009);
	assert_true(b - a < 10);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(days_from_civil_matches_known_dates),
		cmocka_unit_test(days_from_civil_agrees_with_gmtime),
		cmocka_unit_test(iso_writes_utc_seconds),
		cmocka_unit_test(now_iso_is_a_stamp_of_now),
		cmocka_unit_test(now_s_never_goes_back),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
