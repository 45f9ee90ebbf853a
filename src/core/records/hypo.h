/* The campaign's records kept in the database: hypotheses, each a number
 * predicted for a metric and then confirmed or falsified, and findings,
 * ranked by failure mode (silent wrong answer > crash > slow). */
#ifndef GCAMP_RECORDS_H
#define GCAMP_RECORDS_H

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

struct finding {
	long long id;
	char *kind; /* "wrong-answer", "crash", "slow" */
	char *title;
	char *issue;	 /* URL or NULL */
	long pr;	 /* 0: none */
	char *commit_id; /* NULL: none */
	char *state;	 /* "open", "closed" */
	long closed_pr;	 /* the PR that closed it; 0 while open */
	char *created_at, *closed_at;
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
/* The hypothesis marked next into *out, *found 0 when none (or no
 * database). */
int hypo_next(struct hypo *out, int *found, struct ctx *ctx);
/* 1 when measured is within tolerance percent of predicted (the bound
 * included), else 0. */
int hypo_within(double predicted, double tolerance, double measured);
void hypo_release(struct hypo *h);
void hypo_free(struct hypo *v, size_t n);

/* 0 when kind is one of wrong-answer, crash, slow; else GCAMP_EUSAGE. */
int finding_check_kind(const char *kind, struct error *err);
/* Records an open finding; its id in *out. issue and commit_id may be
 * NULL, pr 0. Creates the database when missing. */
int finding_add(long long *out, struct ctx *ctx, const char *kind,
		const char *title, const char *issue, long pr,
		const char *commit_id);
/* Every finding, the open ones first ranked wrong-answer > crash > slow,
 * then oldest first; the closed after them in the same order. Caller frees
 * with finding_free. */
int finding_list(struct finding **out, size_t *n, struct ctx *ctx);
/* Closes open finding id by PR pr (> 0). GCAMP_ENOTFOUND when there is no
 * such finding, GCAMP_EREFUSED when it is closed already. */
int finding_close(struct ctx *ctx, long long id, long pr);
/* The top open finding by rank into *out, *found 0 when none. */
int finding_top(struct finding *out, int *found, struct ctx *ctx);
/* The first limit (> 0) open findings by rank, as finding_list orders
 * them, in *out (caller frees with finding_free), *n of them; *open gets
 * how many are open in all. Indexed: reads at most limit rows of each
 * kind. None without a database. */
int finding_open_ranked(struct finding **out, size_t *n, size_t *open,
			struct ctx *ctx, size_t limit);
void finding_release(struct finding *f);
void finding_free(struct finding *v, size_t n);

/* The campaign's scratch folder for probes, $GIT_COMMON_DIR/campaign/
 * scratch/ (with the final slash), created when missing; outside every
 * working tree. The caller frees *out. */
int records_scratch_dir(char **out, struct ctx *ctx);

#endif
