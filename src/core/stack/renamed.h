/* A branch's rename: applied by an operation (stack rename, its abort and
 * undo), and found again after a `git branch -m` made by hand. Uses no
 * other file of core/stack, so that op.c can apply it. */
#ifndef GCAMP_STACK_RENAMED_H
#define GCAMP_STACK_RENAMED_H

#include <cjson/cJSON.h>
#include <git2.h>

#include "core/base/ctx.h"

/* The branch that old was renamed to with `git branch -m` (followed
 * through later renames, to one that exists), found in the reflogs of
 * the local branches ("Branch: renamed refs/heads/OLD to refs/heads/NEW",
 * as git writes it), in *out (caller frees), or NULL when none is. Reads
 * only. */
void stack_renamed_to(char **out, git_repository *repo, const char *old);

/* Applies the "rename" entry of an operation's updates (inverse: back),
 * the branch moved by `git branch -m` and HEAD following it; a second
 * run finds it done. 0 when apply has none. For core/stack/op.c. */
int stack_rename_apply(struct ctx *ctx, git_repository *repo,
		       const cJSON *apply, int inverse);

/* Points this work tree's HEAD at refs/heads/to when it names
 * refs/heads/from (the commit is the same: nothing else is touched). */
int stack_head_follow(git_repository *repo, const char *from, const char *to,
		      struct error *err);
/* Applies the "head" entry ({"old": B, "new": P}) of an operation's
 * updates (inverse: back) with stack_head_follow; 0 when there is none.
 * For core/stack/op.c, after the refs moved. */
int stack_head_apply(struct ctx *ctx, git_repository *repo, const cJSON *apply,
		     int inverse);

/* 1 when refs/heads/NAME exists. */
int stack_branch_exists(git_repository *repo, const char *name);

#endif
