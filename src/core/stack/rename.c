/* stack rename, and a `git branch -m` of a stacked branch found through
 * the reflog. */
#include "core/stack/rename.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/stack/graph.h"
#include "core/stack/renamed.h"
#include "core/stack/op.h"
#include "core/stack/replay.h"
#include "io/gitlite.h"
#include "io/repo.h"
#include "util/json.h"
#include "util/xalloc.h"

/* old and new_name checked; *follow when only the children follow */
static int check_names(int *follow, struct ctx *ctx, git_repository *repo,
		       const struct stack_graph *g, const char *old,
		       const char *new_name)
{
	int has_old = stack_branch_exists(repo, old);
	int has_new = stack_branch_exists(repo, new_name);
	char *wt = NULL;
	size_t i;
	int stacked = stack_find(g, old) != STACK_NONE;

	for (i = 0; i < g->n && !stacked; i++)
		stacked = !strcmp(g->b[i].parent, old);
	*follow = !has_old && has_new;
	if (!gitlite_branch_name_valid(new_name))
		return error_set(&ctx->err, GCAMP_EUSAGE,
				 "'%s' is not a valid branch name", new_name);
	if (!strcmp(old, g->base) || !strcmp(new_name, g->base))
		return error_set(&ctx->err, GCAMP_EFATAL,
				 "'%s' is the campaign's base branch", g->base);
	if (!stacked)
		return error_set(&ctx->err, GCAMP_EFATAL, "'%s' is in no stack",
				 old);
	if (has_old && has_new)
		return error_set(&ctx->err, GCAMP_EEXISTS,
				 "a branch named '%s' already exists",
				 new_name);
	if (!has_old && !has_new)
		return error_set(&ctx->err, GCAMP_ENOTFOUND,
				 "no branch named '%s' or '%s'", old, new_name);
	if (*follow && stack_find(g, old) != STACK_NONE)
		return error_set(&ctx->err, GCAMP_EFATAL,
				 "'%s' is gone but still recorded; '%s' is "
				 "not its rename",
				 old, new_name);
	repo_branch_elsewhere(&wt, repo, has_old ? old : new_name);
	if (wt && !*follow) {
		int rc = error_set(&ctx->err, GCAMP_EFATAL,
				   "'%s' is checked out in another work tree "
				   "(%s)",
				   old, wt);

		error_hint(&ctx->err, "rename it from there");
		free(wt);
		return rc;
	}
	free(wt);
	return 0;
}

int stack_rename(struct restack_result *out, struct ctx *ctx, const char *old,
		 const char *new_name)
{
	struct stack_op *op = xcalloc(1, sizeof(*op));
	struct stack_graph g = {0};
	git_repository *repo;
	struct refs refs;
	char hex[REFS_HEX_SIZE], *summary = NULL;
	cJSON *cfg, *r;
	size_t k;
	int rc, follow = 0, loaded = 0;

	memset(out, 0, sizeof(*out));
	if ((rc = ctx_repo(&repo, ctx, 1)) < 0 ||
	    (rc = repo_check_state(repo, &ctx->err)) < 0 ||
	    (rc = stack_op_none_pending(ctx)) < 0)
		goto out;
	repo_refs(&refs, repo);
	if ((rc = refs_head_branch(&op->head, &refs, &ctx->err)) < 0)
		goto out;
	if (!old && !op->head) {
		rc = error_set(&ctx->err, GCAMP_EFATAL,
			       "HEAD is detached; name the branch to rename");
		goto out;
	}
	old = old ? old : op->head;
	if (op->head && (refs_branch_tip(hex, &refs, NULL, op->head) < 0 ||
			 git_oid_fromstr(&op->head_old, hex) < 0)) {
		free(op->head); /* unborn: nothing to put back */
		op->head = NULL;
	}
	if ((rc = stack_graph_load(&g, ctx)) < 0)
		goto out;
	loaded = 1;
	if ((rc = check_names(&follow, ctx, repo, &g, old, new_name)) < 0)
		goto out;
	op->kind = xstrdup("stack-rename");
	op->fixed = cJSON_CreateObject();
	cJSON_AddArrayToObject(op->fixed, "refs");
	cfg = cJSON_AddArrayToObject(op->fixed, "cfg");
	strvec_push_owned(&out->notes,
			  xasprintf(follow ? "followed the rename of %s to %s"
					   : "renamed %s to %s",
				    old, new_name));
	if (!follow) {
		r = cJSON_AddObjectToObject(op->fixed, "rename");
		cJSON_AddStringToObject(r, "old", old);
		cJSON_AddStringToObject(r, "new", new_name);
	}
	for (k = 0; k < g.n; k++)
		if (!strcmp(g.b[k].parent, old)) {
			cJSON_AddItemToArray(
				cfg, stack_op_record_json(g.b[k].name, old,
							  g.b[k].parent_tip,
							  new_name,
							  g.b[k].parent_tip));
			strvec_push_owned(&out->notes,
					  xasprintf("%s is stacked on %s",
						    g.b[k].name, new_name));
		}
	summary = xasprintf("rename %s %s", old, new_name);
	rc = stack_op_run_fixed(op, ctx, out, summary);
out:
	if (loaded)
		stack_graph_release(&g);
	free(summary);
	stack_op_free(op);
	return rc;
}
