/* stack sync: the PR cache refreshed from GitHub, and the children of
 * merged parents retargeted there and re-parented here. */
#ifndef GCAMP_STACK_SYNC_H
#define GCAMP_STACK_SYNC_H

#include "core/base/ctx.h"
#include "core/stack/restack.h"
#include "io/github/client.h"
#include "util/strvec.h"

struct stack_sync_result {
	struct strvec lines;	 /* what was done, one a line */
	struct restack_result r; /* the moves' restack */
	int moved;		 /* restack_start ran */
	int requests;		 /* HTTP requests made */
};

/* Frees what r holds and zeroes it; accepts NULL. */
void stack_sync_result_release(struct stack_sync_result *r);

/*
 * Refreshes the PR of every stacked branch into the pr table. When a
 * bottom PR has merged, fetches its base from campaign.remote and
 * fast-forwards the local base (GCAMP_EREFUSED, before any write, when
 * that base is checked out and behind, or has diverged). For each open PR
 * whose parent's PR has merged, retargets it to the parent PR's base
 * (before anything deletes the parent's branch), then re-parents the
 * branch onto its parent's parent with restack_start (out->r tells how
 * that went; a conflict stops there). A merged branch whose children all
 * moved then leaves the stack (stack_delete, the branch kept). PRs in a
 * native GitHub stack are reported, not retargeted; closed-unmerged
 * parents are reported, not acted on. on_wait (may be NULL) is told of
 * each wait for GitHub's rate limit.
 */
int stack_sync(struct stack_sync_result *out, struct ctx *ctx,
	       github_wait_fn on_wait);

#endif
