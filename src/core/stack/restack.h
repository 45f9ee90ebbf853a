/* The stack operations that rewrite branches: restack (and move) in
 * memory with libgit2, and continue/abort/skip after a conflict or a crash.
 * Each runs as a journaled operation: old tips are saved under
 * refs/campaign/backup/<op>/<branch> before anything moves, and every ref
 * of one operation moves together at the end. */
#ifndef GCAMP_RESTACK_H
#define GCAMP_RESTACK_H

#include "core/base/ctx.h"
#include "util/strvec.h"

struct restack_opts {
	const char *branch; /* restack the stack holding this branch */
	int all;	    /* every stacked branch */
	int no_checkout;    /* on a conflict, list the paths, check out none */
	const char *move;   /* stack move: re-parent this branch ... */
	const char *onto;   /* ... onto this one */
};

struct restack_result {
	long long op_id;     /* 0 when no operation was started */
	struct strvec done;  /* "b: 1234567 -> 89abcde (2 commits)" lines */
	struct strvec notes; /* other lines worth showing */
	int nothing;	     /* nothing needed doing */
	int conflict;	     /* stopped at a conflict (exit 1) */
	char *conflict_branch;
	char *conflict_commit; /* "1234567 subject" */
	int checked_out;       /* the conflict is in the work tree */
	char *conflict_hint;   /* a way on worth naming, or NULL */
	struct strvec conflict_paths;
};

void restack_result_release(struct restack_result *r);

/*
 * Restacks (with o->move set: re-parents o->move onto o->onto, then
 * restacks) the branches that need it, parents first: each replays only
 * its own commits (recorded parent tip..branch) onto its parent's new tip,
 * in memory; the checked-out branch's work tree is updated after the refs
 * move, and must be clean before anything starts. Bad input (cycle,
 * missing parent, detached HEAD, dirty tree, a branch checked out in
 * another work tree, git's own rebase or merge in progress, an unfinished
 * operation) is refused with nothing changed. On a conflict, 0 with
 * out->conflict set: no ref moved, the journal holds the queue.
 */
int restack_start(struct restack_result *out, struct ctx *ctx,
		  const struct restack_opts *o);
/* Finishes the unfinished stack operation: takes the resolution from the
 * index after a conflict, or picks up after a crash. */
int restack_continue(struct restack_result *out, struct ctx *ctx,
		     int no_checkout);
/* Puts every branch, HEAD, the index and the work tree back as they were
 * before the unfinished operation. */
int restack_abort(struct restack_result *out, struct ctx *ctx);
/* Leaves the conflicted branch (and the branches on it) as they were and
 * goes on with the rest. */
int restack_skip(struct restack_result *out, struct ctx *ctx);

#endif
