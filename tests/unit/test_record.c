/* Unit tests for src/core/measure/line.c: the schema-1 notes line, its key
 * order, strict decoding, canonical config and run ids. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/measure/line.h"

/* the example of DESIGN.md §3, on one line */
static const char example[] =
	"{\"v\":1,\"run\":\"9f2c4a1e0b7d3c55\",\"metric\":\"decode_tok_s\","
	"\"value\":41.7,\"unit\":\"tok/s\",\"better\":\"higher\","
	"\"stat\":\"median\",\"n\":5,\"samples\":[41.2,41.7,41.9,41.5,42],"
	"\"arm\":\"B\",\"ctl\":false,\"iters\":512,\"vouch\":\"steady\","
	"\"env\":"
	"\"e3b0c44298fc1c14\","
	"\"config\":{\"backend\":\"cuda\",\"model\":\"Llama-3.2-1B\","
	"\"profiler\":\"off\"},\"source\":\"ab\","
	"\"at\":\"2026-11-29T21:00:00Z\"}";

static void decode_then_encode_gives_the_same_line(void **state)
{
	struct error err = ERROR_INIT;
	struct record r;
	struct buf b = BUF_INIT;

	(void)state;
	record_init(&r);
	assert_int_equal(record_decode(&r, example, strlen(example), &err), 0);
	assert_string_equal(r.metric, "decode_tok_s");
	assert_true(r.value == 41.7);
	assert_int_equal(r.n, 5);
	assert_int_equal(r.nsamples, 5);
	assert_true(r.samples[4] == 42.0);
	assert_int_equal(r.ctl, 0);
	assert_int_equal(r.iters, 512);
	assert_string_equal(r.vouch, "steady");
	assert_int_equal(r.seq, 0);
	assert_string_equal(record_config_get(&r, "model"), "Llama-3.2-1B");
	assert_int_equal(record_encode(&b, &r, &err), 0);
	assert_string_equal(b.ptr, example);
	assert_null(strchr(b.ptr, '\n'));
	buf_release(&b);
	record_release(&r);
}

static void keys_come_in_the_design_order(void **state)
{
	/* the same record, its keys shuffled: encoded in the fixed order */
	const char *shuffled =
		"{\"at\":\"2026-11-29T21:00:00Z\",\"config\":{\"profiler\":"
		"\"off\",\"backend\":\"cuda\"},\"value\":3,\"env\":\"e1\","
		"\"metric\":\"m\",\"v\":1,\"run\":\"0123456789abcdef\"}";
	struct error err = ERROR_INIT;
	struct record r;
	struct buf b = BUF_INIT;

	(void)state;
	record_init(&r);
	assert_int_equal(record_decode(&r, shuffled, strlen(shuffled), &err),
			 0);
	assert_int_equal(record_encode(&b, &r, &err), 0);
	assert_string_equal(
		b.ptr,
		"{\"v\":1,\"run\":\"0123456789abcdef\",\"metric\":\"m\","
		"\"value\":3,\"env\":\"e1\",\"config\":{\"backend\":\"cuda\","
		"\"profiler\":\"off\"},\"at\":\"2026-11-29T21:00:00Z\"}");
	buf_release(&b);
	record_release(&r);
}

static void expect_refused(const char *line, const char *why)
{
	struct error err = ERROR_INIT;
	struct record r;

	record_init(&r);
	assert_int_equal(record_decode(&r, line, strlen(line), &err),
			 GCAMP_EFATAL);
	if (!strstr(err.msg, why))
		fail_msg("'%s': want '%s' in '%s'", line, why, err.msg);
	assert_null(r.metric);
	record_release(&r);
}

#define BASE                                                                   \
	"\"run\":\"0123456789abcdef\",\"metric\":\"m\",\"env\":\"e\","         \
	"\"at\":\"2026-11-29T21:00:00Z\""

static void bad_lines_are_refused_with_the_reason(void **state)
{
	(void)state;
	expect_refused("", "not a JSON object");
	expect_refused("[1,2]", "not a JSON object");
	expect_refused("{\"v\":1,", "not a JSON object");
	expect_refused("{\"v\":2," BASE ",\"value\":1}", "version is not 1");
	expect_refused("{" BASE ",\"value\":1}", "'v' is missing");
	expect_refused("{\"v\":1," BASE "}", "'value' is missing");
	expect_refused("{\"v\":1,\"run\":\"0123456789abcdef\",\"metric\":"
		       "\"m\",\"value\":1,\"at\":\"x\"}",
		       "'env' is missing");
	expect_refused("{\"v\":1," BASE ",\"value\":\"1\"}",
		       "'value' is not a finite number");
	expect_refused("{\"v\":1," BASE ",\"value\":1e999}",
		       "'value' is not a finite number");
	expect_refused("{\"v\":1,\"run\":\"0123\",\"metric\":\"m\","
		       "\"env\":\"e\",\"at\":\"x\",\"value\":1}",
		       "'run' is not 16");
	expect_refused("{\"v\":1," BASE ",\"value\":1,\"better\":\"more\"}",
		       "'better'");
	expect_refused("{\"v\":1," BASE ",\"value\":1,\"n\":1.5}", "'n'");
	expect_refused("{\"v\":1," BASE ",\"value\":1,\"n\":0}", "'n'");
	expect_refused("{\"v\":1," BASE ",\"value\":1,\"samples\":[1,\"x\"]}",
		       "'samples'");
	expect_refused("{\"v\":1," BASE ",\"value\":1,\"n\":3,"
		       "\"samples\":[1,2]}",
		       "n is 3 for 2 samples");
	expect_refused("{\"v\":1," BASE ",\"value\":1,\"ctl\":0}", "'ctl'");
	expect_refused("{\"v\":1," BASE ",\"value\":1,\"seq\":0}", "'seq'");
	expect_refused("{\"v\":1," BASE ",\"value\":1,\"seq\":1.5}", "'seq'");
	expect_refused("{\"v\":1," BASE ",\"value\":1,\"vouch\":\"maybe\"}",
		       "'vouch'");
	expect_refused("{\"v\":1," BASE ",\"value\":1,\"config\":{\"a\":1}}",
		       "config key 'a'");
	expect_refused("{\"v\":1," BASE ",\"value\":1,\"config\":[]}",
		       "'config' is not an object");
	expect_refused("{\"v\":1," BASE ",\"value\":1,\"value\":2}",
		       "'value' is given twice");
	expect_refused("{\"v\":1," BASE ",\"value\":1} x",
		       "text after the JSON object");
	expect_refused("{\"v\":1," BASE ",\"value\":1,\"metric\":\"\"}",
		       "given twice");
}

static void a_summary_and_its_raw_input_round_trip(void **state)
{
	const char *line =
		"{\"v\":1,\"run\":\"0123456789abcdef\",\"metric\":\"duration\","
		"\"value\":2100,\"unit\":\"ns\",\"stat\":\"median\",\"n\":3,"
		"\"summary\":{\"min\":2000,\"p10\":2020,\"p90\":2180,"
		"\"max\":2200,\"sum\":6300},\"env\":\"e\",\"config\":{},"
		"\"raw\":{\"path\":\"campaign/scratch/raw/"
		"00000000000000000000000000000000000000000000000000000000000000"
		"00"
		".csv\",\"sha256\":\""
		"00000000000000000000000000000000000000000000000000000000000000"
		"00"
		"\"},\"at\":\"2026-11-29T21:00:00Z\"}";
	struct error err = ERROR_INIT;
	struct buf b = BUF_INIT;
	struct record r;

	(void)state;
	record_init(&r);
	assert_int_equal(record_decode(&r, line, strlen(line), &err), 0);
	assert_true(r.summary && r.n == 3);
	assert_true(r.min == 2000 && r.p10 == 2020 && r.p90 == 2180 &&
		    r.max == 2200 && r.sum == 6300);
	assert_non_null(r.raw_path);
	assert_int_equal(strlen(r.raw_sha256), 64);
	assert_int_equal(record_encode(&b, &r, &err), 0);
	assert_string_equal(b.ptr, line);
	/* a summary out of order is not written */
	buf_reset(&b);
	r.p10 = 2150;
	assert_int_equal(record_encode(&b, &r, &err), GCAMP_EUSAGE);
	assert_non_null(strstr(err.msg, "min <= p10 <= median"));
	buf_release(&b);
	record_release(&r);
	expect_refused("{\"v\":1," BASE ",\"value\":1,\"summary\":{\"min\":1}}",
		       "'summary'");
	expect_refused("{\"v\":1," BASE ",\"value\":1,\"raw\":{\"path\":\"p\","
		       "\"sha256\":\"abc\"}}",
		       "'raw'");
}

static void a_repeat_keeps_its_seq_after_the_run(void **state)
{
	const char *line = "{\"v\":1,\"run\":\"0123456789abcdef\",\"seq\":3,"
			   "\"metric\":\"m\",\"value\":1,\"env\":\"e\","
			   "\"config\":{},\"at\":\"x\"}";
	struct error err = ERROR_INIT;
	struct record r;
	struct buf b = BUF_INIT;

	(void)state;
	record_init(&r);
	assert_int_equal(record_decode(&r, line, strlen(line), &err), 0);
	assert_int_equal(r.seq, 3);
	assert_int_equal(record_encode(&b, &r, &err), 0);
	assert_string_equal(b.ptr, line);
	/* seq 0 is no repeat: left out of the line */
	r.seq = 0;
	buf_reset(&b);
	assert_int_equal(record_encode(&b, &r, &err), 0);
	assert_null(strstr(b.ptr, "seq"));
	r.seq = -1;
	assert_int_equal(record_encode(&b, &r, &err), GCAMP_EUSAGE);
	r.seq = 0;
	error_clear(&err);
	r.vouch = strdup("sometimes");
	assert_int_equal(record_encode(&b, &r, &err), GCAMP_EUSAGE);
	assert_non_null(strstr(err.msg, "vouch"));
	buf_release(&b);
	record_release(&r);
}

static void unknown_keys_are_ignored(void **state)
{
	const char *line = "{\"v\":1," BASE ",\"value\":1,\"future\":[1]}";
	struct error err = ERROR_INIT;
	struct record r;

	(void)state;
	record_init(&r);
	assert_int_equal(record_decode(&r, line, strlen(line), &err), 0);
	assert_true(r.value == 1.0);
	record_release(&r);
}

static void config_is_canonical(void **state)
{
	struct error err = ERROR_INIT;
	struct record a, b;
	struct buf ja = BUF_INIT, jb = BUF_INIT;

	(void)state;
	record_init(&a);
	record_init(&b);
	assert_int_equal(record_config_parse(&a, "profiler=off", &err), 0);
	assert_int_equal(record_config_parse(&a, "a.b=1", &err), 0);
	assert_int_equal(record_config_parse(&a, "a=x=y", &err), 0);
	record_config_put(&b, "a", "x=y");
	record_config_put(&b, "profiler", "on");
	record_config_put(&b, "a.b", "1");
	record_config_put(&b, "profiler", "off"); /* replaces */
	record_config_json(&ja, &a);
	record_config_json(&jb, &b);
	assert_string_equal(
		ja.ptr, "{\"a\":\"x=y\",\"a.b\":\"1\",\"profiler\":\"off\"}");
	assert_string_equal(ja.ptr, jb.ptr);
	assert_string_equal(record_config_get(&a, "a"), "x=y");
	assert_null(record_config_get(&a, "b"));
	assert_int_equal(record_config_parse(&a, "=v", &err), GCAMP_EUSAGE);
	error_clear(&err);
	assert_int_equal(record_config_parse(&a, "novalue", &err),
			 GCAMP_EUSAGE);
	assert_string_equal(err.msg,
			    "config 'novalue' is not of the form key=value");
	buf_release(&ja);
	buf_release(&jb);
	record_release(&a);
	record_release(&b);
}

static void encode_checks_the_record(void **state)
{
	struct error err = ERROR_INIT;
	struct record r;
	struct buf b = BUF_INIT;
	double s[2] = {1, NAN};

	(void)state;
	record_init(&r);
	assert_int_equal(record_new_run(r.run, &err), 0);
	r.metric = strdup("m");
	r.env = strdup("e");
	r.at = strdup("2026-11-29T21:00:00Z");
	r.value = INFINITY;
	assert_int_equal(record_encode(&b, &r, &err), GCAMP_EUSAGE);
	assert_string_equal(err.msg, "the value of 'm' is not a finite number");
	error_clear(&err);
	r.value = 2;
	r.samples = malloc(sizeof(s));
	memcpy(r.samples, s, sizeof(s));
	r.nsamples = 2;
	assert_int_equal(record_encode(&b, &r, &err), GCAMP_EUSAGE);
	error_clear(&err);
	r.samples[1] = 3;
	r.n = 2;
	assert_int_equal(record_encode(&b, &r, &err), 0);
	assert_non_null(strstr(b.ptr, "\"n\":2,\"samples\":[1,3]"));
	buf_release(&b);
	record_release(&r);
}

static void run_ids_are_random_hex(void **state)
{
	struct error err = ERROR_INIT;
	char a[RECORD_RUN_LEN + 1], b[RECORD_RUN_LEN + 1];

	(void)state;
	assert_int_equal(record_new_run(a, &err), 0);
	assert_int_equal(record_new_run(b, &err), 0);
	assert_int_equal(strlen(a), 16);
	assert_int_equal(strspn(a, "0123456789abcdef"), 16);
	assert_string_not_equal(a, b);
}

static void values_survive_the_round_trip(void **state)
{
	const double v[] = {0.1,     1e-300, 123456789.123456789,
			    -2.5e17, 41.7,   1.0 / 3};
	struct error err = ERROR_INIT;
	struct record r, d;
	size_t i;

	(void)state;
	record_init(&d);
	for (i = 0; i < sizeof(v) / sizeof(*v); i++) {
		struct buf b = BUF_INIT;

		record_init(&r);
		memcpy(r.run, "0123456789abcdef", 17);
		r.metric = strdup("m");
		r.env = strdup("e");
		r.at = strdup("t");
		r.value = v[i];
		assert_int_equal(record_encode(&b, &r, &err), 0);
		assert_int_equal(record_decode(&d, b.ptr, b.len, &err), 0);
		assert_true(d.value == v[i]);
		buf_release(&b);
		record_release(&r);
	}
	record_release(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(decode_then_encode_gives_the_same_line),
		cmocka_unit_test(keys_come_in_the_design_order),
		cmocka_unit_test(bad_lines_are_refused_with_the_reason),
		cmocka_unit_test(a_summary_and_its_raw_input_round_trip),
		cmocka_unit_test(a_repeat_keeps_its_seq_after_the_run),
		cmocka_unit_test(unknown_keys_are_ignored),
		cmocka_unit_test(config_is_canonical),
		cmocka_unit_test(encode_checks_the_record),
		cmocka_unit_test(run_ids_are_random_hex),
		cmocka_unit_test(values_survive_the_round_trip),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
