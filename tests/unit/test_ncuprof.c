/* Unit tests for the pure parts of src/core/probe/ncu.c: the reading of ncu's
 * records (real H200 outputs in tests/fixtures/ncu) and the classification
 * of the Speed-of-Light figures, on both sides of every threshold. The
 * run itself is tested against a stand-in ncu in tests/e2e/57-ncu.bats. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>

#include "core/probe/ncu.h"
#include "import_test.h"

/* The reading of fixture rel through the ncu importer */
static void read_fixture(struct ncuprof_reading *out, const char *rel)
{
	struct import_set set = IMPORT_SET_INIT;
	struct error err = ERROR_INIT;
	size_t len;
	char *data = fixture(rel, &len);

	if (parse_as("ncu", data, len, &set, &err) < 0)
		fail_msg("%s: %s", rel, err.msg);
	ncuprof_reading_from(out, &set);
	import_set_release(&set);
	free(data);
}

static void assert_next(const struct ncuprof_verdict *v, const char *a,
			const char *b)
{
	assert_non_null(v->next[0]);
	assert_string_equal(v->next[0], a);
	if (b) {
		assert_non_null(v->next[1]);
		assert_string_equal(v->next[1], b);
		assert_null(v->next[2]);
	} else {
		assert_null(v->next[1]);
	}
}

static void vadd_details_is_memory_bound(void **state)
{
	struct ncuprof_reading r;
	struct ncuprof_verdict v;

	(void)state;
	read_fixture(&r, "ncu/h200-vadd-import-details.csv");
	assert_string_equal(r.kernel, "vadd");
	assert_int_equal(r.launches, 2);
	/* medians of the two launches: (66.78 + 65.82) / 2 ... */
	assert_float_equal(r.memory_pct, 66.30, 1e-9);
	assert_float_equal(r.compute_pct, (41.01 + 40.40) / 2, 1e-9);
	assert_float_equal(r.duration_ns, (58880.0 + 59740.0) / 2, 1e-6);
	assert_float_equal(r.registers, 16, 0);
	assert_float_equal(r.static_smem, 0, 0);
	assert_float_equal(r.dynamic_smem, 0, 0);
	assert_float_equal(r.theoretical_occ_pct, 100, 0);
	assert_true(r.achieved_occ_pct > 70 && r.achieved_occ_pct < 80);
	ncuprof_classify(&v, &r);
	assert_int_equal(v.cls, NCUPROF_MEMORY);
	assert_string_equal(v.name, "memory-bound");
	assert_next(&v, "MemoryWorkloadAnalysis", NULL);
}

static void stdout_form_reads_the_same(void **state)
{
	struct ncuprof_reading a, b;

	(void)state;
	read_fixture(&a, "ncu/h200-vadd-import-details.csv");
	read_fixture(&b, "ncu/h200-vadd-stdout-base-units.txt");
	assert_float_equal(a.memory_pct, b.memory_pct, 0);
	assert_float_equal(a.compute_pct, b.compute_pct, 0);
	assert_float_equal(a.duration_ns, b.duration_ns, 1e-6);
	assert_float_equal(a.achieved_occ_pct, b.achieved_occ_pct, 0);
}

static void h200_runs_of_three_kernels(void **state)
{
	struct ncuprof_reading r;
	struct ncuprof_verdict v;

	(void)state;
	read_fixture(&r, "ncu/h200-vadd-sol.txt");
	assert_string_equal(r.kernel,
			    "vadd(const float *, const float *, float *, int)");
	ncuprof_classify(&v, &r);
	assert_int_equal(v.cls, NCUPROF_MEMORY);
	/* SpeedOfLight alone: no occupancy, registers or shared memory */
	assert_true(isnan(r.achieved_occ_pct) && isnan(r.registers) &&
		    isnan(r.static_smem));

	read_fixture(&r, "ncu/h200-spin-sol.txt");
	assert_int_equal(r.launches, 2);
	ncuprof_classify(&v, &r);
	assert_int_equal(v.cls, NCUPROF_COMPUTE);
	assert_string_equal(v.name, "compute-bound");
	assert_next(&v, "ComputeWorkloadAnalysis", NULL);

	read_fixture(&r, "ncu/h200-tiny-sol.txt");
	assert_true(r.duration_ns < NCUPROF_SHORT_NS);
	ncuprof_classify(&v, &r);
	assert_int_equal(v.cls, NCUPROF_LATENCY);
	assert_string_equal(v.name, "latency-bound");
	assert_next(&v, "LaunchStats", "Occupancy");
	assert_non_null(strstr(v.why, "short"));
}

static void raw_page_without_speed_of_light_is_unknown(void **state)
{
	struct ncuprof_reading r;
	struct ncuprof_verdict v;

	(void)state;
	read_fixture(&r, "ncu/raw-page.csv");
	assert_string_equal(r.kernel, "w13_kernel");
	assert_float_equal(r.duration_ns, 40000, 1e-6);
	ncuprof_classify(&v, &r);
	assert_int_equal(v.cls, NCUPROF_UNKNOWN);
	assert_next(&v, "SpeedOfLight", NULL);
}

/* A reading of mem%, sm%, duration in us and occupancy in % (NAN: not
 * measured) */
static enum ncuprof_class cls(double mem, double sm, double us, double occ)
{
	struct ncuprof_reading r;
	struct ncuprof_verdict v;

	memset(&r, 0, sizeof(r));
	r.memory_pct = mem;
	r.compute_pct = sm;
	r.duration_ns = us * 1e3;
	r.achieved_occ_pct = occ;
	r.theoretical_occ_pct = NAN;
	ncuprof_classify(&v, &r);
	return v.cls;
}

static void thresholds(void **state)
{
	const double hi = NCUPROF_HIGH_PCT, sh = NCUPROF_SHORT_NS / 1e3,
		     lo = NCUPROF_LOW_OCC_PCT;
	struct ncuprof_reading r;
	struct ncuprof_verdict v;

	(void)state;
	/* high is the threshold or more */
	assert_int_equal(cls(hi, hi - 0.01, 100, 80), NCUPROF_MEMORY);
	assert_int_equal(cls(hi - 0.01, hi - 0.01, 100, 80),
			 NCUPROF_LATENCY_STALL);
	assert_int_equal(cls(hi - 0.01, hi, 100, 80), NCUPROF_COMPUTE);
	assert_int_equal(cls(hi, hi, 100, 80), NCUPROF_BOTH);
	assert_int_equal(cls(100, 100, 1, 1), NCUPROF_BOTH);
	/* both low: short launches, exactly the threshold is not short */
	assert_int_equal(cls(10, 10, sh - 0.001, 80), NCUPROF_LATENCY);
	assert_int_equal(cls(10, 10, sh, 80), NCUPROF_LATENCY_STALL);
	/* both low: occupancy below the threshold is low */
	assert_int_equal(cls(10, 10, 100, lo - 0.01), NCUPROF_LATENCY);
	assert_int_equal(cls(10, 10, 100, lo), NCUPROF_LATENCY_STALL);
	/* occupancy not measured: LaunchStats and Occupancy first */
	assert_int_equal(cls(10, 10, 100, NAN), NCUPROF_LATENCY_OCC);
	/* no duration: not short */
	assert_int_equal(cls(10, 10, NAN, 80), NCUPROF_LATENCY_STALL);
	/* no Speed of Light */
	assert_int_equal(cls(NAN, 10, 100, 80), NCUPROF_UNKNOWN);
	assert_int_equal(cls(10, NAN, 100, 80), NCUPROF_UNKNOWN);

	/* the theoretical occupancy stands in for an achieved one */
	memset(&r, 0, sizeof(r));
	r.memory_pct = r.compute_pct = 10;
	r.duration_ns = 1e6;
	r.achieved_occ_pct = NAN;
	r.theoretical_occ_pct = 25;
	ncuprof_classify(&v, &r);
	assert_int_equal(v.cls, NCUPROF_LATENCY);
	assert_next(&v, "LaunchStats", "Occupancy");
	assert_non_null(strstr(v.why, "occupancy 25.0%, low"));
	r.theoretical_occ_pct = 100;
	ncuprof_classify(&v, &r);
	assert_int_equal(v.cls, NCUPROF_LATENCY_STALL);
	assert_next(&v, "WarpStateStats", "SchedulerStats");
	assert_non_null(strstr(v.why, "occupancy 100.0%, fine"));
	r.compute_pct = 70;
	r.memory_pct = 80;
	ncuprof_classify(&v, &r);
	assert_next(&v, "ComputeWorkloadAnalysis", "MemoryWorkloadAnalysis");
}

static void categories(void **state)
{
	(void)state;
	assert_true(ncuprof_category_ok("variant"));
	assert_true(ncuprof_category_ok("launch-size"));
	assert_true(ncuprof_category_ok("layout"));
	assert_true(ncuprof_category_ok("unneeded-work"));
	assert_true(ncuprof_category_ok("codegen"));
	assert_false(ncuprof_category_ok("faster"));
	assert_false(ncuprof_category_ok(""));
	assert_false(ncuprof_category_ok(NULL));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(vadd_details_is_memory_bound),
		cmocka_unit_test(stdout_form_reads_the_same),
		cmocka_unit_test(h200_runs_of_three_kernels),
		cmocka_unit_test(raw_page_without_speed_of_light_is_unknown),
		cmocka_unit_test(thresholds),
		cmocka_unit_test(categories),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
