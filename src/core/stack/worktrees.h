/* A stacked branch checked out in another work tree: whether restack may
 * rewrite it from here (that work tree clean, in no operation of git's),
 * and that work tree's index and files brought to the new tip, as git
 * would update them. */
#ifndef GCAMP_STACK_WORKTREES_H
#define GCAMP_STACK_WORKTREES_H

#include <git2.h>

#include "util/error.h"
#include "util/strvec.h"

/*
 * The other work tree where (what repo_branch_elsewhere names: a path, or
 * "the main work tree") has branch: 1 with its path in *path (caller
 * frees) when branch is checked out there plainly, no rebase, merge,
 * cherry-pick, revert, bisect or `git am` is under way there and its work
 * tree is clean (untracked files aside), so that it may follow a
 * rewrite; 0 with the reason to leave it in *why (caller frees).
 */
int stack_wt_ready(char **path, char **why, git_repository *repo,
		   const char *where, const char *branch);

/* The untracked files of the work tree at path that a checkout of target
 * would overwrite, appended to out (stack_recover_untracked_in_way). */
int stack_wt_in_way(struct strvec *out, const char *path, const git_oid *target,
		    struct error *err);

/*
 * Brings the index and files of the work tree at path, whose HEAD is on
 * the branch that moved to target, from its index to target: only the
 * paths that differ are written, none with local changes is overwritten,
 * and files a killed run already wrote count as done.
 */
int stack_wt_checkout(const char *path, const git_oid *target,
		      struct error *err);

#endif
