/* Unit tests for src/io/signature.c: dates as git's GIT_*_DATE takes them.
 * Expected epochs from `date -u -d ... +%s` (GNU coreutils). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "io/signature.h"

static void expect(const char *s, long long t, int off)
{
	git_time_t got;
	int got_off;

	if (signature_parse_date(&got, &got_off, s) < 0)
		fail_msg("could not parse '%s'", s);
	assert_int_equal((long long)got, t);
	assert_int_equal(got_off, off);
}

static void refuse(const char *s)
{
	git_time_t t;
	int off;

	if (!signature_parse_date(&t, &off, s))
		fail_msg("'%s' should not parse", s);
}

static void test_iso(void **state)
{
	(void)state;
	/* date -u -d 2026-11-29T12:00:00Z +%s */
	expect("2026-11-29T12:00:00Z", 1795953600LL, 0);
	expect("2026-11-29 12:00:00", 1795953600LL, 0);
	/* 12:00 at +01:00 is 11:00 UTC */
	expect("2026-11-29T12:00:00+01:00", 1795950000LL, 60);
	expect("2026-11-29T12:00:00 -0530", 1795973400LL, -330);
	/* date -u -d 2000-02-29T00:00:00Z +%s: a leap day */
	expect("2000-02-29T00:00:00Z", 951782400LL, 0);
	expect("1970-01-01T00:00:00Z", 0, 0);
}

static void test_epoch(void **state)
{
	(void)state;
	expect("@1795953600", 1795953600LL, 0);
	expect("@1795953600 +0200", 1795953600LL, 120);
	expect("1795953600 -0100", 1795953600LL, -60);
}

static void test_refused(void **state)
{
	(void)state;
	refuse("");
	refuse("yesterday");
	refuse("2026-13-01T00:00:00Z");
	refuse("2026-11-29T25:00:00Z");
	refuse("2026-11-29T12:00:00+2");
	refuse("2026-11-29T12:00:00 junk");
	refuse("1795953600");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_iso),
		cmocka_unit_test(test_epoch),
		cmocka_unit_test(test_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
