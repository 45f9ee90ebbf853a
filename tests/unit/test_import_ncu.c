/* Unit tests for src/import/ncu.c: Nsight Compute's CSV (stdout and
 * --import forms, details and raw pages), its text report, unit
 * normalisation, the "no counters" outputs and malformed input, on the
 * H200 fixtures in tests/fixtures/ncu (see SOURCE.md there). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import/formats.h"
#include "import/ncu.h"
#include "util/buf.h"

/* Reads a fixture into a buffer of exactly its size (no terminating NUL,
 * so the sanitizers catch a read past the end). */
static char *fixture(const char *name, size_t *len)
{
	const char *dir = getenv("SRC_DIR");
	char path[4096], *data;
	FILE *f;
	long n;

	snprintf(path, sizeof(path), "%s/tests/fixtures/ncu/%s",
		 dir ? dir : ".", name);
	f = fopen(path, "rb");
	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	assert_true(n > 0);
	rewind(f);
	data = malloc((size_t)n);
	assert_non_null(data);
	assert_int_equal(fread(data, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return data;
}

/* Parses len bytes copied to an exact-size buffer. */
static int parse(struct import_set *out, const char *data, size_t len,
		 const char *path, struct error *err)
{
	char *copy = malloc(len ? len : 1);
	int rc;

	assert_non_null(copy);
	memcpy(copy, data, len);
	rc = ncu_parse(out, copy, len, path, err);
	free(copy);
	return rc;
}

static int parse_str(struct import_set *out, const char *s, struct error *err)
{
	return parse(out, s, strlen(s), "t.csv", err);
}

static int has_config(const struct import_rec *r, const char *kv)
{
	size_t i;

	for (i = 0; i < r->config.nr; i++)
		if (!strcmp(r->config.v[i], kv))
			return 1;
	return 0;
}

/* The record of metric for launch id, which must exist once. */
static const struct import_rec *find(const struct import_set *s,
				     const char *metric, const char *launch)
{
	const struct import_rec *found = NULL;
	char kv[64];
	size_t i;

	snprintf(kv, sizeof(kv), "launch=%s", launch);
	for (i = 0; i < s->nr; i++)
		if (!strcmp(s->recs[i].metric, metric) &&
		    has_config(&s->recs[i], kv)) {
			assert_null(found);
			found = &s->recs[i];
		}
	assert_non_null(found);
	return found;
}

static size_t count_metric(const struct import_set *s, const char *metric)
{
	size_t i, n = 0;

	for (i = 0; i < s->nr; i++)
		n += !strcmp(s->recs[i].metric, metric);
	return n;
}

static void assert_same_records(const struct import_set *a,
				const struct import_set *b)
{
	size_t i, j;

	assert_int_equal(a->nr, b->nr);
	for (i = 0; i < a->nr; i++) {
		const struct import_rec *x = &a->recs[i], *y = &b->recs[i];

		assert_string_equal(x->metric, y->metric);
		assert_true(x->value == y->value);
		if (x->unit || y->unit) {
			assert_non_null(x->unit);
			assert_non_null(y->unit);
			assert_string_equal(x->unit, y->unit);
		}
		assert_string_equal(x->stat, y->stat);
		assert_int_equal(x->better, y->better);
		assert_int_equal(x->config.nr, y->config.nr);
		for (j = 0; j < x->config.nr; j++)
			assert_string_equal(x->config.v[j], y->config.v[j]);
	}
}

static void details_fixture_has_the_facts(void **state)
{
	struct import_set s = IMPORT_SET_INIT;
	struct error err = ERROR_INIT;
	const struct import_rec *r;
	size_t len, i;
	char *data = fixture("h200-vadd-import-details.csv", &len);

	(void)state;
	assert_int_equal(parse(&s, data, len, "d.csv", &err), 0);
	/* 40 metric rows per launch, 3 of them text (PolicySpread, ...) */
	assert_int_equal(s.nr, 2 * 37);
	for (i = 0; i < s.nr; i++) {
		assert_true(has_config(&s.recs[i], "kernel=vadd"));
		assert_true(has_config(&s.recs[i], "block=(256,1,1)"));
		assert_true(has_config(&s.recs[i], "grid=(65536,1,1)"));
		assert_true(has_config(&s.recs[i],
				       i < 37 ? "launch=0" : "launch=1"));
		assert_string_equal(s.recs[i].stat, "value");
	}
	r = find(&s, "Duration", "0");
	assert_true(r->value == 58880.0);
	assert_string_equal(r->unit, "ns");
	assert_int_equal(r->better, IMPORT_BETTER_LOWER);
	assert_true(has_config(r, "section=GPU Speed Of Light Throughput"));
	assert_true(find(&s, "Duration", "1")->value == 59740.0);
	r = find(&s, "DRAM Throughput", "0");
	assert_true(r->value == 66.78);
	assert_string_equal(r->unit, "%");
	assert_int_equal(r->better, IMPORT_BETTER_UNKNOWN);
	r = find(&s, "Elapsed Cycles", "0");
	assert_true(r->value == 116500.0);
	assert_string_equal(r->unit, "cycle");
	assert_true(find(&s, "Elapsed Cycles", "1")->value == 118247.0);
	r = find(&s, "DRAM Frequency", "0");
	assert_true(r->value == 3.2e9);
	assert_string_equal(r->unit, "hz");
	/* a launch's sizes are binary: 32.77 Kbyte and 1.02 Kbyte/block are
	 * the 32,768 and 1,024 that ncu's base-unit forms print */
	r = find(&s, "Shared Memory Configuration Size", "0");
	assert_true(r->value == 32768.0);
	assert_string_equal(r->unit, "byte");
	r = find(&s, "Driver Shared Memory Per Block", "1");
	assert_true(r->value == 1024.0);
	assert_string_equal(r->unit, "byte/block");
	r = find(&s, "Grid Size", "0");
	assert_true(r->value == 65536.0);
	assert_null(r->unit);
	assert_true(has_config(r, "section=Launch Statistics"));
	assert_true(find(&s, "Threads", "0")->value == 16777216.0);
	assert_true(find(&s, "Achieved Occupancy", "1")->value == 74.40);
	/* text values and rule rows give no record */
	assert_int_equal(count_metric(&s, "Cluster Scheduling Policy"), 0);
	assert_int_equal(count_metric(&s, "Enabled TPC IDs"), 0);
	assert_int_equal(count_metric(&s, ""), 0);
	import_set_release(&s);
	free(data);
}

static void stdout_form_gives_the_same_records(void **state)
{
	struct import_set a = IMPORT_SET_INIT, b = IMPORT_SET_INIT;
	struct error err = ERROR_INIT;
	size_t alen, blen;
	char *imp = fixture("h200-vadd-import-details.csv", &alen);
	char *out = fixture("h200-vadd-stdout-base-units.txt", &blen);

	(void)state;
	assert_int_equal(parse(&a, imp, alen, "a", &err), 0);
	assert_int_equal(parse(&b, out, blen, "b", &err), 0);
	assert_int_equal(b.nr, 74);
	assert_same_records(&a, &b);
	import_set_release(&a);
	import_set_release(&b);
	free(imp);
	free(out);
}

static void text_report_gives_the_same_records(void **state)
{
	struct import_set a = IMPORT_SET_INIT, b = IMPORT_SET_INIT;
	struct error err = ERROR_INIT;
	size_t alen, blen;
	char *csv = fixture("h200-vadd-import-details.csv", &alen);
	char *txt = fixture("h200-vadd-import-text.txt", &blen);

	(void)state;
	assert_int_equal(parse(&a, csv, alen, "a", &err), 0);
	assert_int_equal(parse(&b, txt, blen, "b", &err), 0);
	assert_same_records(&a, &b);
	import_set_release(&a);
	import_set_release(&b);
	free(csv);
	free(txt);
}

static void raw_page_is_one_row_per_launch(void **state)
{
	struct import_set s = IMPORT_SET_INIT;
	struct error err = ERROR_INIT;
	const struct import_rec *r;
	size_t len;
	char *data = fixture("raw-page.csv", &len);

	(void)state;
	assert_int_equal(parse(&s, data, len, "raw.csv", &err), 0);
	assert_int_equal(s.nr, 3);
	/* named as the details page names it, with its section */
	assert_int_equal(count_metric(&s, "gpu__time_duration.sum"), 0);
	r = find(&s, "Duration", "0");
	assert_true(r->value == 40000.0); /* 4.0e-05 second */
	assert_string_equal(r->unit, "ns");
	assert_true(has_config(r, "kernel=w13_kernel"));
	assert_true(has_config(r, "grid=(5,20,1)"));
	assert_true(has_config(r, "section=GPU Speed Of Light Throughput"));
	assert_int_equal(r->config.nr, 5);
	r = find(&s, "dram__bytes_read.sum", "0");
	assert_true(r->value == 10240000.0);
	assert_string_equal(r->unit, "byte");
	assert_true(find(&s, "dram__bytes_write.sum", "0")->value == 2048.0);
	import_set_release(&s);
	free(data);
}

static void twenty_column_variant_after_prof_line(void **state)
{
	struct import_set s = IMPORT_SET_INIT;
	struct error err = ERROR_INIT;
	size_t len;
	char *data = fixture("twenty-columns.txt", &len);

	(void)state;
	assert_int_equal(parse(&s, data, len, "t", &err), 0);
	assert_int_equal(s.nr, 1);
	assert_string_equal(s.recs[0].metric, "Achieved Occupancy");
	assert_true(s.recs[0].value == 50.0);
	assert_true(has_config(&s.recs[0], "section=Occupancy"));
	import_set_release(&s);
	free(data);
}

/* One details row of the given unit and value, parsed */
static int one_metric(struct import_set *s, const char *unit, const char *value,
		      struct error *err)
{
	struct buf b = BUF_INIT;
	int rc;

	buf_puts(&b, "\"ID\",\"Kernel Name\",\"Section Name\",\"Metric "
		     "Name\",\"Metric Unit\",\"Metric Value\"\n");
	buf_addf(&b, "\"3\",\"k\",\"S\",\"m\",\"%s\",\"%s\"\n", unit, value);
	rc = parse(s, b.ptr, b.len, "u.csv", err);
	buf_release(&b);
	return rc;
}

static void units_are_normalised(void **state)
{
	static const struct {
		const char *unit, *value, *want_unit;
		double want;
	} cases[] = {
		{"nsecond", "1,234", "ns", 1234},
		{"usecond", "58.88", "ns", 58880},
		{"us", "58.88", "ns", 58880},
		{"msecond", "1.5", "ns", 1500000},
		{"ms", "0.001", "ns", 1000},
		{"second", "4.0e-05", "ns", 40000},
		{"s", "2", "ns", 2e9},
		{"Ghz", "1.98", "hz", 1.98e9},
		{"GHz", "1.98", "hz", 1.98e9},
		{"Mhz", "1,593", "hz", 1.593e9},
		{"khz", "500", "hz", 5e5},
		{"hz", "3,200,000,000", "hz", 3.2e9},
		{"cycle/nsecond", "1.41", "hz", 1.41e9},
		{"cycle/usecond", "1,410", "hz", 1.41e9},
		{"cycle/second", "1,410,000,000", "hz", 1.41e9},
		{"Kbyte", "32.77", "byte", 32770},
		{"Mbyte", "1.5", "byte", 1.5e6},
		{"Gbyte", "2", "byte", 2e9},
		{"KiB", "2", "byte", 2048},
		{"MiB", "1", "byte", 1048576},
		{"byte", "53,261,312", "byte", 53261312},
		{"Gbyte/second", "3.35", "byte/s", 3.35e9},
		{"Tbyte/s", "1", "byte/s", 1e12},
		{"byte/usecond", "2", "byte/s", 2e6},
		{"Kbyte/block", "1.02", "byte/block", 1020},
		{"%", "66.78", "%", 66.78},
		{"cycle", "111,957.39", "cycle", 111957.39},
		{"register/thread", "16", "register/thread", 16},
		{"inst/cycle", "0.5", "inst/cycle", 0.5},
		{"warp", "-1.5e2", "warp", -150},
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct import_set s = IMPORT_SET_INIT;
		struct error err = ERROR_INIT;

		assert_int_equal(
			one_metric(&s, cases[i].unit, cases[i].value, &err), 0);
		assert_int_equal(s.nr, 1);
		if (s.recs[0].value != cases[i].want)
			fail_msg("%s %s: %.17g, want %.17g", cases[i].unit,
				 cases[i].value, s.recs[0].value,
				 cases[i].want);
		assert_string_equal(s.recs[0].unit, cases[i].want_unit);
		assert_true(has_config(&s.recs[0], "launch=3"));
		assert_true(has_config(&s.recs[0], "section=S"));
		import_set_release(&s);
	}
}

static void not_applicable_values_are_skipped(void **state)
{
	struct import_set s = IMPORT_SET_INIT;
	struct error err = ERROR_INIT;

	(void)state;
	assert_int_equal(
		parse_str(&s,
			  "\"ID\",\"Kernel Name\",\"Metric Name\",\"Metric "
			  "Unit\",\"Metric Value\"\n"
			  "\"0\",\"k\",\"a\",\"us\",\"n/a\"\n"
			  "\"0\",\"k\",\"b\",\"\",\"CachePreferNone\"\n"
			  "\"0\",\"k\",\"c\",\"us\",\"\"\n"
			  "\"0\",\"k\",\"e\",\"%\",\"-\"\n"
			  "\"0\",\"k\",\"f\",\"%\",\"no data\"\n"
			  "\"0\",\"k\",\"d\",\"us\",\"1\"\n",
			  &err),
		0);
	assert_int_equal(s.nr, 1);
	assert_string_equal(s.recs[0].metric, "d");
	/* no Section Name column: no section key */
	assert_int_equal(s.recs[0].config.nr, 2);
	import_set_release(&s);
}

/* Every section the classifier names next, as ncu 2025.3.1 wrote it on an
 * H200: each imports whole (counts from the files: metric rows with a
 * number, two launches). */
static void every_next_section_imports(void **state)
{
	static const struct {
		const char *file;
		size_t records;
		const char *metric; /* one the section adds */
	} cases[] = {
		{"h200-vadd-sol-ComputeWorkloadAnalysis.txt", 30,
		 "Executed Ipc Active"},
		{"h200-vadd-sol-LaunchStats.txt", 48, "Registers Per Thread"},
		{"h200-vadd-sol-MemoryWorkloadAnalysis.txt", 42, "Mem Busy"},
		{"h200-vadd-sol-Occupancy.txt", 46, "Achieved Occupancy"},
		{"h200-vadd-sol-SchedulerStats.txt", 30,
		 "One or More Eligible"},
		{"h200-vadd-sol-WarpStateStats.txt", 28,
		 "Warp Cycles Per Issued Instruction"},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct import_set s = IMPORT_SET_INIT;
		struct error err = ERROR_INIT;
		size_t len;
		char *data = fixture(cases[i].file, &len);

		if (parse(&s, data, len, cases[i].file, &err))
			fail_msg("%s: %s", cases[i].file, err.msg);
		assert_int_equal(s.nr, cases[i].records);
		assert_int_equal(count_metric(&s, cases[i].metric), 2);
		assert_int_equal(
			count_metric(&s,
				     "Local Memory Spilling Request Overhead"),
			0);
		import_set_release(&s);
		free(data);
	}
}

/* parse must fail with exactly msg and leave no records */
static void expect_error(const char *data, size_t len, const char *path,
			 const char *msg, const char *hint_part)
{
	struct import_set s = IMPORT_SET_INIT;
	struct error err = ERROR_INIT;

	assert_int_equal(parse(&s, data, len, path, &err), GCAMP_EFATAL);
	assert_string_equal(err.msg, msg);
	if (hint_part)
		assert_non_null(strstr(err.hint, hint_part));
	import_set_release(&s);
}

static void counters_unavailable_is_a_machine_problem(void **state)
{
	struct import_set s = IMPORT_SET_INIT;
	struct error err = ERROR_INIT;
	size_t len;
	char *data = fixture("err-nvgpuctrperm.txt", &len);
	const char *one_line =
		"==ERROR== ERR_NVGPUCTRPERM - The user does not have "
		"permission to access NVIDIA GPU Performance Counters on the "
		"target device 0. For instructions on enabling permissions "
		"and to get more information see "
		"https://developer.nvidia.com/ERR_NVGPUCTRPERM\n";
	const char *nvprof = "==4242== Warning: ERR_NVGPUCTRPERM - The user "
			     "does not have permission to profile on the "
			     "target device.\n";

	(void)state;
	assert_int_equal(parse(&s, data, len, "perm.txt", &err), GCAMP_EFATAL);
	assert_int_equal(s.nr, 0);
	assert_non_null(strstr(err.msg, "perm.txt:3: ncu could not read "
					"the GPU performance counters "
					"(ERR_NVGPUCTRPERM)"));
	assert_non_null(
		strstr(err.hint, "NVreg_RestrictProfilingToAdminUsers=0"));
	free(data);
	expect_error(one_line, strlen(one_line), "-",
		     "stdin:1: ncu could not read the GPU performance "
		     "counters (ERR_NVGPUCTRPERM): this machine lets only "
		     "administrators profile; no results were recorded",
		     "RmProfilingAdminOnly");
	/* nvprof's older wording */
	expect_error(nvprof, strlen(nvprof), "p",
		     "p:1: ncu could not read the GPU performance counters "
		     "(ERR_NVGPUCTRPERM): this machine lets only "
		     "administrators profile; no results were recorded",
		     NULL);
}

static void other_no_counter_outputs(void **state)
{
	const char *lib = "==PROF== Connected to process 7 (/x)\n"
			  "==ERROR== Failed to initialize the profiler: "
			  "LibraryNotLoaded\n"
			  "==WARNING== No kernels were profiled.\n";
	const char *busy = "==ERROR== Profiling failed because a driver "
			   "resource was unavailable. Ensure that no other "
			   "tool (like DCGM) is concurrently collecting "
			   "profiling data.\n";
	const char *none = "==PROF== Connected to process 7 (/x)\n"
			   "hello from the program\n"
			   "==PROF== Disconnected from process 7\n"
			   "==WARNING== No kernels were profiled.\n";

	(void)state;
	expect_error(lib, strlen(lib), "l",
		     "l:2: ncu could not start its profiler "
		     "(LibraryNotLoaded): this machine does not expose the "
		     "GPU's performance counters; no results were recorded",
		     "gVisor");
	expect_error(busy, strlen(busy), "b",
		     "b:1: ncu could not get the GPU's performance counters: "
		     "another tool holds them; no results were recorded",
		     "dcgmi");
	expect_error(none, strlen(none), "n",
		     "n:4: ncu profiled no kernels; no results were recorded",
		     "--target-processes all");
}

static void malformed_lines_are_named(void **state)
{
	const char *head = "\"ID\",\"Kernel Name\",\"Section Name\",\"Metric "
			   "Name\",\"Metric Unit\",\"Metric Value\"\n";
	struct buf b = BUF_INIT;

	(void)state;
	buf_puts(&b, head);
	buf_puts(&b, "\"0\",\"k\",\"S\",\"m\",\"us\",\"1\"\n");
	buf_puts(&b, "\"0\",\"k\",\"S\",\"m\",\"us\",\"1\n");
	expect_error(b.ptr, b.len, "m.csv",
		     "m.csv:3: expected a closing quote and a comma after it",
		     NULL);
	buf_reset(&b);
	buf_puts(&b, head);
	buf_puts(&b, "\"0\",\"k\",\"S\"x,\"m\",\"us\",\"1\"\n");
	expect_error(b.ptr, b.len, "m.csv",
		     "m.csv:2: expected a closing quote and a comma after it",
		     NULL);
	buf_reset(&b);
	buf_puts(&b, "program output\n==PROF== x\n");
	buf_puts(&b, head);
	buf_puts(&b, "\"0\",\"k\",\"S\",\"m\"\n");
	expect_error(b.ptr, b.len, "m.csv",
		     "m.csv:4: expected 6 fields as in the header on line 3, "
		     "found 4",
		     NULL);
	buf_reset(&b);
	buf_puts(&b, head);
	buf_puts(&b, "\"zero\",\"k\",\"S\",\"m\",\"us\",\"1\"\n");
	expect_error(b.ptr, b.len, "m.csv",
		     "m.csv:2: expected a launch number in column \"ID\"",
		     NULL);
	buf_reset(&b);
	buf_puts(&b, head);
	buf_puts(&b, "\"0\",\"\",\"S\",\"m\",\"us\",\"1\"\n");
	expect_error(b.ptr, b.len, "m.csv",
		     "m.csv:2: expected a kernel name in column \"Kernel "
		     "Name\"",
		     NULL);
	buf_reset(&b);
	buf_puts(&b, head);
	buf_puts(&b, "\"0\",\"k\",\"S\",\"m\",\"us\",\"1\"\n");
	buf_puts(&b, "\"1\",\"k\",\"S\",\"m\",\"us\",\"fast\"\n");
	expect_error(b.ptr, b.len, "m.csv",
		     "m.csv:3: expected a number as the metric's value", NULL);
	buf_reset(&b);
	buf_puts(&b, "\"ID\",\"Kernel Name\",\"Metric Name\"\n");
	expect_error(b.ptr, b.len, "m.csv",
		     "m.csv:1: expected the columns \"Metric Name\", \"Metric "
		     "Unit\" and \"Metric Value\"",
		     NULL);
	buf_reset(&b);
	buf_puts(&b, "\"Process ID\",\"Kernel Name\",\"Invocations\","
		     "\"Section Name\"\n");
	expect_error(b.ptr, b.len, "m.csv",
		     "m.csv:1: expected one row per launch, not ncu's "
		     "--print-summary table",
		     "--print-summary");
	buf_release(&b);
}

static void truncated_input_fails_or_stops_at_a_line(void **state)
{
	size_t len, cut, txtlen;
	char *data = fixture("h200-vadd-import-details.csv", &len);
	char *txt = fixture("h200-vadd-import-text.txt", &txtlen);

	(void)state;
	/* cut inside the Duration value of launch 0 (line 7) */
	cut = (size_t)(strstr(data, "\"58.88\"") - data) + 3;
	expect_error(data, cut, "cut.csv",
		     "cut.csv:7: expected a closing quote and a comma after "
		     "it",
		     NULL);
	/* cut right after the header */
	cut = (size_t)(strchr(data, '\n') - data) + 1;
	expect_error(data, cut, "cut.csv",
		     "cut.csv:1: expected the results of a profiled kernel, "
		     "found end of input",
		     NULL);
	/* the text report cut inside a table */
	cut = (size_t)(strstr(txt, "    Duration") - txt);
	expect_error(txt, cut, "cut.txt",
		     "cut.txt:12: expected the closing '---' line of a metric "
		     "table, found end of input",
		     NULL);
	/* every prefix: either records or one error naming the file */
	for (cut = 0; cut <= len; cut += 7) {
		struct import_set s = IMPORT_SET_INIT;
		struct error err = ERROR_INIT;
		int rc = parse(&s, data, cut, "p", &err);

		assert_true(rc == 0 ? s.nr > 0 : !strncmp(err.msg, "p:", 2));
		import_set_release(&s);
	}
	for (cut = 0; cut <= txtlen; cut += 11) {
		struct import_set s = IMPORT_SET_INIT;
		struct error err = ERROR_INIT;
		int rc = parse(&s, txt, cut, "p", &err);

		assert_true(rc == 0 ? s.nr > 0 : !strncmp(err.msg, "p:", 2));
		import_set_release(&s);
	}
	free(data);
	free(txt);
}

static void empty_input_is_refused(void **state)
{
	(void)state;
	expect_error("", 0, "-",
		     "stdin:1: expected ncu's CSV header (\"ID\",...) or its "
		     "text report, found end of input",
		     "--csv");
	expect_error("\n\n==PROF== x\nhello\n", 19, "e",
		     "e:4: expected ncu's CSV header (\"ID\",...) or its "
		     "text report, found end of input",
		     NULL);
}

static const char *const others[] = {
	/* hyperfine --export-json */
	"{\n  \"results\": [\n    {\n      \"command\": \"sleep 0.05\",\n"
	"      \"mean\": 0.054,\n      \"stddev\": null,\n"
	"      \"times\": [0.054],\n      \"exit_codes\": [0]\n    }\n  ]\n}\n",
	/* Surefire XML */
	"<?xml version=\"1.0\" encoding=\"UTF-8\" ?>\n<testsuite "
	"failures=\"0\" time=\"0.014\" errors=\"0\" skipped=\"0\" "
	"tests=\"1\" name=\"a.B\">\n  <testcase time=\"0.013\" "
	"classname=\"a.B\" name=\"t\"/>\n</testsuite>\n",
	/* jfr print --json */
	"{\n  \"recording\": {\n    \"events\": [{\n      \"type\": "
	"\"jdk.ExecutionSample\", \n      \"values\": {\n        "
	"\"startTime\": \"2026-11-29T21:14:10.062803514Z\"\n      }\n    "
	"}]\n  }\n}\n",
	/* tornado-test -V */
	"Test: class uk.ac.manchester.tornado.unittests.foundation."
	"TestIntegers\n\tRunning test: test01                     "
	"................  [PASS] \nTest ran: 1, Failed: 0, Unsupported: 0\n"
	"==================================================\n"
	"              Unit tests report \n"
	"==================================================\n",
	/* nsys stats --format csv */
	"Processing [x.sqlite] with [/r/reports/cuda_api_sum.py]...\n"
	"Time (%),Total Time (ns),Num Calls,Avg (ns),Med (ns),Min (ns),"
	"Max (ns),StdDev (ns),Name\n1.0,2,3,4.0,5.0,6,7,8.0,cuLaunchKernel\n",
};

static void detector_takes_ncu_and_nothing_else(void **state)
{
	static const char *const ours[] = {
		"h200-vadd-import-details.csv",
		"h200-vadd-import-text.txt",
		"h200-vadd-stdout-base-units.txt",
		"raw-page.csv",
		"err-nvgpuctrperm.txt",
		"twenty-columns.txt",
	};
	const struct import_format *f;
	size_t i, len;

	(void)state;
	for (i = 0; i < sizeof(ours) / sizeof(*ours); i++) {
		char *data = fixture(ours[i], &len);

		assert_true(ncu_detect(data, len));
		f = import_detect(data, len);
		assert_non_null(f);
		assert_string_equal(f->name, "ncu");
		free(data);
	}
	for (i = 0; i < sizeof(others) / sizeof(*others); i++)
		assert_false(ncu_detect(others[i], strlen(others[i])));
	assert_false(ncu_detect("", 0));
	f = import_format_find("ncu");
	assert_non_null(f);
	assert_ptr_equal(f->parse, ncu_parse);
}

static void arbitrary_bytes_do_not_crash(void **state)
{
	static const char alphabet[] =
		"\"\",\n\r ()x-=.%0123456789aeIDn/\x1b[m";
	uint32_t seed = 12345;
	size_t round, i, len, base_len;
	char *base = fixture("h200-vadd-import-text.txt", &base_len);

	(void)state;
	for (round = 0; round < 400; round++) {
		struct import_set s = IMPORT_SET_INIT;
		struct error err = ERROR_INIT;
		char *buf;

		seed = seed * 1103515245u + 12345u;
		len = (seed >> 8) % 600;
		buf = malloc(len ? len : 1);
		assert_non_null(buf);
		for (i = 0; i < len; i++) {
			seed = seed * 1103515245u + 12345u;
			if (round % 2)
				buf[i] = alphabet[(seed >> 16) %
						  (sizeof(alphabet) - 1)];
			else
				buf[i] = (char)(seed >> 16);
		}
		/* and mutations of a real text report */
		if (round % 4 == 3 && len) {
			memcpy(buf, base + (seed >> 4) % (base_len - len), len);
			buf[(seed >> 12) % len] = (char)(seed >> 20);
		}
		(void)ncu_detect(buf, len);
		if (ncu_parse(&s, buf, len, "r", &err) < 0)
			assert_true(err.msg[0] != '\0');
		import_set_release(&s);
		free(buf);
	}
	free(base);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(details_fixture_has_the_facts),
		cmocka_unit_test(stdout_form_gives_the_same_records),
		cmocka_unit_test(text_report_gives_the_same_records),
		cmocka_unit_test(raw_page_is_one_row_per_launch),
		cmocka_unit_test(twenty_column_variant_after_prof_line),
		cmocka_unit_test(units_are_normalised),
		cmocka_unit_test(not_applicable_values_are_skipped),
		cmocka_unit_test(every_next_section_imports),
		cmocka_unit_test(counters_unavailable_is_a_machine_problem),
		cmocka_unit_test(other_no_counter_outputs),
		cmocka_unit_test(malformed_lines_are_named),
		cmocka_unit_test(truncated_input_fails_or_stops_at_a_line),
		cmocka_unit_test(empty_input_is_refused),
		cmocka_unit_test(detector_takes_ncu_and_nothing_else),
		cmocka_unit_test(arbitrary_bytes_do_not_crash),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
