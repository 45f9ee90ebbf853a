/* Moving along a stack as Graphite's gt up/down/top/bottom and git-town's
 * up/down do: the branch to check out, chosen through the recorded
 * parents, and the check-out itself by git. Also the base's distance
 * behind its remote-tracking branch, read from local refs only. */
#ifndef GCAMP_STACK_NAV_H
#define GCAMP_STACK_NAV_H

#include <stddef.h>

#include "core/base/ctx.h"
#include "util/strvec.h"

enum stack_nav_dir {
	STACK_NAV_UP,	  /* a child of the current branch */
	STACK_NAV_DOWN,	  /* its parent (the base below the bottom) */
	STACK_NAV_TOP,	  /* the last branch up the stack */
	STACK_NAV_BOTTOM, /* the branch of its stack stacked on the base */
};

/*
 * Checks out, with `git checkout` (local changes are carried or refused
 * as git does), the branch dir names from the checked-out one, steps
 * times for up and down (at least 1); *out is that branch (caller
 * frees). Up and top refuse a fork (GCAMP_EUSAGE, the children listed in
 * choices and the message) unless pick names a child of the branch at
 * the fork. A detached HEAD, an unstacked branch with nowhere to go, an
 * unfinished stack operation or git's own rebase in progress are
 * refused, nothing checked out.
 */
int stack_nav(char **out, struct strvec *choices, struct ctx *ctx,
	      enum stack_nav_dir dir, long steps, const char *pick);

/* The commits of refs/remotes/REMOTE/BASE that the local base lacks,
 * in *behind (0 when either is missing or the base holds them all), and
 * that ref's short name "REMOTE/BASE" and the base's name in *remote_ref
 * and *base (caller frees both; NULL when *behind is 0). Fetches
 * nothing. */
int stack_base_behind(size_t *behind, char **remote_ref, char **base,
		      struct ctx *ctx);

#endif
