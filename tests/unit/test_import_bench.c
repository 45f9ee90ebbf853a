/* Unit tests for src/import/benchmark_runner.c: BenchmarkRunner lines
 * (tests/fixtures/benchmark-runner, see its SOURCE.md), the line split by
 * the %n of getPreciseSummary, old and profiler forms, malformed lines. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "import_test.h"
#include "import/benchmark_runner.h"

#define BM "bm=saxpy-512-100000"

static void split_line_joined(void **state)
{
	struct import_set set = IMPORT_SET_INIT;
	struct error err = ERROR_INIT;
	const struct import_rec *r;
	size_t len;
	char *data = fixture("benchmark-runner/head.txt", &len);

	(void)state;
	assert_int_equal(parse_as("benchmark-runner", data, len, &set, &err),
			 0);
	assert_string_equal(set.format, "benchmark-runner");
	/* java-reference: 4 numbers; each device: 4 + 3 speedups + CV */
	assert_int_equal(set.nr, 4 + 8 + 8);
	r = rec(&set, "average", BM, "id=java-reference", END);
	assert_true(r->value == 61230.5);
	assert_string_equal(r->unit, "ns");
	assert_string_equal(r->stat, "mean");
	assert_int_equal(r->better, IMPORT_BETTER_LOWER);
	r = rec(&set, "best", BM, "device=0:0", END);
	assert_true(r->value == 8100);
	assert_string_equal(r->stat, "min");
	/* the second half of the split line belongs to the first */
	r = rec(&set, "speedupAvg", BM, "device=0:0", END);
	assert_true(r->value == 3.5069);
	assert_null(r->unit);
	assert_int_equal(r->better, IMPORT_BETTER_HIGHER);
	assert_int_equal(r->config.nr, 3);
	assert_string_equal(r->config.v[0], BM);
	assert_string_equal(r->config.v[1], "device=0:0");
	assert_string_equal(r->config.v[2], "deviceName=NVIDIA H200");
	r = rec(&set, "CV", BM, "device=0:0", END);
	assert_true(r->value == 4.1021);
	assert_string_equal(r->unit, "%");
	r = rec(&set, "median", BM, "device=1:0", END);
	assert_true(r->value == 51870);
	assert_string_equal(r->stat, "median");
	/* a device name with a comma stays whole */
	assert_string_equal(r->config.v[2],
			    "deviceName=NVIDIA H200 (OpenCL, 3.0 CUDA)");
	import_set_release(&set);
	free(data);
}

static void old_and_profiler_forms(void **state)
{
	struct import_set set = IMPORT_SET_INIT;
	struct error err = ERROR_INIT;
	const struct import_rec *r;
	size_t len;
	char *data = fixture("benchmark-runner/old.txt", &len);

	(void)state;
	assert_int_equal(parse_as("benchmark-runner", data, len, &set, &err),
			 0);
	assert_int_equal(set.nr, 8);
	r = rec(&set, "average", "bm=saxpy-101-16777216", "device=0:0", END);
	assert_true(r->value == 1.852340e+07);
	assert_null(r->unit); /* the old form names no unit */
	assert_true(rec(&set, "CV", "device=0:0", END)->value == 10.5305);
	import_set_release(&set);
	free(data);

	data = fixture("benchmark-runner/profiler.txt", &len);
	assert_int_equal(parse_as("benchmark-runner", data, len, &set, &err),
			 0);
	assert_int_equal(set.nr, 4);
	r = rec(&set, "copyInAvg", "id=0:0", "profiler=on", END);
	assert_true(r->value == 12900);
	assert_string_equal(r->unit, "ns");
	assert_string_equal(r->stat, "mean");
	assert_true(rec(&set, "kernelMin", "profiler=on", END)->value == 1088);
	import_set_release(&set);
	free(data);
}

static void skipserial_speedups_dropped(void **state)
{
	struct import_set set = IMPORT_SET_INIT;
	struct error err = ERROR_INIT;
	size_t len, i;
	char *data = fixture("benchmark-runner/skipserial.txt", &len);

	(void)state;
	assert_int_equal(parse_as("benchmark-runner", data, len, &set, &err),
			 0);
	assert_int_equal(set.nr, 5);
	for (i = 0; i < set.nr; i++)
		assert_null(strstr(set.recs[i].metric, "speedup"));
	import_set_release(&set);
	free(data);
}

static void units_and_other_fields(void **state)
{
	struct import_set set = IMPORT_SET_INIT;
	struct error err = ERROR_INIT;
	const struct import_rec *r;

	(void)state;
	assert_int_equal(
		parse_str("benchmark-runner",
			  "\x1b[32mbm=dft-10-4096 , id=java-reference     , "
			  "average(ms)=1.5e+00, median(us)=2, best(ms)=NaN\r\n"
			  "bm=dft-10-4096 , id=java-streams, elapsed=3.0e+01, "
			  "per iteration=3.0e+00\n"
			  "bm=dft-10-4096 , device=0:0, firstIteration(mJ)=12, "
			  "lowestEnergy(mJ)=10, deviceName=NaN\n",
			  &set, &err),
		0);
	r = rec(&set, "average", "id=java-reference", END);
	assert_true(r->value == 1.5e6);
	assert_string_equal(r->unit, "ns");
	assert_string_equal(r->config.v[0], "bm=dft-10-4096");
	assert_true(rec(&set, "median", END)->value == 2000);
	assert_true(rec(&set, "per_iteration", END)->value == 3);
	/* a device name is config, whatever it looks like */
	r = rec(&set, "firstIterationEnergy", "deviceName=NaN", END);
	assert_string_equal(r->unit, "mJ");
	assert_string_equal(rec(&set, "lowestEnergy", END)->unit, "mJ");
	assert_int_equal(set.nr, 6);
	import_set_release(&set);
}

static void expect_error(const char *text, const char *msg)
{
	struct import_set set = IMPORT_SET_INIT;
	struct error err = ERROR_INIT;

	assert_int_equal(parse_str("benchmark-runner", text, &set, &err),
			 GCAMP_EFATAL);
	assert_string_equal(err.msg, msg);
	import_set_release(&set);
}

static void malformed(void **state)
{
	(void)state;
	expect_error("x\nPerformance: bm=s, id=java-reference, "
		     "average(ns)=1,5e+03\n",
		     "in.txt:2: expected a number with a '.' decimal point in "
		     "'average(ns)' (the JVM's locale printed ',')");
	expect_error("Performance: bm=s, device=0:0, average(ns)=1.0e+, "
		     "deviceName=G\n",
		     "in.txt:1: expected a number after 'average(ns)='");
	expect_error("x\n\n, speedupAvg=1.0, deviceName=GPU\n",
		     "in.txt:3: expected a 'Performance: bm=' line before "
		     "', speedupAvg=1.0, deviceName=GPU'");
	expect_error("Performance: bm=, device=0:0, average(ns)=1\n",
		     "in.txt:1: expected a benchmark name after 'bm='");
	expect_error("Performance: bm=s, device=0:0\n",
		     "in.txt:1: expected measurements after 'bm=s'");
	expect_error("Performance: bm=s, junk, more, best(ns)=1\n",
		     "in.txt:1: expected 'key=value' after ',' in 's, junk, "
		     "more'");
	expect_error("Performance: bm=s, average(ns=1\n",
		     "in.txt:1: expected a unit in parentheses in "
		     "'average(ns'");
	expect_error("no benchmark here\n",
		     "in.txt:2: expected 'Performance: bm=...' lines of "
		     "BenchmarkRunner, found none");
}

static void truncated(void **state)
{
	struct import_set set = IMPORT_SET_INIT;
	struct error err = ERROR_INIT;
	size_t len;
	char *data = fixture("benchmark-runner/head.txt", &len);
	const char *cut = strstr(data, ", speedupAvg=3.5069");

	(void)state;
	/* cut at the %n: the first half alone is a cut-short line */
	assert_non_null(cut);
	assert_int_equal(parse_as("benchmark-runner", data,
				  (size_t)(cut - data), &set, &err),
			 GCAMP_EFATAL);
	assert_string_equal(
		err.msg, "in.txt:4: expected 'deviceName=' at the end of the "
			 "line of 'bm=saxpy-512-100000'");
	import_set_release(&set);
	check_prefixes("benchmark-runner", data, len);
	check_mutations("benchmark-runner", data, len);
	free(data);
}

static void a_cut_summary_or_profiler_line_is_refused(void **state)
{
	static const char *const fixtures[] = {
		"benchmark-runner/head.txt",
		"benchmark-runner/profiler.txt",
		"benchmark-runner/old.txt",
		"benchmark-runner/skipserial.txt",
	};
	size_t i, len;

	(void)state;
	/* cut inside median(ns)=5.394000e+04 of the reference line */
	expect_error("Performance: bm=saxpy-100000-512, id=java-reference, "
		     "average(ns)=5.411360e+04, median(ns)=5.3",
		     "in.txt:1: expected 'best(ns)=' with a %e number at the "
		     "end of the summary of 'bm=saxpy-100000-512'");
	/* cut inside best(ns)=5.100000e+04 */
	expect_error("Performance: bm=s, id=java-reference, "
		     "average(ns)=5.411360e+04, median(ns)=5.394000e+04, "
		     "firstIteration(ns)=9.100000e+05, best(ns)=5.1",
		     "in.txt:1: expected 'best(ns)=' with a %e number at the "
		     "end of the summary of 'bm=s'");
	/* cut inside copyInAvg=650.0 of the profiler line */
	expect_error("Performance: bm=saxpy-100000-512, id=0:0, "
		     "kernelMin=3310, kernelAvg=3412.5, copyInAvg=65",
		     "in.txt:1: expected 'deviceName=' at the end of the line "
		     "of 'bm=saxpy-100000-512'");
	for (i = 0; i < sizeof(fixtures) / sizeof(*fixtures); i++) {
		char *data = fixture(fixtures[i], &len);

		check_prefix_values("benchmark-runner", data, len, 0);
		free(data);
	}
}

static void detection(void **state)
{
	static const char *const others[] = {
		"detect/h200-vadd-import-details.csv",
		"detect/sleep-two-commands.json",
		"detect/jfr-print-json-head.json",
		"detect/nsys-cuda-api-sum.csv",
		"junit/rerun-and-suites.xml",
		"tornado-test/verbose.txt",
		"llm/bench.json",
	};
	size_t i, len;

	(void)state;
	assert_string_equal(detected("benchmark-runner/head.txt"),
			    "benchmark-runner");
	assert_string_equal(detected("benchmark-runner/old.txt"),
			    "benchmark-runner");
	assert_string_equal(detected("benchmark-runner/profiler.txt"),
			    "benchmark-runner");
	for (i = 0; i < sizeof(others) / sizeof(*others); i++) {
		char *data = fixture(others[i], &len);

		if (benchmark_runner_detect(data, len))
			fail_msg("benchmark-runner claims %s", others[i]);
		free(data);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(split_line_joined),
		cmocka_unit_test(old_and_profiler_forms),
		cmocka_unit_test(skipserial_speedups_dropped),
		cmocka_unit_test(units_and_other_fields),
		cmocka_unit_test(malformed),
		cmocka_unit_test(truncated),
		cmocka_unit_test(a_cut_summary_or_profiler_line_is_refused),
		cmocka_unit_test(detection),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
