/* stack up, down, top and bottom: the branch to check out through the
 * recorded parents, checked out by git; and the base behind its remote. */
#include "core/stack/nav.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <git2.h>

#include "core/campaign/campaign.h"
#include "core/stack/graph.h"
#include "core/stack/op.h"
#include "io/proc.h"
#include "io/repo.h"
#include "util/buf.h"
#include "util/xalloc.h"

/* The existing stacked children of name, by name, into kids. */
static void children(struct strvec *kids, const struct stack_graph *g,
		     const char *name)
{
	size_t i;

	for (i = 0; i < g->n; i++)
		if (g->b[i].exists && !g->b[i].in_cycle &&
		    !strcmp(g->b[i].parent, name))
			strvec_push(kids, g->b[i].name);
}

/* One step up from cur into *next (borrowed from g), or an error at a
 * fork that pick does not settle, or at the top. */
static int step_up(const char **next, struct strvec *choices, struct ctx *ctx,
		   const struct stack_graph *g, const char *cur,
		   const char *pick, int top)
{
	struct strvec kids = STRVEC_INIT;
	struct buf list = BUF_INIT;
	size_t i;
	int rc = 0;

	*next = NULL;
	children(&kids, g, cur);
	for (i = 0; i < kids.nr; i++)
		if (pick && !strcmp(kids.v[i], pick))
			*next = g->b[stack_find(g, pick)].name;
	if (*next || (top && !kids.nr))
		goto out;
	if (!kids.nr) {
		rc = error_set(&ctx->err, GCAMP_EFATAL,
			       "nothing is stacked on '%s'", cur);
		goto out;
	}
	/* top follows a single child whatever pick names further up */
	if (kids.nr == 1 && (!pick || top)) {
		*next = g->b[stack_find(g, kids.v[0])].name;
		goto out;
	}
	for (i = 0; i < kids.nr; i++) {
		buf_addf(&list, "%s'%s'", i ? ", " : "", kids.v[i]);
		strvec_push(choices, kids.v[i]);
	}
	if (pick)
		rc = error_set(&ctx->err, GCAMP_EUSAGE,
			       "'%s' is not stacked on '%s' (on it: %s)", pick,
			       cur, list.ptr);
	else
		rc = error_set(&ctx->err, GCAMP_EUSAGE,
			       "%zu branches are stacked on '%s': %s", kids.nr,
			       cur, list.ptr);
	error_hint(&ctx->err,
		   "name the one to go to: 'git campaign stack %s "
		   "BRANCH'",
		   top ? "top" : "up");
out:
	strvec_clear(&kids);
	buf_release(&list);
	return rc;
}

/* The branch that dir leads to from cur, borrowed from g (or g->base). */
static int target(const char **out, struct strvec *choices, struct ctx *ctx,
		  const struct stack_graph *g, const char *cur,
		  enum stack_nav_dir dir, long steps, const char *pick)
{
	size_t i = stack_find(g, cur), k;
	const char *at = cur;
	long s;
	int rc;

	if (i == STACK_NONE &&
	    (dir == STACK_NAV_DOWN ||
	     (dir == STACK_NAV_BOTTOM && strcmp(cur, g->base))))
		return error_set(&ctx->err, GCAMP_EFATAL, "'%s' is not stacked",
				 cur);
	if (i != STACK_NONE && g->b[i].in_cycle)
		return error_set(&ctx->err, GCAMP_EFATAL,
				 "'%s' is in a cycle of recorded parents", cur);
	switch (dir) {
	case STACK_NAV_DOWN:
		for (s = 0; s < steps && i != STACK_NONE; s++) {
			at = g->b[i].parent;
			i = g->b[i].parent_idx;
		}
		if (s < steps)
			return error_set(&ctx->err, GCAMP_EFATAL,
					 "'%s' is %ld branch%s above '%s'", cur,
					 s, s == 1 ? "" : "es", at);
		break;
	case STACK_NAV_BOTTOM:
		if (i == STACK_NONE) /* on the base: its one stack's bottom */
			return step_up(out, choices, ctx, g, cur, pick, 0);
		while (g->b[i].parent_idx != STACK_NONE)
			i = g->b[i].parent_idx;
		at = g->b[i].name;
		break;
	case STACK_NAV_UP:
	case STACK_NAV_TOP:
		for (s = 0, k = 0; dir == STACK_NAV_TOP || s < steps; s++) {
			const char *next;

			if ((rc = step_up(&next, choices, ctx, g, at, pick,
					  dir == STACK_NAV_TOP)) < 0)
				return rc;
			if (!next || ++k > g->n)
				break;
			if (pick && !strcmp(next, pick))
				pick = NULL; /* its fork is passed */
			at = next;
		}
		break;
	}
	*out = at;
	return 0;
}

/* `git checkout -q branch`, git's own first error line when it refuses */
static int git_checkout(struct ctx *ctx, const char *branch)
{
	struct proc_result r = PROC_RESULT_INIT;
	const char *args[] = {"checkout", "-q", branch, "--", NULL};
	int rc;

	if ((rc = proc_git(&r, args, NULL, &ctx->err)) == 0 && r.status) {
		const char *e = r.err.ptr ? r.err.ptr : "";

		if (!strncmp(e, "error: ", 7))
			e += 7;
		rc = error_set(&ctx->err, GCAMP_EFATAL,
			       "cannot check out '%s': %.*s", branch,
			       (int)strcspn(e, "\n"), e);
		error_hint(&ctx->err, "commit or stash your changes first");
	}
	proc_result_release(&r);
	return rc;
}

int stack_nav(char **out, struct strvec *choices, struct ctx *ctx,
	      enum stack_nav_dir dir, long steps, const char *pick)
{
	struct stack_graph g = {0};
	git_repository *repo;
	const char *to = NULL;
	char *cur = NULL, *elsewhere = NULL;
	int rc;

	*out = NULL;
	if ((rc = ctx_repo(&repo, ctx, 1)) < 0 ||
	    (rc = repo_check_state(repo, &ctx->err)) < 0 ||
	    (rc = stack_op_none_pending(ctx)) < 0 ||
	    (rc = stack_check_head(&cur, repo, "moving along the stack",
				   &ctx->err)) < 0 ||
	    (rc = stack_graph_load(&g, ctx)) < 0)
		goto out;
	if ((rc = target(&to, choices, ctx, &g, cur, dir, steps < 1 ? 1 : steps,
			 pick)) < 0)
		goto out;
	*out = xstrdup(to);
	if (!strcmp(to, cur))
		goto out;
	repo_branch_elsewhere(&elsewhere, repo, to);
	if (elsewhere) {
		rc = error_set(&ctx->err, GCAMP_EFATAL,
			       "'%s' is checked out in another work tree (%s)",
			       to, elsewhere);
		goto out;
	}
	rc = git_checkout(ctx, to);
out:
	if (rc < 0) {
		free(*out);
		*out = NULL;
	}
	free(elsewhere);
	free(cur);
	stack_graph_release(&g);
	return rc;
}

int stack_base_behind(size_t *behind, char **remote_ref, char **base,
		      struct ctx *ctx)
{
	struct campaign c = {0};
	git_repository *repo;
	git_oid local, remote;
	size_t ahead = 0;
	char *ref = NULL, *mine = NULL;
	int rc;

	*behind = 0;
	*remote_ref = *base = NULL;
	if ((rc = ctx_repo(&repo, ctx, 1)) < 0 ||
	    (rc = campaign_load(&c, ctx)) < 0)
		goto out;
	if (!c.remote || !c.base)
		goto out;
	ref = xasprintf("refs/remotes/%s/%s", c.remote, c.base);
	mine = xasprintf("refs/heads/%s", c.base);
	if (git_reference_name_to_id(&remote, repo, ref) < 0 ||
	    git_reference_name_to_id(&local, repo, mine) < 0 ||
	    git_graph_ahead_behind(&ahead, behind, repo, &local, &remote) < 0) {
		git_error_clear();
		*behind = 0;
		goto out;
	}
	if (*behind) {
		*remote_ref = xstrdup(ref + strlen("refs/remotes/"));
		*base = xstrdup(c.base);
	}
out:
	free(ref);
	free(mine);
	campaign_release(&c);
	return rc;
}
