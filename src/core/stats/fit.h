/* Trends and fits for the statistics module: Theil-Sen lines, the
 * Mann-Kendall drift test, and seeded percentile bootstraps of an iteration
 * sweep and of a ratio of medians (measurement.md §3 items 6, 8 and 10). */
#ifndef GCAMP_STATS_FIT_H
#define GCAMP_STATS_FIT_H

#include <stddef.h>
#include <stdint.h>

/* Theil-Sen fit y = intercept + slope * x of n points (n >= 2, at least
 * two distinct x): the slope is the median of the slopes of all pairs with
 * distinct x, the intercept the median of y - slope * x. Returns 0, or -1
 * when the fit is undefined. Scratch memory grows as n * n. */
int stats_theil_sen(double *out_intercept, double *out_slope, const double *x,
		    const double *y, size_t n);

/* Drift check of a series in run order (Mann-Kendall): returns the
 * two-sided p of "no monotonic trend of x[0..n) with its index", exact
 * without ties up to 40 values, normal with tie correction otherwise; 1
 * when n < 2. *out_tau (when not NULL) gets Kendall's tau-b of value
 * against run index, NaN when undefined (n < 2 or all values tied). */
double stats_trend(double *out_tau, const double *x, size_t n);

/* An iteration sweep compared between arms: per arm the Theil-Sen fit
 * time = fixed + per_iter * iters, and the differences b - a. */
struct stats_sweep {
	double fixed_a, per_iter_a, fixed_b, per_iter_b;
	/* fixed_b - fixed_a, with its 95% bootstrap CI */
	double d_fixed, d_fixed_lo, d_fixed_hi;
	/* per_iter_b - per_iter_a, with its 95% bootstrap CI */
	double d_per_iter, d_per_iter_lo, d_per_iter_hi;
	/* per_iter_b / per_iter_a with its CI; NaN unless every fit of arm a
	 * has a positive per-iteration cost */
	double per_iter_ratio, per_iter_ratio_lo, per_iter_ratio_hi;
	/* two-sided bootstrap p of "no change" for d_fixed and d_per_iter:
	 * twice the smaller share of resamples on either side of 0, at most
	 * 1 (0 when every resample is on one side); NaN without resamples */
	double p_fixed, p_per_iter;
};

/* Fits arm a (points xa, ya; x the iteration count) and arm b, and
 * bootstraps the differences: nboot resamples (2000 is plenty; 0 gives
 * the estimates alone, CIs NaN), each drawing every arm's points with
 * replacement within each iteration count, so every resample has the
 * design of the data; the CIs are the 2.5% and 97.5% percentiles, and
 * p_fixed and p_per_iter the tests whose 5% level those CIs match. The
 * same seed gives the same numbers. It needs several runs at each count:
 * a count with one run adds no spread, and the CIs come out too narrow.
 * Returns 0, or -1 (all NaN) when either arm has fewer than two points or
 * two distinct x. Time grows as nboot * n^2 log n. */
int stats_sweep_compare(struct stats_sweep *out, const double *xa,
			const double *ya, size_t na, const double *xb,
			const double *yb, size_t nb, size_t nboot,
			uint64_t seed);

/* The fallback CI of the ratio of medians b/a (measurement.md §3 item 6):
 * a percentile bootstrap of nboot resamples (10000) of each arm with the
 * given seed, into *out_lo, *out_hi. Returns 0, or -1 (NaN) when an arm is
 * empty, nboot is 0 or a value is <= 0. */
int stats_bootstrap_ratio(double *out_lo, double *out_hi, const double *a,
			  size_t na, const double *b, size_t nb, size_t nboot,
			  uint64_t seed);

#endif
