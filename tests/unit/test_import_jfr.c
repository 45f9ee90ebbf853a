/* Unit tests for src/import/jfr.c: jfr print --json, jfr view tables, and
 * binary recordings recognised and refused. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <dirent.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "import/hyperfine.h"
#include "import/formats.h"
#include "import/jfr.h"
#include "util/buf.h"
#include "util/xalloc.h"

#define EXEC "event=jdk.ExecutionSample"

static char *fixture(const char *name)
{
	const char *src = getenv("SRC_DIR");

	return xasprintf("%s/tests/fixtures/jfr/%s", src ? src : ".", name);
}

static void slurp(struct buf *b, const char *path)
{
	char chunk[4096];
	size_t n;
	FILE *f = fopen(path, "rb");

	assert_non_null(f);
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		buf_add(b, chunk, n);
	fclose(f);
}

static int has_config(const struct import_rec *r, const char *kv)
{
	size_t i;

	for (i = 0; i < r->config.nr; i++)
		if (!strcmp(r->config.v[i], kv))
			return 1;
	return 0;
}

/* The record of metric whose config is exactly c1 (and c2 when given). */
static const struct import_rec *find(const struct import_set *s,
				     const char *metric, const char *c1,
				     const char *c2)
{
	size_t i;

	for (i = 0; i < s->nr; i++) {
		const struct import_rec *r = &s->recs[i];

		if (strcmp(r->metric, metric) || !has_config(r, c1) ||
		    (c2 && !has_config(r, c2)) ||
		    r->config.nr != (c2 ? 2u : 1u))
			continue;
		return r;
	}
	return NULL;
}

static int parse(struct import_set *s, const char *text, struct error *err)
{
	return import_data(s, import_format_find("jfr"), text, strlen(text),
			   "t.json", err);
}

/* One error line "PATH:LINE: expected ..." and no records. */
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

static void json_fixture_gives_top_frame_counts(void **state)
{
	struct import_set s = IMPORT_SET_INIT;
	struct error err = ERROR_INIT;
	const struct import_rec *r;
	char *path = fixture("hot-jdk17-execution-samples.json");

	(void)state;
	assert_int_equal(import_path(&s, NULL, path, &err), 0);
	assert_string_equal(s.format, "jfr");
	/* the total, then two methods with a count and a share each */
	assert_int_equal(s.nr, 5);
	r = &s.recs[0];
	assert_string_equal(r->metric, "jfr.samples");
	assert_string_equal(r->stat, "count");
	assert_true(r->value == 255);
	assert_int_equal(r->config.nr, 1);
	assert_string_equal(r->config.v[0], EXEC);

	r = find(&s, "jfr.samples", EXEC, "method=Hot.slowPath(int)");
	assert_non_null(r);
	assert_true(r->value == 243);
	assert_null(r->unit);
	r = find(&s, "jfr.share", EXEC, "method=Hot.slowPath(int)");
	assert_non_null(r);
	assert_string_equal(r->stat, "share");
	assert_true(fabs(r->value - 0.953) < 0.0005);
	r = find(&s, "jfr.samples", EXEC, "method=Hot.fastPath(int)");
	assert_non_null(r);
	assert_true(r->value == 12);
	r = find(&s, "jfr.share", EXEC, "method=Hot.fastPath(int)");
	assert_non_null(r);
	assert_true(fabs(r->value - 0.047) < 0.0005);
	/* most sampled first */
	assert_true(has_config(&s.recs[1], "method=Hot.slowPath(int)"));
	import_set_release(&s);
	free(path);
}

static void view_table_gives_counts_and_shares(void **state)
{
	struct import_set s = IMPORT_SET_INIT;
	struct error err = ERROR_INIT;
	const struct import_rec *r;
	char *path = fixture("hot-methods-jdk25.txt");

	(void)state;
	assert_int_equal(import_path(&s, NULL, path, &err), 0);
	assert_string_equal(s.format, "jfr");
	/* top 25 only: no total, three methods */
	assert_int_equal(s.nr, 6);
	r = find(&s, "jfr.samples", EXEC, "method=Hot.spin(int)");
	assert_non_null(r);
	assert_true(r->value == 176);
	r = find(&s, "jfr.share", EXEC, "method=Hot.spin(int)");
	assert_non_null(r);
	assert_true(fabs(r->value - 0.64) < 1e-9);
	r = find(&s, "jfr.samples", EXEC,
		 "method=jdk.internal.util.ArraysSupport.hashCodeOfUnsigned("
		 "byte[], int, int, int)");
	assert_non_null(r);
	assert_true(r->value == 11);
	assert_null(find(&s, "jfr.samples", EXEC, NULL));
	import_set_release(&s);
	free(path);
}

static void view_variants_verbose_native_thousands(void **state)
{
	struct import_set s = IMPORT_SET_INIT;
	struct error err = ERROR_INIT;
	const struct import_rec *r;
	/* JDK 21's title, --verbose's second header row, CRLF, then a
	 * native-methods table */
	const char *text =
		"\r\n                 Java Methods that Executes the Most\r\n"
		"\r\n"
		"Method                                  Samples Percent\r\n"
		"(stackTrace.topFrame)               (startTime) "
		"(startTime)\r\n"
		"--------------------------------------- ------- -------\r\n"
		"java.lang.String.split(char, int, boolean)  1,084  19.72%\r\n"
		"\r\n"
		"          Waiting or Executing Native Methods\n"
		"\n"
		"Method                                  Samples Percent\n"
		"--------------------------------------- ------- -------\n"
		"sun.nio.ch.EPoll.wait(int, long, int, int)   7 100.00%\n";

	(void)state;
	assert_true(jfr_detect(text, strlen(text)));
	assert_int_equal(parse(&s, text, &err), 0);
	assert_int_equal(s.nr, 4);
	r = find(&s, "jfr.samples", EXEC,
		 "method=java.lang.String.split(char, int, boolean)");
	assert_non_null(r);
	assert_true(r->value == 1084);
	r = find(&s, "jfr.share", "event=jdk.NativeMethodSample",
		 "method=sun.nio.ch.EPoll.wait(int, long, int, int)");
	assert_non_null(r);
	assert_true(r->value == 1);
	import_set_release(&s);
}

static void view_errors_name_the_line(void **state)
{
	(void)state;
	assert_malformed("Method  Samples Percent\n"
			 "------- ------- -------\n"
			 "Hot.spin(int)  176  64.00%\n"
			 "Hot.other(int)  many  4.00%\n",
			 "t.json:4: expected a method, a sample count and a "
			 "percentage");
	assert_malformed("Method  Samples Percent\n"
			 "------- ------- -------\n"
			 "Hot.spin(int)  176  164.00%\n",
			 "t.json:3: expected");
	assert_malformed("hello\n", "t.json:1: expected jfr print --json");
	assert_malformed("No events found for 'Waiting or Executing Native "
			 "Methods'.\n",
			 "no samples in 't.json'");
	assert_malformed("Method  Samples Percent\n"
			 "------- ------- -------\n",
			 "no samples in 't.json'");
}

/* One sampled event whose top frame is cls.name with descriptor desc. */
static void add_event(struct buf *b, const char *type, const char *cls,
		      const char *name, const char *desc)
{
	buf_addf(b,
		 "{\"type\": \"%s\", \"values\": {\"stackTrace\": "
		 "{\"frames\": [{\"method\": {\"type\": {\"name\": \"%s\"}, "
		 "\"name\": \"%s\", \"descriptor\": \"%s\"}}]}}}",
		 type, cls, name, desc);
}

static void json_events_native_descriptors_and_no_stack(void **state)
{
	struct import_set s = IMPORT_SET_INIT;
	struct error err = ERROR_INIT;
	const struct import_rec *r;
	struct buf b = BUF_INIT;

	(void)state;
	buf_puts(&b, "{\"recording\": {\"other\": [1, {\"a\": \"]\"}], "
		     "\"events\": [");
	add_event(&b, "jdk.ExecutionSample", "app\\/Main", "main",
		  "([Ljava\\/lang\\/String;J[[I)V");
	buf_puts(&b, ", ");
	add_event(&b, "jdk.NativeMethodSample", "sun\\/nio\\/ch\\/EPoll",
		  "wait", "(IJII)I");
	buf_puts(&b, ", ");
	add_event(&b, "jdk.ObjectAllocationSample", "x", "y", "()V");
	buf_puts(&b, ", {\"type\": \"jdk.ExecutionSample\", \"values\": "
		     "{\"stackTrace\": null}}");
	buf_puts(&b, ", {\"type\": \"jdk.ExecutionSample\", \"values\": "
		     "{\"stackTrace\": {\"frames\": []}}}]}}\n");
	assert_true(jfr_detect(b.ptr, b.len));
	assert_false(hyperfine_detect(b.ptr, b.len));
	assert_int_equal(parse(&s, b.ptr, &err), 0);
	/* the exec total counts the samples without a stack */
	r = find(&s, "jfr.samples", EXEC, NULL);
	assert_non_null(r);
	assert_true(r->value == 3);
	r = find(&s, "jfr.share", EXEC,
		 "method=app.Main.main(String[], long, int[][])");
	assert_non_null(r);
	assert_true(fabs(r->value - 1.0 / 3) < 1e-12);
	r = find(&s, "jfr.samples", "event=jdk.NativeMethodSample", NULL);
	assert_non_null(r);
	assert_true(r->value == 1);
	assert_non_null(find(&s, "jfr.samples", "event=jdk.NativeMethodSample",
			     "method=sun.nio.ch.EPoll.wait(int, long, int, "
			     "int)"));
	/* 3 exec records + 3 native; the allocation sample is ignored */
	assert_int_equal(s.nr, 6);
	import_set_release(&s);
	buf_release(&b);
}

static void json_errors_name_the_line(void **state)
{
	struct buf b = BUF_INIT;
	char *path = fixture("hot-jdk17-execution-samples.json");

	(void)state;
	slurp(&b, path);
	/* cut in the middle of an event */
	b.ptr[5000] = '\0';
	assert_malformed(b.ptr, "t.json:");
	assert_malformed(b.ptr, ": expected a JSON event object");
	assert_malformed("{\"recording\": {\"events\": [\n"
			 "{\"type\": 5}]}}",
			 "t.json:2: expected an event object with a \"type\"");
	assert_malformed("{\"recording\": {\"events\": [{\"type\": "
			 "\"jdk.ExecutionSample\", \"values\": {\n"
			 "\"stackTrace\": {\"frames\": 3}}}]}}",
			 "t.json:1: expected a \"stackTrace\" with a "
			 "\"frames\" array");
	assert_malformed("{\"recording\": {\"events\": [{\"type\": "
			 "\"jdk.ExecutionSample\", \"values\": {"
			 "\"stackTrace\": {\"frames\": [{\"method\": {"
			 "\"type\": {\"name\": \"A\"}, \"name\": \"m\", "
			 "\"descriptor\": \"(Q)V\"}}]}}}]}}",
			 "expected a top frame whose \"method\"");
	assert_malformed("{\"recording\": {}}\n",
			 "t.json:2: expected a \"recording\" object with an "
			 "\"events\" array");
	assert_malformed("{\"recording\": {\"events\": []}} x",
			 "t.json:1: expected the end of the input");
	assert_malformed("{\"recording\": {\"events\": [}}",
			 "expected a JSON event object");
	assert_malformed("{\"recording\": {\"events\": []}}",
			 "no jdk.ExecutionSample or jdk.NativeMethodSample "
			 "events in 't.json'");
	buf_release(&b);
	free(path);
}

static void parse_respects_len(void **state)
{
	struct import_set s = IMPORT_SET_INIT;
	struct error err = ERROR_INIT;
	struct buf b = BUF_INIT;
	size_t len;

	(void)state;
	buf_puts(&b, "{\"recording\": {\"events\": [");
	add_event(&b, "jdk.ExecutionSample", "A", "m", "()V");
	buf_puts(&b, "]}}");
	len = b.len;
	buf_puts(&b, "]]]] trailing bytes past len");
	assert_int_equal(import_data(&s, import_format_find("jfr"), b.ptr, len,
				     "-", &err),
			 0);
	assert_non_null(find(&s, "jfr.samples", EXEC, "method=A.m()"));
	import_set_release(&s);
	/* one byte short: the closing brace is missing */
	assert_int_equal(import_data(&s, import_format_find("jfr"), b.ptr,
				     len - 1, "-", &err),
			 GCAMP_EFATAL);
	assert_non_null(strstr(err.msg, "stdin:1: expected"));
	import_set_release(&s);
	buf_release(&b);
}

/* A binary recording is recognised, and refused: the importer runs no
 * program (core/measure/convert.c does, see test_convert.c). */
static void binary_recording_is_refused_without_running_jfr(void **state)
{
	static const char rec[] = "FLR\0\0\2\0\1garbage";
	struct import_set s = IMPORT_SET_INIT;
	struct error err = ERROR_INIT;

	(void)state;
	assert_true(jfr_is_recording(rec, sizeof(rec) - 1));
	assert_int_equal(import_data(&s, NULL, rec, sizeof(rec) - 1, "-", &err),
			 GCAMP_EFATAL);
	assert_string_equal(err.msg,
			    "cannot read a binary JFR recording from stdin");
	error_clear(&err);
	assert_int_equal(import_data(&s, import_format_find("jfr"), rec,
				     sizeof(rec) - 1, "rec.jfr", &err),
			 GCAMP_EFATAL);
	assert_string_equal(err.msg, "cannot read the binary JFR recording "
				     "'rec.jfr' without jfr print");
	assert_int_equal(s.nr, 0);
	import_set_release(&s);
}

static void detectors_do_not_misfire(void **state)
{
	const char *hf = "{\"results\": [{\"command\": \"a\", \"median\": 1}]}";
	const char *csv = "\"ID\",\"Process ID\",\"Kernel Name\"\n"
			  "\"0\",\"1\",\"vadd\"\n";
	const char *xml = "<?xml version=\"1.0\"?><testsuite name=\"x\"/>";

	(void)state;
	assert_false(jfr_detect(hf, strlen(hf)));
	assert_false(jfr_detect(csv, strlen(csv)));
	assert_false(jfr_detect(xml, strlen(xml)));
	assert_false(jfr_detect("", 0));
	assert_false(jfr_detect("FLR", 3));
	assert_true(jfr_detect("FLR\0", 4));
	assert_false(jfr_detect("Method Samples Percent\n", 23));
}

/* A file libFuzzer found and named by its SHA-1: a mutation, in no
 * format's shape, unlike the seeds written as the format's own */
static int found_by_fuzzing(const char *name)
{
	size_t i;

	for (i = 0; name[i]; i++)
		if (!((name[i] >= '0' && name[i] <= '9') ||
		      (name[i] >= 'a' && name[i] <= 'f')))
			return 0;
	return i == 40;
}

/* Every fuzz seed of every format (tests/fuzz/corpus/NAME/) is claimed by
 * the jfr and hyperfine detectors only when NAME is theirs. */
static void detectors_claim_only_their_own_seeds(void **state)
{
	const char *src = getenv("SRC_DIR");
	char *root = xasprintf("%s/tests/fuzz/corpus", src ? src : ".");
	DIR *top = opendir(root), *d;
	struct dirent *f, *g;
	size_t seeds = 0;

	(void)state;
	assert_non_null(top);
	while ((f = readdir(top))) {
		char *dir = xasprintf("%s/%s", root, f->d_name);

		d = f->d_name[0] == '.' ? NULL : opendir(dir);
		while (d && (g = readdir(d))) {
			struct buf b = BUF_INIT;
			char *file = xasprintf("%s/%s", dir, g->d_name);
			size_t len;

			if (g->d_name[0] != '.' &&
			    !found_by_fuzzing(g->d_name)) {
				slurp(&b, file);
				len = b.len < 65536 ? b.len : 65536;
				if (!!jfr_detect(b.ptr, len) !=
				    !strcmp(f->d_name, "jfr"))
					fail_msg("jfr_detect is wrong on %s",
						 file);
				if (!!hyperfine_detect(b.ptr, len) !=
				    !strcmp(f->d_name, "hyperfine"))
					fail_msg("hyperfine_detect is wrong "
						 "on %s",
						 file);
				seeds++;
			}
			buf_release(&b);
			free(file);
		}
		if (d)
			closedir(d);
		free(dir);
	}
	closedir(top);
	free(root);
	assert_true(seeds >= 20);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(json_fixture_gives_top_frame_counts),
		cmocka_unit_test(view_table_gives_counts_and_shares),
		cmocka_unit_test(view_variants_verbose_native_thousands),
		cmocka_unit_test(view_errors_name_the_line),
		cmocka_unit_test(json_events_native_descriptors_and_no_stack),
		cmocka_unit_test(json_errors_name_the_line),
		cmocka_unit_test(parse_respects_len),
		cmocka_unit_test(
			binary_recording_is_refused_without_running_jfr),
		cmocka_unit_test(detectors_do_not_misfire),
		cmocka_unit_test(detectors_claim_only_their_own_seeds),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
