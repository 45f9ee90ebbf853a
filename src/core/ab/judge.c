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

static long runs_needed(long n, double half_width, double target)
{
	double k;

	if (!(half_width > 0) || !(target > 0))
		return 0;
	/* a CI narrows as 1/sqrt(n) */
	k = (double)n * (half_width / target) * (half_width / target);
	return k > 1e6 ? 1000000 : (long)ceil(k);
}

void ab_judge(struct ab_point *p, double min_effect, double control_tol,
	      int higher_is_better)
{
	double effect, half;
	size_t n = p->na < p->nb ? p->na : p->nb;
	int ci_ok;

	p->why[0] = '\0';
	p->n_needed = 0;
	stats_summarize(&p->sa, p->a, p->na);
	stats_summarize(&p->sb, p->b, p->nb);
	memset(&p->cmp, 0, sizeof(p->cmp));
	p->cmp.ratio = p->cmp.ci_lo = p->cmp.ci_hi = NAN;
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
	effect = p->cmp.ratio - 1;
	ci_ok = !isnan(p->cmp.ci_lo) && !isnan(p->cmp.ci_hi);
	half = ci_ok ? (p->cmp.ci_hi - p->cmp.ci_lo) / 2 : NAN;
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
	if (p->cmp.significant && ci_ok &&
	    (p->cmp.ci_hi < 1 || p->cmp.ci_lo > 1) &&
	    fabs(effect) >= min_effect) {
		p->verdict = (effect < 0) != !!higher_is_better
				     ? AB_VERDICT_FASTER
				     : AB_VERDICT_SLOWER;
	} else if (ci_ok && half > min_effect) {
		p->verdict = AB_VERDICT_INCONCLUSIVE;
		p->n_needed = runs_needed((long)n, half, min_effect);
		snprintf(p->why, sizeof(p->why),
			 "95%% CI +-%.1f%% is wider than the %.1f%% minimum "
			 "effect",
			 half * 100, min_effect * 100);
	} else {
		p->verdict = AB_VERDICT_SAME;
	}
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
 * machine drifted under the arm */
static void check_drift(struct ab_result *r, const struct ab_point *p,
			int arm_b, double min_effect)
{
	const double *v = arm_b ? p->b : p->a;
	size_t n = arm_b ? p->nb : p->na, h = n / 2;
	double tau, pt, first, second;

	if (n < 6)
		return;
	pt = stats_trend(&tau, v, n);
	first = stats_median(v, h);
	second = stats_median(v + h, n - h);
	if (pt < STATS_ALPHA && first > 0 &&
	    fabs(second / first - 1) >= min_effect)
		strvec_push_owned(
			&r->warnings,
			xasprintf("drift: arm %c of `%s` trends over its runs "
				  "(Mann-Kendall p = %.2g); its second half "
				  "is %+.1f%% off the first",
				  arm_b ? 'B' : 'A', p->workload, pt,
				  (second / first - 1) * 100));
}

void ab_finish(struct ab_result *r, double min_effect, double control_tol,
	       int sweep, unsigned seed)
{
	size_t i;

	for (i = 0; i < r->npoints; i++) {
		struct ab_point *p = &r->points[i];

		ab_judge(p, min_effect, control_tol, r->higher_is_better);
		if (p->control && p->verdict == AB_VERDICT_MOVED)
			r->invalid = 1;
		check_drift(r, p, 0, min_effect);
		check_drift(r, p, 1, min_effect);
	}
	if (r->order == AB_ORDER_BLOCKED)
		strvec_push(&r->warnings,
			    "blocked order: drift of the machine between the "
			    "arms reads as an effect of the code; --mode "
			    "worktree interleaves A B B A");
	if (sweep && !r->higher_is_better)
		fit_sweep(r, min_effect, seed);
}
