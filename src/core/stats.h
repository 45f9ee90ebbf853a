/* The statistics every comparison uses, written once: summaries with
 * order-statistic confidence intervals, the exact Mann-Whitney U test, the
 * Hodges-Lehmann confidence interval of a ratio, and Theil-Sen fits for
 * iteration sweeps. Methods and defaults follow benchstat (see
 * the shared reference measurement.md §3 and the comments in stats.c). Pure
 * functions: no I/O, no allocation the caller must free. */
#ifndef GCAMP_STATS_H
#define GCAMP_STATS_H

#include <stddef.h>

/* The significance level of every A/B verdict. */
#define STATS_ALPHA 0.05

struct stats_summary {
	size_t n;
	double median, mean, sd, min, max;
	double p10, p90;
	/* 95% order-statistic CI of the median; NaN when n < 6 */
	double ci_lo, ci_hi;
};

/* Summarises x[0..n) (n >= 1; x is not modified). Quantiles are R's
 * type 7 (linear interpolation), as numpy's default. */
void stats_summarize(struct stats_summary *out, const double *x, size_t n);

/* The median of x[0..n) (n >= 1; x is not modified). */
double stats_median(const double *x, size_t n);

/* The q-quantile of x[0..n), R type 7. */
double stats_quantile(const double *x, size_t n, double q);

/* Two-sided Mann-Whitney U test of a against b: exact distribution when
 * na + nb <= 40 (ties handled by the exact permutation distribution of the
 * mid-ranks), normal approximation with tie and continuity correction
 * above. Returns p in [0, 1]. */
double stats_mann_whitney(const double *a, size_t na, const double *b,
			  size_t nb);

/* The smallest two-sided p the exact test can give for sizes na, nb
 * (0.10 for 3 and 3): below alpha, a "~" says "cannot tell", not "same". */
double stats_mann_whitney_min_p(size_t na, size_t nb);

struct stats_compare {
	double median_a, median_b;
	double ratio;	     /* median_b / median_a */
	double p;	     /* Mann-Whitney, two-sided */
	double ci_lo, ci_hi; /* 95% CI of the ratio b/a; NaN when it cannot
			      * be computed (too few samples, values <= 0) */
	int significant;     /* p < STATS_ALPHA */
};

/* Compares arm b against arm a (a is the baseline). The CI of the ratio
 * is the Hodges-Lehmann interval of the shift of log(values), exp()ed;
 * values <= 0 fall back to NaN. */
void stats_compare(struct stats_compare *out, const double *a, size_t na,
		   const double *b, size_t nb);

/* Theil-Sen fit y = intercept + slope * x of n points (n >= 2, at least
 * two distinct x). Returns 0, or -1 when the fit is undefined. */
int stats_theil_sen(double *out_intercept, double *out_slope, const double *x,
		    const double *y, size_t n);

#endif
