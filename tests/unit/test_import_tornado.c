/* Unit tests for src/import/tornado_test.c: tornado-test -V output
 * (tests/fixtures/tornado-test, see its SOURCE.md) to per class counts
 * and whitelist flags; output without -V refused; malformed blocks. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "import_test.h"
#include "import/tornado_test.h"
#include "util/buf.h"

#define PKG "class=uk.ac.manchester.tornado.unittests."

static void expect_class(const struct import_set *set, const char *cls,
			 double passed, double failed, double unsupported,
			 double whitelisted)
{
	assert_true(rec(set, "tests.passed", cls, END)->value == passed);
	assert_true(rec(set, "tests.failed", cls, END)->value == failed);
	assert_true(rec(set, "tests.unsupported", cls, END)->value ==
		    unsupported);
	assert_true(rec(set, "tests.whitelisted", cls, END)->value ==
		    whitelisted);
}

static void verbose_run(void **state)
{
	struct import_set set = IMPORT_SET_INIT;
	struct error err = ERROR_INIT;
	const struct import_rec *r;
	size_t len;
	char *data = fixture("tornado-test/verbose.txt", &len);

	(void)state;
	assert_int_equal(parse_as("tornado-test", data, len, &set, &err), 0);
	assert_string_equal(set.format, "tornado-test");
	assert_int_equal(set.nr, 6 * 4);
	expect_class(&set, PKG "foundation.TestIntegers", 1, 1, 1, 0);
	expect_class(&set, PKG "foundation.TestIf", 2, 1, 0, 1);
	expect_class(&set, PKG "arrays.TestNewArrays", 1, 1, 0, 0);
	expect_class(&set, PKG "tasks.TestMultipleTasksMultipleDevices", 0, 0,
		     2, 0);
	/* [SPIRV OPTIMIZATION NOT SUPPORTED] is a failure to the runner */
	expect_class(&set, PKG "codegen.CodeGenTest", 0, 1, 1, 0);
	/* one method entry passed, one killed by the memory monitor */
	expect_class(&set, PKG "memory.leak.TestMemoryLeak", 1, 1, 0, 0);
	r = rec(&set, "tests.failed", PKG "foundation.TestIf", END);
	assert_int_equal(r->better, IMPORT_BETTER_LOWER);
	assert_string_equal(r->stat, "count");
	assert_int_equal(r->config.nr, 1);
	/* classes in the order they ran */
	assert_string_equal(set.recs[0].config.v[0],
			    PKG "foundation.TestIntegers");
	import_set_release(&set);
	free(data);
}

static void without_summary_no_whitelist_counts(void **state)
{
	struct import_set set = IMPORT_SET_INIT;
	struct error err = ERROR_INIT;

	(void)state;
	assert_int_equal(parse_str("tornado-test",
				   "Test: class a.B#m\n"
				   "\tRunning test: m  ....  [PASS] \n"
				   "Test ran: 1, Failed: 0, Unsupported: 0\n"
				   "Test: class a.B\r\n"
				   "Test ran: 0, Failed: 0, Unsupported: 0\n",
				   &set, &err),
			 0);
	assert_int_equal(set.nr, 3);
	assert_true(rec(&set, "tests.passed", "class=a.B", END)->value == 1);
	import_set_release(&set);
}

static void classes_named_only_by_oom_or_summary(void **state)
{
	struct import_set set = IMPORT_SET_INIT;
	struct error err = ERROR_INIT;
	struct buf text = BUF_INIT;
	int i;

	(void)state;
	/* enough new classes to move the counts while one is added */
	for (i = 0; i < 70; i++)
		buf_addf(&text, "[FAILED] Test: class \"a.C%d#m\"\n", i);
	buf_puts(&text, "=====================\nFAILED TESTS\n"
			"=====================\na.W#m - [WHITELISTED]: YES\n"
			"=====================\n");
	assert_int_equal(parse_str("tornado-test", text.ptr, &set, &err), 0);
	assert_int_equal(set.nr, 71 * 4);
	assert_true(rec(&set, "tests.failed", "class=a.C69", END)->value == 1);
	assert_true(rec(&set, "tests.whitelisted", "class=a.W", END)->value ==
		    1);
	assert_true(rec(&set, "tests.failed", "class=a.W", END)->value == 0);
	import_set_release(&set);
	buf_release(&text);
}

static void without_v_refused(void **state)
{
	struct import_set set = IMPORT_SET_INIT;
	struct error err = ERROR_INIT;
	size_t len;
	char *data = fixture("tornado-test/without-V.txt", &len);

	(void)state;
	assert_int_equal(parse_as("tornado-test", data, len, &set, &err),
			 GCAMP_EFATAL);
	assert_string_equal(err.msg,
			    "in.txt:3: expected per-test lines ('Running test: "
			    "...'): this is tornado-test output without -V");
	assert_non_null(strstr(err.hint, "rerun tornado-test with -V"));
	assert_int_equal(set.nr, 0);
	import_set_release(&set);
	free(data);
}

static void expect_error(const char *text, const char *msg)
{
	struct import_set set = IMPORT_SET_INIT;
	struct error err = ERROR_INIT;

	assert_int_equal(parse_str("tornado-test", text, &set, &err),
			 GCAMP_EFATAL);
	assert_string_equal(err.msg, msg);
	import_set_release(&set);
}

static void malformed(void **state)
{
	(void)state;
	expect_error("Test: class a.B\n"
		     "\tRunning test: x ........ [PASS]\n"
		     "Test ran: 2, Failed: 0, Unsupported: 0\n",
		     "in.txt:3: expected 'Test ran: 1, Failed: 0, Unsupported: "
		     "0' after the test lines of class 'a.B'");
	expect_error("header\n\tRunning test: x ........ [PASS]\n",
		     "in.txt:2: expected a 'Test: class' line before "
		     "'Running test:'");
	expect_error("Test: class a.B\n\tRunning test: x ........ [PASS]\n"
		     "Test: class a.C\n",
		     "in.txt:3: expected 'Test ran: ...' to end the tests of "
		     "class 'a.B' (line 1) before the next class");
	expect_error("Test: class a.B\n\tRunning test: x ........ \n",
		     "in.txt:2: expected a status such as '[PASS]' after the "
		     "dots of 'Running test:'");
	expect_error("Test: class a.B\n\tRunning test: x ........ [MAYBE]\n",
		     "in.txt:2: expected a status '[PASS]', '[FAILED]' or "
		     "'[... UNSUPPORTED ...]'");
	expect_error("Test: class a.B\nTest ran: x\n",
		     "in.txt:2: expected 'Test ran: N, Failed: N, Unsupported: "
		     "N'");
	expect_error("Test: class \n",
		     "in.txt:1: expected a class name after 'Test: class'");
	expect_error("FAILED TESTS\n============\n"
		     "a.B#m - [WHITELISTED]: MAYBE\n============\n",
		     "in.txt:3: expected YES or NO after '[WHITELISTED]:'");
	expect_error("nothing to see\n",
		     "in.txt:2: expected 'Test: class' lines of tornado-test "
		     "-V output, found none");
}

static void truncated(void **state)
{
	struct import_set set = IMPORT_SET_INIT;
	struct error err = ERROR_INIT;
	size_t len, cut;
	char *data = fixture("tornado-test/verbose.txt", &len);
	const char *mark =
		strstr(data, "Test ran: 3, Failed: 1, Unsupported: 0");

	(void)state;
	/* cut inside the second block: its Test ran: line is missing */
	assert_non_null(mark);
	cut = (size_t)(mark - data);
	assert_int_equal(parse_as("tornado-test", data, cut, &set, &err),
			 GCAMP_EFATAL);
	assert_string_equal(err.msg,
			    "in.txt:18: expected 'Test ran: ...' to end the "
			    "tests of class 'uk.ac.manchester.tornado."
			    "unittests.foundation.TestIf' (line 13), found the "
			    "end of the file");
	import_set_release(&set);
	check_prefixes("tornado-test", data, len);
	check_mutations("tornado-test", data, len);
	free(data);
}

/* Every prefix of data that ends after FAILED TESTS and before the rule
 * that closes its list is refused. */
static void check_cuts_refused(const char *data, size_t len)
{
	const char *title = strstr(data, "FAILED TESTS\n");
	const char *list, *close;
	size_t n;

	assert_non_null(title);
	list = strstr(title, "====\n");
	assert_non_null(list);
	close = strstr(list + 5, "\n====");
	assert_non_null(close);
	for (n = (size_t)(title - data) + 13; n <= (size_t)(close - data) + 1;
	     n++) {
		struct import_set set = IMPORT_SET_INIT;
		struct error err = ERROR_INIT;

		if (parse_as("tornado-test", data, n, &set, &err) == 0)
			fail_msg("a cut at byte %zu of %zu imports", n, len);
		import_set_release(&set);
	}
}

static void a_summary_cut_inside_its_failed_tests_list_is_refused(void **state)
{
	static const char head[] =
		"Test: class a.TestIf\n"
		"\tRunning test: test06  ....  [FAILED] \n"
		"\tRunning test: test07  ....  [PASS] \n"
		"Test ran: 2, Failed: 1, Unsupported: 0\n"
		"\n"
		"==================================================\n"
		"FAILED TESTS\n"
		"==================================================\n"
		"a.TestIf#test06 - [WHITELISTED]: YES\n";
	struct import_set set = IMPORT_SET_INIT;
	struct error err = ERROR_INIT;
	struct buf whole = BUF_INIT;
	size_t len;
	char *data = fixture("tornado-test/verbose.txt", &len);

	(void)state;
	/* killed before the rule that closes the list */
	assert_int_equal(parse_str("tornado-test", head, &set, &err),
			 GCAMP_EFATAL);
	assert_string_equal(err.msg,
			    "in.txt:10: expected a '=====' line to close the "
			    "FAILED TESTS list (line 7), found the end of the "
			    "file");
	import_set_release(&set);
	/* closed, the same list counts */
	buf_puts(&whole, head);
	buf_puts(&whole,
		 "\n==================================================\n"
		 "Total Time(s): 212.8\n");
	assert_int_equal(parse_str("tornado-test", whole.ptr, &set, &err), 0);
	assert_true(
		rec(&set, "tests.whitelisted", "class=a.TestIf", END)->value ==
		1);
	import_set_release(&set);
	buf_release(&whole);
	/* every cut of a real run's output inside its list is refused */
	check_cuts_refused(data, len);
	free(data);
}

static void detection(void **state)
{
	static const char *const others[] = {
		"detect/h200-vadd-import-details.csv",
		"detect/sleep-two-commands.json",
		"detect/jfr-print-json-head.json",
		"detect/nsys-cuda-api-sum.csv",
		"junit/rerun-and-suites.xml",
		"benchmark-runner/head.txt",
		"llm/bench.jsonl",
	};
	size_t i, len;

	(void)state;
	assert_string_equal(detected("tornado-test/verbose.txt"),
			    "tornado-test");
	/* detected, so that the refusal says why */
	assert_string_equal(detected("tornado-test/without-V.txt"),
			    "tornado-test");
	for (i = 0; i < sizeof(others) / sizeof(*others); i++) {
		char *data = fixture(others[i], &len);

		if (tornado_test_detect(data, len))
			fail_msg("tornado-test claims %s", others[i]);
		free(data);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(verbose_run),
		cmocka_unit_test(without_summary_no_whitelist_counts),
		cmocka_unit_test(classes_named_only_by_oom_or_summary),
		cmocka_unit_test(without_v_refused),
		cmocka_unit_test(malformed),
		cmocka_unit_test(truncated),
		cmocka_unit_test(
			a_summary_cut_inside_its_failed_tests_list_is_refused),
		cmocka_unit_test(detection),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
