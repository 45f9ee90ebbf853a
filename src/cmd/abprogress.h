/* The live progress line of `ab` and `hypo test` on a terminal. */
#ifndef GCAMP_CMD_ABPROGRESS_H
#define GCAMP_CMD_ABPROGRESS_H

#include "core/ab/ab.h"

/* What the line needs between calls; zero it before the first. */
struct ab_progress_line {
	double t0; /* when the first run started (monotonic s) */
	int shown; /* a line is on the screen */
	int width; /* the terminal's columns, read once */
};

/* An ab_progress_fn: data is a struct ab_progress_line. Rewrites one
 * line of standard error in place: the arm, run k of all the runs, a
 * warm-up as such, the iteration count, the command with {iters}
 * replaced (shortened from the left to fit the terminal, so the arguments
 * stay), the running median with its unit and, once a run is done, an
 * ETA from the runs so far. Builds get the same line. */
void ab_progress_show(void *data, const struct ab_progress *p);

/* Clears the line when one is shown, so that what is printed next, a
 * message after Ctrl-C included, starts its own line. */
void ab_progress_end(struct ab_progress_line *l);

#endif
