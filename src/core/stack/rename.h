/* stack rename: a stacked branch renamed inside its stack (Graphite's gt
 * rename, git-town's rename), and a rename made by `git branch -m` found
 * again through the reflog so that its children can follow it. */
#ifndef GCAMP_STACK_RENAME_H
#define GCAMP_STACK_RENAME_H

#include "core/base/ctx.h"
#include "core/stack/restack.h"

/*
 * Renames branch old to new_name in its stack, as one journaled
 * operation (continue, abort and undo take it): the branch with its
 * reflog and its branch.OLD.* settings (as `git branch -m`), HEAD when it
 * is checked out, and the records of the branches stacked on it. When old
 * no longer exists and new_name does (a `git branch -m` made by hand),
 * only the children's records follow it. old NULL: the checked-out
 * branch. Refused, with nothing changed: the base, a branch in no stack,
 * a name taken, a branch checked out in another work tree.
 */
int stack_rename(struct restack_result *out, struct ctx *ctx, const char *old,
		 const char *new_name);

#endif
