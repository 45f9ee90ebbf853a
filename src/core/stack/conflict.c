/* The stack operation stopped at a conflict, read from its journal and
 * this work tree's index, for status. */
#include "core/stack/conflict.h"

#include <stdlib.h>
#include <string.h>

#include <git2.h>

#include "core/stack/op.h"
#include "core/stack/replay.h"
#include "util/xalloc.h"

void stack_conflict_release(struct stack_conflict *c)
{
	if (!c)
		return;
	free(c->kind);
	free(c->branch);
	free(c->commit);
	strvec_clear(&c->paths);
	memset(c, 0, sizeof(*c));
}

int stack_conflict_find(struct stack_conflict *out, struct ctx *ctx,
			const struct journal_op *ops, size_t n)
{
	struct stack_op *op = NULL;
	git_repository *repo;
	git_index *idx = NULL;
	char *wt = NULL;
	size_t i;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < n && !op; i++) {
		/* killed before its plan, or a journal that cannot be read:
		 * nothing to say here (continue and abort say the rest) */
		if (!stack_op_kind_is_stack(ops[i].kind) || !ops[i].last_step)
			continue;
		if (stack_op_load(&op, ctx, ops[i].id) < 0) {
			error_clear(&ctx->err);
			op = NULL;
			continue;
		}
		if (!op->conflict || op->ci >= op->n) {
			stack_op_free(op);
			op = NULL;
		}
	}
	if (!op || (rc = ctx_repo(&repo, ctx, 0)) < 0)
		goto out;
	out->op_id = op->id;
	out->kind = xstrdup(op->kind);
	out->branch = xstrdup(op->b[op->ci].name);
	out->commit = restack_describe(repo, &op->c_commit);
	wt = stack_worktree_id(repo);
	out->checked_out = op->c_checkout && op->wt && !strcmp(op->wt, wt);
	/* read anew: the user resolves with git add between two runs */
	if (out->checked_out && git_repository_index(&idx, repo) == 0 &&
	    git_index_read(idx, 0) == 0)
		restack_conflict_paths(&out->paths, idx);
	git_error_clear();
	rc = 1;
out:
	git_index_free(idx);
	free(wt);
	stack_op_free(op);
	return rc;
}
