/* stack fold and stack split: a branch folded into its parent, and a
 * branch split at one of its commits into two stacked branches. Neither
 * rewrites a commit: refs and records move, as one journaled operation
 * each (continue, abort and undo take them). */
#ifndef GCAMP_STACK_FOLD_H
#define GCAMP_STACK_FOLD_H

#include "core/base/ctx.h"
#include "core/stack/restack.h"

/*
 * Folds branch (NULL: the checked-out one) into its parent, as Graphite's
 * gt fold: the parent moves to branch's tip (branch must hold the
 * parent's tip: a fast-forward), branch is deleted (its tip kept under
 * the backup ref), the branches stacked on it are recorded on the parent,
 * and HEAD on branch follows to the parent (same commit: index and files
 * stay). Refused, nothing changed: a branch not stacked or needing a
 * restack, a parent that is the base or not a local branch, a parent or
 * branch checked out in another work tree, local changes when the
 * parent is checked out here.
 */
int stack_fold(struct restack_result *out, struct ctx *ctx, const char *branch);

/*
 * Splits branch (NULL: the checked-out one) at commit at (one of its own
 * commits, not its tip): a new branch new_name is made at at and stacked
 * on branch's parent, and branch is recorded on new_name as of at, so
 * that it keeps only the commits after at. Refused, nothing changed: a
 * branch not stacked or needing a restack, at not among its own commits
 * or its tip, a name taken or invalid.
 */
int stack_split(struct restack_result *out, struct ctx *ctx, const char *branch,
		const char *at, const char *new_name);

#endif
