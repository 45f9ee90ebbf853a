/* The push of stack submit: every branch of a stack in one `git push`. */
#ifndef GCAMP_STACKPUSH_H
#define GCAMP_STACKPUSH_H

#include <git2.h>

#include "core/base/ctx.h"
#include "core/stack/graph.h"
#include "util/strvec.h"

/* What stack_push pushes: the n branches b[order[0..n)] to remote. */
struct stack_push_req {
	const char *remote;
	const struct stack_branch *b;
	const size_t *order;
	size_t n;
	int dry_run; /* say what would be pushed, run nothing */
};

/*
 * Pushes the branches of req to req->remote in one run of the git
 * program: those whose remote-tracking tip is their own are left out (no
 * push at all when that is every one); each other gets
 * --force-with-lease=refs/heads/B:<remote-tracking tip> (empty: not there
 * yet). A remote tip that is not an ancestor of the branch is refused
 * (GCAMP_EREFUSED, before anything is pushed, the hint naming the git log
 * that shows it) unless the branch once included it, as git push
 * --force-if-includes decides: an entry of the branch's reflog, or one of
 * its restack backups, is that tip or has it in its history. Adds "pushed B"
 * (or, with dry_run, "would push B" and nothing run) to lines per branch that
 * went through; the first refused one is the error (GCAMP_EFATAL, a hint for a
 * lease that failed).
 */
int stack_push(struct strvec *lines, struct ctx *ctx, git_repository *repo,
	       const struct stack_push_req *req);

#endif
