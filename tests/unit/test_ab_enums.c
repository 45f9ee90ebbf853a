/* Unit tests for src/core/ab/enums.c: the names of the A/B enums. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "core/ab/enums.h"

static void every_name_reads_back_as_its_member(void **state)
{
	int i;

	(void)state;
	for (i = 0; ab_mode_names[i]; i++)
		assert_int_equal(
			ab_mode_from_name(ab_mode_name(i), AB_MODE_WORKTREE),
			i);
	assert_int_equal(i, AB_MODE_ARTIFACT + 1);
	for (i = 0; ab_order_names[i]; i++)
		assert_int_equal(
			ab_order_from_name(ab_order_name(i), AB_ORDER_ABBA), i);
	assert_int_equal(i, AB_ORDER_BLOCKED + 1);
	for (i = AB_VERDICT_NONE; i <= AB_VERDICT_CANNOT_VOUCH; i++)
		assert_int_equal(ab_verdict_from_name(ab_verdict_name(i),
						      AB_VERDICT_NONE),
				 i);
	for (i = AB_VOUCH_NONE; i <= AB_VOUCH_MOVED; i++)
		assert_int_equal(
			ab_vouch_from_name(ab_vouch_name(i), AB_VOUCH_NONE), i);
}

static void the_names_are_those_of_the_json_and_the_options(void **state)
{
	(void)state;
	assert_string_equal(ab_mode_name(AB_MODE_STASH), "stash");
	assert_string_equal(ab_order_name(AB_ORDER_RANDOM), "random");
	assert_string_equal(ab_order_words(AB_ORDER_ABBA), "A B B A");
	assert_string_equal(ab_verdict_name(AB_VERDICT_SAME), "~");
	assert_string_equal(ab_verdict_name(AB_VERDICT_NONE), "");
	assert_string_equal(ab_verdict_name(AB_VERDICT_CANNOT_VOUCH),
			    "cannot vouch");
	assert_string_equal(ab_vouch_name(AB_VOUCH_UNVOUCHED), "unvouched");
}

static void an_unknown_name_reads_as_the_default(void **state)
{
	(void)state;
	assert_int_equal(ab_mode_from_name("bogus", AB_MODE_WORKTREE),
			 AB_MODE_WORKTREE);
	assert_int_equal(ab_order_from_name(NULL, AB_ORDER_ABBA),
			 AB_ORDER_ABBA);
	assert_int_equal(ab_verdict_from_name("bogus", AB_VERDICT_NONE),
			 AB_VERDICT_NONE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_name_reads_back_as_its_member),
		cmocka_unit_test(
			the_names_are_those_of_the_json_and_the_options),
		cmocka_unit_test(an_unknown_name_reads_as_the_default),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
