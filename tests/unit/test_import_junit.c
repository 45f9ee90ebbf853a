/* Unit tests for src/import/junit.c and src/import/xml.c: Surefire reports
 * (tests/fixtures/junit, see its SOURCE.md) to per class counts, reruns,
 * entities and CDATA, directories, and malformed XML with its line. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "import_test.h"
#include "import/junit.h"

static void expect_counts(const struct import_set *set, const char *cls,
			  double passed, double failed, double errored,
			  double skipped, double flaky)
{
	const struct import_rec *r = rec(set, "tests.passed", cls, END);

	assert_true(r->value == passed);
	assert_int_equal(r->better, IMPORT_BETTER_HIGHER);
	assert_string_equal(r->stat, "count");
	assert_null(r->unit);
	assert_true(rec(set, "tests.failed", cls, END)->value == failed);
	assert_int_equal(rec(set, "tests.failed", cls, END)->better,
			 IMPORT_BETTER_LOWER);
	assert_true(rec(set, "tests.errored", cls, END)->value == errored);
	assert_true(rec(set, "tests.skipped", cls, END)->value == skipped);
	assert_true(rec(set, "tests.flaky", cls, END)->value == flaky);
}

static void surefire_failing(void **state)
{
	struct import_set set = IMPORT_SET_INIT;
	struct error err = ERROR_INIT;
	size_t len;
	char *data = fixture(
		"junit/dir/TEST-org.apache.maven.surefire.test.FailingTest.xml",
		&len);

	(void)state;
	assert_int_equal(parse_as("junit", data, len, &set, &err), 0);
	assert_int_equal(set.nr, 5);
	assert_string_equal(set.format, "junit");
	expect_counts(&set, "class=org.apache.maven.surefire.test.FailingTest",
		      0, 2, 0, 0, 0);
	assert_int_equal(set.recs[0].config.nr, 1);
	import_set_release(&set);
	free(data);
}

static void surefire_flaky(void **state)
{
	struct import_set set = IMPORT_SET_INIT;
	struct error err = ERROR_INIT;
	size_t len;
	char *data = fixture("junit/dir/TEST-org.acme.FlakyTest.xml", &len);

	(void)state;
	/* two flakyFailure children, then a pass: passed once, flaky once */
	assert_int_equal(parse_as("junit", data, len, &set, &err), 0);
	expect_counts(&set, "class=org.acme.FlakyTest", 1, 0, 0, 0, 1);
	import_set_release(&set);
	free(data);
}

static void reruns_suites_entities(void **state)
{
	struct import_set set = IMPORT_SET_INIT;
	struct error err = ERROR_INIT;
	size_t len;
	char *data = fixture("junit/rerun-and-suites.xml", &len);

	(void)state;
	assert_int_equal(parse_as("junit", data, len, &set, &err), 0);
	assert_int_equal(set.nr, 15);
	/* failure+rerunFailure: failed; error+rerunError: errored;
	 * flakyError: passed and flaky */
	expect_counts(&set, "class=org.acme.RerunTest", 2, 1, 1, 1, 1);
	expect_counts(&set, "class=org.acme.Outer$Inner", 1, 0, 0, 0, 0);
	/* no classname: the suite's name */
	expect_counts(&set, "class=org.acme.Outer", 1, 0, 0, 0, 0);
	import_set_release(&set);
	free(data);
}

static void directory_of_reports(void **state)
{
	struct import_set set = IMPORT_SET_INIT;
	struct error err = ERROR_INIT;

	(void)state;
	/* TEST-*.xml only: failsafe-summary.xml is not a test report */
	assert_int_equal(import_path(&set, import_format_find("junit"),
				     fixture_path("junit/dir"), &err),
			 0);
	assert_int_equal(set.nr, 10);
	expect_counts(&set, "class=org.acme.FlakyTest", 1, 0, 0, 0, 1);
	expect_counts(&set, "class=org.apache.maven.surefire.test.FailingTest",
		      0, 2, 0, 0, 0);
	import_set_release(&set);
}

static void same_class_in_two_files_adds_up(void **state)
{
	struct import_set set = IMPORT_SET_INIT;
	struct error err = ERROR_INIT;
	const char *a = "<testsuite name=\"A\"><testcase classname=\"C\" "
			"name=\"x\"/></testsuite>";
	const char *b = "<testsuite name=\"B\"><testcase classname=\"C\" "
			"name=\"y\"><skipped/></testcase></testsuite>";

	(void)state;
	assert_int_equal(parse_str("junit", a, &set, &err), 0);
	assert_int_equal(parse_str("junit", b, &set, &err), 0);
	assert_int_equal(set.nr, 5);
	expect_counts(&set, "class=C", 1, 0, 0, 1, 0);
	import_set_release(&set);
}

static void entities_and_cdata(void **state)
{
	struct import_set set = IMPORT_SET_INIT;
	struct error err = ERROR_INIT;
	const char *xml =
		"\xef\xbb\xbf<?xml version='1.0'?>\n"
		"<testsuite name='s'>\n"
		"<testcase classname='a.&lt;b&gt;&amp;&quot;&apos;&#65;&#x42;"
		"&#x20AC;' name='n'><system-out>&#27;[1;31mred&#27;[0m"
		"<![CDATA[</testcase> & <]]>"
		"</system-out><!-- </testsuite> --></testcase>\n"
		"</testsuite>\n<!-- after -->\n";

	(void)state;
	assert_int_equal(parse_str("junit", xml, &set, &err), 0);
	expect_counts(&set, "class=a.<b>&\"'AB\xe2\x82\xac", 1, 0, 0, 0, 0);
	import_set_release(&set);
}

static void expect_error(const char *xml, const char *msg)
{
	struct import_set set = IMPORT_SET_INIT;
	struct error err = ERROR_INIT;

	assert_int_equal(parse_str("junit", xml, &set, &err), GCAMP_EFATAL);
	assert_string_equal(err.msg, msg);
	import_set_release(&set);
}

static void malformed(void **state)
{
	(void)state;
	expect_error("<testsuite name=\"s\">\n<testcase classname=\"c\">\n"
		     "</testsuite>\n",
		     "in.txt:3: expected '</testcase>', found '</testsuite>'");
	expect_error("<testsuite>\n  <testcase classname=\"c\" name=\"x\">\n",
		     "in.txt:3: expected '</testcase>' before the end of the "
		     "file");
	expect_error("<testsuite>\n<testcase classname=\"a &bogus; b\"/>\n"
		     "</testsuite>",
		     "in.txt:2: expected '&amp;', '&lt;', '&gt;', '&quot;', "
		     "'&apos;' or '&#N;' after '&'");
	expect_error("<testsuite>\n\n<testcase classname=c/></testsuite>",
		     "in.txt:3: expected a quoted attribute value");
	expect_error("<testsuite>\n<testcase classname=\"c\" classname=\"d\"/>"
		     "</testsuite>",
		     "in.txt:2: expected one 'classname' attribute, found two");
	expect_error("<testsuite><testcase classname=\"c\">&#0;</testcase>"
		     "</testsuite>",
		     "in.txt:1: expected a character reference of a valid "
		     "character ('&#N;' or '&#xH;')");
	expect_error("<testsuite/>\n<testsuite/>",
		     "in.txt:2: expected one root element, found a second");
	expect_error("<html><body/></html>",
		     "in.txt:1: expected <testsuite> or <testsuites>, found "
		     "<html>");
	expect_error("<testsuite>\n<testcase name=\"x\"/></testsuite>",
		     "in.txt:2: expected a classname attribute on <testcase> "
		     "(or a name on its <testsuite>)");
	expect_error("<testsuites>\n<testcase classname=\"c\"/>"
		     "</testsuites>",
		     "in.txt:2: expected <testcase> inside <testsuite>");
	expect_error("<!DOCTYPE x [<!ENTITY a \"b\">]><testsuite/>",
		     "in.txt:1: expected a DOCTYPE without an internal subset");
	expect_error("<testsuite><!-- x -- y --></testsuite>",
		     "in.txt:1: expected '-->' to end the comment");
	expect_error("<testsuite>\n<![CDATA[ x </testsuite>",
		     "in.txt:2: expected ']]>' to end the CDATA section");
	expect_error("", "in.txt:1: expected an XML element");
	expect_error("junk<testsuite/>",
		     "in.txt:1: expected '<' (text outside the root element)");
}

static void too_deep(void **state)
{
	struct import_set set = IMPORT_SET_INIT;
	struct error err = ERROR_INIT;
	size_t i, n = 0;
	char *xml = malloc(300 * 3 + 32);

	(void)state;
	n += (size_t)sprintf(xml, "<testsuite>");
	for (i = 0; i < 300; i++)
		n += (size_t)sprintf(xml + n, "<a>");
	assert_int_equal(parse_as("junit", xml, n, &set, &err), GCAMP_EFATAL);
	assert_string_equal(err.msg,
			    "in.txt:1: expected at most 256 nested elements");
	import_set_release(&set);
	free(xml);
}

static void truncated_and_mutated(void **state)
{
	size_t len;
	char *data = fixture("junit/rerun-and-suites.xml", &len);

	(void)state;
	check_prefixes("junit", data, len);
	check_mutations("junit", data, len);
	free(data);
	data = fixture("junit/dir/TEST-org.acme.FlakyTest.xml", &len);
	check_prefixes("junit", data, len);
	free(data);
}

static void detection(void **state)
{
	static const char *const others[] = {
		"detect/h200-vadd-import-details.csv",
		"detect/sleep-two-commands.json",
		"detect/jfr-print-json-head.json",
		"detect/nsys-cuda-api-sum.csv",
		"tornado-test/verbose.txt",
		"benchmark-runner/head.txt",
		"llm/metrics.json",
	};
	size_t i, len;

	(void)state;
	assert_string_equal(detected("junit/rerun-and-suites.xml"), "junit");
	assert_string_equal(detected("junit/dir/TEST-org.acme.FlakyTest.xml"),
			    "junit");
	assert_true(junit_detect("<testsuite>", 11));
	assert_false(junit_detect("<testsuite", 10));
	assert_false(junit_detect("<testsuitex>", 12));
	assert_false(junit_detect("<?xml", 5));
	for (i = 0; i < sizeof(others) / sizeof(*others); i++) {
		char *data = fixture(others[i], &len);

		if (junit_detect(data, len))
			fail_msg("junit claims %s", others[i]);
		free(data);
	}
}

static void a_case_that_did_not_run_is_skipped_whatever_writes_it(void **state)
{
	struct import_set set = IMPORT_SET_INIT;
	struct error err = ERROR_INIT;

	(void)state;
	/* ctest --output-junit: status="disabled" with no child, "notrun"
	 * with <skipped/>, "fail" with <failure/>, "run" for a pass */
	assert_int_equal(
		parse_str("junit",
			  "<testsuite name=\"t\" tests=\"5\">\n"
			  "<testcase name=\"ok\" classname=\"c\" "
			  "status=\"run\"/>\n"
			  "<testcase name=\"bad\" classname=\"c\" "
			  "status=\"fail\"><failure message=\"\"/></testcase>\n"
			  "<testcase name=\"off\" classname=\"c\" "
			  "status=\"disabled\"><system-out>Disabled"
			  "</system-out></testcase>\n"
			  "<testcase name=\"nope\" classname=\"c\" "
			  "status=\"notrun\"><skipped message=\"x\"/>"
			  "</testcase>\n"
			  "<testcase name=\"gone\" classname=\"c\" "
			  "status=\"fail\"/>\n"
			  "</testsuite>\n",
			  &set, &err),
		0);
	expect_counts(&set, "class=c", 1, 2, 0, 2, 0);
	import_set_release(&set);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(surefire_failing),
		cmocka_unit_test(surefire_flaky),
		cmocka_unit_test(reruns_suites_entities),
		cmocka_unit_test(directory_of_reports),
		cmocka_unit_test(
			a_case_that_did_not_run_is_skipped_whatever_writes_it),
		cmocka_unit_test(same_class_in_two_files_adds_up),
		cmocka_unit_test(entities_and_cdata),
		cmocka_unit_test(malformed),
		cmocka_unit_test(too_deep),
		cmocka_unit_test(truncated_and_mutated),
		cmocka_unit_test(detection),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
