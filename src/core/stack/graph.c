/* The stack graph from git config, its checks, new and adopt. */
#include "core/stack/graph.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/campaign/campaign.h"
#include "core/records/pr.h"
#include "core/stack/landed.h"
#include "core/stack/model.h"
#include "core/stack/renamed.h"
#include "io/gitlite.h"
#include "io/repo.h"
#include "util/buf.h"
#include "util/xalloc.h"

void stack_graph_release(struct stack_graph *g)
{
	size_t i;

	if (!g)
		return;
	for (i = 0; i < g->n; i++) {
		free(g->b[i].name);
		free(g->b[i].parent);
		free(g->b[i].parent_tip);
		free(g->b[i].pr_state);
		free(g->b[i].pr_url);
		free(g->b[i].renamed_to);
	}
	free(g->b);
	free(g->base);
	free(g->remote);
	free(g->current);
	memset(g, 0, sizeof(*g));
}

size_t stack_find(const struct stack_graph *g, const char *name)
{
	size_t i;

	for (i = 0; name && i < g->n; i++)
		if (!strcmp(g->b[i].name, name))
			return i;
	return STACK_NONE;
}

int stack_is_descendant(const struct stack_graph *g, size_t d, size_t i)
{
	size_t steps = 0;

	while (d != STACK_NONE && steps++ <= g->n) {
		if (d == i)
			return 1;
		d = g->b[d].parent_idx;
	}
	return 0;
}

static int cmp_branch(const void *a, const void *b)
{
	return strcmp(((const struct stack_branch *)a)->name,
		      ((const struct stack_branch *)b)->name);
}

/*
 * Walks first parents from tip looking for was, at most limit steps: 1
 * with *steps when found. Stacked branches are linear and short, so this
 * answers without the whole-history walk of a merge base (which, without a
 * commit-graph, can visit every commit of a large repository).
 */
static int first_parent_walk(size_t *steps, git_repository *repo,
			     const git_oid *tip, const git_oid *was,
			     size_t limit)
{
	git_commit *c = NULL;
	git_oid id = *tip;
	size_t n;

	for (n = 0; n <= limit; n++) {
		if (git_oid_equal(&id, was)) {
			*steps = n;
			return 1;
		}
		if (git_commit_lookup(&c, repo, &id) < 0 ||
		    git_commit_parentcount(c) == 0)
			break;
		id = *git_commit_parent_id(c, 0);
		git_commit_free(c);
		c = NULL;
	}
	git_commit_free(c);
	git_error_clear();
	return 0;
}

/* 1 when commit a is tip or one of its ancestors */
static int reaches(git_repository *repo, const git_oid *tip, const git_oid *a)
{
	int rc = git_oid_equal(tip, a) ||
		 git_graph_descendant_of(repo, tip, a) == 1;

	git_error_clear();
	return rc;
}

/*
 * The commit graph is the truth, the recorded tip a hint: the upstream is
 * the newer of the recorded parent tip (when the branch still holds it)
 * and the merge base with the parent's tip now. A branch rebased by hand
 * (`git rebase PARENT`, `git pull --rebase`, `git rebase --update-refs`)
 * holds the parent's tip, which is then its merge base: nothing of the
 * parent's is replayed again.
 */
int stack_upstream(git_oid *out, git_repository *repo, const char *recorded,
		   const git_oid *tip, const git_oid *parent_now,
		   struct error *err)
{
	git_oid was, mb;
	size_t steps, mb_steps;
	int rc, have_was;

	/* the usual case of a branch up to date: its parent's tip below.
	 * Only an ancestor can be on the first-parent line, and asking
	 * first spares the walk of 1000 commits for each branch that is
	 * behind (the ancestry walk stops at the merge base, near by) */
	if (reaches(repo, tip, parent_now) &&
	    first_parent_walk(&steps, repo, tip, parent_now, 1000)) {
		*out = *parent_now;
		return 0;
	}
	steps = (size_t)-1;
	have_was = recorded && git_oid_fromstr(&was, recorded) == 0 &&
		   reaches(repo, tip, &was);
	if (have_was)
		first_parent_walk(&steps, repo, tip, &was, 1000);
	git_error_clear();
	rc = git_merge_base(&mb, repo, tip, parent_now);
	if (rc < 0 && have_was) {
		git_error_clear();
		*out = was;
		return 0;
	}
	if (rc == GIT_ENOTFOUND)
		return error_set(err, GCAMP_ENOTFOUND,
				 "no common history with the parent");
	if (rc < 0)
		return error_git(err, rc, "cannot find a merge base");
	if (!have_was || git_oid_equal(&mb, &was)) {
		*out = mb;
		return 0;
	}
	/* on the branch's first-parent line, the one met first is newer */
	if (first_parent_walk(&mb_steps, repo, tip, &mb, 1000))
		*out = mb_steps < steps ? mb : was;
	else
		*out = git_graph_descendant_of(repo, &mb, &was) == 1 ? mb : was;
	git_error_clear();
	return 0;
}

/* Commits of upstream..tip. */
static size_t count_range(git_repository *repo, const git_oid *upstream,
			  const git_oid *tip)
{
	size_t ahead = 0, behind = 0;

	if (first_parent_walk(&ahead, repo, tip, upstream, 1000))
		return ahead;
	if (git_graph_ahead_behind(&ahead, &behind, repo, tip, upstream) < 0)
		git_error_clear();
	return ahead;
}

static void load_prs(struct stack_graph *g, struct ctx *ctx)
{
	struct pr_cached pr;
	struct db *db;
	size_t i;

	if (ctx_db(&db, ctx, 0) < 0) {
		error_clear(&ctx->err);
		return;
	}
	for (i = 0; i < g->n; i++) {
		if (pr_get(&pr, db_handle(db), g->b[i].name, &ctx->err) < 0) {
			error_clear(&ctx->err);
			continue;
		}
		g->b[i].pr_number = (int)pr.number;
		g->b[i].pr_state = xstrdup(pr.state);
		g->b[i].pr_url = pr.url[0] ? xstrdup(pr.url) : NULL;
	}
}

/* The graph's branches from the recorded relations, which it takes. */
static void take_relations(struct stack_graph *out, struct stack_model *m)
{
	size_t i;

	out->b = xcalloc(m->n + 1, sizeof(*out->b));
	for (i = 0; i < m->n; i++) {
		struct stack_branch *b = &out->b[out->n++];
		struct stack_rel *r = &m->rel[i];

		b->name = r->branch;
		b->parent = r->parent;
		b->parent_tip = r->parent_tip;
		r->branch = r->parent = r->parent_tip = NULL;
		b->parent_found =
			r->parent_now[0] &&
			git_oid_fromstr(&b->parent_oid, r->parent_now) == 0;
		b->needs_restack = b->parent_found && r->needs_restack;
	}
}

int stack_graph_load(struct stack_graph *out, struct ctx *ctx)
{
	struct stack_model m = STACK_MODEL_INIT;
	struct campaign c = {0};
	git_repository *repo;
	struct gitcfg *cfg;
	struct refs refs;
	char hex[REFS_HEX_SIZE];
	size_t i, k, steps;
	int rc;

	memset(out, 0, sizeof(*out));
	if ((rc = ctx_repo(&repo, ctx, 1)) < 0 ||
	    (rc = ctx_config(&cfg, ctx)) < 0 ||
	    (rc = campaign_load(&c, ctx)) < 0)
		goto out;
	out->base = c.base;
	out->remote = c.remote;
	c.base = c.remote = NULL;
	repo_refs(&refs, repo);
	if ((rc = refs_head_branch(&out->current, &refs, &ctx->err)) < 0)
		goto out;
	rc = gitcfg_foreach(cfg, "branch.", "", stack_model_add, &m, &ctx->err);
	if (rc < 0)
		goto out;
	stack_model_resolve(&m, &refs, out->remote);
	take_relations(out, &m);
	if (out->n > 1)
		qsort(out->b, out->n, sizeof(*out->b), cmp_branch);
	for (i = 0; i < out->n; i++) {
		struct stack_branch *b = &out->b[i];

		b->exists = refs_branch_tip(hex, &refs, NULL, b->name) == 0 &&
			    git_oid_fromstr(&b->tip, hex) == 0;
		if (!b->parent_found)
			stack_renamed_to(&b->renamed_to, repo, b->parent);
		b->parent_idx = stack_find(out, b->parent);
		if (b->exists && b->parent_found) {
			git_oid up;
			struct error e = ERROR_INIT;

			if (stack_upstream(&up, repo, b->parent_tip, &b->tip,
					   &b->parent_oid, &e) == 0)
				b->own = count_range(repo, &up, &b->tip);
			/* only a stack's root lands, in an unstacked parent */
			b->landed = b->needs_restack &&
				    stack_find(out, b->parent) == STACK_NONE &&
				    e.code == 0 &&
				    stack_landed(repo, b->parent_tip, &up,
						 &b->tip, &b->parent_oid);
		} else if (b->exists) {
			git_oid was;

			/* a deleted parent: its commits end where it was */
			if (b->parent_tip &&
			    git_oid_fromstr(&was, b->parent_tip) == 0 &&
			    git_graph_descendant_of(repo, &b->tip, &was) == 1)
				b->own = count_range(repo, &was, &b->tip);
			git_error_clear();
		}
	}
	/* a chain that comes back to itself within n steps is a cycle */
	for (i = 0; i < out->n; i++) {
		k = out->b[i].parent_idx;
		for (steps = 0; k != STACK_NONE && steps < out->n; steps++) {
			if (k == i) {
				out->b[i].in_cycle = 1;
				break;
			}
			k = out->b[k].parent_idx;
		}
	}
	load_prs(out, ctx);
	rc = 0;
out:
	stack_model_release(&m);
	campaign_release(&c);
	if (rc < 0)
		stack_graph_release(out);
	return rc;
}

int stack_check_head(char **out, git_repository *repo, const char *what,
		     struct error *err)
{
	struct refs refs;
	int rc;

	repo_refs(&refs, repo);
	if ((rc = refs_head_branch(out, &refs, err)) < 0)
		return rc;
	if (!*out) {
		error_set(err, GCAMP_EFATAL,
			  "HEAD is detached; %s needs a "
			  "checked-out branch",
			  what);
		error_hint(err, "check out a branch first");
		return GCAMP_EFATAL;
	}
	return 0;
}

int stack_record(struct ctx *ctx, const char *branch, const char *parent,
		 const char *tip)
{
	struct buf key = BUF_INIT;
	struct gitcfg *cfg;
	int rc;

	if ((rc = ctx_config(&cfg, ctx)) < 0)
		return rc;
	buf_addf(&key, "branch.%s.campaignParent", branch);
	if (parent)
		rc = gitcfg_set(cfg, key.ptr, parent, &ctx->err);
	else if ((rc = gitcfg_unset(cfg, key.ptr, &ctx->err)) ==
		 GCAMP_ENOTFOUND) {
		error_clear(&ctx->err);
		rc = 0;
	}
	if (rc < 0)
		goto out;
	buf_reset(&key);
	buf_addf(&key, "branch.%s.campaignParentTip", branch);
	if (tip)
		rc = gitcfg_set(cfg, key.ptr, tip, &ctx->err);
	else if ((rc = gitcfg_unset(cfg, key.ptr, &ctx->err)) ==
		 GCAMP_ENOTFOUND) {
		error_clear(&ctx->err);
		rc = 0;
	}
out:
	buf_release(&key);
	return rc;
}

static int check_name(struct ctx *ctx, const char *name)
{
	if (!gitlite_branch_name_valid(name))
		return error_set(&ctx->err, GCAMP_EUSAGE,
				 "'%s' is not a valid branch name", name);
	return 0;
}

/* Brings the work tree and index from HEAD to commit, refusing to
 * overwrite local changes (a no-op when HEAD is at commit). */
static int checkout_commit(struct ctx *ctx, git_repository *repo,
			   git_commit *commit)
{
	git_checkout_options co;
	git_oid head;
	int rc;

	if (git_reference_name_to_id(&head, repo, "HEAD") == 0 &&
	    git_oid_equal(&head, git_commit_id(commit)))
		return 0;
	git_error_clear();
	git_checkout_options_init(&co, GIT_CHECKOUT_OPTIONS_VERSION);
	co.checkout_strategy = GIT_CHECKOUT_SAFE;
	rc = git_checkout_tree(repo, (git_object *)commit, &co);
	if (rc < 0) {
		rc = error_git(&ctx->err, rc, "cannot check out the parent");
		error_hint(&ctx->err, "commit or stash your changes first");
	}
	return rc;
}

/* 1 when branch is name or stacked (through recorded parents) on it */
static int stacked_above(struct gitcfg *cfg, const char *branch,
			 const char *name)
{
	const char *p = branch;
	char *key;
	int steps;

	for (steps = 0; p && steps < 1000; steps++) {
		if (!strcmp(p, name))
			return 1;
		key = xasprintf("branch.%s.campaignParent", p);
		if (gitcfg_get(&p, cfg, key) < 0)
			p = NULL;
		free(key);
	}
	return 0;
}

/* stack new NAME where NAME exists: says so, and what is recorded; the
 * adopt hint only where it would record something new and valid */
static int exists_hint(struct ctx *ctx, const char *name, const char *parent)
{
	struct gitcfg *cfg;
	const char *recorded = NULL;
	char *key = xasprintf("branch.%s.campaignParent", name);
	int rc;

	if (ctx_config(&cfg, ctx) == 0 && gitcfg_get(&recorded, cfg, key) < 0)
		recorded = NULL;
	free(key);
	if (recorded)
		rc = error_set(&ctx->err, GCAMP_EEXISTS,
			       "'%s' already exists, stacked on '%s'", name,
			       recorded);
	else
		rc = error_set(&ctx->err, GCAMP_EEXISTS,
			       "a branch named '%s' already exists", name);
	if (recorded && strcmp(recorded, parent) &&
	    !stacked_above(cfg, parent, name))
		error_hint(&ctx->err,
			   "re-parent it with 'git campaign stack move %s "
			   "--onto %s'",
			   name, parent);
	else if (!recorded && strcmp(name, parent))
		error_hint(&ctx->err,
			   "record it with 'git campaign stack adopt %s --on "
			   "%s'",
			   name, parent);
	return rc;
}

int stack_new(struct ctx *ctx, const char *name, const char *parent)
{
	struct campaign c = {0};
	git_repository *repo;
	git_reference *ref = NULL;
	git_commit *commit = NULL;
	char *cur = NULL, hex[GIT_OID_HEXSZ + 1], found[REFS_HEX_SIZE];
	struct buf msg = BUF_INIT;
	struct refs refs;
	git_oid tip;
	int rc;

	if ((rc = ctx_repo(&repo, ctx, 1)) < 0 ||
	    (rc = campaign_load(&c, ctx)) < 0 ||
	    (rc = check_name(ctx, name)) < 0 ||
	    (rc = repo_check_state(repo, &ctx->err)) < 0)
		goto out;
	if (!parent) {
		if ((rc = stack_check_head(&cur, repo,
					   "'stack new' without "
					   "--on",
					   &ctx->err)) < 0)
			goto out;
		parent = cur;
	}
	repo_refs(&refs, repo);
	if (refs_branch_tip(found, &refs, c.remote, parent) < 0 ||
	    git_oid_fromstr(&tip, found) < 0) {
		rc = error_set(&ctx->err, GCAMP_ENOTFOUND,
			       "no branch named '%s'", parent);
		goto out;
	}
	if (refs_branch_tip(found, &refs, NULL, name) == 0) {
		rc = exists_hint(ctx, name, parent);
		goto out;
	}
	if ((rc = git_commit_lookup(&commit, repo, &tip)) < 0) {
		rc = error_git(&ctx->err, rc, "cannot read '%s'", parent);
		goto out;
	}
	if ((rc = checkout_commit(ctx, repo, commit)) < 0)
		goto out;
	buf_addf(&msg, "campaign: stack new %s on %s", name, parent);
	if ((rc = git_branch_create(&ref, repo, name, commit, 0)) < 0) {
		rc = error_git(&ctx->err, rc, "cannot create branch '%s'",
			       name);
		goto out;
	}
	git_oid_tostr(hex, sizeof(hex), &tip);
	if ((rc = stack_record(ctx, name, parent, hex)) < 0)
		goto out;
	/* same commit: moving HEAD keeps the index and work tree as they
	 * are, like `git checkout -b` */
	if ((rc = git_repository_set_head(repo, git_reference_name(ref))) < 0) {
		rc = error_git(&ctx->err, rc, "cannot check out '%s'", name);
		goto out;
	}
out:
	git_reference_free(ref);
	git_commit_free(commit);
	campaign_release(&c);
	buf_release(&msg);
	free(cur);
	return rc;
}

/* At most this many entries of a parent's reflog are looked at. */
#define FORK_POINT_CAP 100

/*
 * Where branch (tip) was forked from parent, as `git merge-base
 * --fork-point` finds it: the newest of parent's old tips, in its
 * reflog, that tip holds, in hex ("" when none): a parent amended or
 * rebased after the fork has its old commits below tip, and they are not
 * tip's own.
 */
static void fork_point(char hex[GIT_OID_HEXSZ + 1], git_repository *repo,
		       const char *parent, const git_oid *tip)
{
	git_reflog *log = NULL;
	char *ref = xasprintf("refs/heads/%s", parent);
	size_t i, n;

	hex[0] = 0;
	if (git_reflog_read(&log, repo, ref) == 0) {
		n = git_reflog_entrycount(log);
		for (i = 0; i < n && i < FORK_POINT_CAP && !hex[0]; i++) {
			const git_reflog_entry *e =
				git_reflog_entry_byindex(log, i);
			const git_oid *was = git_reflog_entry_id_new(e);

			if (git_oid_equal(was, tip) ||
			    git_graph_descendant_of(repo, tip, was) == 1)
				git_oid_tostr(hex, GIT_OID_HEXSZ + 1, was);
		}
	}
	git_error_clear();
	git_reflog_free(log);
	free(ref);
}

int stack_adopt(struct ctx *ctx, const char *branch, const char *parent)
{
	struct stack_graph g = {0};
	git_repository *repo;
	git_oid tip, ptip, base;
	char hex[GIT_OID_HEXSZ + 1];
	struct refs refs;
	size_t i, p;
	int rc;

	if ((rc = ctx_repo(&repo, ctx, 1)) < 0 ||
	    (rc = stack_graph_load(&g, ctx)) < 0)
		return rc;
	repo_refs(&refs, repo);
	if (refs_branch_tip(hex, &refs, NULL, branch) < 0 ||
	    git_oid_fromstr(&tip, hex) < 0) {
		rc = error_set(&ctx->err, GCAMP_ENOTFOUND,
			       "no branch named '%s'", branch);
		goto out;
	}
	if (refs_branch_tip(hex, &refs, g.remote, parent) < 0 ||
	    git_oid_fromstr(&ptip, hex) < 0) {
		rc = error_set(&ctx->err, GCAMP_ENOTFOUND,
			       "no branch named '%s'", parent);
		goto out;
	}
	if (!strcmp(branch, parent) || !strcmp(branch, g.base)) {
		rc = error_set(&ctx->err, GCAMP_EUSAGE,
			       "cannot stack '%s' on '%s'", branch, parent);
		goto out;
	}
	/* parent must not be branch or below it */
	i = stack_find(&g, branch);
	p = stack_find(&g, parent);
	if (i != STACK_NONE && p != STACK_NONE &&
	    stack_is_descendant(&g, p, i)) {
		rc = error_set(&ctx->err, GCAMP_EUSAGE,
			       "'%s' is stacked on '%s': that would be a cycle",
			       parent, branch);
		goto out;
	}
	fork_point(hex, repo, parent, &tip);
	rc = stack_upstream(&base, repo, hex[0] ? hex : NULL, &tip, &ptip,
			    &ctx->err);
	if (rc < 0) {
		error_clear(&ctx->err);
		rc = error_set(&ctx->err, GCAMP_EFATAL,
			       "'%s' and '%s' have no common history", branch,
			       parent);
		git_error_clear();
		goto out;
	}
	git_oid_tostr(hex, sizeof(hex), &base);
	rc = stack_record(ctx, branch, parent, hex);
out:
	stack_graph_release(&g);
	return rc;
}
