/* The campaign's findings, kept in the database (table finding), ranked by
 * failure mode (silent wrong answer > crash > slow). */
#ifndef GCAMP_RECORDS_FINDING_H
#define GCAMP_RECORDS_FINDING_H

#include <stddef.h>

#include "core/base/ctx.h"

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

#endif
