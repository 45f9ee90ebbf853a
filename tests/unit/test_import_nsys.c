/* Unit tests for src/import/nsys.c: nsys stats --format csv reports under
 * both generations of names, banners and SKIPPED lines, units, malformed
 * and truncated input, on tests/fixtures/nsys (see SOURCE.md there). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import/formats.h"
#include "import/nsys.h"
#include "util/buf.h"

static char *fixture(const char *dir, const char *name, size_t *len)
{
	const char *src = getenv("SRC_DIR");
	char path[4096], *data;
	FILE *f;
	long n;

	snprintf(path, sizeof(path), "%s/tests/fixtures/%s/%s", src ? src : ".",
		 dir, name);
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

/* Parses len bytes copied to an exact-size buffer (no NUL after it). */
static int parse(struct import_set *out, const char *data, size_t len,
		 const char *path, struct error *err)
{
	char *copy = malloc(len ? len : 1);
	int rc;

	assert_non_null(copy);
	memcpy(copy, data, len);
	rc = nsys_parse(out, copy, len, path, err);
	free(copy);
	return rc;
}

static int has_config(const struct import_rec *r, const char *kv)
{
	size_t i;

	for (i = 0; i < r->config.nr; i++)
		if (!strcmp(r->config.v[i], kv))
			return 1;
	return 0;
}

/* The one record of metric for report and row name. */
static const struct import_rec *find(const struct import_set *s,
				     const char *report, const char *name,
				     const char *metric)
{
	const struct import_rec *found = NULL;
	char rk[128], nk[256];
	size_t i;

	snprintf(rk, sizeof(rk), "report=%s", report);
	snprintf(nk, sizeof(nk), "name=%s", name);
	for (i = 0; i < s->nr; i++)
		if (!strcmp(s->recs[i].metric, metric) &&
		    has_config(&s->recs[i], rk) &&
		    has_config(&s->recs[i], nk)) {
			assert_null(found);
			found = &s->recs[i];
		}
	if (!found)
		fail_msg("no %s of %s in %s", metric, name, report);
	return found;
}

static size_t count_report(const struct import_set *s, const char *report)
{
	char rk[128];
	size_t i, n = 0;

	snprintf(rk, sizeof(rk), "report=%s", report);
	for (i = 0; i < s->nr; i++)
		n += has_config(&s->recs[i], rk);
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
		if (x->value != y->value)
			fail_msg("%s: %.17g != %.17g", x->metric, x->value,
				 y->value);
		if (x->unit || y->unit)
			assert_string_equal(x->unit, y->unit);
		assert_string_equal(x->stat, y->stat);
		assert_int_equal(x->better, y->better);
		assert_int_equal(x->config.nr, y->config.nr);
		for (j = 0; j < x->config.nr; j++)
			assert_string_equal(x->config.v[j], y->config.v[j]);
	}
}

static void api_summary_keeps_calls_and_times(void **state)
{
	struct import_set s = IMPORT_SET_INIT;
	struct error err = ERROR_INIT;
	const struct import_rec *r;
	size_t len;
	char *data = fixture("nsys", "cuda_api_sum.csv", &len);

	(void)state;
	assert_int_equal(parse(&s, data, len, "api.csv", &err), 0);
	/* 3 rows x (calls + 6 time statistics); Time (%) is not kept */
	assert_int_equal(s.nr, 21);
	r = find(&s, "cuda_api_sum", "cuLaunchKernel", "calls");
	assert_true(r->value == 455);
	assert_null(r->unit);
	assert_string_equal(r->stat, "count");
	assert_int_equal(r->better, IMPORT_BETTER_UNKNOWN);
	assert_int_equal(r->config.nr, 2);
	r = find(&s, "cuda_api_sum", "cuLaunchKernel", "time_avg");
	assert_true(r->value == 414688.7);
	assert_string_equal(r->unit, "ns");
	assert_string_equal(r->stat, "mean");
	assert_int_equal(r->better, IMPORT_BETTER_LOWER);
	assert_true(find(&s, "cuda_api_sum", "cuMemcpyHtoD_v2", "time_total")
			    ->value == 1417580893);
	r = find(&s, "cuda_api_sum", "cuModuleLoadData", "time_med");
	assert_true(r->value == 7899384);
	assert_string_equal(r->stat, "median");
	assert_true(find(&s, "cuda_api_sum", "cuModuleLoadData", "time_min")
			    ->value == 7301945);
	assert_true(find(&s, "cuda_api_sum", "cuModuleLoadData", "time_max")
			    ->value == 62304798);
	assert_true(find(&s, "cuda_api_sum", "cuModuleLoadData", "time_stddev")
			    ->value == 10913461.1);
	import_set_release(&s);
	free(data);
}

static void several_reports_in_one_stream(void **state)
{
	struct import_set s = IMPORT_SET_INIT;
	struct error err = ERROR_INIT;
	size_t len;
	char *data = fixture("nsys", "several-reports.txt", &len);

	(void)state;
	assert_int_equal(parse(&s, data, len, "-", &err), 0);
	assert_int_equal(count_report(&s, "cuda_api_sum"), 3 * 7);
	assert_int_equal(count_report(&s, "cuda_gpu_kern_sum"), 2 * 7);
	assert_int_equal(count_report(&s, "cuda_gpu_mem_time_sum"), 2 * 7);
	/* nvtx_sum was SKIPPED, osrt_sum is not one we read */
	assert_int_equal(s.nr, 7 * 7);
	assert_true(find(&s, "cuda_gpu_kern_sum", "flash_attention_prefill_f16",
			 "calls")
			    ->value == 32);
	assert_true(find(&s, "cuda_gpu_mem_time_sum",
			 "[CUDA memcpy Host-to-Device]", "calls")
			    ->value == 27260);
	assert_true(find(&s, "cuda_gpu_mem_time_sum",
			 "[CUDA memcpy Device-to-Device]", "time_total")
			    ->value == 66765576);
	import_set_release(&s);
	free(data);
}

static void both_generations_give_the_same_records(void **state)
{
	struct import_set a = IMPORT_SET_INIT, b = IMPORT_SET_INIT;
	struct error err = ERROR_INIT;
	const struct import_rec *r;
	size_t alen, blen;
	char *old = fixture("nsys", "old-names.txt", &alen);
	char *new = fixture("nsys", "new-names.txt", &blen);

	(void)state;
	assert_int_equal(parse(&a, old, alen, "old", &err), 0);
	assert_int_equal(parse(&b, new, blen, "new", &err), 0);
	assert_same_records(&a, &b);
	assert_int_equal(a.nr, 7 * 7);
	/* --timeunit ms read as ns */
	r = find(&a, "cuda_gpu_kern_sum", "flash_attention_prefill_f16",
		 "time_total");
	assert_true(r->value == 1707204307);
	assert_true(has_config(r, "grid=128 1 1"));
	assert_true(has_config(r, "block=256 1 1"));
	/* MB are 10^6 bytes; HtoD named as the newer releases do */
	r = find(&a, "cuda_gpu_mem_size_sum", "[CUDA memcpy Host-to-Device]",
		 "size_total");
	assert_true(r->value == 2048e6);
	assert_string_equal(r->unit, "byte");
	assert_int_equal(r->better, IMPORT_BETTER_UNKNOWN);
	assert_true(find(&a, "cuda_gpu_mem_size_sum",
			 "[CUDA memcpy Host-to-Device]", "calls")
			    ->value == 27260);
	assert_true(find(&a, "nvtx_sum", "Profile_Loop", "calls")->value == 1);
	import_set_release(&a);
	import_set_release(&b);
	free(old);
	free(new);
}

static void oldest_headers_have_no_units(void **state)
{
	const char *in =
		"Running [/opt/nvidia/hpc_sdk/reports/gpukernsum.py "
		"report3.sqlite]... \n"
		"\n"
		"Time(%),Total Time (ns),Instances,Average,Minimum,Maximum,"
		"Name\n"
		"100.0,2176,1,2176.0,2176,2176,\"void k<int, 2>(int*)\"\n"
		"\n"
		"Running [/opt/nvidia/hpc_sdk/reports/gpumemsizesum.py "
		"report3.sqlite]... \n"
		"Total,Operations,Average,Minimum,Maximum,Operation\n"
		"2.000,1,2.000,2.000,2.000,[CUDA memcpy DtoH]\n";
	struct import_set s = IMPORT_SET_INIT;
	struct error err = ERROR_INIT;
	const struct import_rec *r;

	(void)state;
	assert_int_equal(parse(&s, in, strlen(in), "o", &err), 0);
	assert_int_equal(s.nr, 5 + 5);
	r = find(&s, "cuda_gpu_kern_sum", "void k<int, 2>(int*)", "time_avg");
	assert_true(r->value == 2176);
	assert_string_equal(r->unit, "ns");
	/* the old size report counted KiB */
	r = find(&s, "cuda_gpu_mem_size_sum", "[CUDA memcpy Device-to-Host]",
		 "size_max");
	assert_true(r->value == 2048);
	assert_true(find(&s, "cuda_gpu_mem_size_sum",
			 "[CUDA memcpy Device-to-Host]", "calls")
			    ->value == 1);
	import_set_release(&s);
}

static void banners_name_the_report(void **state)
{
	static const char *const banners[] = {
		"[3/8] Executing 'cuda_gpu_kern_sum' stats report\n\n",
		" ** CUDA GPU Kernel Summary (cuda_gpu_kern_sum):\n",
		"Processing [a b.sqlite] with "
		"[C:\\nsys\\reports\\gpukernsum.py]"
		"...\n",
	};
	const char *table =
		"Time (%),Total Time (ns),Num Calls,Avg (ns),Med (ns),Min (ns),"
		"Max (ns),StdDev (ns),Name\n"
		"1.0,20,2,10.0,10.0,10,10,0.0,k\n";
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(banners) / sizeof(*banners); i++) {
		struct import_set s = IMPORT_SET_INIT;
		struct error err = ERROR_INIT;
		struct buf b = BUF_INIT;

		buf_puts(&b, banners[i]);
		buf_puts(&b, table);
		assert_int_equal(parse(&s, b.ptr, b.len, "x", &err), 0);
		/* the banner wins over what the columns suggest */
		assert_int_equal(count_report(&s, "cuda_gpu_kern_sum"), 7);
		import_set_release(&s);
		buf_release(&b);
	}
}

static void file_name_or_columns_name_the_report(void **state)
{
	const char *api = "Time (%),Total Time (ns),Num Calls,Avg (ns),"
			  "Med (ns),Min (ns),Max (ns),StdDev (ns),Name\n"
			  "1.0,20,2,10.0,10.0,10,10,0.0,cuLaunchKernel\n";
	static const struct {
		const char *header, *report;
	} inferred[] = {
		{"Time (%),Total Time (ns),Num Calls,Avg (ns),Med (ns),"
		 "Min (ns),Max (ns),StdDev (ns),Name",
		 "cuda_api_sum"},
		{"Time (%),Total Time (ns),Instances,Avg (ns),Med (ns),"
		 "Min (ns),Max (ns),StdDev (ns),Name",
		 "cuda_gpu_kern_sum"},
		{"Time (%),Total Time (ns),Count,Avg (ns),Med (ns),Min (ns),"
		 "Max (ns),StdDev (ns),Operation",
		 "cuda_gpu_mem_time_sum"},
		{"Total (MB),Count,Avg (MB),Med (MB),Min (MB),Max (MB),"
		 "StdDev (MB),Operation",
		 "cuda_gpu_mem_size_sum"},
		{"Time (%),Total Time (ns),Instances,Avg (ns),Med (ns),"
		 "Min (ns),Max (ns),StdDev (ns),Style,Range",
		 "nvtx_sum"},
	};
	struct import_set s = IMPORT_SET_INIT;
	struct error err = ERROR_INIT;
	size_t i;

	(void)state;
	assert_int_equal(parse(&s, api, strlen(api),
			       "out/run_cuda_gpu_kern_sum.csv", &err),
			 0);
	assert_int_equal(count_report(&s, "cuda_gpu_kern_sum"), 7);
	import_set_release(&s);
	for (i = 0; i < sizeof(inferred) / sizeof(*inferred); i++) {
		struct buf b = BUF_INIT;
		const char *c;
		size_t n = 1;

		for (c = inferred[i].header; *c; c++)
			n += *c == ',';

		buf_addf(&b, "%s\n", inferred[i].header);
		/* a row of n fields: numbers, then the name */
		buf_puts(&b, "1.0");
		while (--n > 1)
			buf_puts(&b, ",2");
		buf_puts(&b, ",row\n");
		assert_int_equal(parse(&s, b.ptr, b.len, "x.csv", &err), 0);
		assert_true(s.nr > 0);
		assert_int_equal(count_report(&s, inferred[i].report), s.nr);
		import_set_release(&s);
		buf_release(&b);
	}
}

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

static void column_table_is_refused(void **state)
{
	size_t len;
	char *data = fixture("nsys", "column-format.txt", &len);

	(void)state;
	expect_error(data, len, "col.txt",
		     "col.txt:5: expected CSV, not nsys stats' column table",
		     "--format csv");
	free(data);
}

static void malformed_lines_are_named(void **state)
{
	const char *head = "Processing [x.sqlite] with [/r/reports/"
			   "cuda_api_sum.py]...\n"
			   "Time (%),Total Time (ns),Num Calls,Avg (ns),"
			   "Med (ns),Min (ns),Max (ns),StdDev (ns),Name\n"
			   "1.0,20,2,10.0,10.0,10,10,0.0,k\n";
	struct buf b = BUF_INIT;

	(void)state;
	buf_puts(&b, head);
	buf_puts(&b, "1.0,20,2x,10.0,10.0,10,10,0.0,k2\n");
	expect_error(b.ptr, b.len, "m.csv",
		     "m.csv:4: expected a number in column \"Num Calls\"",
		     NULL);
	buf_reset(&b);
	buf_puts(&b, head);
	buf_puts(&b, "1.0,20,2,10.0\n");
	expect_error(b.ptr, b.len, "m.csv",
		     "m.csv:4: expected 9 fields as in the header, found 4",
		     NULL);
	buf_reset(&b);
	buf_puts(&b, head);
	buf_puts(&b, "1.0,20,2,10.0,10.0,10,10,0.0,\"k\n");
	expect_error(b.ptr, b.len, "m.csv",
		     "m.csv:4: expected a closing quote and a comma after it",
		     NULL);
	buf_release(&b);
}

static void truncated_and_empty_input(void **state)
{
	size_t len, cut;
	char *data = fixture("nsys", "several-reports.txt", &len);
	const char *skipped =
		"Processing [x.sqlite] with [/r/reports/nvtx_sum.py]...\n"
		"SKIPPED: x.sqlite does not contain NV Tools Extension "
		"(NVTX) data.\n";

	(void)state;
	/* cut in the middle of cuLaunchKernel's row (line 6) */
	cut = (size_t)(strstr(data, "414688.7") - data);
	expect_error(data, cut, "cut",
		     "cut:6: expected 9 fields as in the header, found 4",
		     NULL);
	/* cut after the first header */
	cut = (size_t)(strstr(data, "65.1,") - data);
	expect_error(data, cut, "cut",
		     "cut:3: expected a row of a report, found end of input",
		     NULL);
	for (cut = 0; cut <= len; cut += 5) {
		struct import_set s = IMPORT_SET_INIT;
		struct error err = ERROR_INIT;
		int rc = parse(&s, data, cut, "p", &err);

		assert_true(rc == 0 ? s.nr > 0 : !strncmp(err.msg, "p", 1));
		import_set_release(&s);
	}
	expect_error("", 0, "-",
		     "stdin:1: expected a table of nsys stats --format csv (a "
		     "header such as \"Time (%),Total Time (ns),Num Calls,...,"
		     "Name\"), found end of input",
		     "nsys stats --report");
	expect_error(skipped, strlen(skipped), "s",
		     "s: every report in it was SKIPPED: no data", "-t cuda");
	free(data);
}

static const char *const others[] = {
	"{\n  \"results\": [\n    {\n      \"command\": \"sleep 0.05\",\n"
	"      \"mean\": 0.054,\n      \"stddev\": null,\n"
	"      \"times\": [0.054],\n      \"exit_codes\": [0]\n    }\n  ]\n}\n",
	"<?xml version=\"1.0\" encoding=\"UTF-8\" ?>\n<testsuite "
	"failures=\"0\" time=\"0.014\" errors=\"0\" skipped=\"0\" "
	"tests=\"1\" name=\"a.B\">\n  <testcase time=\"0.013\" "
	"classname=\"a.B\" name=\"t\"/>\n</testsuite>\n",
	"{\n  \"recording\": {\n    \"events\": [{\n      \"type\": "
	"\"jdk.ExecutionSample\", \n      \"values\": {\n        "
	"\"startTime\": \"2026-11-29T21:14:10.062803514Z\"\n      }\n    "
	"}]\n  }\n}\n",
	"Test: class uk.ac.manchester.tornado.unittests.foundation."
	"TestIntegers\n\tRunning test: test01                     "
	"................  [PASS] \nTest ran: 1, Failed: 0, Unsupported: 0\n"
	"==================================================\n"
	"              Unit tests report \n"
	"==================================================\n"
	"Total Time(s): 212.8\n",
};

static void detector_takes_nsys_and_nothing_else(void **state)
{
	static const char *const ours[] = {
		"cuda_api_sum.csv", "several-reports.txt", "old-names.txt",
		"new-names.txt",    "mem-time-stdout.txt", "column-format.txt",
	};
	static const char *const ncu[] = {
		"h200-vadd-import-details.csv",
		"h200-vadd-import-text.txt",
		"h200-vadd-stdout-base-units.txt",
		"raw-page.csv",
		"err-nvgpuctrperm.txt",
	};
	const struct import_format *f;
	size_t i, len;

	(void)state;
	for (i = 0; i < sizeof(ours) / sizeof(*ours); i++) {
		char *data = fixture("nsys", ours[i], &len);

		assert_true(nsys_detect(data, len));
		f = import_detect(data, len);
		assert_non_null(f);
		assert_string_equal(f->name, "nsys");
		free(data);
	}
	for (i = 0; i < sizeof(ncu) / sizeof(*ncu); i++) {
		char *data = fixture("ncu", ncu[i], &len);

		assert_false(nsys_detect(data, len));
		free(data);
	}
	for (i = 0; i < sizeof(others) / sizeof(*others); i++)
		assert_false(nsys_detect(others[i], strlen(others[i])));
	assert_false(nsys_detect("", 0));
	f = import_format_find("nsys");
	assert_non_null(f);
	assert_ptr_equal(f->parse, nsys_parse);
}

static void arbitrary_bytes_do_not_crash(void **state)
{
	static const char alphabet[] = "\"\",\n\r ()%-.0123456789TimeNasnu"
				       "[]/Processing with .py*:";
	uint32_t seed = 777;
	size_t round, i, len, base_len;
	char *base = fixture("nsys", "old-names.txt", &base_len);

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
		if (round % 4 == 3 && len) {
			memcpy(buf, base + (seed >> 4) % (base_len - len), len);
			buf[(seed >> 12) % len] = (char)(seed >> 20);
		}
		(void)nsys_detect(buf, len);
		if (nsys_parse(&s, buf, len, "r", &err) < 0)
			assert_true(err.msg[0] != '\0');
		import_set_release(&s);
		free(buf);
	}
	free(base);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(api_summary_keeps_calls_and_times),
		cmocka_unit_test(several_reports_in_one_stream),
		cmocka_unit_test(both_generations_give_the_same_records),
		cmocka_unit_test(oldest_headers_have_no_units),
		cmocka_unit_test(banners_name_the_report),
		cmocka_unit_test(file_name_or_columns_name_the_report),
		cmocka_unit_test(column_table_is_refused),
		cmocka_unit_test(malformed_lines_are_named),
		cmocka_unit_test(truncated_and_empty_input),
		cmocka_unit_test(detector_takes_nsys_and_nothing_else),
		cmocka_unit_test(arbitrary_bytes_do_not_crash),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
