/* Judging an A/B: verdicts by benchstat's rules plus a minimum effect, a
 * drift check, and the controls (control.c) and the sweep (sweep.c) in
 * ab_finish. */
#include "core/ab/judge.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/ab/control.h"
#include "core/ab/sweep.h"
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

void ab_judge(struct ab_point *p, double min_effect, int higher_is_better)
{
	double effect, lo, hi, scale = 1;
	size_t n = p->na < p->nb ? p->na : p->nb;

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
	if (n < AB_MIN_N) {
		p->verdict = AB_VERDICT_NO_VERDICT;
		snprintf(p->why, sizeof(p->why),
			 "n = %zu per arm: %d are needed for a verdict", n,
			 AB_MIN_N);
		p->n_needed = AB_MIN_N;
		return;
	}
	if (p->control) {
		/* judged with the run's other control tests (control.c) */
		p->verdict = AB_VERDICT_NONE;
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
		/* the point's count, when it has one (%.0ld prints no 0) */
		strvec_push_owned(
			&r->warnings,
			xasprintf("drift: arm %c of `%s`%s%.0ld%s trends over "
				  "its runs (Mann-Kendall p = %.2g, below "
				  "%.2g); its second half is %+.1f%% off the "
				  "first",
				  arm_b ? 'B' : 'A', p->workload,
				  p->iters ? " (iters " : "", p->iters,
				  p->iters ? ")" : "", pt, alpha,
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

		ab_judge(p, min_effect, r->higher_is_better);
		check_drift(r, p, 0, min_effect, drift_alpha);
		check_drift(r, p, 1, min_effect, drift_alpha);
		check_modes(r, p);
		check_samples(r, p, 0);
		check_samples(r, p, 1);
	}
	ab_controls_judge(r, control_tol);
	if (r->order == AB_ORDER_BLOCKED)
		strvec_push(&r->warnings,
			    "blocked order: drift of the machine between the "
			    "arms reads as an effect of the code; --mode "
			    "worktree interleaves A B B A");
	if (sweep)
		ab_sweep_fit(r, min_effect, seed);
}
