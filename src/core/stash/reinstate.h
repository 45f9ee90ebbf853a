/* Reinstating a named stash whole, as `git stash apply --index` does: its
 * working-tree changes, its untracked files and its staged changes. */
#ifndef GCAMP_STASH_REINSTATE_H
#define GCAMP_STASH_REINSTATE_H

#include "core/base/ctx.h"
#include "util/strvec.h"

/* Applies stash NAME as stash_apply does, then gives the index the
 * stash's staged changes (its "index on" commit) merged into what the
 * index held, so that a path staged at one version and modified to
 * another comes back so. Refuses what stash_apply refuses. When the
 * staged changes do not merge, the working tree holds the change, the
 * index is left as stash_apply leaves it, the stash stays and
 * GCAMP_EREFUSED names the reason. With pop, the stash is dropped once
 * everything is back. */
int stash_reinstate(struct ctx *ctx, const char *name, int pop,
		    struct strvec *conflicts);

#endif
