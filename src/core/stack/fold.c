/* stack fold and stack split: refs and records moved as one journaled
 * operation, no commit rewritten. */
#include "core/stack/fold.h"

#include <stdlib.h>
#include <string.h>

#include <git2.h>

#include "core/stack/graph.h"
#include "core/stack/op.h"
#include "core/stack/renamed.h"
#include "core/stack/replay.h"
#include "io/gitlite.h"
#include "io/repo.h"
#include "util/json.h"
#include "util/xalloc.h"

/* {"ref", "branch", "old", "new"}: a NULL id for a side where the ref
 * does not exist */
static void add_ref(cJSON *refs, const char *branch, const git_oid *old,
		    const git_oid *new_id)
{
	cJSON *e = cJSON_CreateObject();
	char *ref = xasprintf("refs/heads/%s", branch);

	cJSON_AddStringToObject(e, "ref", ref);
	cJSON_AddStringToObject(e, "branch", branch);
	if (old)
		cJSON_AddItemToObject(e, "old", repo_oid_json(old));
	else
		cJSON_AddNullToObject(e, "old");
	if (new_id)
		cJSON_AddItemToObject(e, "new", repo_oid_json(new_id));
	else
		cJSON_AddNullToObject(e, "new");
	cJSON_AddItemToArray(refs, e);
	free(ref);
}

/* The checks both verbs make first: op->head (NULL when detached) and
 * its tip, the graph in g, the branch's index in *i */
static int prepare(struct stack_op *op, struct stack_graph *g, size_t *i,
		   struct ctx *ctx, const char **branch, const char *what)
{
	git_repository *repo;
	struct refs refs;
	char hex[REFS_HEX_SIZE];
	int rc;

	if ((rc = ctx_repo(&repo, ctx, 1)) < 0 ||
	    (rc = repo_check_state(repo, &ctx->err)) < 0 ||
	    (rc = stack_op_none_pending(ctx)) < 0)
		return rc;
	repo_refs(&refs, repo);
	if ((rc = refs_head_branch(&op->head, &refs, &ctx->err)) < 0)
		return rc;
	if (!*branch && !op->head)
		return error_set(&ctx->err, GCAMP_EFATAL,
				 "HEAD is detached; name the branch to %s",
				 what);
	*branch = *branch ? *branch : op->head;
	if (op->head && (refs_branch_tip(hex, &refs, NULL, op->head) < 0 ||
			 git_oid_fromstr(&op->head_old, hex) < 0)) {
		free(op->head);
		op->head = NULL;
	}
	if ((rc = stack_graph_load(g, ctx)) < 0)
		return rc;
	if ((*i = stack_find(g, *branch)) == STACK_NONE)
		return error_set(&ctx->err, GCAMP_EFATAL, "'%s' is not stacked",
				 *branch);
	if (!g->b[*i].exists)
		return error_set(&ctx->err, GCAMP_ENOTFOUND,
				 "no branch named '%s'", *branch);
	if (!g->b[*i].parent_found || g->b[*i].needs_restack) {
		rc = error_set(&ctx->err, GCAMP_EFATAL, "'%s' %s", *branch,
			       g->b[*i].parent_found ? "needs a restack"
						     : "has lost its parent");
		error_hint(&ctx->err, "restack it first ('git campaign stack "
				      "restack')");
		return rc;
	}
	return 0;
}

/* Refuses a branch checked out in another work tree, or checked out here
 * over local changes when its tip moves */
static int check_movable(struct ctx *ctx, const struct stack_op *op,
			 const char *branch)
{
	git_repository *repo;
	char *wt = NULL, *paths = NULL;
	int rc;

	if ((rc = ctx_repo(&repo, ctx, 1)) < 0)
		return rc;
	repo_branch_elsewhere(&wt, repo, branch);
	if (wt) {
		rc = error_set(&ctx->err, GCAMP_EFATAL,
			       "'%s' is checked out in another work tree (%s)",
			       branch, wt);
		free(wt);
		return rc;
	}
	if (!op->head || strcmp(op->head, branch))
		return 0;
	if ((rc = repo_worktree_dirty(repo, &paths, &ctx->err)) > 0) {
		error_set(&ctx->err, GCAMP_EFATAL,
			  "the work tree of '%s' has changes (%s)", branch,
			  paths);
		error_hint(&ctx->err, "commit or stash them first");
		rc = GCAMP_EFATAL;
	}
	free(paths);
	return rc;
}

int stack_fold(struct restack_result *out, struct ctx *ctx, const char *branch)
{
	struct stack_op *op = xcalloc(1, sizeof(*op));
	struct stack_graph g = {0};
	const struct stack_branch *b;
	git_repository *repo;
	cJSON *refs, *cfg, *h;
	char *summary = NULL, hex[GIT_OID_HEXSZ + 1];
	size_t i, k;
	int rc;

	memset(out, 0, sizeof(*out));
	if ((rc = prepare(op, &g, &i, ctx, &branch, "fold")) < 0 ||
	    (rc = ctx_repo(&repo, ctx, 1)) < 0)
		goto out;
	b = &g.b[i];
	if (!strcmp(b->parent, g.base)) {
		rc = error_set(&ctx->err, GCAMP_EFATAL,
			       "'%s' is stacked on the base '%s': folding it "
			       "there is a merge, not done here",
			       branch, g.base);
		goto out;
	}
	if (!stack_branch_exists(repo, b->parent)) {
		rc = error_set(&ctx->err, GCAMP_EFATAL,
			       "the parent '%s' of '%s' is not a local branch",
			       b->parent, branch);
		goto out;
	}
	if ((rc = check_movable(ctx, op, b->parent)) < 0 ||
	    (rc = check_movable(ctx, op, branch)) < 0)
		goto out;
	op->kind = xstrdup("stack-fold");
	op->fixed = cJSON_CreateObject();
	refs = cJSON_AddArrayToObject(op->fixed, "refs");
	cfg = cJSON_AddArrayToObject(op->fixed, "cfg");
	add_ref(refs, b->parent, &b->parent_oid, &b->tip);
	add_ref(refs, branch, &b->tip, NULL);
	cJSON_AddItemToArray(cfg,
			     stack_op_record_json(branch, b->parent,
						  b->parent_tip, NULL, NULL));
	git_oid_tostr(hex, sizeof(hex), &b->tip);
	strvec_push_owned(&out->notes,
			  xasprintf("folded %s into %s (now at %.7s)", branch,
				    b->parent, hex));
	for (k = 0; k < g.n; k++)
		if (g.b[k].parent_idx == i) {
			cJSON_AddItemToArray(
				cfg, stack_op_record_json(g.b[k].name, branch,
							  g.b[k].parent_tip,
							  b->parent,
							  g.b[k].parent_tip));
			strvec_push_owned(&out->notes,
					  xasprintf("%s is stacked on %s",
						    g.b[k].name, b->parent));
		}
	if (op->head && !strcmp(op->head, branch)) {
		h = cJSON_AddObjectToObject(op->fixed, "head");
		cJSON_AddStringToObject(h, "old", branch);
		cJSON_AddStringToObject(h, "new", b->parent);
	}
	summary = xasprintf("fold %s into %s", branch, b->parent);
	rc = stack_op_run_fixed(op, ctx, out, summary);
out:
	stack_graph_release(&g);
	free(summary);
	stack_op_free(op);
	return rc;
}

/* 1 when at is one of the commits upstream..tip, not tip itself */
static int own_commit(git_repository *repo, const git_oid *at,
		      const git_oid *upstream, const git_oid *tip)
{
	if (git_oid_equal(at, tip) || git_oid_equal(at, upstream))
		return 0;
	return git_graph_descendant_of(repo, tip, at) == 1 &&
	       git_graph_descendant_of(repo, at, upstream) == 1;
}

int stack_split(struct restack_result *out, struct ctx *ctx, const char *branch,
		const char *at, const char *new_name)
{
	struct stack_op *op = xcalloc(1, sizeof(*op));
	struct stack_graph g = {0};
	const struct stack_branch *b;
	git_repository *repo;
	git_object *named = NULL, *obj = NULL;
	git_oid at_id, up;
	cJSON *refs, *cfg;
	char *summary = NULL, hex[GIT_OID_HEXSZ + 1];
	size_t i;
	int rc;

	memset(out, 0, sizeof(*out));
	if ((rc = prepare(op, &g, &i, ctx, &branch, "split")) < 0 ||
	    (rc = ctx_repo(&repo, ctx, 1)) < 0)
		goto out;
	b = &g.b[i];
	if (!gitlite_branch_name_valid(new_name)) {
		rc = error_set(&ctx->err, GCAMP_EUSAGE,
			       "'%s' is not a valid branch name", new_name);
		goto out;
	}
	if (stack_branch_exists(repo, new_name)) {
		rc = error_set(&ctx->err, GCAMP_EEXISTS,
			       "a branch named '%s' already exists", new_name);
		goto out;
	}
	if (git_revparse_single(&named, repo, at) < 0 ||
	    git_object_peel(&obj, named, GIT_OBJECT_COMMIT) < 0) {
		git_error_clear();
		rc = error_set(&ctx->err, GCAMP_ENOTFOUND,
			       "no commit named '%s'", at);
		goto out;
	}
	git_oid_cpy(&at_id, git_object_id(obj));
	if ((rc = stack_upstream(&up, repo, b->parent_tip, &b->tip,
				 &b->parent_oid, &ctx->err)) < 0)
		goto out;
	if (!own_commit(repo, &at_id, &up, &b->tip)) {
		git_error_clear();
		rc = error_set(&ctx->err, GCAMP_EFATAL,
			       "'%s' is not one of the commits of '%s' below "
			       "its tip",
			       at, branch);
		error_hint(&ctx->err, "list them with 'git log %s..%s'",
			   b->parent, branch);
		goto out;
	}
	op->kind = xstrdup("stack-split");
	op->fixed = cJSON_CreateObject();
	refs = cJSON_AddArrayToObject(op->fixed, "refs");
	cfg = cJSON_AddArrayToObject(op->fixed, "cfg");
	add_ref(refs, new_name, NULL, &at_id);
	git_oid_tostr(hex, sizeof(hex), &at_id);
	cJSON_AddItemToArray(cfg,
			     stack_op_record_json(new_name, NULL, NULL,
						  b->parent, b->parent_tip));
	cJSON_AddItemToArray(cfg, stack_op_record_json(branch, b->parent,
						       b->parent_tip, new_name,
						       hex));
	strvec_push_owned(&out->notes,
			  xasprintf("split %s at %.7s: %s on %s, %s on %s",
				    branch, hex, new_name, b->parent, branch,
				    new_name));
	summary = xasprintf("split %s at %.7s into %s", branch, hex, new_name);
	rc = stack_op_run_fixed(op, ctx, out, summary);
out:
	git_object_free(obj);
	git_object_free(named);
	stack_graph_release(&g);
	free(summary);
	stack_op_free(op);
	return rc;
}
