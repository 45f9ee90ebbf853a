/* The iteration sweep of an A/B: the per-arm fit of the main workload, the
 * Holm-corrected tests of its two costs, and the words for what it tells. */
#include "core/ab/sweep.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/stats/fit.h"
#include "util/xalloc.h"

/* What a sweep says, in words (load.c maps them back) */
const char *const ab_sweep_words[] = {
	"both the per-iteration and the fixed cost changed",
	"removed per-iteration work",
	"added per-iteration work",
	"displaced fixed cost (the saving does not grow with iterations)",
	"added a fixed cost (the loss does not grow with iterations)",
	"neither the fixed nor the per-iteration cost changed",
	"cannot tell fixed from per-iteration cost",
	NULL,
};

enum {
	W_BOTH,
	W_PER_LESS,
	W_PER_MORE,
	W_FIX_LESS,
	W_FIX_MORE,
	W_NEITHER,
	W_CANNOT_TELL
};

/* Every sample of one arm of the main workload as (iters, value), or as
 * (iters, 1 / value) with recip; (size_t)-1 when a value has no
 * reciprocal */
static size_t sweep_points(double **x, double **y, const struct ab_result *r,
			   int arm_b, int recip)
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
			if (recip && !(v[k] > 0))
				return (size_t)-1;
			(*x)[n] = (double)p->iters;
			(*y)[n] = recip ? 1 / v[k] : v[k];
		}
	}
	return n;
}

/* Runs per arm for a CI of half-width half around c (both relative) to
 * tell: narrow enough to lie within +-m, or, beyond m, to exclude 0. A CI
 * narrows as 1 / sqrt(n). */
static long runs_to_tell(long n, double c, double half, double m)
{
	double target = fabs(c) < m ? m - fabs(c) : fabs(c), k;

	if (!(half > 0) || !(target > 0))
		return 0;
	k = (double)n * (half / target) * (half / target);
	return k > 1e6 ? 1000000 : (long)ceil(k);
}

/* 1 when every main point is faster, -1 when every one is slower, else 0 */
static int all_one_way(const struct ab_result *r)
{
	size_t i, n = 0, faster = 0, slower = 0;

	for (i = 0; i < r->npoints; i++) {
		const struct ab_point *p = &r->points[i];

		if (p->control)
			continue;
		n++;
		faster += p->verdict == AB_VERDICT_FASTER;
		slower += p->verdict == AB_VERDICT_SLOWER;
	}
	return !n ? 0 : faster == n ? 1 : slower == n ? -1 : 0;
}

/* Why a cost's CI tells neither a change nor none: it excludes 0 but
 * Holm's correction leaves it not significant, or it is wider than the
 * minimum effect. Returns out. */
static const char *unresolved(char *out, size_t len, double p_holm,
			      int excludes_0, double m)
{
	if (excludes_0 && p_holm >= STATS_ALPHA)
		snprintf(out, len,
			 "is not significant after Holm over the fit's 2 "
			 "tests (p = %.2g)",
			 p_holm);
	else
		snprintf(out, len,
			 "is not resolved to the %.1f%% minimum effect",
			 m * 100);
	return out;
}

void ab_sweep_fit(struct ab_result *r, double min_effect, unsigned seed)
{
	char why[96];
	struct ab_sweep *s = &r->sweep;
	struct stats_sweep *f = &s->fit;
	double *xa, *ya, *xb, *yb, base = NAN, ps[2];
	double per_c, per_half, fix_c, fix_half;
	size_t na, nb, i;
	int per_moved, fixed_moved, per_flat, fixed_flat, way, w;

	memset(s, 0, sizeof(*s));
	s->reciprocal = r->higher_is_better;
	for (i = 0; i < r->npoints; i++)
		if (!r->points[i].control && r->points[i].na) {
			base = r->points[i].sa.median; /* smallest count */
			break;
		}
	if (s->reciprocal)
		base = 1 / base;
	na = sweep_points(&xa, &ya, r, 0, s->reciprocal);
	nb = na == (size_t)-1 ? 0 : sweep_points(&xb, &yb, r, 1, s->reciprocal);
	if (na == (size_t)-1 || nb == (size_t)-1) {
		snprintf(s->why, sizeof(s->why),
			 "the metric is higher-is-better and a value <= 0 "
			 "has no reciprocal to fit");
		free(xa);
		free(ya);
		if (na != (size_t)-1) {
			free(xb);
			free(yb);
		}
		return;
	}
	s->ok = !stats_sweep_compare(f, xa, ya, na, xb, yb, nb, 2000, seed) &&
		base > 0;
	free(xa);
	free(ya);
	free(xb);
	free(yb);
	if (!s->ok)
		return;
	/* two tests of one fit: Holm, as for the controls */
	ps[0] = f->p_fixed;
	ps[1] = f->p_per_iter;
	stats_holm(ps, ps, 2);
	s->p_fixed = ps[0];
	s->p_per_iter = ps[1];
	per_c = f->per_iter_ratio - 1;
	per_half = (f->per_iter_ratio_hi - f->per_iter_ratio_lo) / 2;
	fix_c = f->d_fixed / base;
	fix_half = (f->d_fixed_hi - f->d_fixed_lo) / 2 / base;
	per_moved = !isnan(f->per_iter_ratio_lo) &&
		    s->p_per_iter < STATS_ALPHA &&
		    (f->per_iter_ratio_hi < 1 || f->per_iter_ratio_lo > 1) &&
		    fabs(per_c) >= min_effect;
	fixed_moved = !isnan(f->d_fixed_lo) && s->p_fixed < STATS_ALPHA &&
		      (f->d_fixed_hi < 0 || f->d_fixed_lo > 0) &&
		      fabs(fix_c) >= min_effect;
	per_flat = !isnan(f->per_iter_ratio_lo) &&
		   f->per_iter_ratio_lo >= 1 - min_effect &&
		   f->per_iter_ratio_hi <= 1 + min_effect;
	fixed_flat = !isnan(f->d_fixed_lo) &&
		     f->d_fixed_lo >= -min_effect * base &&
		     f->d_fixed_hi <= min_effect * base;
	way = all_one_way(r);
	if (per_moved && fixed_moved)
		w = W_BOTH;
	else if (per_moved)
		/* the fixed cost's CI includes 0 (measurement.md §3 item 10) */
		w = per_c < 0 ? W_PER_LESS : W_PER_MORE;
	else if (fixed_moved && per_flat)
		w = fix_c < 0 ? W_FIX_LESS : W_FIX_MORE;
	else if (per_flat && fixed_flat && !way)
		w = W_NEITHER;
	else
		w = W_CANNOT_TELL;
	s->words = ab_sweep_words[w];
	if (w != W_CANNOT_TELL)
		return;
	if (!per_moved && !per_flat) {
		if (isnan(f->per_iter_ratio_lo))
			snprintf(s->why, sizeof(s->why),
				 "the per-iteration B/A has no interval (A's "
				 "fitted per-iteration cost is not above 0)");
		else
			snprintf(s->why, sizeof(s->why),
				 "per-iteration change %+.1f%% [%+.1f%%, "
				 "%+.1f%%] %s",
				 per_c * 100, (f->per_iter_ratio_lo - 1) * 100,
				 (f->per_iter_ratio_hi - 1) * 100,
				 unresolved(why, sizeof(why), s->p_per_iter,
					    f->per_iter_ratio_hi < 1 ||
						    f->per_iter_ratio_lo > 1,
					    min_effect));
		s->n_needed = runs_to_tell(r->n, per_c, per_half, min_effect);
	}
	if (!fixed_moved && !fixed_flat && !isnan(f->d_fixed_lo)) {
		long k = runs_to_tell(r->n, fix_c, fix_half, min_effect);
		size_t len = strlen(s->why);

		snprintf(s->why + len, sizeof(s->why) - len,
			 "%sfixed change %+.1f%% [%+.1f%%, %+.1f%%] of A's "
			 "time at the smallest count %s",
			 len ? "; " : "", fix_c * 100,
			 f->d_fixed_lo / base * 100, f->d_fixed_hi / base * 100,
			 unresolved(why, sizeof(why), s->p_fixed,
				    f->d_fixed_hi < 0 || f->d_fixed_lo > 0,
				    min_effect));
		if (k > s->n_needed)
			s->n_needed = k;
	}
	if (!s->why[0] && way)
		snprintf(s->why, sizeof(s->why),
			 "every point is %s, yet the fit resolves no change "
			 "of either cost",
			 way > 0 ? "faster" : "slower");
	else if (!s->why[0])
		snprintf(s->why, sizeof(s->why),
			 "the fixed cost's change has no interval");
}
