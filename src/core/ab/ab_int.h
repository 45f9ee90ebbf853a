/* What the A/B harness's files share (ab.c runs the schedule, ab_modes.c
 * prepares the arms); not for other callers. */
#ifndef GCAMP_AB_INT_H
#define GCAMP_AB_INT_H

#include "core/ab/ab.h"
#include "io/db.h"

struct arm {
	char name;	      /* 'A' or 'B' */
	const char *dir;      /* where its commands run; NULL: here */
	const char *artifact; /* its copy of the build, or NULL */
};

struct schedule {
	struct ctx *ctx;
	const struct ab_opts *o;
	struct ab_result *res;
	ab_progress_fn progress;
	void *data;
};

/* The arms' runs: warm-ups, then n runs of the points [from, to) of one
 * arm, or of both arms in the schedule's order. */
int ab_run_block(struct schedule *s, size_t from, size_t to,
		 const struct arm *arm);
int ab_run_interleaved(struct schedule *s, size_t from, size_t to,
		       const struct arm *a, const struct arm *b,
		       unsigned *seed);
/* Runs the build command in arm's tree; a failure names the arm (desc). */
int ab_build(struct ctx *ctx, const char *cmd, const struct arm *arm,
	     const char *desc);
/* Journals a step (GIT_CAMPAIGN_TEST_KILL_AT: see journal.c). */
int ab_step(struct ctx *ctx, struct db *db, long long op, const char *what);
/* "ab/OP", the stash an A/B keeps the change in; the caller frees it. */
char *ab_stash_name(long long op);

/* The modes: A's worktree (built unless its build is current); the stash
 * procedure; the artifact copies. Each returns 0 or a negative code with
 * ctx->err set, the working tree put back. */
int ab_prepare_worktree(struct ctx *ctx, git_repository *repo,
			const struct ab_opts *o, const git_oid *commit,
			const char *key, struct arm *a, char **out_dir);
int ab_run_stash_mode(struct schedule *s, struct db *db, long long op);
int ab_run_artifact_mode(struct schedule *s, struct db *db, long long op,
			 git_repository *repo, const git_oid *a_tree);

#endif
