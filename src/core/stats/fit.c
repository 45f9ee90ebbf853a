/* Trends and fits for the statistics module: Theil-Sen lines, the
 * Mann-Kendall drift test, and seeded percentile bootstraps of an iteration
 * sweep and of a ratio of medians (measurement.md §3 items 6, 8 and 10). */
#include "core/stats/fit.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/stats/stats.h"
#include "core/stats/stats_int.h"
#include "util/xalloc.h"

/* Above this many values, or with ties, the trend test is approximate. */
#define TREND_EXACT_MAX 40

/*
 * Theil-Sen (Sen 1968): the slope is the median of the slopes
 * (y[j] - y[i]) / (x[j] - x[i]) over all pairs with x[i] != x[j], which
 * tolerates up to 29% of wild points; the intercept is the median of
 * y - slope x (scipy.stats.theilslopes with method="joint"; its default,
 * "separate", takes median(y) - slope median(x) instead).
 *
 * slopes holds n (n - 1) / 2 doubles and res n, as scratch.
 */
static int fit(double *out_a, double *out_b, const double *x, const double *y,
	       size_t n, double *slopes, double *res)
{
	size_t i, j, m = 0;
	double b;

	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++)
			if (x[j] != x[i])
				slopes[m++] = (y[j] - y[i]) / (x[j] - x[i]);
	if (!m)
		return -1;
	qsort(slopes, m, sizeof(*slopes), stats_cmp_double);
	b = stats_quantile_sorted(slopes, m, 0.5);
	for (i = 0; i < n; i++)
		res[i] = y[i] - b * x[i];
	qsort(res, n, sizeof(*res), stats_cmp_double);
	*out_a = stats_quantile_sorted(res, n, 0.5);
	*out_b = b;
	return 0;
}

int stats_theil_sen(double *out_intercept, double *out_slope, const double *x,
		    const double *y, size_t n)
{
	double *slopes, *res;
	int rc;

	*out_intercept = *out_slope = NAN;
	if (n < 2)
		return -1;
	slopes = xmalloc(n * (n - 1) / 2 * sizeof(*slopes));
	res = xmalloc(n * sizeof(*res));
	rc = fit(out_intercept, out_slope, x, y, n, slopes, res);
	free(slopes);
	free(res);
	return rc;
}

/*
 * Mann-Kendall test of x against its run order: S = sum over i < j of
 * sign(x[j] - x[i]), Kendall's tau-b = S / sqrt(n0 (n0 - n1)) with
 * n0 = n (n - 1) / 2 and n1 = sum t (t - 1) / 2 over groups of t tied
 * values. Without ties S = n0 - 2 I, I the number of inversions, and under
 * H0 (every order equally likely) I follows the Mahonian distribution:
 * the count of permutations of k + 1 elements with v inversions is the sum
 * of those of k elements with v - k .. v inversions. With ties or more than
 * TREND_EXACT_MAX values, S is taken as normal with variance (n (n - 1)
 * (2n + 5) - sum t (t - 1) (2t + 5)) / 18 and a continuity correction of 1.
 * p is two-sided, as in stats_mann_whitney.
 */
static double trend_exact(size_t n, long inv)
{
	size_t max = n * (n - 1) / 2, k, v;
	double *ways = xcalloc(max + 1, sizeof(*ways));
	double *next = xcalloc(max + 1, sizeof(*next));
	double le = 0, ge = 0, total = 0, p;

	ways[0] = 1;
	for (k = 1; k < n; k++) {
		/* permutations of k + 1: insert the new largest anywhere */
		double run = 0;

		for (v = 0; v <= max; v++) {
			run += ways[v];
			if (v > k)
				run -= ways[v - k - 1];
			next[v] = run;
		}
		memcpy(ways, next, (max + 1) * sizeof(*ways));
	}
	for (v = 0; v <= max; v++) {
		total += ways[v];
		if ((long)v <= inv)
			le += ways[v];
		if ((long)v >= inv)
			ge += ways[v];
	}
	free(ways);
	free(next);
	p = 2 * (le < ge ? le : ge) / total;
	return p < 1 ? p : 1;
}

double stats_trend(double *out_tau, const double *x, size_t n)
{
	double s = 0, n0 = (double)n * ((double)n - 1) / 2, n1 = 0, vt = 0;
	double var, z, p, *sorted;
	long inv = 0;
	size_t i, j;

	if (out_tau)
		*out_tau = NAN;
	if (n < 2)
		return 1;
	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++) {
			s += (x[j] > x[i]) - (x[j] < x[i]);
			inv += x[j] < x[i];
		}
	sorted = stats_sorted_copy(x, n);
	for (i = 0; i < n; i = j) {
		double t;

		for (j = i + 1; j < n && sorted[j] == sorted[i]; j++)
			;
		t = (double)(j - i);
		n1 += t * (t - 1) / 2;
		vt += t * (t - 1) * (2 * t + 5);
	}
	free(sorted);
	if (out_tau && n0 - n1 > 0)
		*out_tau = s / sqrt(n0 * (n0 - n1));
	if (n1 == 0 && n <= TREND_EXACT_MAX)
		return trend_exact(n, inv);
	var = ((double)n * ((double)n - 1) * (2 * (double)n + 5) - vt) / 18;
	if (!(var > 0))
		return 1;
	z = (fabs(s) - 1) / sqrt(var);
	if (z <= 0)
		return 1;
	p = erfc(z / sqrt(2));
	return p < 1 ? p : 1;
}

/*
 * The bootstraps draw from splitmix64 (Steele, Lea and Flood 2014), one
 * stream from the caller's seed, an index into g items as next() % g (the
 * bias, g / 2^64, is nil here). The CI is the percentile interval: the
 * alpha/2 and 1 - alpha/2 type-7 quantiles of the resampled statistics.
 * Fixed seeds make every printed interval reproducible.
 */
static uint64_t splitmix64(uint64_t *state)
{
	uint64_t z = (*state += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

/* The two-sided percentile-bootstrap p of "the statistic is 0": twice the
 * smaller share of the n resamples v on either side of 0 (a resample at 0
 * counts on both), at most 1. A CI from the same resamples excludes 0 at
 * level alpha exactly when this p is below alpha (up to interpolation). */
static double bootstrap_p(const double *v, size_t n)
{
	size_t le = 0, ge = 0, i;
	double p;

	for (i = 0; i < n; i++) {
		le += v[i] <= 0;
		ge += v[i] >= 0;
	}
	p = 2.0 * (double)(le < ge ? le : ge) / (double)n;
	return p < 1 ? p : 1;
}

static void percentile_ci(double *out_lo, double *out_hi, double *v, size_t n)
{
	qsort(v, n, sizeof(*v), stats_cmp_double);
	*out_lo = stats_quantile_sorted(v, n, STATS_ALPHA / 2);
	*out_hi = stats_quantile_sorted(v, n, 1 - STATS_ALPHA / 2);
}

/* One arm of a sweep, its points ordered by (x, original index) so that
 * each run of equal x is a stratum resampled within itself. */
struct arm {
	size_t n;
	double *x, *y;	      /* ordered points */
	double *rx, *ry;      /* one resample */
	double *slopes, *res; /* fit scratch */
};

struct xi {
	double x;
	size_t i;
};

static int cmp_xi(const void *pa, const void *pb)
{
	const struct xi *a = pa, *b = pb;

	if (a->x != b->x)
		return (a->x > b->x) - (a->x < b->x);
	return (a->i > b->i) - (a->i < b->i);
}

static void arm_init(struct arm *arm, const double *x, const double *y,
		     size_t n)
{
	struct xi *o = xmalloc(n * sizeof(*o));
	size_t i;

	for (i = 0; i < n; i++)
		o[i] = (struct xi){x[i], i};
	qsort(o, n, sizeof(*o), cmp_xi);
	arm->n = n;
	arm->x = xmalloc(n * sizeof(double));
	arm->y = xmalloc(n * sizeof(double));
	arm->rx = xmalloc(n * sizeof(double));
	arm->ry = xmalloc(n * sizeof(double));
	arm->slopes = xmalloc(n * (n - 1) / 2 * sizeof(double));
	arm->res = xmalloc(n * sizeof(double));
	for (i = 0; i < n; i++) {
		arm->x[i] = o[i].x;
		arm->y[i] = y[o[i].i];
	}
	free(o);
}

static void arm_release(struct arm *arm)
{
	free(arm->x);
	free(arm->y);
	free(arm->rx);
	free(arm->ry);
	free(arm->slopes);
	free(arm->res);
}

/* Draws a stratified resample into rx, ry and fits it. */
static int arm_refit(double *out_a, double *out_b, struct arm *arm,
		     uint64_t *rng)
{
	size_t i, j, k;

	for (i = 0; i < arm->n; i = j) {
		for (j = i + 1; j < arm->n && arm->x[j] == arm->x[i]; j++)
			;
		for (k = i; k < j; k++) {
			size_t pick = i + (size_t)(splitmix64(rng) % (j - i));

			arm->rx[k] = arm->x[pick];
			arm->ry[k] = arm->y[pick];
		}
	}
	return fit(out_a, out_b, arm->rx, arm->ry, arm->n, arm->slopes,
		   arm->res);
}

int stats_sweep_compare(struct stats_sweep *out, const double *xa,
			const double *ya, size_t na, const double *xb,
			const double *yb, size_t nb, size_t nboot,
			uint64_t seed)
{
	struct arm a = {0}, b = {0};
	double *dfix = NULL, *dper = NULL, *ratio = NULL;
	double fa, pa, fb, pb;
	int rc = -1, ratio_ok = 1;
	uint64_t rng = seed;
	size_t r;

	out->fixed_a = out->per_iter_a = out->fixed_b = out->per_iter_b = NAN;
	out->d_fixed = out->d_fixed_lo = out->d_fixed_hi = NAN;
	out->d_per_iter = out->d_per_iter_lo = out->d_per_iter_hi = NAN;
	out->per_iter_ratio = out->per_iter_ratio_lo = NAN;
	out->per_iter_ratio_hi = NAN;
	out->p_fixed = out->p_per_iter = NAN;
	if (na < 2 || nb < 2)
		return -1;
	arm_init(&a, xa, ya, na);
	arm_init(&b, xb, yb, nb);
	/* the point estimates, from the data as given */
	if (fit(&fa, &pa, a.x, a.y, na, a.slopes, a.res) < 0 ||
	    fit(&fb, &pb, b.x, b.y, nb, b.slopes, b.res) < 0)
		goto out;
	out->fixed_a = fa;
	out->per_iter_a = pa;
	out->fixed_b = fb;
	out->per_iter_b = pb;
	out->d_fixed = fb - fa;
	out->d_per_iter = pb - pa;
	out->per_iter_ratio = pa > 0 ? pb / pa : NAN;
	rc = 0;
	if (!nboot)
		goto out;
	dfix = xmalloc(nboot * sizeof(*dfix));
	dper = xmalloc(nboot * sizeof(*dper));
	ratio = xmalloc(nboot * sizeof(*ratio));
	for (r = 0; r < nboot; r++) {
		/* strata keep every x, so neither refit can fail */
		(void)arm_refit(&fa, &pa, &a, &rng);
		(void)arm_refit(&fb, &pb, &b, &rng);
		dfix[r] = fb - fa;
		dper[r] = pb - pa;
		if (!(pa > 0))
			ratio_ok = 0;
		ratio[r] = pb / pa;
	}
	out->p_fixed = bootstrap_p(dfix, nboot);
	out->p_per_iter = bootstrap_p(dper, nboot);
	percentile_ci(&out->d_fixed_lo, &out->d_fixed_hi, dfix, nboot);
	percentile_ci(&out->d_per_iter_lo, &out->d_per_iter_hi, dper, nboot);
	if (ratio_ok && !isnan(out->per_iter_ratio))
		percentile_ci(&out->per_iter_ratio_lo, &out->per_iter_ratio_hi,
			      ratio, nboot);
out:
	arm_release(&a);
	arm_release(&b);
	free(dfix);
	free(dper);
	free(ratio);
	return rc;
}

int stats_bootstrap_ratio(double *out_lo, double *out_hi, const double *a,
			  size_t na, const double *b, size_t nb, size_t nboot,
			  uint64_t seed)
{
	double *ra, *rb, *ratio;
	uint64_t rng = seed;
	size_t r, i;

	*out_lo = *out_hi = NAN;
	if (!na || !nb || !nboot)
		return -1;
	for (i = 0; i < na; i++)
		if (!(a[i] > 0))
			return -1;
	for (i = 0; i < nb; i++)
		if (!(b[i] > 0))
			return -1;
	ra = xmalloc(na * sizeof(*ra));
	rb = xmalloc(nb * sizeof(*rb));
	ratio = xmalloc(nboot * sizeof(*ratio));
	for (r = 0; r < nboot; r++) {
		for (i = 0; i < na; i++)
			ra[i] = a[splitmix64(&rng) % na];
		for (i = 0; i < nb; i++)
			rb[i] = b[splitmix64(&rng) % nb];
		qsort(ra, na, sizeof(*ra), stats_cmp_double);
		qsort(rb, nb, sizeof(*rb), stats_cmp_double);
		ratio[r] = stats_quantile_sorted(rb, nb, 0.5) /
			   stats_quantile_sorted(ra, na, 0.5);
	}
	percentile_ci(out_lo, out_hi, ratio, nboot);
	free(ra);
	free(rb);
	free(ratio);
	return 0;
}
