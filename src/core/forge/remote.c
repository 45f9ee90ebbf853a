/* stack show --remote: the PRs of the stacks with their review decisions
 * and CI, read through the ETag cache (core/forge/submit.c finds the PRs). */
#include "core/forge/remote.h"

#include <stdlib.h>
#include <string.h>

#include "core/campaign/campaign.h"
#include "core/forge/submit.h"
#include "core/stack/graph.h"
#include "util/xalloc.h"

void remote_result_release(struct remote_result *r)
{
	size_t i;

	if (!r)
		return;
	for (i = 0; i < r->n; i++)
		free(r->v[i].branch);
	free(r->v);
	memset(r, 0, sizeof(*r));
}

const char *remote_review_decision(const struct github_review *v, size_t n,
				   size_t requested)
{
	int changes = 0, approved = 0, commented = 0;
	size_t i, k;

	/* each reviewer's verdict is their latest that is one */
	for (i = 0; i < n; i++) {
		const char *st = v[i].state, *last = NULL;

		if (!strcmp(st, "COMMENTED"))
			commented = 1;
		for (k = i; k < n; k++)
			if (!strcmp(v[k].login, v[i].login) &&
			    (!strcmp(v[k].state, "APPROVED") ||
			     !strcmp(v[k].state, "CHANGES_REQUESTED") ||
			     !strcmp(v[k].state, "DISMISSED")))
				last = v[k].state;
		/* counted once: at the reviewer's first review */
		for (k = 0; k < i; k++)
			if (!strcmp(v[k].login, v[i].login))
				break;
		if (k < i || !last)
			continue;
		if (!strcmp(last, "CHANGES_REQUESTED"))
			changes = 1;
		else if (!strcmp(last, "APPROVED"))
			approved = 1;
	}
	if (changes)
		return "changes requested";
	if (approved)
		return "approved";
	if (requested)
		return "review requested";
	return commented ? "commented" : "no review";
}

const char *remote_ci_state(const struct github_ci *ci)
{
	if (ci->failing)
		return "failing";
	if (ci->pending)
		return "pending";
	return ci->passing ? "passing" : "none";
}

/* the review decision and CI of open PR p into e */
static int read_one(struct remote_pr *e, struct ctx *ctx, struct github *gh,
		    const struct github_pr *p)
{
	struct github_review *v = NULL;
	size_t n = 0;
	int rc;

	if ((rc = github_pr_reviews(&v, &n, gh, p->number, &ctx->err)) < 0)
		return rc;
	e->review = remote_review_decision(v, n, p->reviewers.nr);
	github_reviews_free(v, n);
	if (!p->head_sha)
		return 0;
	if ((rc = github_ref_ci(&e->ci, gh, p->head_sha, &ctx->err)) < 0)
		return rc;
	e->ci_read = 1;
	return 0;
}

int stack_remote(struct remote_result *out, struct ctx *ctx,
		 github_wait_fn on_wait)
{
	struct stack_graph g = {0};
	struct campaign c = {0};
	struct github *gh = NULL;
	struct github_pr *prs = NULL;
	size_t *order = NULL, n = 0, k;
	int rc;

	memset(out, 0, sizeof(*out));
	if ((rc = campaign_load(&c, ctx)) < 0 ||
	    (rc = stack_graph_load(&g, ctx)) < 0)
		goto out;
	order = xcalloc(g.n + 1, sizeof(*order));
	prs = xcalloc(g.n + 1, sizeof(*prs));
	submit_order_all(order, &n, &g);
	out->v = xcalloc(n + 1, sizeof(*out->v));
	if (!n)
		goto out;
	if ((rc = submit_open_forge(&gh, ctx, &c)) < 0)
		goto out;
	github_on_wait(gh, on_wait);
	if ((rc = submit_fetch_prs(prs, ctx, gh, c.forge, &g, order, n)) < 0)
		goto out;
	for (k = 0; k < n; k++) {
		const struct github_pr *p = &prs[order[k]];
		struct remote_pr *e = &out->v[out->n++];

		e->branch = xstrdup(g.b[order[k]].name);
		if (!p->number)
			continue;
		e->number = p->number;
		e->state = submit_pr_state(p);
		/* the pr table follows what was read */
		if ((rc = submit_record_pr(ctx, e->branch, p)) < 0 ||
		    (!strcmp(p->state, "open") &&
		     (rc = read_one(e, ctx, gh, p)) < 0))
			goto out;
	}
out:
	if (gh)
		out->requests = github_request_count(gh);
	github_close(gh);
	for (k = 0; prs && k < g.n; k++)
		github_pr_release(&prs[k]);
	free(prs);
	free(order);
	stack_graph_release(&g);
	campaign_release(&c);
	return rc;
}
