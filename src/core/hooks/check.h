/* The hooks' checks, which never load libgit2 so that a hook costs the
 * user's commit a few milliseconds: the git-campaign-hook program runs
 * them. */
#ifndef GCAMP_HOOKS_CHECK_H
#define GCAMP_HOOKS_CHECK_H

#include <stdio.h>

#include "util/buf.h"
#include "util/error.h"

/* The hooks the tool installs, in order; NULL-terminated. */
extern const char *const hooks_names[];

/*
 * Runs hook name ("pre-commit", "commit-msg", "pre-push", "post-rewrite",
 * "post-commit", "pre-merge-commit" (pre-commit's checks for git merge),
 * "prepare-commit-msg" (pre-commit's and commit-msg's checks for the
 * commits git cherry-pick and git revert make, nothing for others)) with
 * git's arguments args[0..nargs-1]; in is the hook's
 * standard input (pre-push, post-rewrite read it). What the user must see
 * is appended to report as whole lines ("error: ", "hint: ", "warning: ",
 * "fatal: "); the caller prints it on stderr. Returns the exit status: 0
 * to let git go on (also outside a campaign, silently), 1 when a rule
 * refuses, 128 when the tool itself fails in a hook that can stop git
 * (the report then says so and how to bypass it), 129 for an unknown
 * name. The post- hooks always return 0: their failures are warnings.
 */
int hooks_run(struct buf *report, const char *name, int nargs,
	      const char **args, FILE *in);

/* Allows the next commit on the current branch into PR number (see
 * git-campaign-belongs(1)): records it in $GIT_DIR/campaign/belongs; the
 * post-commit hook forgets it. *branch_out gets the branch (caller frees),
 * *cached whether the PR cache holds number as the branch's open PR.
 * GCAMP_EREFUSED when it holds another open PR for the branch;
 * GCAMP_ENOTINIT outside a campaign; GCAMP_EFATAL when HEAD is detached. */
int hooks_belongs(char **branch_out, int *cached, long number,
		  struct error *err);

#endif
