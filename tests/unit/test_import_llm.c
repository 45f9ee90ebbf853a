/* Unit tests for src/import/llm.c: jitllm/GPULlama3 metrics JSON,
 * perf-history rows and --bench json/jsonl (tests/fixtures/llm, see its
 * SOURCE.md); malformed JSON with its line. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "import_test.h"
#include "import/llm.h"

static void metrics_json(void **state)
{
	struct import_set set = IMPORT_SET_INIT;
	struct error err = ERROR_INIT;
	const struct import_rec *r;
	size_t len;
	char *data = fixture("llm/metrics.json", &len);

	(void)state;
	assert_int_equal(parse_as("llm", data, len, &set, &err), 0);
	assert_string_equal(set.format, "llm");
	/* no prompt phase (prompt_eval_count 0) and load_duration 0: left
	 * out */
	assert_int_equal(set.nr, 9);
	r = rec(&set, "eval_rate", END);
	assert_true(r->value == 31.51);
	assert_string_equal(r->unit, "tok/s");
	assert_int_equal(r->better, IMPORT_BETTER_HIGHER);
	assert_int_equal(r->config.nr, 2);
	assert_string_equal(r->config.v[0], "has_prefill_phase=false");
	assert_string_equal(r->config.v[1], "execution_path=tornadovm");
	r = rec(&set, "total_duration", END);
	assert_true(r->value == 700000000);
	assert_string_equal(r->unit, "ns");
	assert_int_equal(r->better, IMPORT_BETTER_LOWER);
	r = rec(&set, "tornadovm.jit_duration", END);
	assert_true(r->value == 2310000000.0);
	r = rec(&set, "eval_count", END);
	assert_true(r->value == 22);
	assert_null(r->unit);
	assert_string_equal(r->stat, "count");
	for (len = 0; len < set.nr; len++)
		assert_null(strstr(set.recs[len].metric, "prompt_eval"));
	import_set_release(&set);
	free(data);
}

static void perf_history_row(void **state)
{
	struct import_set set = IMPORT_SET_INIT;
	struct error err = ERROR_INIT;
	const struct import_rec *r;
	size_t len;
	char *data = fixture("llm/perf-history.jsonl", &len);

	(void)state;
	assert_int_equal(parse_as("llm", data, len, &set, &err), 0);
	r = rec(&set, "total_rate", "backend=opencl",
		"model=Llama-3.2-1B-Instruct", "quantization=F16",
		"configuration=standard", END);
	assert_true(r->value == 31.51);
	assert_int_equal(r->config.nr, 4);
	assert_int_equal(set.nr, 6);
	import_set_release(&set);
	free(data);
}

static void bench_rows(void **state)
{
	struct import_set set = IMPORT_SET_INIT;
	struct error err = ERROR_INIT;
	const struct import_rec *r;
	size_t len;
	char *data = fixture("llm/bench.jsonl", &len);

	(void)state;
	assert_int_equal(parse_as("llm", data, len, &set, &err), 0);
	assert_int_equal(set.nr, 2);
	r = rec(&set, "tok_s", "test=pp512", "model=Llama-3.2-1B-Instruct",
		"quant=F16", "backend=cuda", END);
	assert_true(r->value == 63.46);
	assert_string_equal(r->unit, "tok/s");
	assert_string_equal(r->stat, "mean");
	assert_int_equal(r->better, IMPORT_BETTER_HIGHER);
	assert_int_equal(r->nsamples, 3);
	assert_true(r->samples[0] == 63.35 && r->samples[2] == 63.54);
	r = rec(&set, "tok_s", "test=tg128", END);
	assert_true(r->samples[1] == 52.83);
	import_set_release(&set);
	free(data);

	data = fixture("llm/bench.json", &len);
	assert_int_equal(parse_as("llm", data, len, &set, &err), 0);
	assert_int_equal(set.nr, 2);
	assert_true(rec(&set, "tok_s", "test=tg128@d4096", END)->value == 41.7);
	/* llama.cpp's shape: the test named from n_prompt/n_gen */
	r = rec(&set, "tok_s", "test=pp512+tg128", END);
	assert_string_equal(r->config.v[0], "model_type=llama 1B F16");
	assert_int_equal(r->nsamples, 2);
	import_set_release(&set);
	free(data);
}

static void expect_error(const char *text, const char *msg)
{
	struct import_set set = IMPORT_SET_INIT;
	struct error err = ERROR_INIT;

	assert_int_equal(parse_str("llm", text, &set, &err), GCAMP_EFATAL);
	assert_string_equal(err.msg, msg);
	import_set_release(&set);
}

static void malformed(void **state)
{
	(void)state;
	/* a JVM in a locale with a decimal comma */
	expect_error(
		"{\n  \"total_duration\": 700000000,\n"
		"  \"eval_rate\": 31,5100,\n}\n",
		"in.txt:3: expected a number with a '.' decimal point (the "
		"JVM's locale printed ',')");
	/* the same, as GPULlama3's JsonMetricsRenderer ends its object */
	expect_error(
		"{\n  \"eval_count\": 128,\n"
		"  \"eval_duration\": 3051234567,\n"
		"  \"eval_rate\": 41,9502\n}\n",
		"in.txt:4: expected a number with a '.' decimal point (the "
		"JVM's locale printed ',')");
	/* a comma that is no decimal comma keeps the general message */
	expect_error("{\n  \"eval_count\": 128,\n  \"x\" 1\n}\n",
		     "in.txt:3: expected valid JSON (a metrics object or bench "
		     "rows)");
	expect_error("{\"test\": \"pp512\", \"avg_ts\": 1.0}\n"
		     "{\"test\": \"tg128\", \"avg_ts\": \"fast\"}\n",
		     "in.txt:2: expected a number for 'avg_ts'");
	expect_error("{\"test\": \"pp512\", \"avg_ts\": 1, \"samples_ts\": 3}",
		     "in.txt:1: expected an array of numbers for "
		     "'samples_ts'");
	expect_error("{\"avg_ts\": 1}",
		     "in.txt:1: expected a 'test' name or n_prompt/n_gen in a "
		     "bench row");
	expect_error("\n\n{\"results\": []}",
		     "in.txt:3: expected jitllm metrics ('eval_rate', "
		     "'total_duration', ...) or bench rows ('avg_ts')");
	expect_error("[1, 2]",
		     "in.txt:1: expected a JSON object or an array of objects");
	expect_error("{\"eval_rate\": 1e999}",
		     "in.txt:1: expected a finite number for 'eval_rate'");
	expect_error(" \n", "in.txt:2: expected jitllm metrics JSON or bench "
			    "rows, found none");
}

static void truncated(void **state)
{
	struct import_set set = IMPORT_SET_INIT;
	struct error err = ERROR_INIT;
	size_t len;
	char *data = fixture("llm/metrics.json", &len);
	const char *cut = strstr(data, "\"tornadovm\"");

	(void)state;
	assert_non_null(cut);
	assert_int_equal(
		parse_as("llm", data, (size_t)(cut - data), &set, &err),
		GCAMP_EFATAL);
	assert_string_equal(err.msg, "in.txt:13: expected valid JSON (a "
				     "metrics object or bench rows)");
	import_set_release(&set);
	check_prefixes("llm", data, len);
	check_mutations("llm", data, len);
	free(data);
	data = fixture("llm/bench.json", &len);
	check_prefixes("llm", data, len);
	check_mutations("llm", data, len);
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
		"tornado-test/verbose.txt",
		"benchmark-runner/head.txt",
	};
	size_t i, len;

	(void)state;
	assert_string_equal(detected("llm/metrics.json"), "llm");
	assert_string_equal(detected("llm/perf-history.jsonl"), "llm");
	assert_string_equal(detected("llm/bench.jsonl"), "llm");
	assert_string_equal(detected("llm/bench.json"), "llm");
	/* a key inside a string is not a key */
	assert_false(llm_detect("{\"c\": \"x \\\"avg_ts\\\": 1\"}", 22));
	for (i = 0; i < sizeof(others) / sizeof(*others); i++) {
		char *data = fixture(others[i], &len);

		if (llm_detect(data, len))
			fail_msg("llm claims %s", others[i]);
		free(data);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(metrics_json),
		cmocka_unit_test(perf_history_row),
		cmocka_unit_test(bench_rows),
		cmocka_unit_test(malformed),
		cmocka_unit_test(truncated),
		cmocka_unit_test(detection),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
