/* Unit tests for src/import/hyperfine.c: --export-json files, parameter
 * scans, null stddev and exit codes, malformed input. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "import/hyperfine.h"
#include "import/formats.h"
#include "import/jfr.h"
#include "util/xalloc.h"

static char *fixture(const char *name)
{
	const char *src = getenv("SRC_DIR");

	return xasprintf("%s/tests/fixtures/hyperfine/%s", src ? src : ".",
			 name);
}

static int has_config(const struct import_rec *r, const char *kv)
{
	size_t i;

	for (i = 0; i < r->config.nr; i++)
		if (!strcmp(r->config.v[i], kv))
			return 1;
	return 0;
}

/* The record of metric whose config holds c1 (and c2 when given). */
static const struct import_rec *find(const struct import_set *s,
				     const char *metric, const char *c1,
				     const char *c2)
{
	size_t i;

	for (i = 0; i < s->nr; i++)
		if (!strcmp(s->recs[i].metric, metric) &&
		    has_config(&s->recs[i], c1) &&
		    (!c2 || has_config(&s->recs[i], c2)))
			return &s->recs[i];
	return NULL;
}

static void load(struct import_set *s, const char *name)
{
	struct error err = ERROR_INIT;
	char *path = fixture(name);

	if (import_path(s, NULL, path, &err))
		fail_msg("%s: %s", name, err.msg);
	assert_string_equal(s->format, "hyperfine");
	free(path);
}

static int parse(struct import_set *s, const char *text, struct error *err)
{
	return import_data(s, import_format_find("hyperfine"), text,
			   strlen(text), "hf.json", err);
}

static void assert_malformed(const char *text, const char *want)
{
	struct import_set s = IMPORT_SET_INIT;
	struct error err = ERROR_INIT;

	assert_int_equal(parse(&s, text, &err), GCAMP_EFATAL);
	assert_int_equal(s.nr, 0);
	assert_null(strchr(err.msg, '\n'));
	if (!strstr(err.msg, want))
		fail_msg("'%s' lacks '%s'", err.msg, want);
	import_set_release(&s);
}

static void fixture_gives_median_samples_in_ns(void **state)
{
	struct import_set s = IMPORT_SET_INIT;
	const struct import_rec *r;

	(void)state;
	load(&s, "sleep-two-commands.json");
	/* two results: time, user, system, failures each */
	assert_int_equal(s.nr, 8);
	r = &s.recs[0];
	assert_string_equal(r->metric, "hyperfine.time");
	assert_string_equal(r->stat, "median");
	assert_string_equal(r->unit, "ns");
	assert_int_equal(r->better, IMPORT_BETTER_LOWER);
	assert_int_equal(r->config.nr, 1);
	assert_string_equal(r->config.v[0], "command=sleep 0.01");
	assert_true(fabs(r->value - 17057700) < 1e-3);
	assert_int_equal(r->nsamples, 10);
	assert_true(fabs(r->samples[0] - 15207031) < 1e-3);
	assert_true(fabs(r->samples[9] - 15593135) < 1e-3);
	r = find(&s, "hyperfine.time", "command=sleep 0.02", NULL);
	assert_non_null(r);
	assert_int_equal(r->nsamples, 10);
	assert_true(fabs(r->value - 26342653) < 1e-3);
	r = find(&s, "hyperfine.user", "command=sleep 0.01", NULL);
	assert_non_null(r);
	assert_string_equal(r->stat, "mean");
	assert_true(fabs(r->value - 1633600) < 1e-3);
	r = find(&s, "hyperfine.system", "command=sleep 0.02", NULL);
	assert_non_null(r);
	assert_true(fabs(r->value - 3244200) < 1e-3);
	r = find(&s, "hyperfine.failures", "command=sleep 0.01", NULL);
	assert_non_null(r);
	assert_true(r->value == 0);
	assert_null(r->unit);
	assert_null(find(&s, "hyperfine.memory", "command=sleep 0.01", NULL));
	import_set_release(&s);
}

static void scans_and_lists_become_config(void **state)
{
	struct import_set s = IMPORT_SET_INIT;
	const struct import_rec *r;

	(void)state;
	load(&s, "scan-parameter.json");
	r = find(&s, "hyperfine.time", "command=sleep 0.002", "n=2");
	assert_non_null(r);
	assert_int_equal(r->config.nr, 2);
	assert_int_equal(r->nsamples, 2);
	assert_non_null(
		find(&s, "hyperfine.user", "command=sleep 0.001", "n=1"));
	import_set_release(&s);

	load(&s, "list-exit-137.json");
	r = find(&s, "hyperfine.failures", "what=bad", NULL);
	assert_non_null(r);
	assert_true(r->value == 3);
	r = find(&s, "hyperfine.failures", "what=ok", NULL);
	assert_non_null(r);
	assert_true(r->value == 0);
	r = find(&s, "hyperfine.time", "what=ok", NULL);
	assert_non_null(r);
	assert_true(has_config(
		r, "command=sh -c \"test ok = ok || kill -9 \\$\\$\""));
	import_set_release(&s);
}

static void nulls_missing_median_memory_and_new_keys(void **state)
{
	struct import_set s = IMPORT_SET_INIT;
	struct error err = ERROR_INIT;
	const struct import_rec *r;
	/* newer hyperfine: a metadata object, memory, numeric parameters;
	 * older: no median; killed runs as null exit codes */
	const char *text =
		"{\"metadata\": {\"hyperfine_version\": \"1.19.0\", "
		"\"platform\": {\"os\": \"linux\"}},\n"
		" \"results\": [{\"command\": \"a\", \"mean\": 2, "
		"\"stddev\": null, \"user\": null, \"times\": [3, 1, 2, 10], "
		"\"exit_codes\": [0, null, 1, 0], "
		"\"memory_usage_byte\": [100, 300, 200], "
		"\"parameters\": {\"threads\": 4, \"mode\": \"x y\"}}]}";

	(void)state;
	assert_true(hyperfine_detect(text, strlen(text)));
	assert_false(jfr_detect(text, strlen(text)));
	assert_int_equal(parse(&s, text, &err), 0);
	r = find(&s, "hyperfine.time", "threads=4", "mode=x y");
	assert_non_null(r);
	assert_true(r->value == 2.5e9); /* median of 1, 2, 3, 10 s */
	assert_int_equal(r->nsamples, 4);
	assert_null(find(&s, "hyperfine.user", "command=a", NULL));
	r = find(&s, "hyperfine.failures", "command=a", NULL);
	assert_true(r->value == 2);
	r = find(&s, "hyperfine.memory", "command=a", NULL);
	assert_non_null(r);
	assert_string_equal(r->unit, "B");
	assert_true(r->value == 200);
	assert_int_equal(r->nsamples, 3);
	import_set_release(&s);

	load(&s, "one-run-null-stddev.json");
	assert_int_equal(s.nr, 4);
	assert_int_equal(s.recs[0].nsamples, 1);
	assert_true(fabs(s.recs[0].value - 5329453.5) < 1e-3);
	import_set_release(&s);
}

static void malformed_input_names_the_line(void **state)
{
	char *text;

	(void)state;
	/* cut short in the second result: nothing of the first is kept */
	text = xstrdup("{\"results\": [\n{\"command\": \"a\", \"median\": 1},\n"
		       "{\"command\": \"b\", \"median\": 1, \"times\": [1,");
	assert_malformed(text, "hf.json:3: expected a JSON value");
	free(text);
	assert_malformed("{\"results\": [{\"command\": \"a\",\n"
			 "\"median\": \"fast\"}]}",
			 "hf.json:2: expected a \"median\" time in seconds");
	assert_malformed("{\"results\": [{\"command\": \"a\", \"median\": 1,\n"
			 "\"times\": [1, -2]}]}",
			 "hf.json:2: expected a \"times\" array of seconds");
	assert_malformed("{\"results\": [{\"command\": \"a\", \"median\": 1,\n"
			 "\"exit_codes\": [0, 1.5]}]}",
			 "hf.json:2: expected an \"exit_codes\" array");
	assert_malformed("{\"results\": [{\"command\": \"a\", \"median\": 1,\n"
			 "\"parameters\": {\"command\": \"x\"}}]}",
			 "hf.json:2: expected a \"parameters\" object");
	assert_malformed("{\"results\": [\n\n{\"median\": 1}]}",
			 "hf.json:3: expected a \"command\" in this result");
	assert_malformed("{\"results\": [{\"command\": \"a\"}]}",
			 "hf.json:1: expected a \"median\" or \"times\"");
	assert_malformed("{\"results\": []}",
			 "expected a \"results\" array with one result");
	assert_malformed("{\"results\": {}}", "expected a \"results\" array");
	assert_malformed("[1, 2]", "hf.json:1: expected a JSON object");
	assert_malformed("{\"results\": [{\"command\": \"a\", \"median\": "
			 "1e999}]}",
			 "expected a \"median\" time");
	assert_malformed("{\"results\": [{\"command\": \"a\", \"median\": 1}]}"
			 "{}",
			 "expected the end of the input");
}

static void parse_respects_len(void **state)
{
	struct import_set s = IMPORT_SET_INIT;
	struct error err = ERROR_INIT;
	const char *text = "{\"results\": [{\"command\": \"a\", \"median\": "
			   "1}]}]]] and more";
	size_t len = strlen(text) - strlen("]] and more") - 1;

	(void)state;
	assert_int_equal(import_data(&s, import_format_find("hyperfine"), text,
				     len, "-", &err),
			 0);
	assert_int_equal(s.nr, 1);
	import_set_release(&s);
	assert_int_equal(import_data(&s, import_format_find("hyperfine"), text,
				     len - 1, "-", &err),
			 GCAMP_EFATAL);
	assert_non_null(strstr(err.msg, "stdin:1: expected"));
	import_set_release(&s);
}

static void detector_does_not_misfire(void **state)
{
	const char *jfr = "{\"recording\": {\"events\": []}}";
	const char *llm = "{\"model\": \"Llama\", \"tokens_per_second\": 4}";

	(void)state;
	assert_false(hyperfine_detect(jfr, strlen(jfr)));
	assert_false(hyperfine_detect(llm, strlen(llm)));
	assert_false(hyperfine_detect("command,mean,stddev,median\n", 27));
	assert_false(hyperfine_detect("", 0));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(fixture_gives_median_samples_in_ns),
		cmocka_unit_test(scans_and_lists_become_config),
		cmocka_unit_test(nulls_missing_median_memory_and_new_keys),
		cmocka_unit_test(malformed_input_names_the_line),
		cmocka_unit_test(parse_respects_len),
		cmocka_unit_test(detector_does_not_misfire),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
