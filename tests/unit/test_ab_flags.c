/* Unit tests for src/core/ab/flags.c: required and forbidden flags read
 * as the JVM reads -D system properties. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "core/ab/flags.h"

static void a_later_property_overrides_an_earlier_one(void **state)
{
	const char *f = "-Dtornado.recover.bailout=False";
	char *last = NULL;

	(void)state;
	assert_int_equal(ab_flag_state(&last,
				       "java "
				       "-Dtornado.recover.bailout=False",
				       f),
			 1);
	assert_null(last);
	assert_int_equal(ab_flag_state(&last,
				       "java -Dtornado.recover.bailout=False "
				       "-Dtornado.recover.bailout=True",
				       f),
			 -1);
	assert_string_equal(last, "-Dtornado.recover.bailout=True");
	free(last);
	assert_int_equal(ab_flag_state(NULL,
				       "java -Dtornado.recover.bailout=True "
				       "-Dtornado.recover.bailout=False",
				       f),
			 1);
}

static void boolean_values_match_in_any_case(void **state)
{
	(void)state;
	assert_int_equal(ab_flag_state(NULL, "java -Dtornado.profiler=true",
				       "-Dtornado.profiler=True"),
			 1);
	assert_int_equal(ab_flag_state(NULL, "java -Dtornado.profiler=TRUE",
				       "-Dtornado.profiler=True"),
			 1);
	assert_int_equal(ab_flag_state(NULL, "java -Dtornado.profiler=false",
				       "-Dtornado.profiler=True"),
			 -1);
	/* other values stay case-sensitive */
	assert_int_equal(ab_flag_state(NULL, "java -Dmode=Fast", "-Dmode=fast"),
			 -1);
}

static void a_property_is_matched_by_its_whole_name_and_value(void **state)
{
	const char *f = "-Dtornado.recover.bailout=False";

	(void)state;
	assert_int_equal(
		ab_flag_state(NULL, "java -Dtornado.recover.bailout=FalseX", f),
		-1);
	assert_int_equal(
		ab_flag_state(NULL, "java -Dtornado.recover.bailoutX=False", f),
		0);
	assert_int_equal(ab_flag_state(NULL, "java", f), 0);
	/* quoted, as in sh -c '...' */
	assert_int_equal(ab_flag_state(NULL,
				       "sh -c 'java "
				       "-Dtornado.recover.bailout=false'",
				       f),
			 1);
	/* -Dname alone sets the empty value */
	assert_int_equal(ab_flag_state(NULL, "java -Dx", "-Dx="), 1);
}

static void other_flags_are_whole_words(void **state)
{
	(void)state;
	assert_int_equal(ab_flag_state(NULL, "java -ea -jar x", "-ea"), 1);
	assert_int_equal(ab_flag_state(NULL, "java -eax -jar x", "-ea"), 0);
	assert_int_equal(
		ab_flag_state(NULL, "java -XX:+UseG1GC", "-XX:+UseG1GC"), 1);
}

static void the_check_refuses_with_the_word_that_wins(void **state)
{
	struct strvec req = STRVEC_INIT, forbid = STRVEC_INIT;
	struct error err = ERROR_INIT;

	(void)state;
	strvec_push(&req, "-Dtornado.recover.bailout=False");
	strvec_push(&forbid, "-Dtornado.profiler=True");
	assert_int_equal(ab_flags_check(&err,
					"java -Dtornado.recover.bailout=False",
					&req, &forbid, 0),
			 0);
	assert_int_equal(ab_flags_check(&err,
					"java -Dtornado.recover.bailout=False "
					"-Dtornado.recover.bailout=True",
					&req, &forbid, 0),
			 GCAMP_EREFUSED);
	assert_non_null(strstr(err.msg,
			       "its last "
			       "'-Dtornado.recover.bailout=True' wins"));
	error_clear(&err);
	assert_int_equal(ab_flags_check(&err,
					"java -Dtornado.recover.bailout=False "
					"-Dtornado.profiler=true",
					&req, &forbid, 0),
			 GCAMP_EREFUSED);
	assert_non_null(strstr(err.msg, "forbidden flag"));
	error_clear(&err);
	/* labelled as a profiled run, it may */
	assert_int_equal(ab_flags_check(&err,
					"java -Dtornado.recover.bailout=False "
					"-Dtornado.profiler=true",
					&req, &forbid, 1),
			 0);
	/* the profiler turned off again by a later -D is not on */
	assert_int_equal(ab_flags_check(&err,
					"java -Dtornado.recover.bailout=False "
					"-Dtornado.profiler=True "
					"-Dtornado.profiler=false",
					&req, &forbid, 0),
			 0);
	error_clear(&err);
	strvec_clear(&req);
	strvec_clear(&forbid);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_later_property_overrides_an_earlier_one),
		cmocka_unit_test(boolean_values_match_in_any_case),
		cmocka_unit_test(
			a_property_is_matched_by_its_whole_name_and_value),
		cmocka_unit_test(other_flags_are_whole_words),
		cmocka_unit_test(the_check_refuses_with_the_word_that_wins),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
