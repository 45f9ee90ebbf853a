/* The statistics every comparison uses, written once: summaries with
 * order-statistic confidence intervals, the exact Mann-Whitney U test, the
 * Hodges-Lehmann CI of a ratio, the Holm adjustment; the fits are fit.h's. */
#ifndef GCAMP_STATS_H
#define GCAMP_STATS_H

#include <stddef.h>

/*
 * Methods and defaults follow benchstat (the shared reference
 * measurement.md §3; the algorithms are described in stats.c and
 * fit.c). All are pure functions: no I/O, no allocation the caller
 * must free, inputs never modified. Inputs are finite numbers (no NaN, no
 * infinity); an empty input gives NaN rather than a crash.
 */

/* The significance level of every A/B verdict; the confidence intervals are
 * at 1 - STATS_ALPHA (95%). */
#define STATS_ALPHA 0.05

/* The factor that makes the median absolute deviation estimate the standard
 * deviation of normal data (1 / Phi^-1(3/4)). */
#define STATS_MAD_SCALE 1.482602218505602

struct stats_summary {
	size_t n;
	double median, mean, sd, min, max;
	double p10, p90;
	/* 95% order-statistic CI of the median; NaN when n < 6 */
	double ci_lo, ci_hi;
	/* median absolute deviation, raw (times STATS_MAD_SCALE for sigma) */
	double mad;
};

/* Summarises x[0..n) (n >= 1). Quantiles are R's type 7 (linear
 * interpolation), as numpy's default. sd is the sample standard deviation
 * (n - 1 in the denominator), NaN when n == 1. With n == 0 every field but
 * n is NaN. */
void stats_summarize(struct stats_summary *out, const double *x, size_t n);

/* stats_summarize without the CI of the median (ci_lo and ci_hi NaN): for
 * what only draws the figures, as its binomial sums cost more than the
 * rest (and a process that never needs them the math library's pages). */
void stats_summarize_no_ci(struct stats_summary *out, const double *x,
			   size_t n);

/* The median of x[0..n) (n >= 1; NaN when n == 0). */
double stats_median(const double *x, size_t n);

/* The q-quantile of x[0..n), R type 7 (numpy's default "linear"): with the
 * values sorted, h = (n - 1) q and the result interpolates between the
 * values at floor(h) and floor(h) + 1. NaN when n == 0 or q is outside
 * [0, 1]. */
double stats_quantile(const double *x, size_t n, double q);

/* The 95% confidence interval of the q-quantile of x[0..n) from order
 * statistics (benchstat's QuantileCI, with the exact binomial at every n).
 * Sets *out_lo and *out_hi to sample values, or both to NaN when the
 * interval would reach past the sample (for the median: n < 6). */
void stats_quantile_ci(double *out_lo, double *out_hi, const double *x,
		       size_t n, double q);

/* The median absolute deviation of x[0..n) from its median, unscaled
 * (NaN when n == 0). */
double stats_mad(const double *x, size_t n);

/* Two-sided Mann-Whitney U test of a against b: exact distribution when
 * na + nb <= 40 (ties handled by the exact permutation distribution of the
 * mid-ranks), normal approximation with tie and continuity correction
 * above. Returns p in [0, 1]; 1 when either sample is empty. The two-sided
 * p is twice the smaller tail, capped at 1. */
double stats_mann_whitney(const double *a, size_t na, const double *b,
			  size_t nb);

/* The normal approximation alone (tie and continuity corrected), at any
 * size; stats_mann_whitney uses it above 40 values. Returns p in [0, 1]. */
double stats_mann_whitney_normal(const double *a, size_t na, const double *b,
				 size_t nb);

/* The smallest two-sided p the exact test can give for sizes na, nb
 * (0.10 for 3 and 3): below alpha, a "~" says "cannot tell", not "same".
 * 1 when either size is 0. */
double stats_mann_whitney_min_p(size_t na, size_t nb);

/* The Hodges-Lehmann estimate of the shift b - a (the median of the na * nb
 * differences b[j] - a[i]) into *out_shift, and into *out_lo, *out_hi the
 * 95% interval of the shifts that stats_mann_whitney's test does not
 * reject (so it excludes 0 exactly when that p < STATS_ALPHA, ties
 * included). Returns 0; -1 when the interval cannot be had at 95% (too
 * few samples: the CI is then NaN, the estimate still set when na, nb >=
 * 1). */
int stats_hodges_lehmann(double *out_shift, double *out_lo, double *out_hi,
			 const double *a, size_t na, const double *b,
			 size_t nb);

struct stats_compare {
	double median_a, median_b;
	double median_ratio; /* median_b / median_a, shown nowhere as B/A */
	/* B/A: the Hodges-Lehmann estimate exp(shift of logs), the centre
	 * of its 95% CI ci_lo..ci_hi; NaN when a value is <= 0 (on_diff)
	 * or, for the CI alone, with too few samples */
	double ratio, ci_lo, ci_hi;
	/* on_diff: some value is <= 0, so the estimate and CI are of the
	 * difference B - A (diff, diff_lo..diff_hi), in the values' unit;
	 * NaN otherwise */
	int on_diff;
	double diff, diff_lo, diff_hi;
	double p;	 /* Mann-Whitney, two-sided: the test the CI inverts */
	int significant; /* p < STATS_ALPHA, the CI then excludes no change */
};

/* Compares arm b against arm a (a is the baseline) with one estimator:
 * the Hodges-Lehmann shift of log(values) and its CI, exp()ed, when every
 * value is > 0; of the values themselves otherwise (on_diff). p and the
 * CI come from the same null distribution (exact conditional on ties up
 * to 40 values, normal with tie correction above), so significant holds
 * exactly when the CI excludes no change. 4 vs 4 is the least that can
 * give a CI and a significant p. */
void stats_compare(struct stats_compare *out, const double *a, size_t na,
		   const double *b, size_t nb);

/* Holm-Bonferroni adjustment of m p-values for a campaign of many metrics:
 * writes the adjusted p of p[i] to out[i] (out may be p). A verdict on
 * metric i is significant when out[i] < STATS_ALPHA. */
void stats_holm(double *out, const double *p, size_t m);

#endif
