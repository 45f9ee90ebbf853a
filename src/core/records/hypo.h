/* The campaign's hypotheses, kept in the database (table hypothesis): each a
 * number predicted for a metric and then confirmed or falsified. */
#ifndef GCAMP_RECORDS_HYPO_H
#define GCAMP_RECORDS_HYPO_H

#include <stddef.h>

#include "core/base/ctx.h"

#define HYPO_DEFAULT_TOLERANCE 10.0 /* percent of the prediction */

struct hypo {
	long long id;
	char *text, *metric, *unit; /* unit NULL when none */
	double predicted, tolerance;
	char *state; /* "open", "confirmed", "falsified" */
	int has_measured;
	double measured;
	char *evidence; /* "ab #3", "commit <id>", "note: ...", or NULL */
	int is_next;
	char *created_at, *decided_at; /* decided_at NULL while open */
};

/* Records a hypothesis and returns its id in *out. text and metric must be
 * non-empty, predicted finite, tolerance (percent) finite and >= 0; else
 * GCAMP_EUSAGE. Creates the database when missing. */
int hypo_add(long long *out, struct ctx *ctx, const char *text,
	     const char *metric, double predicted, const char *unit,
	     double tolerance);
/* Every hypothesis by id in *out (caller frees with hypo_free), *n of them;
 * none without a database. */
int hypo_list(struct hypo **out, size_t *n, struct ctx *ctx);
/* Hypothesis id into *out (release with hypo_release); GCAMP_ENOTFOUND
 * when there is none. */
int hypo_get(struct hypo *out, struct ctx *ctx, long long id);
/* Confirms (confirmed nonzero) or falsifies open hypothesis id with the
 * value measured and the evidence (a line, may be NULL); it stops being the
 * next one. GCAMP_EREFUSED when it was decided already. */
int hypo_decide(struct ctx *ctx, long long id, int confirmed, double measured,
		const char *evidence);
/* Marks open hypothesis id as the one to do next, unmarking any other. */
int hypo_set_next(struct ctx *ctx, long long id);
/* The hypothesis to do next into *out: *found is 1 for the one marked
 * next, 2 when none is marked and *out is the oldest open one, 0 when no
 * hypothesis is open (or no database). *open gets the number of open
 * hypotheses. */
int hypo_next(struct hypo *out, int *found, size_t *open, struct ctx *ctx);
/* 1 when measured is within tolerance percent of predicted (the bound
 * included), else 0. */
int hypo_within(double predicted, double tolerance, double measured);
void hypo_release(struct hypo *h);
void hypo_free(struct hypo *v, size_t n);

#endif
