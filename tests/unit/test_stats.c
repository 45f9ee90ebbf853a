/* Unit tests for src/core/stats/stats.c against values computed independently:
 * a brute-force Python 3 (stdlib only, exact fractions; listed at the end of
 * this file) and published examples (numpy, scipy, rank-test tables). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/stats/fit.h"
#include "core/stats/stats.h"

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

/* Equal to 1e-12 relative (absolute below 1): the references are exact
 * fractions or the same IEEE operations in another order. */
#define assert_close(got, want)                                                \
	do {                                                                   \
		double g_ = (got), w_ = (want);                                \
		if (!(fabs(g_ - w_) <= 1e-12 * fmax(1, fabs(w_))))             \
			fail_msg("%s = %.17g, want %.17g", #got, g_, w_);      \
	} while (0)

#define assert_nan(got)                                                        \
	do {                                                                   \
		double g_ = (got);                                             \
		if (!isnan(g_))                                                \
			fail_msg("%s = %.17g, want NaN", #got, g_);            \
	} while (0)

static const double x7[] = {3.1, 1.2, 5.5, 2.0, 4.4, 9.7, 0.3};
static const double x8[] = {3.1, 1.2, 5.5, 2.0, 4.4, 9.7, 0.3, 7.25};

static void quantiles_are_type7_as_numpy(void **state)
{
	/* numpy.percentile docs: a = [[10, 7, 4], [3, 2, 1]];
	 * percentile(a, 50) = 3.5, percentile(a, 50, axis=0) = [6.5, 4.5,
	 * 2.5]; numpy.quantile([1, 2, 3, 4], 0.1) = 1.3 (1 + 0.3 * 1) */
	static const double np[] = {10, 7, 4, 3, 2, 1};
	static const double col0[] = {10, 3}, col1[] = {7, 2};
	static const double four[] = {1, 2, 3, 4};
	double copy[N_OF(x8)];

	(void)state;
	assert_close(stats_quantile(np, 6, 0.5), 3.5);
	assert_close(stats_quantile(col0, 2, 0.5), 6.5);
	assert_close(stats_quantile(col1, 2, 0.5), 4.5);
	assert_close(stats_quantile(four, 4, 0.1), 1.3);

	/* type7(x, q) in the Python below */
	assert_close(stats_quantile(x7, 7, 0), 0.3);
	assert_close(stats_quantile(x7, 7, 0.1), 0.8400000000000001);
	assert_close(stats_quantile(x7, 7, 0.25), 1.6);
	assert_close(stats_quantile(x7, 7, 0.9), 7.1800000000000015);
	assert_close(stats_quantile(x7, 7, 1), 9.7);
	assert_close(stats_quantile(x7, 7, 1.0 / 3), 2.0);
	assert_close(stats_quantile(x8, 8, 0.1), 0.9299999999999999);
	assert_close(stats_quantile(x8, 8, 0.25), 1.8);
	assert_close(stats_quantile(x8, 8, 0.9), 7.984999999999999);
	assert_close(stats_quantile(x8, 8, 1.0 / 3), 2.3666666666666663);
	assert_close(stats_quantile(x8, 8, 1), 9.7);

	/* the input is not modified */
	memcpy(copy, x8, sizeof(copy));
	(void)stats_quantile(copy, N_OF(copy), 0.5);
	assert_memory_equal(copy, x8, sizeof(copy));

	assert_nan(stats_quantile(x8, 8, -0.01));
	assert_nan(stats_quantile(x8, 8, 1.01));
	assert_nan(stats_quantile(x8, 8, NAN));
	assert_nan(stats_quantile(x8, 0, 0.5));
	assert_close(stats_quantile(x8, 1, 0.7), 3.1);
}

static void median_of_odd_and_even(void **state)
{
	static const double two[] = {2, 1};

	(void)state;
	/* statistics.median(x7), statistics.median(x8) */
	assert_close(stats_median(x7, 7), 3.1);
	assert_close(stats_median(x8, 8), 3.75);
	assert_close(stats_median(two, 2), 1.5);
	assert_close(stats_median(x7, 1), 3.1);
	assert_nan(stats_median(x7, 0));
}

static void summary_without_ci_is_the_rest_alike(void **state)
{
	struct stats_summary s, t;

	(void)state;
	stats_summarize(&s, x8, N_OF(x8));
	stats_summarize_no_ci(&t, x8, N_OF(x8));
	assert_nan(t.ci_lo);
	assert_nan(t.ci_hi);
	t.ci_lo = s.ci_lo;
	t.ci_hi = s.ci_hi;
	assert_memory_equal(&t, &s, sizeof(s));
}

static void summary_fields(void **state)
{
	struct stats_summary s;

	(void)state;
	stats_summarize(&s, x8, N_OF(x8));
	assert_int_equal(s.n, 8);
	assert_close(s.min, 0.3);
	assert_close(s.max, 9.7);
	assert_close(s.median, 3.75);
	/* statistics.mean(x8), statistics.stdev(x8) (n - 1) */
	assert_close(s.mean, 4.18125);
	assert_close(s.sd, 3.1968664903531483);
	/* statistics.quantiles(x8, n=10, method="inclusive")[0] and [8]:
	 * Python's "inclusive" method is R type 7 */
	assert_close(s.p10, 0.93);
	assert_close(s.p90, 7.984999999999999);
	/* statistics.median(abs(v - 3.75) for v in x8) */
	assert_close(s.mad, 2.15);
	assert_close(stats_mad(x8, 8), 2.15);
	/* median_ci(x8): n = 8 reaches the extremes */
	assert_close(s.ci_lo, 0.3);
	assert_close(s.ci_hi, 7.25);

	/* one value: no spread, no interval */
	stats_summarize(&s, x8, 1);
	assert_int_equal(s.n, 1);
	assert_close(s.median, 3.1);
	assert_close(s.mean, 3.1);
	assert_close(s.p10, 3.1);
	assert_close(s.mad, 0);
	assert_nan(s.sd);
	assert_nan(s.ci_lo);
	assert_nan(s.ci_hi);

	stats_summarize(&s, x8, 0);
	assert_int_equal(s.n, 0);
	assert_nan(s.median);
	assert_nan(s.mean);
	assert_nan(s.min);
	assert_nan(s.mad);
	assert_nan(stats_mad(x8, 0));
}

/* Order statistics of the 95% CI of the median of 1..n, from median_ci();
 * on equal probabilities the walk goes left, so n = 8 gives (x(1), x(7)),
 * as benchstat does. n = 6, 10 and 20 also agree with the tables of
 * distribution-free intervals (e.g. Conover, Practical Nonparametric
 * Statistics, table A3: (x(1), x(6)), (x(2), x(9)), (x(6), x(15))). */
static void median_ci_order_statistics(void **state)
{
	static const struct {
		size_t n, lo, hi;
	} cases[] = {{6, 1, 6},	  {7, 1, 7},	{8, 1, 7},    {10, 2, 9},
		     {20, 6, 15}, {31, 10, 22}, {50, 18, 32}, {100, 40, 60}};
	double x[100], lo, hi;
	size_t c, i, n;
	struct stats_summary s;

	(void)state;
	for (c = 0; c < N_OF(cases); c++) {
		n = cases[c].n;
		/* order statistic i is 10 i, stored in reverse */
		for (i = 0; i < n; i++)
			x[i] = 10.0 * (double)(n - i);
		stats_quantile_ci(&lo, &hi, x, n, 0.5);
		assert_close(lo, 10.0 * (double)cases[c].lo);
		assert_close(hi, 10.0 * (double)cases[c].hi);
		stats_summarize(&s, x, n);
		assert_close(s.ci_lo, lo);
		assert_close(s.ci_hi, hi);
	}
	/* n < 6: no finite 95% interval (benchstat: "need >= 6 samples") */
	for (n = 1; n < 6; n++) {
		stats_quantile_ci(&lo, &hi, x, n, 0.5);
		assert_nan(lo);
		assert_nan(hi);
	}
	stats_quantile_ci(&lo, &hi, x, 0, 0.5);
	assert_nan(lo);
	stats_quantile_ci(&lo, &hi, x, 10, 2);
	assert_nan(hi);
}

static void mann_whitney_smallest_samples(void **state)
{
	static const double a3[] = {1, 2, 3}, b3[] = {4, 5, 6};
	static const double a4[] = {1, 2, 3, 4}, b4[] = {5, 6, 7, 8};

	(void)state;
	/* mw_exact: 2 / C(6, 3) and 2 / C(8, 4), benchstat's uTestMinP */
	assert_close(stats_mann_whitney(a3, 3, b3, 3), 0.1);
	assert_close(stats_mann_whitney(b3, 3, a3, 3), 0.1);
	assert_close(stats_mann_whitney(a4, 4, b4, 4), 0.02857142857142857);
	assert_close(stats_mann_whitney_min_p(3, 3), 0.1);
	assert_close(stats_mann_whitney_min_p(4, 4), 0.02857142857142857);
	/* benchstat anone.go uTestMinP[2], [5], [6] */
	assert_close(stats_mann_whitney_min_p(2, 2), 0.3333333333333333);
	assert_close(stats_mann_whitney_min_p(5, 5), 0.007936507936507936);
	assert_close(stats_mann_whitney_min_p(6, 6), 0.0021645021645021645);
	assert_close(stats_mann_whitney_min_p(3, 5), 2.0 / 56);
	assert_close(stats_mann_whitney_min_p(1, 1), 1);
	assert_close(stats_mann_whitney_min_p(0, 4), 1);
	assert_close(stats_mann_whitney(a3, 0, b3, 3), 1);
}

static void mann_whitney_scipy_example(void **state)
{
	/* scipy.stats.mannwhitneyu docs: males vs females, U1 = 17,
	 * method="exact" p = 0.1111111111111111, method="asymptotic"
	 * (continuity corrected) p = 0.11134688653314041 */
	static const double males[] = {19, 22, 16, 29, 24};
	static const double females[] = {20, 11, 17, 12};

	(void)state;
	assert_close(stats_mann_whitney(males, 5, females, 4),
		     0.1111111111111111);
	assert_close(stats_mann_whitney_normal(males, 5, females, 4),
		     0.11134688653314041);
}

static void mann_whitney_exact_with_ties(void **state)
{
	static const double ta[] = {1, 2, 2, 3, 3, 3};
	static const double tb[] = {2, 3, 3, 4, 4, 5, 5};
	static const double ha[] = {1, 1, 1, 2, 2, 3, 3, 3};
	static const double hb[] = {2, 2, 3, 3, 3, 3, 4, 4};
	static const double same[] = {5.0, 5.1, 5.2, 5.3};
	static const double t7[] = {7, 7, 7, 7};

	(void)state;
	/* mw_exact (all C(13, 6) and C(16, 8) assignments); the same from
	 * mw_exact_groups */
	assert_close(stats_mann_whitney(ta, 6, tb, 7), 0.05827505827505827);
	assert_close(stats_mann_whitney(tb, 7, ta, 6), 0.05827505827505827);
	assert_close(stats_mann_whitney(ha, 8, hb, 8), 0.06557886557886558);
	/* identical samples, and every value tied */
	assert_close(stats_mann_whitney(same, 4, same, 4), 1);
	assert_close(stats_mann_whitney(t7, 3, t7, 4), 1);
	assert_close(stats_mann_whitney_normal(t7, 3, t7, 4), 1);
}

static void mann_whitney_exact_unequal_and_boundary(void **state)
{
	static const double ua[] = {10.1, 10.4, 9.8, 10.0, 10.3};
	static const double ub[] = {10.6, 10.2, 10.9, 11.0, 10.7,
				    10.5, 11.3, 10.8, 10.45};
	static const double a10[] = {1, 3, 5, 7, 9, 11, 13, 15, 17, 19.5};
	static const double b10[] = {2, 4, 6, 8, 10, 12, 14, 16, 18, 20};
	/* 40 values in all, the largest exact case; many ties */
	static const double a20[] = {100.0, 103.5, 107.0, 102.0, 105.5,
				     100.5, 104.0, 107.5, 102.5, 106.0,
				     101.0, 104.5, 108.0, 103.0, 106.5,
				     101.5, 105.0, 100.0, 103.5, 107.0};
	static const double b20[] = {102.0, 104.5, 107.0, 103.0, 105.5,
				     108.0, 104.0, 106.5, 102.5, 105.0,
				     107.5, 103.5, 106.0, 102.0, 104.5,
				     107.0, 103.0, 105.5, 108.0, 104.0};
	double c20[20], d20[20];
	size_t i;

	(void)state;
	/* mw_exact, and mw_exact_noties (Mann's recurrence) agrees */
	assert_close(stats_mann_whitney(ua, 5, ub, 9), 0.003996003996003996);
	assert_close(stats_mann_whitney(a10, 10, b10, 10), 0.7393643508194592);
	/* mw_exact_groups (by tie group; too many assignments to list);
	 * mw_normal gives 0.21244148091910464, so this is the exact branch */
	assert_close(stats_mann_whitney(a20, 20, b20, 20), 0.21247127125155854);
	/* c20 = 100 + i, d20 = 100.5 + i (+3 for i > 10):
	 * mw_exact_noties */
	for (i = 0; i < 20; i++) {
		c20[i] = 100.0 + (double)i;
		d20[i] = 100.5 + (double)i + (i > 10 ? 3 : 0);
	}
	assert_close(stats_mann_whitney(c20, 20, d20, 20), 0.4135263115144142);
}

static void mann_whitney_normal_above_40(void **state)
{
	double a25[25], b30[30], a21[21], d20[20];
	size_t i;

	(void)state;
	/* a25[i] = 10 + 0.1 ((7 i) mod 13), b30[i] = 10.3 + 0.1 ((5 i) mod
	 * 11), rounded to 0.1 as in the Python; heavy ties. mw_normal;
	 * the exact (mw_exact_groups) would be 0.0545404360367381 */
	for (i = 0; i < 25; i++)
		a25[i] = round((10 + 0.1 * (double)((7 * i) % 13)) * 10) / 10;
	for (i = 0; i < 30; i++)
		b30[i] = round((10.3 + 0.1 * (double)((5 * i) % 11)) * 10) / 10;
	assert_close(stats_mann_whitney(a25, 25, b30, 30), 0.0553869520624449);
	assert_close(stats_mann_whitney_normal(a25, 25, b30, 30),
		     0.0553869520624449);
	/* 41 values: a21 = 100 + i, d20 as above; mw_normal */
	for (i = 0; i < 21; i++)
		a21[i] = 100.0 + (double)i;
	for (i = 0; i < 20; i++)
		d20[i] = 100.5 + (double)i + (i > 10 ? 3 : 0);
	assert_close(stats_mann_whitney(a21, 21, d20, 20), 0.5399241969807155);
	assert_close(stats_mann_whitney(d20, 20, a21, 21), 0.5399241969807155);
}

static void hodges_lehmann_intervals(void **state)
{
	static const double a3[] = {1.0, 1.1, 1.2}, b3[] = {1.3, 1.4, 1.5};
	static const double a4[] = {10.0, 10.4, 10.1, 10.3};
	static const double b4[] = {9.1, 9.5, 9.3, 9.0};
	static const double ua[] = {10.1, 10.4, 9.8, 10.0, 10.3};
	static const double ub[] = {10.6, 10.2, 10.9, 11.0, 10.7,
				    10.5, 11.3, 10.8, 10.45};
	double la[9], lb[9], shift, lo, hi;
	size_t i;

	(void)state;
	/* hl_ratio on logs, k from u_counts: 3 vs 3 has no 95% interval
	 * (P(U = 0) = 1/20 > 0.025); the estimate is still given */
	for (i = 0; i < 3; i++) {
		la[i] = log(a3[i]);
		lb[i] = log(b3[i]);
	}
	assert_int_equal(stats_hodges_lehmann(&shift, &lo, &hi, la, 3, lb, 3),
			 -1);
	assert_close(exp(shift), 1.2727272727272725);
	assert_nan(lo);
	assert_nan(hi);
	/* 4 vs 4: k = 1, the extreme differences */
	for (i = 0; i < 4; i++) {
		la[i] = log(a4[i]);
		lb[i] = log(b4[i]);
	}
	assert_int_equal(stats_hodges_lehmann(&shift, &lo, &hi, la, 4, lb, 4),
			 0);
	assert_close(exp(shift), 0.9019508479488979);
	assert_close(exp(lo), 0.8653846153846155);
	assert_close(exp(hi), 0.95);
	/* 5 vs 9: k = 8 */
	for (i = 0; i < 5; i++)
		la[i] = log(ua[i]);
	for (i = 0; i < 9; i++)
		lb[i] = log(ub[i]);
	assert_int_equal(stats_hodges_lehmann(&shift, &lo, &hi, la, 5, lb, 9),
			 0);
	assert_close(exp(shift), 1.0582524271844662);
	assert_close(exp(lo), 1.0194174757281553);
	assert_close(exp(hi), 1.0970873786407769);
	/* on raw values: the differences of 1, 2, 3 and 11, 12, 13 are
	 * 8..12 with median 10 */
	for (i = 0; i < 3; i++) {
		la[i] = 1.0 + (double)i;
		lb[i] = 11.0 + (double)i;
	}
	(void)stats_hodges_lehmann(&shift, &lo, &hi, la, 3, lb, 3);
	assert_close(shift, 10);
	assert_int_equal(stats_hodges_lehmann(&shift, &lo, &hi, la, 0, lb, 3),
			 -1);
	assert_nan(shift);
}

/* The ranks k of the lower ends agree with the published critical values
 * of U at two-sided 0.05 (k = U_crit + 1): 5 vs 5: 2, 6 vs 6: 5,
 * 10 vs 10: 23, 20 vs 20: 127; hl_ratio prints k. */
static void compare_ratio_and_interval(void **state)
{
	static const double ha[] = {41.2, 41.7, 41.9, 41.5, 42.0,
				    41.3, 41.8, 41.6, 42.4, 41.1};
	static const double hb[] = {40.1, 40.6, 39.9, 40.4, 41.0,
				    40.2, 40.8, 40.0, 40.5, 41.6};
	static const double a4[] = {10.0, 10.4, 10.1, 10.3};
	static const double b4[] = {9.1, 9.5, 9.3, 9.0};
	static const double a3[] = {1.0, 1.1, 1.2}, b3[] = {1.3, 1.4, 1.5};
	static const double zero[] = {10.0, 0.0, 10.1, 10.3};
	double a25[25], b30[30];
	struct stats_compare c;
	size_t i;

	(void)state;
	/* 10 vs 10 with a tie across the arms (41.6): mw_exact, hl_ratio
	 * (k = 24; the shifted arms have no tie), statistics.median */
	stats_compare(&c, ha, 10, hb, 10);
	assert_close(c.median_a, 41.650000000000006);
	assert_close(c.median_b, 40.45);
	assert_close(c.median_ratio, 0.971188475390156);
	assert_close(c.p, 0.00014072614691809738);
	assert_true(c.significant);
	assert_close(c.ci_lo, 0.9616306954436448);
	assert_close(c.ci_hi, 0.9830097087378639);

	/* 4 vs 4 fully separated: the least significant design */
	stats_compare(&c, a4, 4, b4, 4);
	assert_close(c.p, 0.02857142857142857);
	assert_true(c.significant);
	assert_close(c.ci_lo, 0.8653846153846155);
	assert_close(c.ci_hi, 0.95);

	/* 3 vs 3: never significant, no interval */
	stats_compare(&c, a3, 3, b3, 3);
	assert_close(c.p, 0.1);
	assert_false(c.significant);
	assert_close(c.median_ratio, 1.4 / 1.1);
	assert_nan(c.ci_lo);
	assert_nan(c.ci_hi);

	/* a value <= 0: the p stands (mw_exact), the interval of logs does
	 * not */
	stats_compare(&c, zero, 4, b4, 4);
	assert_close(c.p, 0.34285714285714286);
	assert_nan(c.ci_lo);
	assert_nan(c.ci_hi);
	stats_compare(&c, b4, 4, zero, 4);
	assert_nan(c.ci_hi);

	/* identical arms */
	stats_compare(&c, ha, 10, ha, 10);
	assert_close(c.p, 1);
	assert_close(c.ratio, 1);
	assert_false(c.significant);
	assert_true(c.ci_lo < 1 && c.ci_hi > 1);

	/* 25 vs 30 (normal branch, k = 259, as the exact k): hl_ratio */
	for (i = 0; i < 25; i++)
		a25[i] = round((10 + 0.1 * (double)((7 * i) % 13)) * 10) / 10;
	for (i = 0; i < 30; i++)
		b30[i] = round((10.3 + 0.1 * (double)((5 * i) % 11)) * 10) / 10;
	stats_compare(&c, a25, 25, b30, 30);
	assert_close(c.ci_lo, 1.0);
	assert_close(c.ci_hi, 1.0388349514563107);
	assert_false(c.significant);

	stats_compare(&c, a4, 0, b4, 4);
	assert_close(c.p, 1);
	assert_nan(c.ci_lo);
}

static void theil_sen_fits(void **state)
{
	/* an iteration sweep, 3 runs at each of 64, 512, 4096 iterations,
	 * with one wild run (9.0) */
	static const double sx[] = {64,	 64,   64,   512, 512,
				    512, 4096, 4096, 4096};
	static const double sy[] = {1.10, 1.12, 1.09, 2.05, 2.10,
				    9.0,  12.2, 12.4, 12.1};
	static const double x2[] = {1, 2, 3, 4, 5, 6};
	static const double y2[] = {3, 5, 7, 9, 11, 40};
	static const double x3[] = {1, 2, 3, 4}, y3[] = {2, 1, 4, 3};
	static const double same_x[] = {5, 5, 5};
	double a, b;

	(void)state;
	/* theil_sen() */
	assert_int_equal(stats_theil_sen(&a, &b, sx, sy, 9), 0);
	assert_close(b, 0.0027529761904761902);
	assert_close(a, 0.9238095238095239);
	/* y = 1 + 2 x with one outlier: recovered exactly */
	assert_int_equal(stats_theil_sen(&a, &b, x2, y2, 6), 0);
	assert_close(b, 2);
	assert_close(a, 1);
	/* an even number of slopes: the mean of the middle two */
	assert_int_equal(stats_theil_sen(&a, &b, x3, y3, 4), 0);
	assert_close(b, 0.6666666666666666);
	assert_close(a, 0.8333333333333335);
	/* undefined fits */
	assert_int_equal(stats_theil_sen(&a, &b, same_x, y3, 3), -1);
	assert_nan(b);
	assert_int_equal(stats_theil_sen(&a, &b, x2, y2, 1), -1);
	assert_int_equal(stats_theil_sen(&a, &b, x2, y2, 0), -1);
}

static void holm_adjusts_as_r(void **state)
{
	/* R: p.adjust(c(0.01, 0.02, 0.03, 0.04, 0.05), "holm") =
	 * 0.05 0.08 0.09 0.09 0.09 */
	double p[] = {0.01, 0.02, 0.03, 0.04, 0.05};
	static const double want[] = {0.05, 0.08, 0.09, 0.09, 0.09};
	/* holm(): ties and an unsorted input; adjusted in place */
	double q[] = {0.04, 0.001, 0.03, 0.2, 0.001};
	static const double wantq[] = {0.09, 0.005, 0.09, 0.2, 0.005};
	double big[] = {0.5, 0.6};
	size_t i;

	(void)state;
	stats_holm(p, p, 5);
	for (i = 0; i < 5; i++)
		assert_close(p[i], want[i]);
	stats_holm(q, q, 5);
	for (i = 0; i < 5; i++)
		assert_close(q[i], wantq[i]);
	stats_holm(big, big, 2);
	assert_close(big[0], 1);
	assert_close(big[1], 1);
	stats_holm(big, big, 0);
}

static void trend_detects_drift(void **state)
{
	static const double up[] = {10.0, 10.2, 10.1, 10.4,
				    10.3, 10.6, 10.5, 10.8};
	static const double flat[] = {10.2, 10.0,  10.3,  10.1,
				      10.4, 10.05, 10.25, 10.15};
	static const double tied[] = {5.0, 5.0, 5.1, 5.0, 5.2, 5.1, 5.3};
	static const double same[] = {3, 3, 3};
	double d40[41], tau;
	size_t i;

	(void)state;
	/* trend_exact (all 8! orders), and trend_exact_big agrees */
	assert_close(stats_trend(&tau, up, 8), 0.005505952380952381);
	assert_close(tau, 0.7857142857142857);
	assert_close(stats_trend(&tau, flat, 8), 0.9048611111111111);
	assert_close(tau, 0.07142857142857142);
	/* ties: trend_normal (tau-b); all 7! orders would give 0.0524 */
	assert_close(stats_trend(&tau, tied, 7), 0.05673822137519342);
	assert_close(tau, 0.6880329612324521);
	/* d40[i] = 100 + (17 i mod 40) + 0.05 i: trend_exact_big at the
	 * largest exact size */
	for (i = 0; i < 40; i++)
		d40[i] = 100 + (double)((17 * i) % 40) + 0.05 * (double)i;
	assert_close(stats_trend(&tau, d40, 40), 0.6853411881688679);
	assert_close(tau, -0.046153846153846156);
	/* 41 values, mod 41: trend_normal */
	for (i = 0; i < 41; i++)
		d40[i] = 100 + (double)((17 * i) % 41) + 0.05 * (double)i;
	assert_close(stats_trend(&tau, d40, 41), 0.8135330043961142);
	assert_close(tau, 0.026829268292682926);
	assert_close(stats_trend(&tau, same, 3), 1);
	assert_nan(tau);
	assert_close(stats_trend(NULL, up, 1), 1);
}

/* A sweep at 64, 512, 4096 iterations, 5 runs each: B saves 10% per
 * iteration (0.002 -> 0.0018) and keeps the fixed cost; the runs are
 * interleaved as the A/B runs them. */
static const double sw_x[] = {64,   512, 4096, 64,   512, 4096, 64,  512,
			      4096, 64,	 512,  4096, 64,  512,	4096};
static const double sw_ya[] = {0.608, 1.537, 8.688, 0.631, 1.51,
			       8.702, 0.654, 1.524, 8.675, 0.618,
			       1.547, 8.698, 0.641, 1.52,  8.712};
static const double sw_yb[] = {0.6252, 1.4186, 7.8818, 0.6192, 1.4316,
			       7.8698, 0.6072, 1.4256, 7.8828, 0.6202,
			       1.4136, 7.8768, 0.6142, 1.4266, 7.8648};

static void sweep_separates_fixed_and_per_iteration(void **state)
{
	struct stats_sweep s, t;

	(void)state;
	/* sweep(xa, ya, xb, yb, 200, 42) */
	assert_int_equal(stats_sweep_compare(&s, sw_x, sw_ya, 15, sw_x, sw_yb,
					     15, 200, 42),
			 0);
	assert_close(s.d_fixed, 0.0010000000000000009);
	assert_close(s.d_per_iter, -0.00019999999999999966);
	assert_close(s.per_iter_ratio, 0.9000000000000001);
	assert_close(s.d_fixed_lo, -0.014872321428571261);
	assert_close(s.d_fixed_hi, 0.015200694444443729);
	assert_close(s.d_per_iter_lo, -0.00020497581845238077);
	assert_close(s.d_per_iter_hi, -0.00019525669642857148);
	assert_close(s.per_iter_ratio_lo, 0.8977267030562852);
	assert_close(s.per_iter_ratio_hi, 0.9021395609005733);
	assert_close(s.fixed_b - s.fixed_a, s.d_fixed);
	/* the same seed, the same numbers; no resamples, no CIs */
	(void)stats_sweep_compare(&t, sw_x, sw_ya, 15, sw_x, sw_yb, 15, 200,
				  42);
	assert_memory_equal(&s, &t, sizeof(s));
	assert_int_equal(stats_sweep_compare(&t, sw_x, sw_ya, 15, sw_x, sw_yb,
					     15, 0, 42),
			 0);
	assert_close(t.d_per_iter, s.d_per_iter);
	assert_nan(t.d_fixed_lo);
	/* one iteration count only: no line */
	assert_int_equal(stats_sweep_compare(&t, sw_x, sw_ya, 1, sw_x, sw_yb,
					     15, 200, 42),
			 -1);
	assert_nan(t.d_fixed);
	{
		static const double one_x[] = {64, 64, 64};

		assert_int_equal(stats_sweep_compare(&t, one_x, sw_ya, 3, sw_x,
						     sw_yb, 15, 10, 1),
				 -1);
	}
}

static void bootstrap_ratio_of_medians(void **state)
{
	static const double ha[] = {41.2, 41.7, 41.9, 41.5, 42.0,
				    41.3, 41.8, 41.6, 42.4, 41.1};
	static const double hb[] = {40.1, 40.6, 39.9, 40.4, 41.0,
				    40.2, 40.8, 40.0, 40.5, 41.6};
	static const double zero[] = {1, 0};
	double lo, hi;

	(void)state;
	/* boot_ratio(ha, hb, 1000, 7) */
	assert_int_equal(
		stats_bootstrap_ratio(&lo, &hi, ha, 10, hb, 10, 1000, 7), 0);
	assert_close(lo, 0.9604065435002832);
	assert_close(hi, 0.9831325301204819);
	assert_int_equal(
		stats_bootstrap_ratio(&lo, &hi, zero, 2, hb, 10, 100, 7), -1);
	assert_nan(lo);
	assert_int_equal(stats_bootstrap_ratio(&lo, &hi, ha, 10, hb, 10, 0, 7),
			 -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(quantiles_are_type7_as_numpy),
		cmocka_unit_test(median_of_odd_and_even),
		cmocka_unit_test(summary_fields),
		cmocka_unit_test(summary_without_ci_is_the_rest_alike),
		cmocka_unit_test(median_ci_order_statistics),
		cmocka_unit_test(mann_whitney_smallest_samples),
		cmocka_unit_test(mann_whitney_scipy_example),
		cmocka_unit_test(mann_whitney_exact_with_ties),
		cmocka_unit_test(mann_whitney_exact_unequal_and_boundary),
		cmocka_unit_test(mann_whitney_normal_above_40),
		cmocka_unit_test(hodges_lehmann_intervals),
		cmocka_unit_test(compare_ratio_and_interval),
		cmocka_unit_test(theil_sen_fits),
		cmocka_unit_test(holm_adjusts_as_r),
		cmocka_unit_test(trend_detects_drift),
		cmocka_unit_test(sweep_separates_fixed_and_per_iteration),
		cmocka_unit_test(bootstrap_ratio_of_medians),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

/*
 * The reference values above come from this Python 3.11 (stdlib only),
 * not from this C code: exact fractions, brute force where it is feasible.
 *
 * import itertools, math, statistics
 * from fractions import Fraction as F
 *
 * def type7(x, q):                       # R type 7 by its definition
 *     s = sorted(x); h = (len(s) - 1) * q; lo = math.floor(h)
 *     return s[lo] if lo + 1 >= len(s) else \
 *         s[lo] + (h - lo) * (s[lo + 1] - s[lo])
 *
 * def median_ci(x):                      # exact binomial, left-biased
 *     n = len(x); s = sorted(x)
 *     pmf = lambda k: F(math.comb(n, k), 2 ** n) if 0 <= k <= n else F(0)
 *     l = math.ceil(F(n + 1, 2)) - 1; r = l + 1; acc = pmf(l)
 *     while acc < F(95, 100) and (pmf(l - 1) > 0 or pmf(r) > 0):
 *         if pmf(l - 1) >= pmf(r): acc += pmf(l - 1); l -= 1
 *         else: acc += pmf(r); r += 1
 *     return (None, None) if l < 1 or r > n else (s[l - 1], s[r - 1])
 *
 * def midranks(pool):                    # Fraction mid-ranks of a list
 *     s = sorted(pool); first = {}; count = {}
 *     for i, v in enumerate(s):
 *         first.setdefault(v, i + 1); count[v] = count.get(v, 0) + 1
 *     return [F(2 * first[v] + count[v] - 1, 2) for v in pool]
 *
 * def mw_exact(a, b):                    # every assignment of a's places
 *     pool = a + b; r = midranks(pool); t = sum(r[:len(a)])
 *     le = ge = tot = 0
 *     for c in itertools.combinations(range(len(pool)), len(a)):
 *         s = sum(r[i] for i in c); tot += 1
 *         le += s <= t; ge += s >= t
 *     return min(1.0, float(2 * F(min(le, ge), tot)))
 *
 * def mw_exact_groups(a, b):             # by tie groups: prod C(t_g, k_g)
 *     pool = a + b; vals = sorted(set(pool)); m = len(a)
 *     r = dict(zip(pool, midranks(pool))); t = sum(r[v] for v in a)
 *     dist = {(0, F(0)): 1}              # (taken, sum) -> ways
 *     for v in vals:
 *         tg = pool.count(v); nd = {}
 *         for (j, s), w in dist.items():
 *             for k in range(0, min(tg, m - j) + 1):
 *                 key = (j + k, s + k * r[v])
 *                 nd[key] = nd.get(key, 0) + w * math.comb(tg, k)
 *         dist = nd
 *     le = sum(w for (j, s), w in dist.items() if j == m and s <= t)
 *     ge = sum(w for (j, s), w in dist.items() if j == m and s >= t)
 *     return min(1.0, float(2 * F(min(le, ge), math.comb(len(pool), m))))
 *
 * def u_counts(m, n):                    # Mann's recurrence, no ties
 *     f = {}
 *     def g(m, n, u):
 *         if u < 0: return 0
 *         if m == 0 or n == 0: return 1 if u == 0 else 0
 *         if (m, n, u) not in f:
 *             f[(m, n, u)] = g(m, n - 1, u) + g(m - 1, n, u - n)
 *         return f[(m, n, u)]
 *     return [g(m, n, u) for u in range(m * n + 1)]
 *
 * def mw_exact_noties(a, b):
 *     m, n = len(a), len(b)
 *     u = sum(1 for x in a for y in b if x > y)
 *     c = u_counts(m, n); tot = sum(c)
 *     le = sum(c[:u + 1]); ge = sum(c[u:])
 *     return min(1.0, float(2 * F(min(le, ge), tot)))
 *
 * def mw_normal(a, b):                   # textbook normal approximation
 *     m, n = len(a), len(b); N = m + n; r = midranks(a + b)
 *     u = float(sum(r[:m])) - m * (m + 1) / 2
 *     ties = sum(t ** 3 - t for t in [(a + b).count(v) for v in set(a + b)])
 *     var = m * n / 12 * ((N + 1) - ties / (N * (N - 1)))
 *     z = (abs(u - m * n / 2) - 0.5) / math.sqrt(var)
 *     return 1.0 if z <= 0 else min(1.0, math.erfc(z / math.sqrt(2)))
 *
 * def hl_ratio(a, b):                    # sorted pairwise log differences
 *     d = sorted(math.log(y) - math.log(x) for x in a for y in b)
 *     M = len(d); m, n = len(a), len(b)
 *     if m + n <= 40:
 *         c = u_counts(m, n); tot = sum(c); k = 0; cum = 0
 *         for u in range(M + 1):
 *             cum += c[u]
 *             if F(cum, tot) > F(5, 200): break
 *             k += 1
 *     else:
 *         z = statistics.NormalDist().inv_cdf(0.975)
 *         k = math.floor(M / 2 - 0.5 - z * math.sqrt(M * (m + n + 1) / 12))
 *         k += 1
 *     est = statistics.median(d)
 *     if k < 1: return math.exp(est), None, None, k
 *     return math.exp(est), math.exp(d[k - 1]), math.exp(d[M - k]), k
 *
 * def theil_sen(x, y):
 *     sl = [(y[j] - y[i]) / (x[j] - x[i]) for i in range(len(x))
 *           for j in range(i + 1, len(x)) if x[i] != x[j]]
 *     b = statistics.median(sl)
 *     return statistics.median([yy - b * xx for xx, yy in zip(x, y)]), b
 *
 * def holm(p):
 *     m = len(p); o = sorted(range(m), key=lambda i: (p[i], i))
 *     out = [0] * m; run = 0
 *     for j, i in enumerate(o):
 *         run = max(run, (m - j) * p[i]); out[i] = min(1.0, run)
 *     return out
 *
 * def trend_exact(x):                    # every ordering of the values
 *     n = len(x); sgn = lambda v: (v > 0) - (v < 0)
 *     S = lambda v: sum(sgn(v[j] - v[i]) for i in range(n)
 *                       for j in range(i + 1, n))
 *     s = S(x); le = ge = tot = 0
 *     for perm in itertools.permutations(x):
 *         t = S(perm); tot += 1; le += t <= s; ge += t >= s
 *     return min(1.0, float(2 * F(min(le, ge), tot))), s / (n * (n - 1) / 2)
 *
 * def mahonian(n):                       # permutations of n by inversions
 *     w = [1]
 *     for k in range(2, n + 1):
 *         nw = [0] * (len(w) + k - 1)
 *         for v, c in enumerate(w):
 *             for j in range(k): nw[v + j] += c
 *         w = nw
 *     return w
 *
 * def trend_exact_big(x):                # no ties: S = n0 - 2 I
 *     n = len(x)
 *     inv = sum(1 for i in range(n) for j in range(i + 1, n) if x[j] < x[i])
 *     w = mahonian(n); tot = sum(w)
 *     le = sum(w[:inv + 1]); ge = sum(w[inv:])
 *     return min(1.0, float(2 * F(min(le, ge), tot)))
 *
 * def trend_normal(x):
 *     n = len(x)
 *     s = sum((x[j] > x[i]) - (x[j] < x[i]) for i in range(n)
 *             for j in range(i + 1, n))
 *     ts = [x.count(v) for v in set(x)]
 *     var = (n * (n - 1) * (2 * n + 5)
 *            - sum(t * (t - 1) * (2 * t + 5) for t in ts)) / 18
 *     n0 = n * (n - 1) / 2; n1 = sum(t * (t - 1) / 2 for t in ts)
 *     z = (abs(s) - 1) / math.sqrt(var)
 *     return (1.0 if z <= 0 else min(1.0, math.erfc(z / math.sqrt(2))),
 *             s / math.sqrt(n0 * (n0 - n1)))
 *
 * M64 = 2 ** 64 - 1
 * class SplitMix:                        # seed 1234567 gives the published
 *     def __init__(self, seed): self.s = seed  # 6457827717110365317,
 *     def next(self):                    # 3203168211198807973, ...
 *         self.s = (self.s + 0x9e3779b97f4a7c15) & M64; z = self.s
 *         z = ((z ^ (z >> 30)) * 0xbf58476d1ce4e5b9) & M64
 *         z = ((z ^ (z >> 27)) * 0x94d049bb133111eb) & M64
 *         return z ^ (z >> 31)
 *
 * def ts7(x, y):                         # Theil-Sen with type-7 medians
 *     sl = sorted((y[j] - y[i]) / (x[j] - x[i]) for i in range(len(x))
 *                 for j in range(i + 1, len(x)) if x[i] != x[j])
 *     b = type7(sl, 0.5)
 *     return type7([yy - b * xx for xx, yy in zip(x, y)], 0.5), b
 *
 * def sweep(xa, ya, xb, yb, nboot, seed):
 *     rng = SplitMix(seed); arms = []
 *     for x, y in ((xa, ya), (xb, yb)):
 *         o = sorted(range(len(x)), key=lambda i: (x[i], i))
 *         arms.append(([x[i] for i in o], [y[i] for i in o]))
 *     (fa, pa), (fb, pb) = ts7(*arms[0]), ts7(*arms[1])
 *     est = (fb - fa, pb - pa, pb / pa)
 *     df, dp, rt = [], [], []
 *     for r in range(nboot):
 *         fits = []
 *         for x, y in arms:
 *             rx, ry = [], []
 *             for v in sorted(set(x)):
 *                 idx = [i for i in range(len(x)) if x[i] == v]
 *                 for _ in idx:
 *                     k = idx[0] + rng.next() % len(idx)
 *                     rx.append(x[k]); ry.append(y[k])
 *             fits.append(ts7(rx, ry))
 *         (fa, pa), (fb, pb) = fits
 *         df.append(fb - fa); dp.append(pb - pa); rt.append(pb / pa)
 *     ci = lambda v: (type7(v, 0.025), type7(v, 0.975))
 *     return est, ci(df), ci(dp), ci(rt)
 *
 * def boot_ratio(a, b, nboot, seed):
 *     rng = SplitMix(seed); rs = []
 *     for r in range(nboot):
 *         ra = [a[rng.next() % len(a)] for _ in a]
 *         rb = [b[rng.next() % len(b)] for _ in b]
 *         rs.append(type7(rb, 0.5) / type7(ra, 0.5))
 *     return type7(rs, 0.025), type7(rs, 0.975)
 */
