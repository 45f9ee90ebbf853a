/* The controls of an A/B: equivalence to vouch for the run, Holm's
 * correction before a move is called. */
#include "core/ab/control.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "util/xalloc.h"

/* Runs per arm for the CI to shrink from half to target: a CI narrows as
 * 1 / sqrt(n). 0 when no number of runs would do. */
static long runs_for(size_t n, double half, double target)
{
	double k;

	if (!(half > 0) || !(target > 0))
		return 0;
	k = (double)n * (half / target) * (half / target);
	return k > 1e6 ? 1000000 : (long)ceil(k);
}

/* The p of a move, as the reason line says it */
static void say_p(char *out, size_t len, const struct ab_point *p, size_t m)
{
	if (m > 1)
		snprintf(out, len,
			 "p = %.2g; %.2g after Holm over %zu control "
			 "tests",
			 p->cmp.p, p->p_holm, m);
	else
		snprintf(out, len, "p = %.2g", p->cmp.p);
}

/*
 * Why an equivalence test: "not significant" is no evidence of
 * "unchanged" (measurement.md §3 item 9). A control vouches only when its
 * whole 95% CI lies within the tolerance, which is TOST at 2.5% per side.
 * Requiring every control to be steady is an intersection-union test, so
 * the steady side needs no correction for their number; calling a move
 * does, since any one move makes the run INVALID: Holm's step-down keeps
 * the chance of a false INVALID at 5% over all of the run's control tests.
 */
static void judge_one(struct ab_point *p, double tol, size_t m)
{
	size_t n = p->na < p->nb ? p->na : p->nb;
	double effect = p->cmp.ratio - 1, lo = p->cmp.ci_lo - 1,
	       hi = p->cmp.ci_hi - 1, half, scale;
	int ci_ok;
	char pv[96];

	/* with values <= 0, as ab_judge: B - A over A's median (B's when
	 * A's is 0) */
	if (p->cmp.on_diff) {
		scale = fabs(p->cmp.median_a) > 0 ? fabs(p->cmp.median_a)
						  : fabs(p->cmp.median_b);
		effect = scale > 0 ? p->cmp.diff / scale : NAN;
		lo = scale > 0 ? p->cmp.diff_lo / scale : NAN;
		hi = scale > 0 ? p->cmp.diff_hi / scale : NAN;
	}
	ci_ok = !isnan(lo) && !isnan(hi);
	half = (hi - lo) / 2;

	say_p(pv, sizeof(pv), p, m);
	p->n_needed = 0;
	if (p->p_holm < STATS_ALPHA && fabs(effect) > tol) {
		p->verdict = AB_VERDICT_MOVED;
		snprintf(p->why, sizeof(p->why),
			 "moved %+.1f%%, beyond the %.1f%% tolerance (%s)",
			 effect * 100, tol * 100, pv);
	} else if (ci_ok && lo >= -tol && hi <= tol) {
		p->verdict = AB_VERDICT_STEADY;
		p->why[0] = '\0';
	} else if (!ci_ok) {
		p->verdict = AB_VERDICT_CANNOT_VOUCH;
		snprintf(p->why, sizeof(p->why),
			 "its B/A has no confidence interval to hold within "
			 "the %.1f%% tolerance",
			 tol * 100);
	} else {
		p->verdict = AB_VERDICT_CANNOT_VOUCH;
		snprintf(p->why, sizeof(p->why),
			 "its 95%% CI [%+.1f%%, %+.1f%%] reaches past the "
			 "%.1f%% tolerance (%s)",
			 lo * 100, hi * 100, tol * 100, pv);
		/* inside the tolerance it needs a CI narrower than the room
		 * left; beyond it, one that excludes no change */
		p->n_needed = fabs(effect) < tol
				      ? runs_for(n, half, tol - fabs(effect))
				      : runs_for(n, half, fabs(effect));
	}
}

void ab_controls_judge(struct ab_result *r, double tol)
{
	double *ps = xcalloc(r->npoints + 1, sizeof(*ps));
	size_t i, m = 0;

	/* the family: every control that was compared */
	for (i = 0; i < r->npoints; i++) {
		struct ab_point *p = &r->points[i];

		p->p_holm = NAN;
		if (p->control && p->verdict == AB_VERDICT_NONE)
			ps[m++] = p->cmp.p;
	}
	stats_holm(ps, ps, m);
	r->control_tests = m;
	for (i = 0, m = 0; i < r->npoints; i++) {
		struct ab_point *p = &r->points[i];

		if (!p->control || p->verdict != AB_VERDICT_NONE)
			continue;
		p->p_holm = ps[m++];
		judge_one(p, tol, r->control_tests);
	}
	free(ps);
	r->vouch = ab_vouch_of(r);
	r->invalid = r->vouch == AB_VOUCH_MOVED;
}

enum ab_vouch ab_vouch_of(const struct ab_result *r)
{
	enum ab_vouch v = AB_VOUCH_NONE;
	size_t i;

	for (i = 0; i < r->npoints; i++) {
		const struct ab_point *p = &r->points[i];

		if (!p->control)
			continue;
		if (p->verdict == AB_VERDICT_MOVED)
			return AB_VOUCH_MOVED;
		if (p->verdict != AB_VERDICT_STEADY)
			v = AB_VOUCH_UNVOUCHED;
		else if (v == AB_VOUCH_NONE)
			v = AB_VOUCH_STEADY;
	}
	return v;
}
