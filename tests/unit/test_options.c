/* Unit tests for src/util/options.c: the option parser every command uses. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "util/options.h"
#include "util/strvec.h"

static const char *const usage[] = {"git campaign test [-v] [ARGS]", NULL};

struct seen {
	int verbose, force;
	const char *name;
	long n;
	struct strvec list;
};

static int parse(struct seen *s, int argc, const char **argv)
{
	const struct option opts[] = {
		OPT_BOOL('v', "verbose", &s->verbose, "talk"),
		OPT_BOOL('f', "force", &s->force, "force"),
		OPT_STRING('m', "name", &s->name, "NAME", "a name"),
		OPT_INT('n', "count", &s->n, "N", "a count"),
		OPT_LIST('c', "config", &s->list, "K=V", "repeatable"),
		OPT_END(),
	};

	return parse_options(argc, argv, opts, usage);
}

static void operands_and_options_mix(void **state)
{
	struct seen s = {0};
	const char *argv[] = {"test", "a",	  "--verbose",	"-m",
			      "x",    "b",	  "--count=12", "-c",
			      "k=v",  "--config", "q=r",	NULL};
	int n;

	(void)state;
	n = parse(&s, 11, argv);
	assert_int_equal(n, 2);
	assert_string_equal(argv[0], "a");
	assert_string_equal(argv[1], "b");
	assert_null(argv[2]);
	assert_int_equal(s.verbose, 1);
	assert_string_equal(s.name, "x");
	assert_int_equal(s.n, 12);
	assert_int_equal(s.list.nr, 2);
	assert_string_equal(s.list.v[1], "q=r");
	strvec_clear(&s.list);
}

static void bundled_and_attached_short_options(void **state)
{
	struct seen s = {0};
	const char *argv[] = {"test", "-vfmNAME", "-n7", NULL};

	(void)state;
	assert_int_equal(parse(&s, 3, argv), 0);
	assert_int_equal(s.verbose, 1);
	assert_int_equal(s.force, 1);
	assert_string_equal(s.name, "NAME");
	assert_int_equal(s.n, 7);
}

static void double_dash_ends_options(void **state)
{
	struct seen s = {0};
	const char *argv[] = {"test", "--", "-v", "--count", "-", NULL};

	(void)state;
	assert_int_equal(parse(&s, 5, argv), 3);
	assert_string_equal(argv[0], "-v");
	assert_string_equal(argv[2], "-");
	assert_int_equal(s.verbose, 0);
}

static void negation_of_booleans(void **state)
{
	struct seen s = {1, 1, NULL, 0, STRVEC_INIT};
	const char *argv[] = {"test", "--no-verbose", NULL};

	(void)state;
	assert_int_equal(parse(&s, 2, argv), 0);
	assert_int_equal(s.verbose, 0);
	assert_int_equal(s.force, 1);
}

static void errors_ask_to_exit_129(void **state)
{
	struct seen s = {0};
	const char *unknown[] = {"test", "--bogus", NULL};
	const char *missing[] = {"test", "--name", NULL};
	const char *notnum[] = {"test", "-n", "12x", NULL};
	const char *boolval[] = {"test", "--force=yes", NULL};

	(void)state;
	assert_int_equal(parse(&s, 2, unknown), PARSE_OPTIONS_EXIT);
	assert_int_equal(parse(&s, 2, missing), PARSE_OPTIONS_EXIT);
	assert_int_equal(parse(&s, 3, notnum), PARSE_OPTIONS_EXIT);
	assert_int_equal(parse(&s, 2, boolval), PARSE_OPTIONS_EXIT);
}

static void a_choice_is_parsed_into_its_index(void **state)
{
	static const char *const modes[] = {"worktree", "stash", "artifact",
					    NULL};
	int mode = 0;
	const struct option opts[] = {
		OPT_CHOICE(0, "mode", &mode, modes, "MODE", "the mode"),
		OPT_END(),
	};
	const char *good[] = {"test", "--mode", "artifact", NULL};
	const char *eq[] = {"test", "--mode=stash", NULL};
	const char *typo[] = {"test", "--mode", "stsh", NULL};

	(void)state;
	assert_int_equal(parse_options(3, good, opts, usage), 0);
	assert_int_equal(mode, 2);
	assert_int_equal(parse_options(2, eq, opts, usage), 0);
	assert_int_equal(mode, 1);
	assert_int_equal(parse_options(3, typo, opts, usage),
			 PARSE_OPTIONS_EXIT);
	assert_int_equal(mode, 1);
}

static void a_subcommand_is_found_by_its_name(void **state)
{
	static const char *const names[] = {"save", "list", "drop"};
	const char *list[] = {"stash", "list", "--json", NULL};
	const char *none[] = {"stash", NULL};
	const char *typo[] = {"stash", "sav", NULL};

	(void)state;
	assert_int_equal(parse_subcommand(3, list, names, 3, usage), 1);
	assert_int_equal(parse_subcommand(1, none, names, 3, usage),
			 PARSE_SUBCOMMAND_NONE);
	assert_int_equal(parse_subcommand(2, typo, names, 3, usage),
			 PARSE_OPTIONS_EXIT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(operands_and_options_mix),
		cmocka_unit_test(bundled_and_attached_short_options),
		cmocka_unit_test(double_dash_ends_options),
		cmocka_unit_test(negation_of_booleans),
		cmocka_unit_test(errors_ask_to_exit_129),
		cmocka_unit_test(a_choice_is_parsed_into_its_index),
		cmocka_unit_test(a_subcommand_is_found_by_its_name),
	};

	/* the usage text of the error cases is not what is tested here */
	if (!freopen("/dev/null", "w", stderr))
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
