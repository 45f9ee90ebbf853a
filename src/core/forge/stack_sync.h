/* stack sync: the PR cache refreshed from GitHub, and the children of
 * merged parents retargeted there and re-parented here. */
#ifndef GCAMP_STACK_SYNC_H
#define GCAMP_STACK_SYNC_H

#include "core/base/ctx.h"
#include "core/stack/restack.h"
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
 * Refreshes the PR of every stacked branch into the pr table; for each
 * open PR whose parent's PR has merged, retargets it to the parent PR's
 * base (before anything else), then re-parents the branch onto its
 * parent's parent with restack_start (out->r tells how that went; a
 * conflict stops there). PRs in a native GitHub stack are reported, not
 * retargeted; closed-unmerged parents are reported, not acted on.
 */
int stack_sync(struct stack_sync_result *out, struct ctx *ctx);

#endif
