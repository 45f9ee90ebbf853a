/* The A/B's modes, one table of operations each: how the arms are readied
 * (A's kept worktree, the stash procedure, the artifact copies), measured
 * and, after a failure, the working tree put back. For ab.c. */
#ifndef GCAMP_AB_MODES_H
#define GCAMP_AB_MODES_H

#include <git2.h>

#include "core/ab/sched.h"
#include "io/db.h"

/* One A/B's arms as its mode readies, measures and puts them back */
struct ab_arms {
	struct schedule *s;
	struct db *db;
	long long op;		 /* the journal operation */
	git_repository *repo;	 /* borrowed from s->ctx */
	const git_oid *a_commit; /* A's commit */
	const git_oid *a_tree;	 /* its tree */
	struct arm a, b;
	char *stash;  /* "ab/OP", where the change is kept meanwhile */
	char *dir_a;  /* A's worktree, or A's copy of the build */
	char *dir_b;  /* B's copy of the build */
	int in_stash; /* the change may be in the stash */
};

/* Zeroes m and sets what every mode uses; release with ab_arms_release. */
void ab_arms_init(struct ab_arms *m, struct schedule *s, struct db *db,
		  long long op, git_repository *repo, const git_commit *a);
/* Frees what m owns. Accepts NULL. */
void ab_arms_release(struct ab_arms *m);

struct ab_mode_ops {
	int needs_change; /* refused when the working tree holds no change */
	int takes_base;	  /* --base names A's revision */
	int blocked;	  /* all A, then all B, whatever --order says */
	/* Readies the arms so that both can be measured (builds them, or
	 * saves the change). 0, or a negative code with ctx->err set. */
	int (*prepare)(struct ab_arms *m);
	/* Runs every point in both arms. 0, or a negative code with
	 * ctx->err set. */
	int (*run)(struct ab_arms *m);
	/* After prepare or run failed: puts the working tree back, the
	 * outcome in ctx->err's hint. NULL: the mode never moves it. */
	void (*restore)(struct ab_arms *m);
};

/* The operations of mode m; never NULL. */
const struct ab_mode_ops *ab_mode_ops(enum ab_mode m);

/* Journals a step (GIT_CAMPAIGN_TEST_KILL_AT: see journal.c). */
int ab_step(struct ctx *ctx, struct db *db, long long op, const char *what);
/* "ab/OP", the stash an A/B keeps the change in; the caller frees it. */
char *ab_stash_name(long long op);

#endif
