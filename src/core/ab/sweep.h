/* The iteration sweep of an A/B: the main workload's runs fitted per arm
 * as time = fixed + per-iteration x iters, and what the fit can tell. */
#ifndef GCAMP_AB_SWEEP_H
#define GCAMP_AB_SWEEP_H

#include "core/ab/judge.h"

/* Fits r's main workload over its iteration counts into r->sweep
 * (stats_sweep_compare, 2000 resamples seeded by seed) and says in words
 * what changed. A change is called when its bootstrap p, adjusted by Holm
 * over the fit's two tests, is below STATS_ALPHA and it is at least
 * min_effect: for the per-iteration cost relative to A's, for the fixed
 * cost relative to A's time at the smallest count. "Does not grow with
 * iterations" is said only when the per-iteration CI lies within
 * +-min_effect, and "neither changed" only when both CIs do and not every
 * point is faster (or slower); otherwise the words are "cannot tell fixed
 * from per-iteration cost", with why and the runs per arm that would tell.
 * A higher-is-better metric is fitted as 1 / value (sweep.reciprocal);
 * one with a value <= 0 gets no fit (ok 0), and why says so. */
void ab_sweep_fit(struct ab_result *r, double min_effect, unsigned seed);

#endif
