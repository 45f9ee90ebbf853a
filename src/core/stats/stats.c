/* The statistics module: summaries, the Mann-Whitney U test, Hodges-Lehmann
 * intervals and the Holm adjustment, as benchstat computes them
 * (measurement.md §3); fits and bootstraps are in fit.c. */
#include "core/stats/stats.h"
#include "core/stats/stats_int.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

/* Above this many values in all, Mann-Whitney uses the normal approximation
 * (measurement.md §3 item 5, as asv and benchstat's exact tables do). */
#define EXACT_MAX 40

int stats_cmp_double(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;

	return (a > b) - (a < b);
}

double *stats_sorted_copy(const double *x, size_t n)
{
	double *s = xmalloc((n ? n : 1) * sizeof(*s));

	if (n)
		memcpy(s, x, n * sizeof(*s));
	qsort(s, n, sizeof(*s), stats_cmp_double);
	return s;
}

double stats_quantile_sorted(const double *s, size_t n, double q)
{
	double h = (double)(n - 1) * q;
	size_t lo = (size_t)floor(h);

	if (lo + 1 >= n)
		return s[n - 1];
	return s[lo] + (h - (double)lo) * (s[lo + 1] - s[lo]);
}

double stats_quantile(const double *x, size_t n, double q)
{
	double *s, v;

	if (!n || !(q >= 0 && q <= 1))
		return NAN;
	s = stats_sorted_copy(x, n);
	v = stats_quantile_sorted(s, n, q);
	free(s);
	return v;
}

double stats_median(const double *x, size_t n)
{
	return stats_quantile(x, n, 0.5);
}

/* Binomial(n, p) probability of k, 0 outside 0..n. Computed so that, for
 * p = 1/2, pmf(k) and pmf(n - k) are the same double: equal probabilities
 * then compare equal, and the walk below breaks the tie to the left, as the
 * exact arithmetic does. */
static double binom_pmf(long n, long k, double p)
{
	double lc;

	if (k < 0 || k > n)
		return 0;
	if (p <= 0)
		return k == 0;
	if (p >= 1)
		return k == n;
	lc = lgamma((double)n + 1) -
	     (lgamma((double)k + 1) + lgamma((double)(n - k) + 1));
	/* grouped so that the two terms commute when log p == log(1 - p) */
	return exp(lc + ((double)k * log(p) + (double)(n - k) * log(1 - p)));
}

/*
 * Order-statistic CI of a quantile (benchstat's QuantileCI). The number of
 * sample values below the population q-quantile is Binomial(n, q); its value
 * k places the quantile in the gap between the k-th and (k+1)-th order
 * statistics. Starting from the mode, (n + 1) q rounded up less one, add the
 * gap of larger probability on either side (the left one on equal
 * probabilities) until the covered probability reaches 95%. Having covered
 * gaps l..r-1, the interval is [x(l), x(r)] in 1-based order statistics; a
 * gap reaching past the sample (l < 1 or r > n) means no finite interval.
 * benchstat switches to a normal approximation above n = 30; we stay exact,
 * which is what that approximates.
 */
static void quantile_ci_sorted(double *out_lo, double *out_hi, const double *s,
			       size_t n, double q)
{
	long nn = (long)n, l, r, x;
	double conf = 1 - STATS_ALPHA, accum, lp, rp;

	*out_lo = *out_hi = NAN;
	if (!n || !(q >= 0 && q <= 1))
		return;
	x = q > 0 ? (long)ceil((double)(nn + 1) * q) - 1 : 0;
	accum = binom_pmf(nn, x, q);
	l = x;
	r = x + 1;
	lp = binom_pmf(nn, l - 1, q);
	rp = binom_pmf(nn, r, q);
	while (accum < conf && (lp > 0 || rp > 0)) {
		if (lp >= rp) {
			accum += lp;
			l--;
			lp = binom_pmf(nn, l - 1, q);
		} else {
			accum += rp;
			r++;
			rp = binom_pmf(nn, r, q);
		}
	}
	if (l < 1 || r > nn)
		return;
	*out_lo = s[l - 1];
	*out_hi = s[r - 1];
}

void stats_quantile_ci(double *out_lo, double *out_hi, const double *x,
		       size_t n, double q)
{
	double *s = stats_sorted_copy(x, n);

	quantile_ci_sorted(out_lo, out_hi, s, n, q);
	free(s);
}

/* The MAD of sorted s[0..n) around its median m; s is reused as scratch. */
static double mad_sorted(double *s, size_t n, double m)
{
	size_t i;

	for (i = 0; i < n; i++)
		s[i] = fabs(s[i] - m);
	qsort(s, n, sizeof(*s), stats_cmp_double);
	return stats_quantile_sorted(s, n, 0.5);
}

double stats_mad(const double *x, size_t n)
{
	double *s, m, v;

	if (!n)
		return NAN;
	s = stats_sorted_copy(x, n);
	m = stats_quantile_sorted(s, n, 0.5);
	v = mad_sorted(s, n, m);
	free(s);
	return v;
}

/* stats_summarize, the CI of the median only when ci */
static void summarize(struct stats_summary *out, const double *x, size_t n,
		      int ci)
{
	double *s, sum = 0, ss = 0;
	size_t i;

	out->n = n;
	out->median = out->mean = out->sd = out->min = out->max = NAN;
	out->p10 = out->p90 = out->ci_lo = out->ci_hi = out->mad = NAN;
	if (!n)
		return;
	s = stats_sorted_copy(x, n);
	out->min = s[0];
	out->max = s[n - 1];
	out->median = stats_quantile_sorted(s, n, 0.5);
	out->p10 = stats_quantile_sorted(s, n, 0.1);
	out->p90 = stats_quantile_sorted(s, n, 0.9);
	if (ci)
		quantile_ci_sorted(&out->ci_lo, &out->ci_hi, s, n, 0.5);
	/* two passes: the sum of squared deviations, not E[x^2] - E[x]^2 */
	for (i = 0; i < n; i++)
		sum += s[i];
	out->mean = sum / (double)n;
	for (i = 0; i < n; i++)
		ss += (s[i] - out->mean) * (s[i] - out->mean);
	if (n > 1)
		out->sd = sqrt(ss / (double)(n - 1));
	out->mad = mad_sorted(s, n, out->median);
	free(s);
}

void stats_summarize(struct stats_summary *out, const double *x, size_t n)
{
	summarize(out, x, n, 1);
}

void stats_summarize_no_ci(struct stats_summary *out, const double *x, size_t n)
{
	summarize(out, x, n, 0);
}

/*
 * Mann-Whitney U.
 *
 * Pool a and b, sort, and give each value its rank; tied values share the
 * mean of their ranks (mid-ranks). Doubled, every mid-rank is an integer
 * (a tie group over ranks i..j has mid-rank (i + j) / 2), so the null
 * distribution can be counted exactly: under H0 every choice of na of the
 * N = na + nb pooled positions is equally likely to be a's, so the
 * distribution of T = a's sum of doubled ranks is the number of na-subsets
 * of the doubled ranks with each sum, over C(N, na). A subset-sum dynamic
 * programme counts them: ways[j][s] = number of j-subsets of the positions
 * seen so far with sum s, updated position by position. Sums are at most
 * N (N + 1) and counts at most C(40, 20) < 2^53, so uint64_t is exact. This
 * is the exact permutation test conditional on the ties; without ties it is
 * the classic distribution of U = T/2 - na (na + 1) / 2.
 *
 * The two-sided p is twice the smaller of P(T <= t) and P(T >= t), capped
 * at 1 (R's and scipy's convention; with ties the distribution need not be
 * symmetric, and doubling the observed tail is the conservative choice).
 *
 * Above EXACT_MAX values, U is approximately normal with mean na nb / 2 and
 * variance na nb / 12 ((N + 1) - sum(t^3 - t) / (N (N - 1))) over the tie
 * groups of sizes t, and |U - mean| is reduced by 1/2 for continuity.
 */

struct ranked {
	uint64_t t2;	 /* a's sum of doubled ranks */
	double tie_term; /* sum over tie groups of t^3 - t */
	unsigned *w;	 /* doubled rank of each pooled position, or NULL */
};

/* Whether b[j] - delta ties a[i]: never in a gap */
static int tied_ab(double a, double b, double delta, int gap)
{
	return !gap && b - a == delta;
}

/*
 * Ranks the pool of sorted sa and sorted sb shifted by -delta, comparing
 * through the computed differences d = sb[j] - sa[i], never through
 * sb[j] - delta (which rounds): sb[j] - delta sits below sa[i] when d <
 * delta, ties it when d == delta; with gap, when d <= delta, never tied
 * (the open gap just above delta). As rounding is monotonic the order is
 * consistent, and at delta 0 it is the order of the values themselves
 * (b - a == 0 exactly when b == a). r->w is allocated when want_w.
 */
static void rank_shifted(struct ranked *r, const double *sa, size_t na,
			 const double *sb, size_t nb, double delta, int gap,
			 int want_w)
{
	size_t n = na + nb, i = 0, j = 0, k, g, e;
	/* the merged order: position k holds sa[idx] (from_a) or sb[idx] */
	size_t *idx = xmalloc((n ? n : 1) * sizeof(*idx));
	unsigned char *from_a = xmalloc(n ? n : 1);

	for (k = 0; k < n; k++) {
		int take_b = i == na;

		if (i < na && j < nb) {
			double d = sb[j] - sa[i];

			take_b = gap ? d <= delta : d < delta;
		}
		from_a[k] = !take_b;
		idx[k] = take_b ? j++ : i++;
	}
	r->t2 = 0;
	r->tie_term = 0;
	r->w = want_w ? xmalloc((n ? n : 1) * sizeof(*r->w)) : NULL;
	for (g = 0; g < n; g = e) {
		double t;
		uint64_t rank2;

		for (e = g + 1; e < n; e++) {
			size_t x = idx[e - 1], y = idx[e];
			int tie;

			if (from_a[e - 1] && from_a[e])
				tie = sa[x] == sa[y];
			else if (!from_a[e - 1] && !from_a[e])
				tie = sb[x] == sb[y];
			else if (from_a[e - 1])
				tie = tied_ab(sa[x], sb[y], delta, gap);
			else
				tie = tied_ab(sa[y], sb[x], delta, gap);
			if (!tie)
				break;
		}
		/* 0-based positions g..e-1 are ranks g+1..e */
		rank2 = (uint64_t)(g + 1) + (uint64_t)e;
		t = (double)(e - g);
		r->tie_term += t * t * t - t;
		for (k = g; k < e; k++) {
			if (from_a[k])
				r->t2 += rank2;
			if (r->w)
				r->w[k] = (unsigned)rank2;
		}
	}
	free(idx);
	free(from_a);
}

/* Ranks the pool of a and b; r->w is allocated when want_w. */
static void rank_pool(struct ranked *r, const double *a, size_t na,
		      const double *b, size_t nb, int want_w)
{
	double *sa = stats_sorted_copy(a, na), *sb = stats_sorted_copy(b, nb);

	rank_shifted(r, sa, na, sb, nb, 0, 0, want_w);
	free(sa);
	free(sb);
}

/*
 * Counts, for each sum s in 0..*out_smax, the m-subsets of w[0..n) whose
 * weights sum to s. Returns an array of *out_smax + 1 counts to free().
 */
static uint64_t *subset_sums(const unsigned *w, size_t n, size_t m,
			     size_t *out_smax)
{
	size_t smax = 0, width, i, j, s;
	uint64_t *ways, *row;

	for (i = 0; i < n; i++)
		smax += w[i];
	width = smax + 1;
	ways = xcalloc((m + 1) * width, sizeof(*ways));
	ways[0] = 1;
	for (i = 0; i < n; i++) {
		/* descending j: each position is used at most once */
		for (j = (i + 1 < m ? i + 1 : m); j >= 1; j--) {
			uint64_t *to = ways + j * width;
			const uint64_t *from = ways + (j - 1) * width;

			for (s = w[i]; s <= smax; s++)
				to[s] += from[s - w[i]];
		}
	}
	row = xmalloc(width * sizeof(*row));
	memcpy(row, ways + m * width, width * sizeof(*row));
	free(ways);
	*out_smax = smax;
	return row;
}

/*
 * The null distribution of 2U (U = a's rank sum less na (na + 1) / 2, ties
 * at half) for one pool: the exact count conditional on its ties up to
 * EXACT_MAX values, the tie-corrected normal above. Both the p of the
 * observed U and the interval of the shift read it, so that they cannot
 * disagree (see stats_hodges_lehmann below).
 */
struct mw_null {
	size_t na, nb;
	uint64_t u2;	/* the observed 2U */
	uint64_t *le;	/* exact: le[u2] = ways of 2U <= u2, 0..2 na nb */
	uint64_t total; /* exact: C(N, na) */
	double mu, var; /* normal: of U */
};

/* The null of the pool of sorted sa and sb shifted by -delta
 * (rank_shifted) */
static void mw_null_at(struct mw_null *d, const double *sa, size_t na,
		       const double *sb, size_t nb, double delta, int gap)
{
	struct ranked r;
	size_t m2 = 2 * na * nb, base = na * (na + 1), smax, s;
	double n = (double)(na + nb);
	uint64_t *ways;

	memset(d, 0, sizeof(*d));
	d->na = na;
	d->nb = nb;
	rank_shifted(&r, sa, na, sb, nb, delta, gap, na + nb <= EXACT_MAX);
	d->u2 = r.t2 - base;
	if (!r.w) {
		d->mu = (double)na * (double)nb / 2;
		d->var = (double)na * (double)nb / 12 *
			 ((n + 1) - r.tie_term / (n * (n - 1)));
		return;
	}
	/* a's doubled rank sum T2 = 2U + na (na + 1) */
	ways = subset_sums(r.w, na + nb, na, &smax);
	d->le = xcalloc(m2 + 1, sizeof(*d->le));
	for (s = 0; s <= smax; s++) {
		d->total += ways[s];
		if (s >= base && s - base <= m2)
			d->le[s - base] = d->total;
	}
	free(ways);
	free(r.w);
}

static void mw_null_init(struct mw_null *d, const double *a, size_t na,
			 const double *b, size_t nb)
{
	double *sa = stats_sorted_copy(a, na), *sb = stats_sorted_copy(b, nb);

	mw_null_at(d, sa, na, sb, nb, 0, 0);
	free(sa);
	free(sb);
}

static void mw_null_release(struct mw_null *d)
{
	free(d->le);
	d->le = NULL;
}

/* The two-sided p of 2U = u2 under d */
static double mw_null_p(const struct mw_null *d, uint64_t u2)
{
	double p, z;

	if (d->le) {
		uint64_t le = d->le[u2];
		uint64_t ge = d->total - (u2 ? d->le[u2 - 1] : 0);

		p = 2 * (double)(le < ge ? le : ge) / (double)d->total;
		return p < 1 ? p : 1;
	}
	if (!(d->var > 0))
		return 1; /* every value tied */
	z = (fabs((double)u2 / 2 - d->mu) - 0.5) / sqrt(d->var);
	if (z <= 0)
		return 1;
	p = erfc(z / sqrt(2));
	return p < 1 ? p : 1;
}

double stats_mann_whitney_normal(const double *a, size_t na, const double *b,
				 size_t nb)
{
	struct ranked r;
	double n = (double)(na + nb), u, mu, var, z, p;

	if (!na || !nb)
		return 1;
	rank_pool(&r, a, na, b, nb, 0);
	u = (double)r.t2 / 2 - (double)na * ((double)na + 1) / 2;
	mu = (double)na * (double)nb / 2;
	var = (double)na * (double)nb / 12 *
	      ((n + 1) - r.tie_term / (n * (n - 1)));
	if (!(var > 0))
		return 1; /* every value tied */
	z = (fabs(u - mu) - 0.5) / sqrt(var);
	if (z <= 0)
		return 1;
	p = erfc(z / sqrt(2));
	return p < 1 ? p : 1;
}

double stats_mann_whitney(const double *a, size_t na, const double *b,
			  size_t nb)
{
	struct mw_null d;
	double p;

	if (!na || !nb)
		return 1;
	mw_null_init(&d, a, na, b, nb);
	p = mw_null_p(&d, d.u2);
	mw_null_release(&d);
	return p;
}

double stats_mann_whitney_min_p(size_t na, size_t nb)
{
	/* the most extreme arrangement, at either end: 2 / C(na + nb, na) */
	size_t k = na < nb ? na : nb, n = na + nb, i;
	double c = 1, p;

	if (!na || !nb)
		return 1;
	for (i = 1; i <= k; i++)
		c = c * (double)(n - k + i) / (double)i;
	p = 2 / c;
	return p < 1 ? p : 1;
}

/*
 * Hodges-Lehmann interval of a shift (Hollander & Wolfe, Nonparametric
 * Statistical Methods, §4.3; what R's wilcox.test(conf.int = TRUE) gives
 * without ties).
 *
 * The shift estimate is the median of the M = na nb differences
 * d = b[j] - a[i]. The interval is the set of shifts delta that the very
 * test behind the p does not reject: with b moved by -delta, a's U is
 * U(delta) = #(d < delta) + #(d = delta) / 2, which grows with delta, and
 * the test (mw_null: exact and conditional on the pool's ties, or normal
 * with tie correction) accepts the 2U in one run lo2..hi2. The shifts
 * accepted run from d(ceil(lo2 / 2)) to d(floor(hi2 / 2) + 1) (1-based
 * order statistics of the differences): without ties that is the textbook
 * [d(k), d(M + 1 - k)]. The interval excludes 0 exactly when p < alpha,
 * also with ties, where the classic rank from the no-ties distribution
 * lets a significant p sit beside an interval that reaches 0 (and an end
 * that is a tied difference may itself be rejected: the interval is open
 * there). No accepted bound inside the differences (3 vs 3) means no 95%
 * interval.
 *
 * The order statistics are selected without forming the M differences:
 * with a and b sorted, the count of differences <= t takes one merge-like
 * pass (b[j] - a[i] grows with j and falls with i, also in floating point,
 * as rounding is monotonic). The k-th smallest difference is the least
 * double t with count(t) >= k, found by bisection over the doubles between
 * the smallest and largest difference, ordered as integers: at most 64
 * passes, and the result is exactly one of the computed differences.
 */

static uint64_t dkey(double x)
{
	uint64_t u;

	memcpy(&u, &x, sizeof(u));
	return (u >> 63) ? ~u : u | (UINT64_C(1) << 63);
}

static double dval(uint64_t k)
{
	uint64_t u = (k >> 63) ? k & ~(UINT64_C(1) << 63) : ~k;
	double x;

	memcpy(&x, &u, sizeof(x));
	return x;
}

static uint64_t count_diffs_le(const double *a, size_t na, const double *b,
			       size_t nb, double t)
{
	uint64_t count = 0;
	size_t i, j = 0;

	for (i = 0; i < na; i++) {
		while (j < nb && b[j] - a[i] <= t)
			j++;
		count += j;
	}
	return count;
}

/* The k-th smallest (1-based) of b[j] - a[i], a and b sorted. */
static double kth_diff(const double *a, size_t na, const double *b, size_t nb,
		       uint64_t k)
{
	uint64_t lo = dkey(b[0] - a[na - 1]), hi = dkey(b[nb - 1] - a[0]);

	while (lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2;

		if (count_diffs_le(a, na, b, nb, dval(mid)) >= k)
			hi = mid;
		else
			lo = mid + 1;
	}
	return dval(lo);
}

/* Whether the test accepts the shift delta (gap: the open gap just above
 * it) of sorted sa against sorted sb; plain is the null of a pool without
 * ties, which most shifts have, so that they need no count of their own */
static int accepts(const double *sa, size_t na, const double *sb, size_t nb,
		   double delta, int gap, const struct mw_null *plain)
{
	struct ranked r;
	struct mw_null d;
	int ok;

	rank_shifted(&r, sa, na, sb, nb, delta, gap, 0);
	if (r.tie_term == 0)
		return mw_null_p(plain, r.t2 - na * (na + 1)) >= STATS_ALPHA;
	mw_null_at(&d, sa, na, sb, nb, delta, gap);
	ok = mw_null_p(&d, d.u2) >= STATS_ALPHA;
	mw_null_release(&d);
	return ok;
}

/* Whether the shift d(k), or a gap beside it (above it for the lower end,
 * below it for the upper), is accepted */
static int accepts_at(const double *sa, size_t na, const double *sb, size_t nb,
		      uint64_t k, int upper, const struct mw_null *plain)
{
	double dk = kth_diff(sa, na, sb, nb, k);

	if (accepts(sa, na, sb, nb, dk, 0, plain))
		return 1;
	return upper ? accepts(sa, na, sb, nb, nextafter(dk, -INFINITY), 1,
			       plain)
		     : accepts(sa, na, sb, nb, dk, 1, plain);
}

/* The shift estimate and the ends of the accepted shifts of sorted sa,
 * sb; returns -1 when they are not within the differences */
/* The null of na and nb values without a tie */
static void plain_null(struct mw_null *d, size_t na, size_t nb)
{
	double *a = xmalloc((na ? na : 1) * sizeof(*a));
	double *b = xmalloc((nb ? nb : 1) * sizeof(*b));
	size_t i;

	for (i = 0; i < na; i++)
		a[i] = (double)i;
	for (i = 0; i < nb; i++)
		b[i] = (double)(na + i);
	mw_null_at(d, a, na, b, nb, 0, 0);
	free(a);
	free(b);
}

static int hl_sorted(double *out_shift, double *out_lo, double *out_hi,
		     const double *sa, size_t na, const double *sb, size_t nb)
{
	uint64_t m = (uint64_t)na * nb, lo, hi, mid;
	struct mw_null plain;

	if (m % 2)
		*out_shift = kth_diff(sa, na, sb, nb, m / 2 + 1);
	else
		*out_shift = (kth_diff(sa, na, sb, nb, m / 2) +
			      kth_diff(sa, na, sb, nb, m / 2 + 1)) /
			     2;
	*out_lo = *out_hi = NAN;
	/* a shift below every difference, or above, still accepted: the
	 * interval is unbounded at 95% */
	plain_null(&plain, na, nb);
	if (accepts(sa, na, sb, nb,
		    nextafter(kth_diff(sa, na, sb, nb, 1), -INFINITY), 1,
		    &plain) ||
	    accepts(sa, na, sb, nb, kth_diff(sa, na, sb, nb, m), 1, &plain))
		goto none;
	/* the least k accepted, up to the median's; with ties the median's
	 * difference may itself be rejected and the tie block's edge not */
	lo = 1;
	hi = (m + 1) / 2;
	if (!accepts_at(sa, na, sb, nb, hi, 0, &plain))
		hi = count_diffs_le(
			sa, na, sb, nb,
			nextafter(kth_diff(sa, na, sb, nb, hi), -INFINITY));
	if (hi < 1 || !accepts_at(sa, na, sb, nb, hi, 0, &plain))
		goto none;
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (accepts_at(sa, na, sb, nb, mid, 0, &plain))
			hi = mid;
		else
			lo = mid + 1;
	}
	*out_lo = kth_diff(sa, na, sb, nb, lo);
	/* the greatest k accepted, down to the median's */
	lo = m / 2 + 1;
	hi = m;
	if (!accepts_at(sa, na, sb, nb, lo, 1, &plain))
		lo = count_diffs_le(sa, na, sb, nb,
				    kth_diff(sa, na, sb, nb, lo)) +
		     1;
	if (lo > m || !accepts_at(sa, na, sb, nb, lo, 1, &plain))
		goto none;
	while (lo < hi) {
		mid = lo + (hi - lo + 1) / 2;
		if (accepts_at(sa, na, sb, nb, mid, 1, &plain))
			lo = mid;
		else
			hi = mid - 1;
	}
	*out_hi = kth_diff(sa, na, sb, nb, lo);
	mw_null_release(&plain);
	return 0;
none:
	*out_lo = *out_hi = NAN;
	mw_null_release(&plain);
	return -1;
}

int stats_hodges_lehmann(double *out_shift, double *out_lo, double *out_hi,
			 const double *a, size_t na, const double *b, size_t nb)
{
	double *sa, *sb;
	int rc;

	*out_shift = *out_lo = *out_hi = NAN;
	if (!na || !nb)
		return -1;
	sa = stats_sorted_copy(a, na);
	sb = stats_sorted_copy(b, nb);
	rc = hl_sorted(out_shift, out_lo, out_hi, sa, na, sb, nb);
	free(sa);
	free(sb);
	return rc;
}

/* Logs of x[0..n) into a new array; NULL when a value is not > 0. */
static double *logs_of(const double *x, size_t n)
{
	double *l = xmalloc((n ? n : 1) * sizeof(*l));
	size_t i;

	for (i = 0; i < n; i++) {
		if (!(x[i] > 0)) {
			free(l);
			return NULL;
		}
		l[i] = log(x[i]);
	}
	return l;
}

/*
 * One estimator behind the estimate, the interval and the p: on logs when
 * every value is > 0 (the shift of logs is the log of B/A), else on the
 * values themselves (the shift B - A); the p is the test that the
 * interval inverts, so p < alpha exactly when the interval excludes no
 * change.
 */
void stats_compare(struct stats_compare *out, const double *a, size_t na,
		   const double *b, size_t nb)
{
	double *la = NULL, *lb = NULL, *sa = NULL, *sb = NULL;
	double shift, lo, hi;
	struct mw_null d;
	int ok;

	out->median_a = stats_median(a, na);
	out->median_b = stats_median(b, nb);
	out->median_ratio = out->median_b / out->median_a;
	out->ratio = out->ci_lo = out->ci_hi = NAN;
	out->diff = out->diff_lo = out->diff_hi = NAN;
	out->on_diff = 0;
	out->p = 1;
	out->significant = 0;
	if (!na || !nb)
		return;
	la = logs_of(a, na);
	lb = logs_of(b, nb);
	out->on_diff = !la || !lb;
	if (out->on_diff) {
		free(la);
		free(lb);
		la = xmalloc(na * sizeof(*la));
		lb = xmalloc(nb * sizeof(*lb));
		memcpy(la, a, na * sizeof(*la));
		memcpy(lb, b, nb * sizeof(*lb));
	}
	sa = stats_sorted_copy(la, na);
	sb = stats_sorted_copy(lb, nb);
	mw_null_at(&d, sa, na, sb, nb, 0, 0);
	out->p = mw_null_p(&d, d.u2);
	mw_null_release(&d);
	out->significant = out->p < STATS_ALPHA;
	ok = !hl_sorted(&shift, &lo, &hi, sa, na, sb, nb);
	if (out->on_diff) {
		out->diff = shift;
		if (ok) {
			out->diff_lo = lo;
			out->diff_hi = hi;
		}
	} else {
		/* log b - log a = log(b / a) */
		out->ratio = exp(shift);
		if (ok) {
			out->ci_lo = exp(lo);
			out->ci_hi = exp(hi);
		}
	}
	free(sa);
	free(sb);
	free(la);
	free(lb);
}

struct ranked_p {
	double p;
	size_t i;
};

static int cmp_ranked_p(const void *pa, const void *pb)
{
	const struct ranked_p *a = pa, *b = pb;

	if (a->p != b->p)
		return (a->p > b->p) - (a->p < b->p);
	return (a->i > b->i) - (a->i < b->i);
}

/*
 * Holm-Bonferroni: with the m p-values in ascending order p(1) <= ... <=
 * p(m), the adjusted value of p(j) is the running maximum over i <= j of
 * (m - i + 1) p(i), capped at 1. Rejecting where the adjusted p < alpha
 * holds the family-wise error rate at alpha (R's p.adjust "holm").
 */
void stats_holm(double *out, const double *p, size_t m)
{
	struct ranked_p *r;
	double run = 0;
	size_t i;

	if (!m)
		return;
	r = xmalloc(m * sizeof(*r));
	for (i = 0; i < m; i++)
		r[i] = (struct ranked_p){p[i], i};
	qsort(r, m, sizeof(*r), cmp_ranked_p);
	for (i = 0; i < m; i++) {
		double v = (double)(m - i) * r[i].p;

		if (v > run)
			run = v;
		out[r[i].i] = run < 1 ? run : 1;
	}
	free(r);
}
