/* The replay engine of restack: each branch's own commits replayed in
 * memory with libgit2 (no work tree, no index), the conflict shown when one
 * stops it, and the updates applied together at the end. */
#ifndef GCAMP_STACK_REPLAY_H
#define GCAMP_STACK_REPLAY_H

#include <cjson/cJSON.h>
#include <git2.h>

#include "core/base/ctx.h"
#include "core/stack/op.h"
#include "core/stack/restack.h"
#include "util/strvec.h"

/* Runs op, whose updates are all in op->fixed (undo, delete): journal,
 * backups, the updates, the work tree. */
int stack_op_run_fixed(struct stack_op *op, struct ctx *ctx,
		       struct restack_result *out, const char *summary);

/* Replays every branch of op not yet done, parents first (or stops at a
 * conflict: 0 with out->conflict set), then finishes op. */
int restack_run_queue(struct stack_op *op, struct ctx *ctx,
		      struct restack_result *out, int no_checkout);
/* From the "apply" step on: the refs, the records, the work tree, the
 * journal closed. */
int restack_finish_op(struct stack_op *op, struct ctx *ctx,
		      struct restack_result *out);
/* Refuses (GCAMP_EFATAL, with a hint) a branch whose own commits,
 * upstream..tip, hold a merge commit: restack replays linear branches
 * only. Checked while planning, before the operation begins. */
int restack_check_linear(git_repository *repo, const git_oid *upstream,
			 const git_oid *tip, const char *branch,
			 struct error *err);
/* "1234567 subject" of a commit (caller frees). */
char *restack_describe(git_repository *repo, const git_oid *id);
/* The paths in conflict in idx, appended to out. */
void restack_conflict_paths(struct strvec *out, git_index *idx);
/* [a, b] as JSON. */
cJSON *oid_pair_json(const git_oid *a, const git_oid *b);

#endif
