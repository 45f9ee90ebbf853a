/* Unit tests for the summaries of src/import/rec.c: launches folded into
 * one record per kernel and metric, their statistics (deciles as Python's
 * statistics.quantiles(method="inclusive") gives them), repeated rows,
 * records that name no launch, and nsys's cuda_gpu_trace read that way. */
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

static void launch(struct import_set *s, const char *kernel, int id, double v)
{
	struct import_rec *r = import_add(s, "Duration", v, "ns");

	r->better = IMPORT_BETTER_LOWER;
	import_rec_config(r, "kernel", "%s", kernel);
	import_rec_config(r, "launch", "%d", id);
}

static const struct import_rec *of_kernel(const struct import_set *s,
					  const char *kernel)
{
	char kv[64];
	size_t i, j;

	snprintf(kv, sizeof(kv), "kernel=%s", kernel);
	for (i = 0; i < s->nr; i++)
		for (j = 0; j < s->recs[i].config.nr; j++)
			if (!strcmp(s->recs[i].config.v[j], kv))
				return &s->recs[i];
	fail_msg("no record of %s", kernel);
	return NULL;
}

static void launches_of_two_kernels_fold_into_two_summaries(void **state)
{
	struct import_set s = IMPORT_SET_INIT;
	const struct import_rec *a, *b;
	int i;

	(void)state;
	import_set_summarise(&s);
	/* 10, 9, ..., 1 for a; 7 for b, interleaved */
	for (i = 0; i < 10; i++) {
		launch(&s, "a", 2 * i, 10 - i);
		launch(&s, "b", 2 * i + 1, 7);
	}
	assert_int_equal(s.nr, 1); /* the last one, not folded yet */
	import_set_finish(&s);
	assert_int_equal(s.nr, 2);
	assert_int_equal(s.summaries, 2);
	assert_null(s.sum);
	a = of_kernel(&s, "a");
	b = of_kernel(&s, "b");
	assert_string_equal(a->metric, "Duration");
	assert_string_equal(a->unit, "ns");
	assert_string_equal(a->stat, "median");
	assert_int_equal(a->better, IMPORT_BETTER_LOWER);
	assert_int_equal(a->count, 10);
	/* statistics.median(range(1, 11)) and quantiles(..., n=10,
	 * method="inclusive")[0], [8] */
	assert_true(a->value == 5.5);
	assert_true(a->p10 == 1.9);
	assert_true(a->p90 == 9.1);
	assert_true(a->min == 1 && a->max == 10 && a->sum == 55);
	/* no launch left in the config */
	assert_int_equal(a->config.nr, 1);
	assert_int_equal(b->count, 10);
	assert_true(b->value == 7 && b->p10 == 7 && b->p90 == 7);
	import_set_release(&s);
}

static void records_without_a_launch_stay_as_they_are(void **state)
{
	struct import_set s = IMPORT_SET_INIT;
	struct import_rec *r;

	(void)state;
	import_set_summarise(&s);
	r = import_add(&s, "calls", 3, NULL);
	import_rec_config(r, "name", "%s", "cuLaunchKernel");
	launch(&s, "a", 0, 4);
	r = import_add(&s, "time_total", 9, "ns");
	import_rec_config(r, "name", "%s", "cuLaunchKernel");
	import_set_finish(&s);
	assert_int_equal(s.nr, 3);
	assert_string_equal(s.recs[0].metric, "calls");
	assert_int_equal(s.recs[0].count, 0);
	assert_string_equal(s.recs[1].metric, "time_total");
	assert_string_equal(s.recs[2].metric, "Duration");
	assert_int_equal(s.recs[2].count, 1);
	assert_true(s.recs[2].value == 4 && s.recs[2].p10 == 4 &&
		    s.recs[2].p90 == 4 && s.recs[2].min == 4 &&
		    s.recs[2].max == 4);
	import_set_release(&s);
}

static void a_repeated_row_of_one_launch_counts_once(void **state)
{
	struct import_set s = IMPORT_SET_INIT;
	const struct import_rec *a;

	(void)state;
	import_set_summarise(&s);
	launch(&s, "a", 0, 5);
	launch(&s, "a", 0, 5);
	launch(&s, "a", 1, 5);
	/* one launch, two values: both are kept */
	launch(&s, "a", 2, 6);
	launch(&s, "a", 2, 8);
	import_set_finish(&s);
	a = of_kernel(&s, "a");
	assert_int_equal(a->count, 4);
	assert_true(a->value == 5.5 && a->sum == 24);
	import_set_release(&s);
}

static void equal_values_keep_their_deciles_in_order(void **state)
{
	struct import_set s = IMPORT_SET_INIT;
	const struct import_rec *a;
	int i;

	(void)state;
	import_set_summarise(&s);
	/* (x * 9 + x) / 10 is not x for every double */
	for (i = 0; i < 3; i++)
		launch(&s, "a", i, 0.1);
	import_set_finish(&s);
	a = of_kernel(&s, "a");
	assert_true(a->min <= a->p10 && a->p10 <= a->value);
	assert_true(a->value <= a->p90 && a->p90 <= a->max);
	assert_true(a->p10 == 0.1 && a->p90 == 0.1);
	import_set_release(&s);
}

static void nsys_trace_rows_become_summaries_per_kernel(void **state)
{
	static const char trace[] =
		"Start (ns),Duration (ns),CorrId,GrdX,GrdY,GrdZ,BlkX,BlkY,"
		"BlkZ,Reg/Trd,StcSMem (MB),DymSMem (MB),Bytes (MB),Throughput "
		"(MB/s),SrcMemKd,DstMemKd,Device,Ctx,GreenCtx,Strm,Name\n"
		"100,2000,1,128,1,1,256,1,1,32,0.000,0.000,,,,,GPU,1,,7,vadd\n"
		"200,640,2,,,,,,,,,,4.194,6337.593,Pinned,Device,GPU,1,,7,"
		"[CUDA memcpy HtoD]\n"
		"300,2200,3,128,1,1,256,1,1,32,0.000,0.000,,,,,GPU,1,,7,vadd\n"
		"400,2100,4,128,1,1,256,1,1,32,0.000,0.000,,,,,GPU,1,,7,"
		"\"reduce<float, 4>\"\n";
	struct import_set s = IMPORT_SET_INIT;
	struct error err = ERROR_INIT;
	size_t i, found = 0;
	char *copy = malloc(sizeof(trace) - 1);

	(void)state;
	assert_non_null(copy);
	memcpy(copy, trace, sizeof(trace) - 1);
	assert_true(nsys_detect(copy, sizeof(trace) - 1));
	import_set_summarise(&s);
	assert_int_equal(nsys_parse(&s, copy, sizeof(trace) - 1,
				    "x_cuda_gpu_trace.csv", &err),
			 0);
	import_set_finish(&s);
	/* vadd, reduce, and the copy's duration and size */
	assert_int_equal(s.nr, 4);
	for (i = 0; i < s.nr; i++) {
		const struct import_rec *r = &s.recs[i];
		const char *name = r->config.v[1];

		assert_string_equal(r->config.v[0], "report=cuda_gpu_trace");
		if (!strcmp(name, "name=vadd")) {
			assert_string_equal(r->metric, "duration");
			assert_int_equal(r->count, 2);
			assert_true(r->value == 2100 && r->min == 2000 &&
				    r->max == 2200);
			assert_string_equal(r->config.v[2], "grid=(128,1,1)");
			assert_string_equal(r->config.v[3], "block=(256,1,1)");
			found |= 1;
		} else if (!strcmp(name, "name=reduce<float, 4>")) {
			assert_int_equal(r->count, 1);
			found |= 2;
		} else if (!strcmp(r->metric, "size")) {
			assert_string_equal(
				name, "name=[CUDA memcpy Host-to-Device]");
			assert_string_equal(r->unit, "byte");
			assert_true(r->value == 4194000);
			found |= 4;
		} else {
			assert_string_equal(r->metric, "duration");
			assert_true(r->value == 640);
			assert_int_equal(r->config.nr, 2);
			found |= 8;
		}
	}
	assert_int_equal(found, 15);
	import_set_release(&s);
	free(copy);
}

static void a_cut_trace_row_is_refused(void **state)
{
	static const char trace[] =
		"Start (ns),Duration (ns),CorrId,GrdX,GrdY,GrdZ,BlkX,BlkY,"
		"BlkZ,Reg/Trd,StcSMem (MB),DymSMem (MB),Bytes (MB),Throughput "
		"(MB/s),SrcMemKd,DstMemKd,Device,Ctx,GreenCtx,Strm,Name\n"
		"100,2000,1,128,1,1,256,1,1,32,0.000,0.000,,,,,GPU,1,,7,vadd\n"
		"300,22";
	struct import_set s = IMPORT_SET_INIT;
	struct error err = ERROR_INIT;

	(void)state;
	import_set_summarise(&s);
	assert_int_equal(
		nsys_parse(&s, trace, sizeof(trace) - 1, "t.csv", &err),
		GCAMP_EFATAL);
	assert_string_equal(err.msg,
			    "t.csv:3: expected 21 fields as in the header, "
			    "found 2");
	import_set_release(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(
			launches_of_two_kernels_fold_into_two_summaries),
		cmocka_unit_test(records_without_a_launch_stay_as_they_are),
		cmocka_unit_test(a_repeated_row_of_one_launch_counts_once),
		cmocka_unit_test(equal_values_keep_their_deciles_in_order),
		cmocka_unit_test(nsys_trace_rows_become_summaries_per_kernel),
		cmocka_unit_test(a_cut_trace_row_is_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
