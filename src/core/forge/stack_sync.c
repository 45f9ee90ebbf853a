/* stack sync: the PR cache refreshed from GitHub, the children of merged
 * parents retargeted on GitHub and re-parented in the repository. */
#include "core/forge/stack_sync.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/campaign/campaign.h"
#include "core/forge/submit.h"
#include "core/stack/graph.h"
#include "io/github/api.h"
#include "io/github/client.h"
#include "util/xalloc.h"

void stack_sync_result_release(struct stack_sync_result *r)
{
	if (!r)
		return;
	strvec_clear(&r->lines);
	restack_result_release(&r->r);
	memset(r, 0, sizeof(*r));
}

/* retargets i's PR from its merged parent's to that PR's base; 1 when it
 * is in a native GitHub stack, whose PRs GitHub does not let us retarget */
static int retarget(struct stack_sync_result *out, struct ctx *ctx,
		    struct github *gh, const struct stack_branch *b,
		    struct github_pr *p, const struct github_pr *parent)
{
	struct github_pr after = {0};
	int rc;

	if (p->stacked) {
		strvec_pushf(
			&out->lines,
			"#%ld %s is in a native GitHub stack: not retargeted "
			"(GitHub refuses), not moved; retarget it on GitHub",
			p->number, b->name);
		return 1;
	}
	if (p->base && parent->base && !strcmp(p->base, parent->base)) {
		strvec_pushf(&out->lines,
			     "#%ld %s is on %s already (#%ld %s merged)",
			     p->number, b->name, p->base, parent->number,
			     b->parent);
		return 0;
	}
	if ((rc = github_pr_update(&after, gh, p->number, NULL, NULL,
				   parent->base, &ctx->err)) < 0)
		return rc;
	strvec_pushf(&out->lines, "retargeted #%ld %s onto %s (#%ld %s merged)",
		     p->number, b->name, parent->base, parent->number,
		     b->parent);
	rc = submit_record_pr(ctx, b->name, &after);
	github_pr_release(p);
	*p = after;
	return rc;
}

int stack_sync(struct stack_sync_result *out, struct ctx *ctx)
{
	struct stack_graph g = {0};
	struct campaign c = {0};
	struct github *gh = NULL;
	struct github_pr *prs = NULL;
	struct strvec moves = STRVEC_INIT, onto = STRVEC_INIT;
	size_t *order = NULL, n = 0, k, i;
	int rc;

	memset(out, 0, sizeof(*out));
	if ((rc = campaign_load(&c, ctx)) < 0 ||
	    (rc = stack_graph_load(&g, ctx)) < 0)
		goto out;
	order = xcalloc(g.n + 1, sizeof(*order));
	prs = xcalloc(g.n + 1, sizeof(*prs));
	submit_order_all(order, &n, &g);
	if ((rc = submit_open_forge(&gh, ctx, &c)) < 0 ||
	    (rc = submit_fetch_prs(prs, ctx, gh, c.forge, &g, order, n)) < 0)
		goto out;
	for (k = 0; k < n; k++) {
		const struct stack_branch *b = &g.b[order[k]];

		if (!prs[order[k]].number)
			continue;
		if ((rc = submit_record_pr(ctx, b->name, &prs[order[k]])) < 0)
			goto out;
		strvec_pushf(&out->lines, "#%ld %s: %s", prs[order[k]].number,
			     b->name, submit_pr_state(&prs[order[k]]));
	}
	/* retarget every child of a merged parent before anything else */
	for (k = 0; k < n; k++) {
		const struct stack_branch *b = &g.b[order[k]];
		size_t p = b->parent_idx;

		if (p == STACK_NONE || !prs[order[k]].number ||
		    strcmp(prs[order[k]].state, "open") || !prs[p].number)
			continue;
		if (!prs[p].merged) {
			if (strcmp(prs[p].state, "open"))
				strvec_pushf(&out->lines,
					     "#%ld %s was closed without "
					     "merging: #%ld "
					     "%s is left as it is",
					     prs[p].number, g.b[p].name,
					     prs[order[k]].number, b->name);
			continue;
		}
		if ((rc = retarget(out, ctx, gh, b, &prs[order[k]], &prs[p])) <
		    0)
			goto out;
		if (rc > 0) {
			rc = 0;
			continue;
		}
		strvec_push(&moves, b->name);
		strvec_push(&onto, g.b[p].parent);
	}
	/* then re-parent them, restacked onto the merged parent's parent */
	for (i = 0; i < moves.nr; i++) {
		struct restack_opts ro = {0};

		restack_result_release(&out->r);
		ro.move = moves.v[i];
		ro.onto = onto.v[i];
		out->moved = 1;
		if ((rc = restack_start(&out->r, ctx, &ro)) < 0) {
			char prev[sizeof(ctx->err.hint)];

			snprintf(prev, sizeof(prev), "%s", ctx->err.hint);
			if (prev[0])
				error_hint(&ctx->err,
					   "%s; then run 'git campaign stack "
					   "sync' again",
					   prev);
			else
				error_hint(&ctx->err,
					   "re-parent it with 'git campaign "
					   "stack move %s --onto %s'",
					   moves.v[i], onto.v[i]);
			goto out;
		}
		strvec_pushf(&out->lines, "moved %s onto %s", moves.v[i],
			     onto.v[i]);
		if (out->r.conflict)
			goto out;
		for (k = 0; k < out->r.done.nr; k++)
			strvec_pushf(&out->lines, "restacked %s",
				     out->r.done.v[k]);
		strvec_clear(&out->r.done);
	}
	if (moves.nr)
		strvec_pushf(
			&out->lines,
			"push them with 'git campaign stack submit --all'");
out:
	if (gh)
		out->requests = github_request_count(gh);
	github_close(gh);
	for (i = 0; prs && i < g.n; i++)
		github_pr_release(&prs[i]);
	free(prs);
	free(order);
	strvec_clear(&moves);
	strvec_clear(&onto);
	stack_graph_release(&g);
	campaign_release(&c);
	return rc;
}
