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

struct tagged {
	double v;
	int from_a;
};

static int cmp_tagged(const void *pa, const void *pb)
{
	const struct tagged *a = pa, *b = pb;

	return (a->v > b->v) - (a->v < b->v);
}

/* Ranks the pool of a and b; r->w is allocated when want_w. */
static void rank_pool(struct ranked *r, const double *a, size_t na,
		      const double *b, size_t nb, int want_w)
{
	size_t n = na + nb, i, j, k;
	struct tagged *p = xmalloc(n * sizeof(*p));

	for (i = 0; i < na; i++)
		p[i] = (struct tagged){a[i], 1};
	for (i = 0; i < nb; i++)
		p[na + i] = (struct tagged){b[i], 0};
	qsort(p, n, sizeof(*p), cmp_tagged);
	r->t2 = 0;
	r->tie_term = 0;
	r->w = want_w ? xmalloc(n * sizeof(*r->w)) : NULL;
	for (i = 0; i < n; i = j) {
		double t;
		uint64_t rank2;

		for (j = i + 1; j < n && p[j].v == p[i].v; j++)
			;
		/* 0-based positions i..j-1 are ranks i+1..j */
		rank2 = (uint64_t)(i + 1) + (uint64_t)j;
		t = (double)(j - i);
		r->tie_term += t * t * t - t;
		for (k = i; k < j; k++) {
			if (p[k].from_a)
				r->t2 += rank2;
			if (r->w)
				r->w[k] = (unsigned)rank2;
		}
	}
	free(p);
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

static double mw_exact(const double *a, size_t na, const double *b, size_t nb)
{
	struct ranked r;
	uint64_t *ways, le = 0, ge = 0, total = 0;
	size_t smax, s;
	double p;

	rank_pool(&r, a, na, b, nb, 1);
	ways = subset_sums(r.w, na + nb, na, &smax);
	for (s = 0; s <= smax; s++) {
		total += ways[s];
		if (s <= r.t2)
			le += ways[s];
		if (s >= r.t2)
			ge += ways[s];
	}
	p = 2 * (double)(le < ge ? le : ge) / (double)total;
	free(ways);
	free(r.w);
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
	if (!na || !nb)
		return 1;
	if (na + nb <= EXACT_MAX)
		return mw_exact(a, na, b, nb);
	return stats_mann_whitney_normal(a, na, b, nb);
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

/* The standard normal quantile by bisection on erfc: slow, exact to the
 * last bits, and called once per comparison. */
static double normal_quantile(double p)
{
	double lo = -40, hi = 40, mid;
	int i;

	for (i = 0; i < 200 && lo < hi; i++) {
		mid = (lo + hi) / 2;
		if (mid <= lo || mid >= hi)
			break;
		if (0.5 * erfc(-mid / sqrt(2)) < p)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

/*
 * Hodges-Lehmann interval of a shift (Hollander & Wolfe, Nonparametric
 * Statistical Methods, §4.3; what R's wilcox.test(conf.int = TRUE) gives).
 *
 * The shift estimate is the median of the M = na nb differences
 * d = b[j] - a[i]. The number of differences below the true shift follows
 * the null distribution of the Mann-Whitney U, so with c the largest value
 * such that P(U <= c) <= alpha/2, the interval [d(k), d(M + 1 - k)] with
 * k = c + 1 (1-based order statistics of the differences) covers the shift
 * with probability at least 1 - alpha. The distribution of U is exact (the
 * subset-sum count above, ranks 1..N without ties) for N <= EXACT_MAX, and
 * the normal one with continuity correction above: c = floor(M/2 - 1/2 -
 * z sqrt(M (N + 1) / 12)). No c >= 0 means no 95% interval (3 vs 3).
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

/* The 1-based rank k of the lower end of the 95% interval; 0 when none. */
static uint64_t hl_rank(size_t na, size_t nb)
{
	size_t n = na + nb, smax, s, i;
	double m = (double)na * (double)nb;
	uint64_t *ways, total = 0, cum = 0, k = 0;
	unsigned *w;

	if (n > EXACT_MAX) {
		double z = normal_quantile(1 - STATS_ALPHA / 2);
		double c =
			floor(m / 2 - 0.5 - z * sqrt(m * ((double)n + 1) / 12));

		return c >= 0 ? (uint64_t)c + 1 : 0;
	}
	w = xmalloc(n * sizeof(*w));
	for (i = 0; i < n; i++)
		w[i] = 2 * (unsigned)(i + 1);
	ways = subset_sums(w, n, na, &smax);
	for (s = 0; s <= smax; s++)
		total += ways[s];
	/* T = 2 (U + na (na + 1) / 2): the smallest T is na (na + 1) */
	for (s = na * (na + 1); s <= smax; s += 2) {
		cum += ways[s];
		/* exact: both counts are below 2^53 */
		if (2 * (double)cum > STATS_ALPHA * (double)total)
			break;
		k++; /* U <= k - 1 still within alpha/2: c = k - 1 */
	}
	free(ways);
	free(w);
	return k;
}

int stats_hodges_lehmann(double *out_shift, double *out_lo, double *out_hi,
			 const double *a, size_t na, const double *b, size_t nb)
{
	double *sa, *sb;
	uint64_t m = (uint64_t)na * nb, k;

	*out_shift = *out_lo = *out_hi = NAN;
	if (!na || !nb)
		return -1;
	sa = stats_sorted_copy(a, na);
	sb = stats_sorted_copy(b, nb);
	if (m % 2)
		*out_shift = kth_diff(sa, na, sb, nb, m / 2 + 1);
	else
		*out_shift = (kth_diff(sa, na, sb, nb, m / 2) +
			      kth_diff(sa, na, sb, nb, m / 2 + 1)) /
			     2;
	k = hl_rank(na, nb);
	if (k >= 1 && k <= m + 1 - k) {
		*out_lo = kth_diff(sa, na, sb, nb, k);
		*out_hi = kth_diff(sa, na, sb, nb, m + 1 - k);
	}
	free(sa);
	free(sb);
	return isnan(*out_lo) ? -1 : 0;
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

void stats_compare(struct stats_compare *out, const double *a, size_t na,
		   const double *b, size_t nb)
{
	double *la = NULL, *lb = NULL, shift, lo, hi;

	out->median_a = stats_median(a, na);
	out->median_b = stats_median(b, nb);
	out->ratio = out->median_b / out->median_a;
	out->p = stats_mann_whitney(a, na, b, nb);
	out->significant = out->p < STATS_ALPHA;
	out->ci_lo = out->ci_hi = NAN;
	if (!na || !nb)
		goto out;
	la = logs_of(a, na);
	lb = logs_of(b, nb);
	if (!la || !lb)
		goto out;
	/* log b - log a = log(b / a): the shift of logs is the log ratio */
	if (stats_hodges_lehmann(&shift, &lo, &hi, la, na, lb, nb) < 0)
		goto out;
	out->ci_lo = exp(lo);
	out->ci_hi = exp(hi);
out:
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
