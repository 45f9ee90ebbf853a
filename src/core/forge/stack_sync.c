/* stack sync: the PR cache refreshed from GitHub, the children of merged
 * parents retargeted on GitHub and re-parented in the repository. */
#include "core/forge/stack_sync.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/campaign/campaign.h"
#include "core/forge/submit.h"
#include "core/stack/graph.h"
#include "core/stack/undo.h"
#include "io/github/api.h"
#include "io/github/client.h"
#include "io/gitcfg.h"
#include "io/proc.h"
#include "util/trace.h"
#include "util/xalloc.h"

void stack_sync_result_release(struct stack_sync_result *r)
{
	if (!r)
		return;
	strvec_clear(&r->lines);
	restack_result_release(&r->r);
	memset(r, 0, sizeof(*r));
}

/* 1 when s is one of v's strings */
static int listed(const struct strvec *v, const char *s)
{
	size_t i;

	for (i = 0; s && i < v->nr; i++)
		if (!strcmp(v->v[i], s))
			return 1;
	return 0;
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

/* retargets i's open PR, based on parent branch b->parent, which has
 * landed in its own parent (told offline: no merged PR says so) */
static int retarget_landed(struct stack_sync_result *out, struct ctx *ctx,
			   struct github *gh, const struct stack_branch *b,
			   struct github_pr *p, const char *onto)
{
	struct github_pr after = {0};
	int rc;

	if (p->stacked || (p->base && strcmp(p->base, b->parent)))
		return 0;
	if ((rc = github_pr_update(&after, gh, p->number, NULL, NULL, onto,
				   &ctx->err)) < 0)
		return rc;
	strvec_pushf(&out->lines,
		     "retargeted #%ld %s onto %s (%s landed in %s)", p->number,
		     b->name, onto, b->parent, onto);
	rc = submit_record_pr(ctx, b->name, &after);
	github_pr_release(p);
	*p = after;
	return rc;
}

/* runs git with args; a failure is "cannot WHAT: <git's last line>" */
static int run_git(struct ctx *ctx, const char *const *args, const char *what)
{
	struct proc_result res = PROC_RESULT_INIT;
	struct buf last = BUF_INIT;
	int rc;

	trace_printf("sync: run git %s", args[0]);
	if ((rc = proc_git(&res, args, NULL, &ctx->err)) == 0 && res.status) {
		proc_last_line(&last, res.err.ptr);
		rc = error_set(&ctx->err, GCAMP_EFATAL, "cannot %s: %s", what,
			       last.ptr);
	}
	proc_result_release(&res);
	buf_release(&last);
	return rc;
}

/*
 * The merged PR's base, as the remote has it now, before the restack
 * replays anything onto it (a squash merge is on the remote only): fetches
 * it, fast-forwards the local branch when that is behind and not checked
 * out; a local base that is checked out and behind, or that has diverged,
 * is refused, since the restack would replay onto a base without the merge.
 * Runs before any write to GitHub.
 */
static int sync_base(struct stack_sync_result *out, struct ctx *ctx,
		     const struct stack_graph *g, const char *base)
{
	char *spec = xasprintf("+refs/heads/%s:refs/remotes/%s/%s", base,
			       g->remote, base);
	char *what = xasprintf("fetch '%s' from '%s'", base, g->remote);
	char *local = xasprintf("refs/heads/%s", base);
	char *tracking = xasprintf("refs/remotes/%s/%s", g->remote, base);
	char lhex[GIT_OID_HEXSZ + 1], rhex[GIT_OID_HEXSZ + 1];
	const char *fetch[] = {"fetch", "--quiet", g->remote, spec, NULL};
	const char *ff[] = {"update-ref",
			    "-m",
			    "campaign stack sync: "
			    "fast-forward to the remote",
			    local,
			    rhex,
			    lhex,
			    NULL};
	git_repository *repo;
	git_oid l, r;
	int rc;

	if ((rc = run_git(ctx, fetch, what)) < 0 ||
	    (rc = ctx_repo(&repo, ctx, 0)) < 0)
		goto out;
	if (git_reference_name_to_id(&l, repo, local) < 0 ||
	    git_reference_name_to_id(&r, repo, tracking) < 0 ||
	    git_oid_equal(&l, &r) || git_graph_descendant_of(repo, &l, &r) == 1)
		goto out;
	git_oid_tostr(lhex, sizeof(lhex), &l);
	git_oid_tostr(rhex, sizeof(rhex), &r);
	if (git_graph_descendant_of(repo, &r, &l) != 1) {
		rc = error_set(&ctx->err, GCAMP_EREFUSED,
			       "'%s' has diverged from '%s/%s': pull it first",
			       base, g->remote, base);
		error_hint(&ctx->err,
			   "merge or rebase '%s' onto '%s/%s', then run 'git "
			   "campaign stack sync' again",
			   base, g->remote, base);
		goto out;
	}
	if (g->current && !strcmp(g->current, base)) {
		rc = error_set(&ctx->err, GCAMP_EREFUSED,
			       "'%s' is behind '%s/%s': pull it first", base,
			       g->remote, base);
		error_hint(&ctx->err,
			   "run 'git pull --ff-only %s %s', then 'git "
			   "campaign stack sync' again",
			   g->remote, base);
		goto out;
	}
	if ((rc = run_git(ctx, ff, "fast-forward the base")) < 0)
		goto out;
	strvec_pushf(&out->lines, "fast-forwarded %s to %s/%s (%.7s)", base,
		     g->remote, base, rhex);
out:
	free(spec);
	free(what);
	free(local);
	free(tracking);
	return rc;
}

/* the bases of the merged PRs that children are moved onto, or that are
 * taken out of the stack, each once: fetched and brought up to date (the
 * campaign's base is, first, when its remote tracks it) */
static int sync_bases(struct stack_sync_result *out, struct ctx *ctx,
		      const struct stack_graph *g, const struct github_pr *prs)
{
	struct strvec done = STRVEC_INIT;
	git_repository *repo;
	git_oid id;
	char *tracking;
	size_t i;
	int rc = 0;

	if (g->remote && g->base && (rc = ctx_repo(&repo, ctx, 0)) < 0)
		return rc;
	if (g->remote && g->base) {
		tracking = xasprintf("refs/remotes/%s/%s", g->remote, g->base);
		if (git_reference_name_to_id(&id, repo, tracking) == 0) {
			strvec_push(&done, g->base);
			rc = sync_base(out, ctx, g, g->base);
		}
		git_error_clear();
		free(tracking);
	}

	for (i = 0; i < g->n && !rc; i++) {
		const struct stack_branch *b = &g->b[i];

		if (!prs[i].number || !prs[i].merged ||
		    b->parent_idx != STACK_NONE || listed(&done, b->parent))
			continue;
		strvec_push(&done, b->parent);
		rc = sync_base(out, ctx, g, b->parent);
	}
	strvec_clear(&done);
	return rc;
}

/* The children of merged branch i inherit its merged ancestors and it, so
 * that their PRs keep listing them (submit_landed_key) */
static int hand_down(struct ctx *ctx, const struct stack_graph *g, size_t i)
{
	struct strvec mine = STRVEC_INIT;
	char *key = submit_landed_key(g->b[i].name), *ckey;
	struct gitcfg *cfg;
	size_t k, j;
	int rc;

	if ((rc = ctx_config(&cfg, ctx)) < 0 ||
	    (rc = gitcfg_get_all(&mine, cfg, key, &ctx->err)) < 0)
		goto out;
	strvec_push(&mine, g->b[i].name);
	for (k = 0; k < g->n && !rc; k++) {
		if (g->b[k].parent_idx != i)
			continue;
		ckey = submit_landed_key(g->b[k].name);
		for (j = 0; j < mine.nr && !rc; j++)
			rc = gitcfg_ensure(cfg, ckey, mine.v[j], &ctx->err);
		free(ckey);
	}
out:
	strvec_clear(&mine);
	free(key);
	return rc;
}

/* Takes every merged branch whose children all left it out of the stack
 * (stack delete, which keeps a backup; the branch itself stays), so that
 * restack and submit --all pass it by; 1 in *any when one was */
static int unstack_merged(struct stack_sync_result *out, struct ctx *ctx,
			  const struct stack_graph *g,
			  const struct github_pr *prs,
			  const struct strvec *moved, int *any)
{
	size_t i, k;
	int rc = 0;

	for (i = 0; i < g->n && !rc; i++) {
		struct restack_result r = {0};
		int kept = 0;

		if (!prs[i].number || !prs[i].merged || g->b[i].in_cycle)
			continue;
		for (k = 0; k < g->n; k++)
			if (g->b[k].parent_idx == i &&
			    !listed(moved, g->b[k].name))
				kept = 1;
		if (kept)
			continue;
		if ((rc = hand_down(ctx, g, i)) < 0)
			break;
		if ((rc = stack_delete(&r, ctx, g->b[i].name, 0)) == 0) {
			strvec_pushf(&out->lines,
				     "%s: #%ld merged, out of the stack (the "
				     "branch stays: 'git branch -D %s' "
				     "deletes it)",
				     g->b[i].name, prs[i].number, g->b[i].name);
			*any = 1;
		}
		restack_result_release(&r);
	}
	return rc;
}

/* A landed branch that no merged PR took out of the stack, with nothing
 * left on it: the command that takes it out, offered, not run (only its
 * trees and patch ids say it landed) */
static void offer_landed(struct stack_sync_result *out,
			 const struct stack_graph *g,
			 const struct github_pr *prs,
			 const struct strvec *moved)
{
	size_t i, k;

	for (i = 0; i < g->n; i++) {
		int kept = 0;

		if (!g->b[i].landed || (prs[i].number && prs[i].merged))
			continue;
		for (k = 0; k < g->n; k++)
			if (g->b[k].parent_idx == i &&
			    !listed(moved, g->b[k].name))
				kept = 1;
		if (!kept)
			strvec_pushf(&out->lines,
				     "%s has landed in %s: 'git campaign stack "
				     "delete %s --branch' deletes it",
				     g->b[i].name, g->b[i].parent,
				     g->b[i].name);
	}
}

int stack_sync(struct stack_sync_result *out, struct ctx *ctx,
	       github_wait_fn on_wait)
{
	struct stack_graph g = {0};
	struct campaign c = {0};
	struct github *gh = NULL;
	struct github_pr *prs = NULL;
	struct strvec moves = STRVEC_INIT, onto = STRVEC_INIT;
	size_t *order = NULL, n = 0, k, i;
	int rc, unstacked = 0;

	memset(out, 0, sizeof(*out));
	if ((rc = campaign_load(&c, ctx)) < 0 ||
	    (rc = stack_graph_load(&g, ctx)) < 0)
		goto out;
	order = xcalloc(g.n + 1, sizeof(*order));
	prs = xcalloc(g.n + 1, sizeof(*prs));
	submit_order_all(order, &n, &g);
	if ((rc = submit_open_forge(&gh, ctx, &c)) < 0)
		goto out;
	github_on_wait(gh, on_wait);
	if ((rc = submit_fetch_prs(prs, ctx, gh, c.forge, &g, order, n)) < 0)
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
	/* the base as the remote has it, before any write: a restack onto a
	 * stale one would stop at conflicts GitHub does not have */
	if ((rc = sync_bases(out, ctx, &g, prs)) < 0)
		goto out;
	/* then which parents have landed in it, told offline (the graph
	 * loaded again: the base may have moved) */
	stack_graph_release(&g);
	if ((rc = stack_graph_load(&g, ctx)) < 0)
		goto out;
	/* retarget every child of a merged parent before anything deletes
	 * the parent's branch (GitHub closes the PRs based on it) */
	for (k = 0; k < n; k++) {
		const struct stack_branch *b = &g.b[order[k]];
		size_t p = b->parent_idx;

		if (p != STACK_NONE && g.b[p].landed &&
		    !(prs[p].number && prs[p].merged)) {
			/* landed without a merged PR to say so: moved all
			 * the same, its PR retargeted first */
			if (prs[order[k]].number &&
			    !strcmp(prs[order[k]].state, "open") &&
			    (rc = retarget_landed(out, ctx, gh, b,
						  &prs[order[k]],
						  g.b[p].parent)) < 0)
				goto out;
			strvec_push(&moves, b->name);
			strvec_push(&onto, g.b[p].parent);
			continue;
		}
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
	if ((rc = unstack_merged(out, ctx, &g, prs, &moves, &unstacked)) < 0)
		goto out;
	offer_landed(out, &g, prs, &moves);
	if (moves.nr || unstacked)
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
