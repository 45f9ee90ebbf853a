/* Unit tests for src/io/gitcfg.c: git's -c overrides, which libgit2 does
 * not read. The strings below are what git 2.39 puts in
 * GIT_CONFIG_PARAMETERS for the -c arguments shown. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "io/gitcfg.h"
#include "io/gitcfg_parse.h"

static void parameters_new_form(void **state)
{
	struct strvec sv = STRVEC_INIT;

	(void)state;
	/* git -c campaign.base=dev -c 'Campaign.Some.Key=x y' -c bool.key
	 *     -c a.b="it's" */
	assert_int_equal(gitcfg_parse_parameters(
				 &sv, "'campaign.base'='dev' "
				      "'Campaign.Some.Key'='x y' 'bool.key'= "
				      "'a.b'='it'\\''s'"),
			 0);
	assert_int_equal(sv.nr, 8);
	assert_string_equal(sv.v[0], "campaign.base");
	assert_string_equal(sv.v[1], "dev");
	assert_string_equal(sv.v[2], "Campaign.Some.Key");
	assert_string_equal(sv.v[3], "x y");
	assert_string_equal(sv.v[4], "bool.key");
	assert_string_equal(sv.v[5], "true");
	assert_string_equal(sv.v[7], "it's");
	strvec_clear(&sv);
}

static void parameters_old_form_and_bang(void **state)
{
	struct strvec sv = STRVEC_INIT;

	(void)state;
	assert_int_equal(
		gitcfg_parse_parameters(&sv, "'alias.x=!echo hi' 'core.bare' "
					     "'a.b'='x'\\!'y'"),
		0);
	assert_int_equal(sv.nr, 6);
	assert_string_equal(sv.v[0], "alias.x");
	assert_string_equal(sv.v[1], "!echo hi");
	assert_string_equal(sv.v[3], "true");
	assert_string_equal(sv.v[5], "x!y");
	strvec_clear(&sv);
}

static void parameters_malformed(void **state)
{
	struct strvec sv = STRVEC_INIT;

	(void)state;
	assert_int_equal(gitcfg_parse_parameters(&sv, "'unterminated"), -1);
	strvec_clear(&sv);
	assert_int_equal(gitcfg_parse_parameters(&sv, "bare.word=x"), -1);
	strvec_clear(&sv);
	assert_int_equal(gitcfg_parse_parameters(&sv, ""), 0);
	assert_int_equal(sv.nr, 0);
}

static void key_normalisation(void **state)
{
	char a[] = "Campaign.Hooks.DenyPattern", b[] = "CAMPAIGN.BASE";
	char c[] = "nodot", d[] = "trailing.";

	(void)state;
	assert_int_equal(gitcfg_normalize_key(a), 0);
	assert_string_equal(a, "campaign.Hooks.denypattern");
	assert_int_equal(gitcfg_normalize_key(b), 0);
	assert_string_equal(b, "campaign.base");
	assert_int_equal(gitcfg_normalize_key(c), -1);
	assert_int_equal(gitcfg_normalize_key(d), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parameters_new_form),
		cmocka_unit_test(parameters_old_form_and_bang),
		cmocka_unit_test(parameters_malformed),
		cmocka_unit_test(key_normalisation),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
