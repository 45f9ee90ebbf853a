/* Judging an A/B: verdicts by benchstat's rules plus a minimum effect,
 * controls that invalidate the run, the iteration-sweep fit and a drift
 * check. */
#include "core/ab/judge.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/stats/fit.h"
#include "util/xalloc.h"

/* Fewer runs per arm give numbers but no verdict, as a policy: the
 * exact Mann-Whitney test's smallest two-sided p is 0.1 at 3 per arm,
 * 0.029 at 4 (only a complete separation is significant: one stray run
 * decides) and 0.008 at 5 (two runs out of order still give p = 0.032) */
#define AB_MIN_N 5

/* The drift check's level for one A/B, Bonferroni-divided over the series
 * it tests (measurement.md §3 item 8 asks for 0.01) */
#define AB_DRIFT_ALPHA 0.01

static long runs_needed(long n, double half_width, double target)
{
	double k;

	if (!(half_width > 0) || !(target > 0))
		return 0;
	/* a CI narrows as 1/sqrt(n) */
	k = (double)n * (half_width / target) * (half_width / target);
	return k > 1e6 ? 1000000 : (long)ceil(k);
}

/* Writes x and y (fractions) as percentages with the fewest decimals, one
 * to four, that tell them apart: "2.0%" beside "2.0%" reads as a tie */
static void two_pcts(char *xs, char *ys, size_t size, double x, double y,
		     int sign)
{
	char ax[16];
	int d;

	for (d = 1; d < 4; d++) {
		snprintf(ax, sizeof(ax), "%.*f", d, fabs(x) * 100);
		snprintf(ys, size, "%.*f", d, fabs(y) * 100);
		if (strcmp(ax, ys))
			break;
	}
	snprintf(xs, size, sign ? "%+.*f%%" : "%.*f%%", d, x * 100);
	snprintf(ys, size, "%.*f%%", d, y * 100);
}

/* The workload's (not a control's) verdict, once n suffices: the
 * estimate, its interval and p are one estimator's (stats_compare), so
 * "significant" and "the CI excludes no change" are the same statement;
 * every "~" and "inconclusive" says which of its reasons holds */
static void judge_workload(struct ab_point *p, size_t n, double effect,
			   double lo, double hi, double min_effect,
			   int higher_is_better)
{
	int ci_ok = !isnan(lo) && !isnan(hi);
	double half = ci_ok ? (hi - lo) / 2 : NAN;
	char e[16], m[16], h[16];

	if (isnan(effect)) {
		p->verdict = AB_VERDICT_NO_VERDICT;
		snprintf(p->why, sizeof(p->why),
			 "values <= 0 and both medians 0: the change has no "
			 "size relative to A (p = %.2g)",
			 p->cmp.p);
		return;
	}
	if (p->cmp.significant && fabs(effect) >= min_effect) {
		p->verdict = (effect < 0) != !!higher_is_better
				     ? AB_VERDICT_FASTER
				     : AB_VERDICT_SLOWER;
		return;
	}
	if (p->cmp.significant && ci_ok && fabs(lo) < min_effect &&
	    fabs(hi) < min_effect) {
		p->verdict = AB_VERDICT_SAME;
		two_pcts(e, m, sizeof(e), effect, min_effect, 1);
		snprintf(p->why, sizeof(p->why),
			 "significant (p = %.2g) but %s is below the %s "
			 "minimum effect",
			 p->cmp.p, e, m);
		return;
	}
	if (ci_ok && half > min_effect) {
		p->verdict = AB_VERDICT_INCONCLUSIVE;
		p->n_needed = runs_needed((long)n, half, min_effect);
		two_pcts(h, m, sizeof(h), half, min_effect, 0);
		if (p->cmp.significant) {
			two_pcts(e, m, sizeof(e), effect, min_effect, 1);
			snprintf(p->why, sizeof(p->why),
				 "significant (p = %.2g) but %s is below "
				 "the %s minimum effect, and the 95%% CI "
				 "+-%s is too wide to tell it is",
				 p->cmp.p, e, m, h);
		} else {
			snprintf(p->why, sizeof(p->why),
				 "not significant (p = %.2g), and the 95%% CI "
				 "+-%s is wider than the %s minimum effect",
				 p->cmp.p, h, m);
		}
		return;
	}
	p->verdict = AB_VERDICT_SAME;
	if (ci_ok) {
		two_pcts(h, m, sizeof(h), half, min_effect, 0);
		snprintf(p->why, sizeof(p->why),
			 "not significant (p = %.2g); the 95%% CI +-%s is "
			 "within the %s minimum effect",
			 p->cmp.p, h, m);
	} else {
		snprintf(p->why, sizeof(p->why), "not significant (p = %.2g)",
			 p->cmp.p);
	}
}

void ab_judge(struct ab_point *p, double min_effect, double control_tol,
	      int higher_is_better)
{
	double effect, half, lo, hi, scale = 1;
	size_t n = p->na < p->nb ? p->na : p->nb;
	int ci_ok;

	p->why[0] = '\0';
	p->n_needed = 0;
	stats_summarize(&p->sa, p->a, p->na);
	stats_summarize(&p->sb, p->b, p->nb);
	memset(&p->cmp, 0, sizeof(p->cmp));
	p->cmp.ratio = p->cmp.ci_lo = p->cmp.ci_hi = NAN;
	p->cmp.median_ratio = p->cmp.diff = NAN;
	p->cmp.diff_lo = p->cmp.diff_hi = NAN;
	p->cmp.p = 1;
	if (p->failed_a || p->failed_b) {
		p->verdict = AB_VERDICT_FAILED;
		snprintf(p->why, sizeof(p->why),
			 "%zu run(s) of A and %zu of B exited non-zero",
			 p->failed_a, p->failed_b);
		return;
	}
	if (!p->na || !p->nb) {
		p->verdict = AB_VERDICT_NO_VERDICT;
		snprintf(p->why, sizeof(p->why), "no samples");
		return;
	}
	stats_compare(&p->cmp, p->a, p->na, p->b, p->nb);
	/* relative change: of B/A, or with values <= 0 of B - A over A's
	 * median (B's when A's is 0) */
	if (p->cmp.on_diff) {
		scale = fabs(p->cmp.median_a) > 0 ? fabs(p->cmp.median_a)
						  : fabs(p->cmp.median_b);
		effect = scale > 0 ? p->cmp.diff / scale : NAN;
		lo = scale > 0 ? p->cmp.diff_lo / scale : NAN;
		hi = scale > 0 ? p->cmp.diff_hi / scale : NAN;
	} else {
		effect = p->cmp.ratio - 1;
		lo = p->cmp.ci_lo - 1;
		hi = p->cmp.ci_hi - 1;
	}
	ci_ok = !isnan(lo) && !isnan(hi);
	half = ci_ok ? (hi - lo) / 2 : NAN;
	if (n < AB_MIN_N) {
		p->verdict = AB_VERDICT_NO_VERDICT;
		snprintf(p->why, sizeof(p->why),
			 "n = %zu per arm: %d are needed for a verdict", n,
			 AB_MIN_N);
		p->n_needed = AB_MIN_N;
		return;
	}
	if (p->control) {
		if (p->cmp.significant && fabs(effect) > control_tol) {
			p->verdict = AB_VERDICT_MOVED;
			snprintf(p->why, sizeof(p->why),
				 "the control moved %+.1f%% (p = %.3g)",
				 effect * 100, p->cmp.p);
		} else if (!ci_ok || half > control_tol) {
			p->verdict = AB_VERDICT_NOISY;
			p->n_needed = runs_needed((long)n, half, control_tol);
			snprintf(p->why, sizeof(p->why),
				 "too noisy to vouch for the run: 95%% CI "
				 "+-%.1f%%, tolerance %.1f%%",
				 ci_ok ? half * 100 : NAN, control_tol * 100);
		} else {
			p->verdict = AB_VERDICT_STEADY;
		}
		return;
	}
	judge_workload(p, n, effect, lo, hi, min_effect, higher_is_better);
}

void ab_result_release(struct ab_result *r)
{
	size_t i;

	if (!r)
		return;
	for (i = 0; i < r->npoints; i++) {
		free(r->points[i].workload);
		free(r->points[i].metric);
		free(r->points[i].unit);
		free(r->points[i].a);
		free(r->points[i].b);
	}
	free(r->points);
	strvec_clear(&r->warnings);
	strvec_clear(&r->labels);
	free(r->unit);
	free(r->metric);
	free(r->env_line);
	memset(r, 0, sizeof(*r));
}

/* Every sample of one arm of the main workload as (iters, value) */
static size_t sweep_points(double **x, double **y, const struct ab_result *r,
			   int arm_b)
{
	size_t n = 0, i, k;

	*x = *y = NULL;
	for (i = 0; i < r->npoints; i++) {
		const struct ab_point *p = &r->points[i];
		const double *v = arm_b ? p->b : p->a;
		size_t m = arm_b ? p->nb : p->na;

		if (p->control)
			continue;
		*x = xrealloc(*x, (n + m + 1) * sizeof(**x));
		*y = xrealloc(*y, (n + m + 1) * sizeof(**y));
		for (k = 0; k < m; k++, n++) {
			(*x)[n] = (double)p->iters;
			(*y)[n] = v[k];
		}
	}
	return n;
}

/* What a sweep says, in words (load.c maps them back) */
const char *const ab_sweep_words[] = {
	"both the per-iteration and the fixed cost changed",
	"removed per-iteration work",
	"added per-iteration work",
	"displaced fixed cost (the saving does not grow with iterations)",
	"added a fixed cost (the loss does not grow with iterations)",
	"neither the fixed nor the per-iteration cost changed",
	NULL,
};

/* A change is called when its 95% CI excludes "no change" and it is at
 * least the minimum effect: for the per-iteration cost relative to A's,
 * for the fixed cost relative to A's time at the smallest count. */
static void fit_sweep(struct ab_result *r, double min_effect, unsigned seed)
{
	struct ab_sweep *s = &r->sweep;
	struct stats_sweep *f = &s->fit;
	double *xa, *ya, *xb, *yb, base = NAN;
	size_t na, nb, i;
	int per_moved, fixed_moved;

	for (i = 0; i < r->npoints; i++)
		if (!r->points[i].control && r->points[i].na) {
			base = r->points[i].sa.median; /* smallest count */
			break;
		}
	na = sweep_points(&xa, &ya, r, 0);
	nb = sweep_points(&xb, &yb, r, 1);
	s->ok = !stats_sweep_compare(f, xa, ya, na, xb, yb, nb, 2000, seed) &&
		base > 0;
	free(xa);
	free(ya);
	free(xb);
	free(yb);
	if (!s->ok)
		return;
	per_moved = !isnan(f->per_iter_ratio_lo) &&
		    (f->per_iter_ratio_hi < 1 || f->per_iter_ratio_lo > 1) &&
		    fabs(f->per_iter_ratio - 1) >= min_effect;
	fixed_moved = !isnan(f->d_fixed_lo) &&
		      (f->d_fixed_hi < 0 || f->d_fixed_lo > 0) &&
		      fabs(f->d_fixed) / base >= min_effect;
	if (per_moved && fixed_moved)
		s->words = ab_sweep_words[0];
	else if (per_moved)
		s->words = ab_sweep_words[f->per_iter_ratio < 1 ? 1 : 2];
	else if (fixed_moved)
		s->words = ab_sweep_words[f->d_fixed < 0 ? 3 : 4];
	else
		s->words = ab_sweep_words[5];
}

/* Samples were taken in order: a second half unlike the first means the
 * machine drifted under the arm. alpha is AB_DRIFT_ALPHA over the number
 * of series one A/B tests, so that i.i.d. runs seldom warn (bench/
 * ab-rates.sh measures how seldom) */
static void check_drift(struct ab_result *r, const struct ab_point *p,
			int arm_b, double min_effect, double alpha)
{
	const double *v = arm_b ? p->b : p->a;
	size_t n = arm_b ? p->nb : p->na, h = n / 2;
	double tau, pt, first, second;

	if (n < 6)
		return;
	pt = stats_trend(&tau, v, n);
	first = stats_median(v, h);
	second = stats_median(v + h, n - h);
	if (pt < alpha && first > 0 && fabs(second / first - 1) >= min_effect)
		strvec_push_owned(
			&r->warnings,
			xasprintf("drift: arm %c of `%s` trends over its runs "
				  "(Mann-Kendall p = %.2g, below %.2g); its "
				  "second half is %+.1f%% off the first",
				  arm_b ? 'B' : 'A', p->workload, pt, alpha,
				  (second / first - 1) * 100));
}

/* The ratio of medians outside the CI of the estimate beside it: the
 * median jumps between modes, and B/A is not what the medians say */
static void check_modes(struct ab_result *r, const struct ab_point *p)
{
	const struct stats_compare *c = &p->cmp;
	size_t i, j;
	double above = 0;

	if (c->on_diff || isnan(c->ci_lo) || isnan(c->ci_hi) ||
	    (c->median_ratio >= c->ci_lo && c->median_ratio <= c->ci_hi))
		return;
	for (i = 0; i < p->na; i++)
		for (j = 0; j < p->nb; j++)
			above += p->b[j] > p->a[i]    ? 1
				 : p->b[j] == p->a[i] ? 0.5
						      : 0;
	strvec_push_owned(
		&r->warnings,
		xasprintf("`%s` looks multimodal: the ratio of medians %.3f "
			  "lies outside the 95%% CI [%.3f, %.3f], as the "
			  "median jumps between modes; B/A and the verdict "
			  "are the Hodges-Lehmann estimate %.3f (B above A "
			  "in %.0f%% of pairs)",
			  p->workload, c->median_ratio, c->ci_lo, c->ci_hi,
			  c->ratio, 100 * above / ((double)p->na * p->nb)));
}

/* hyperfine's threshold: 10 scaled MADs (its 14.826 raw MADs) */
#define AB_OUTLIER_Z 10

/* What hyperfine and pyperf warn of, per arm: a first run far off the
 * rest, outliers (flagged, never dropped), and wall times under 1 ms */
static void check_samples(struct ab_result *r, const struct ab_point *p,
			  int arm_b)
{
	const double *v = arm_b ? p->b : p->a;
	const struct stats_summary *s = arm_b ? &p->sb : &p->sa;
	size_t n = arm_b ? p->nb : p->na, i, out = 0;
	double sigma = s->mad * STATS_MAD_SCALE, far = 0;
	char arm = arm_b ? 'B' : 'A';

	if (r->metric && r->unit && !strcmp(r->metric, "wall") && !p->metric &&
	    !strcmp(r->unit, "s") && n && s->median < 1e-3)
		strvec_push_owned(
			&r->warnings,
			xasprintf("runs of `%s` in arm %c take under a "
				  "millisecond (median %.3g ms): process start "
				  "and the timer weigh as much as the work; "
				  "give each run more work, or a metric the "
				  "workload prints",
				  p->workload, arm, s->median * 1e3));
	if (n < 3 || !(sigma > 0))
		return;
	if (fabs(v[0] - s->median) / sigma > AB_OUTLIER_Z) {
		strvec_push_owned(
			&r->warnings,
			xasprintf("the first measured run of `%s` in arm %c "
				  "(%.4g) is far off the rest (median %.4g): "
				  "it may need more --warmup",
				  p->workload, arm, v[0], s->median));
		return;
	}
	for (i = 0; i < n; i++)
		if (fabs(v[i] - s->median) / sigma > AB_OUTLIER_Z) {
			out++;
			if (fabs(v[i] - s->median) > fabs(far - s->median))
				far = v[i];
		}
	if (out)
		strvec_push_owned(
			&r->warnings,
			xasprintf("outliers: %zu of %zu runs of `%s` in arm %c "
				  "lie over %d scaled MADs from the median "
				  "(%.4g, the farthest %.4g); kept, they widen "
				  "the CI and the runs it asks for",
				  out, n, p->workload, arm, AB_OUTLIER_Z,
				  s->median, far));
}

void ab_finish(struct ab_result *r, double min_effect, double control_tol,
	       int sweep, unsigned seed)
{
	size_t i;
	double drift_alpha = AB_DRIFT_ALPHA / (2 * (double)r->npoints);

	for (i = 0; i < r->npoints; i++) {
		struct ab_point *p = &r->points[i];

		ab_judge(p, min_effect, control_tol, r->higher_is_better);
		if (p->control && p->verdict == AB_VERDICT_MOVED)
			r->invalid = 1;
		check_drift(r, p, 0, min_effect, drift_alpha);
		check_drift(r, p, 1, min_effect, drift_alpha);
		check_modes(r, p);
		check_samples(r, p, 0);
		check_samples(r, p, 1);
	}
	if (r->order == AB_ORDER_BLOCKED)
		strvec_push(&r->warnings,
			    "blocked order: drift of the machine between the "
			    "arms reads as an effect of the code; --mode "
			    "worktree interleaves A B B A");
	if (sweep && !r->higher_is_better)
		fit_sweep(r, min_effect, seed);
}
