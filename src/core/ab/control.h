/* The controls of an A/B: each one vouches for the run only by an
 * equivalence test, and a move is called only after Holm's correction
 * over every control test of the run. */
#ifndef GCAMP_AB_CONTROL_H
#define GCAMP_AB_CONTROL_H

#include "core/ab/judge.h"

/* Judges the control points of r, whose samples ab_judge compared (a
 * control that failed or has too few runs keeps the verdict ab_judge gave
 * it), and sets r->vouch, r->invalid and r->control_tests:
 * - STEADY when the 95% CI of B/A lies within [1 - tol, 1 + tol] (an
 *   equivalence test: two one-sided tests at 2.5% each);
 * - MOVED when its p, adjusted by Holm over the run's control tests (every
 *   control at every iteration count it runs at), is below STATS_ALPHA and
 *   the move is beyond tol;
 * - CANNOT_VOUCH otherwise, with the reason in why and the runs per arm
 *   that would let it vouch in n_needed.
 * Each control's adjusted p goes into its p_holm. */
void ab_controls_judge(struct ab_result *r, double tol);

/* What the verdicts of r's control points say of the run: NONE without a
 * control, MOVED when one moved, STEADY when every one is steady, else
 * UNVOUCHED (a result read back from the database is judged so too). */
enum ab_vouch ab_vouch_of(const struct ab_result *r);

#endif
