/* restack, move, continue, abort and skip-branch: which branches to
 * replay and the checks before anything starts, then taking up an
 * unfinished operation (the replay itself is in core/stack/replay.c). */
#include "core/stack/restack.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/stack/graph.h"
#include "core/stack/op.h"
#include "core/stack/recover.h"
#include "core/stack/renamed.h"
#include "core/stack/replay.h"
#include "core/stack/sign.h"
#include "core/stack/worktrees.h"
#include "io/repo.h"
#include "io/signature.h"
#include "util/buf.h"
#include "util/trace.h"
#include "util/xalloc.h"

void restack_result_release(struct restack_result *r)
{
	if (!r)
		return;
	strvec_clear(&r->done);
	strvec_clear(&r->notes);
	strvec_clear(&r->conflict_paths);
	free(r->conflict_branch);
	free(r->conflict_commit);
	free(r->conflict_hint);
	memset(r, 0, sizeof(*r));
}

/* 1 when a tracked file of the work tree differs from the index */
static int workdir_dirty(git_repository *repo, struct strvec *paths,
			 struct error *err)
{
	git_status_options so;
	git_status_list *list = NULL;
	size_t i, n;
	int rc, dirty = 0;

	git_status_options_init(&so, GIT_STATUS_OPTIONS_VERSION);
	so.show = GIT_STATUS_SHOW_WORKDIR_ONLY;
	so.flags = GIT_STATUS_OPT_EXCLUDE_SUBMODULES;
	if ((rc = git_status_list_new(&list, repo, &so)) < 0)
		return error_git(err, rc, "cannot read the work tree's status");
	n = git_status_list_entrycount(list);
	for (i = 0; i < n; i++) {
		const git_status_entry *e = git_status_byindex(list, i);

		if (e->status &
		    (GIT_STATUS_WT_MODIFIED | GIT_STATUS_WT_DELETED |
		     GIT_STATUS_WT_TYPECHANGE)) {
			dirty = 1;
			if (paths && e->index_to_workdir)
				strvec_push(paths,
					    e->index_to_workdir->new_file.path);
		}
	}
	git_status_list_free(list);
	return dirty;
}

/* depth of i below its root (cycles are refused before this is used) */
static size_t depth(const struct stack_graph *g, size_t i)
{
	size_t d = 0;

	while ((i = g->b[i].parent_idx) != STACK_NONE && d <= g->n)
		d++;
	return d;
}

/* Branch i refused when broken (0 when not); with skipped not NULL, one
 * that another work tree has checked out (or is rebasing) is left with its
 * reason in skipped, and 2 returned */
static int refuse_branch(struct ctx *ctx, const struct stack_graph *g, size_t i,
			 git_repository *repo, const char *head,
			 struct strvec *skipped, char **wt_path)
{
	const struct stack_branch *b = &g->b[i];
	char *wt = NULL;
	int rc;

	if (b->in_cycle) {
		struct buf chain = BUF_INIT;
		size_t k = i, steps = 0;

		do {
			buf_addf(&chain, "%s -> ", g->b[k].name);
			k = g->b[k].parent_idx;
		} while (k != i && k != STACK_NONE && steps++ < g->n);
		buf_puts(&chain, b->name);
		rc = error_set(&ctx->err, GCAMP_EFATAL,
			       "cycle in recorded parents: %s", chain.ptr);
		error_hint(&ctx->err,
			   "re-parent one of them with 'git campaign stack "
			   "move BRANCH --onto PARENT'");
		buf_release(&chain);
		return rc;
	}
	if (!b->exists) {
		rc = error_set(&ctx->err, GCAMP_EFATAL,
			       "'%s' is recorded in the stack but the branch "
			       "does not exist",
			       b->name);
		error_hint(&ctx->err,
			   "remove it with 'git campaign stack delete %s'",
			   b->name);
		return rc;
	}
	if (!b->parent_found) {
		char *to = NULL;

		rc = error_set(&ctx->err, GCAMP_EFATAL,
			       "the parent '%s' of '%s' does not exist",
			       b->parent, b->name);
		stack_renamed_to(&to, repo, b->parent);
		if (to)
			error_hint(&ctx->err,
				   "'%s' was renamed to '%s' (git branch -m): "
				   "follow it with 'git campaign stack rename "
				   "%s %s'",
				   b->parent, to, b->parent, to);
		else
			error_hint(&ctx->err,
				   "re-parent it with 'git campaign stack move "
				   "%s --onto BRANCH'",
				   b->name);
		free(to);
		return rc;
	}
	repo_branch_elsewhere(&wt, repo, b->name);
	if (wt && skipped) {
		char *why = NULL;

		/* a clean work tree there follows the rewrite */
		if (wt_path &&
		    stack_wt_ready(wt_path, &why, repo, wt, b->name)) {
			free(wt);
			return 0;
		}
		strvec_push_owned(skipped,
				  xasprintf("left %s: %s", b->name, why));
		free(why);
		free(wt);
		return 2;
	}
	if (wt) {
		rc = error_set(&ctx->err, GCAMP_EFATAL,
			       "'%s' is checked out in another work tree (%s); "
			       "it is not rewritten from here",
			       b->name, wt);
		error_hint(&ctx->err, "restack it from that work tree");
		free(wt);
		return rc;
	}
	if (head && !strcmp(head, b->name)) {
		char *paths = NULL;

		trace_printf("restack: checking the work tree");
		rc = repo_worktree_dirty(repo, &paths, &ctx->err);
		trace_printf("restack: checked the work tree");
		if (rc < 0)
			return rc;
		if (rc) {
			error_set(&ctx->err, GCAMP_EFATAL,
				  "the work tree of '%s' has changes (%s); "
				  "nothing was restacked",
				  head, paths);
			error_hint(&ctx->err, "commit or stash them first");
			free(paths);
			return GCAMP_EFATAL;
		}
	}
	return 0;
}

/* A plan being made: what plan's steps share. */
struct planning {
	struct stack_op *op;
	struct ctx *ctx;
	struct stack_graph *g;
	const struct restack_opts *o;
	git_repository *repo;
	size_t moved;	  /* the branch of stack move, or STACK_NONE */
	git_oid onto_tip; /* where it moves */
	size_t *order;	  /* the selected branches, parents first */
	size_t n;
	int *in_op; /* per branch of g: its index in op + 1, 0 when out */
	struct strvec *skipped; /* the branches left, with why */
	char *wt_path; /* the other work tree of the branch being checked */
};

/* stack move's checks; then the moved branch leaves its old chain and is
 * the root of what is replayed */
static int select_move(struct planning *p, size_t *root)
{
	const struct restack_opts *o = p->o;
	struct stack_graph *g = p->g;
	struct error *err = &p->ctx->err;
	size_t x = stack_find(g, o->move), k;
	struct refs refs;
	char hex[REFS_HEX_SIZE];
	int rc;

	if (x == STACK_NONE) {
		rc = error_set(err, GCAMP_EFATAL, "'%s' is not stacked",
			       o->move);
		error_hint(err,
			   "record it with 'git campaign stack adopt %s --on "
			   "%s'",
			   o->move, o->onto);
		return rc;
	}
	repo_refs(&refs, p->repo);
	if (refs_branch_tip(hex, &refs, g->remote, o->onto) < 0 ||
	    git_oid_fromstr(&p->onto_tip, hex) < 0)
		return error_set(err, GCAMP_ENOTFOUND, "no branch named '%s'",
				 o->onto);
	k = stack_find(g, o->onto);
	if (!strcmp(o->move, o->onto) ||
	    (k != STACK_NONE && stack_is_descendant(g, k, x)))
		return error_set(err, GCAMP_EFATAL,
				 "'%s' is '%s' or stacked on it: that would be "
				 "a cycle",
				 o->onto, o->move);
	g->b[x].parent_idx = k;
	g->b[x].in_cycle = 0;
	if (!g->b[x].parent_found)
		g->b[x].parent_oid = p->onto_tip;
	g->b[x].parent_found = 1;
	p->moved = *root = x;
	return 0;
}

/* The branches the options name into p->order: the moved branch's
 * subtree, the whole stack of one branch, or every stacked branch */
static int select_branches(struct planning *p)
{
	const struct restack_opts *o = p->o;
	const struct stack_graph *g = p->g;
	size_t i, x, root = STACK_NONE;
	int rc;

	if (o->move) {
		if ((rc = select_move(p, &root)) < 0)
			return rc;
	} else if (!o->all) {
		const char *name = o->branch ? o->branch : g->current;

		x = stack_find(g, name);
		if (x == STACK_NONE) {
			rc = error_set(&p->ctx->err, GCAMP_EFATAL,
				       "'%s' is not stacked", name);
			error_hint(&p->ctx->err,
				   "name a stacked branch, or use --all");
			return rc;
		}
		if (g->b[x].in_cycle)
			return refuse_branch(p->ctx, g, x, p->repo, NULL, NULL,
					     NULL);
		for (root = x; g->b[root].parent_idx != STACK_NONE;)
			root = g->b[root].parent_idx;
	}
	for (i = 0; i < g->n; i++)
		if (root == STACK_NONE || stack_is_descendant(g, i, root))
			p->order[p->n++] = i;
	return 0;
}

/* parents first: by depth, a stable insertion sort */
static void order_queue(struct planning *p)
{
	const struct stack_graph *g = p->g;
	size_t *order = p->order, i, k;

	for (i = 1; i < p->n; i++)
		for (k = i; k > 0 && !g->b[order[k - 1]].in_cycle &&
			    !g->b[order[k]].in_cycle &&
			    depth(g, order[k - 1]) > depth(g, order[k]);
		     k--) {
			size_t t = order[k];

			order[k] = order[k - 1];
			order[k - 1] = t;
		}
}

/* Branch i of the graph: refused when broken; 1 when it need not be
 * replayed (not moved, not behind its parent, its parent stays); 0 when it
 * is to be replayed and may be rewritten from here */
static int check_preconditions(struct planning *p, size_t i)
{
	const struct stack_branch *b = &p->g->b[i];
	size_t par = b->parent_idx;
	int rc;

	if ((b->in_cycle || !b->exists || !b->parent_found) &&
	    (rc = refuse_branch(p->ctx, p->g, i, p->repo, NULL, NULL, NULL)) <
		    0)
		return rc;
	if (i != p->moved && b->landed) {
		/* nothing of it to replay: what is on it moves down */
		strvec_push_owned(p->skipped,
				  xasprintf("%s has landed in %s: not "
					    "replayed, what is on it moves "
					    "onto %s (take it out with 'git "
					    "campaign stack delete %s')",
					    b->name, b->parent, b->parent,
					    b->name));
		return 1;
	}
	if (i != p->moved && !b->needs_restack &&
	    !(par != STACK_NONE && (p->in_op[par] || p->g->b[par].landed)))
		return 1;
	/* stack move names its branch: that one is refused, not left */
	rc = refuse_branch(p->ctx, p->g, i, p->repo, p->op->head,
			   i == p->moved ? NULL : p->skipped,
			   i == p->moved ? NULL : &p->wt_path);
	return rc == 2 ? 1 : rc;
}

/* Adds branch i of the graph to the operation, after its parent */
static int queue_branch(struct planning *p, size_t i)
{
	struct stack_branch *b = &p->g->b[i];
	struct stack_op *op = p->op;
	size_t par = b->parent_idx;
	struct op_branch *ob;
	int rc;

	p->in_op[i] = (int)op->n + 1;
	ob = &op->b[op->n++];
	ob->name = xstrdup(b->name);
	ob->old = b->tip;
	ob->pidx = par != STACK_NONE && p->in_op[par] ? p->in_op[par] - 1 : -1;
	ob->parent_old = xstrdup(b->parent);
	ob->tip_old = b->parent_tip ? xstrdup(b->parent_tip) : NULL;
	ob->wt_path = p->wt_path;
	p->wt_path = NULL;
	ob->parent_new = xstrdup(i == p->moved ? p->o->onto : b->parent);
	ob->onto = i == p->moved ? p->onto_tip : b->parent_oid;
	if (i != p->moved && par != STACK_NONE && p->g->b[par].landed) {
		/* on a landed parent: onto that one's parent, as a move */
		free(ob->parent_new);
		ob->parent_new = xstrdup(p->g->b[par].parent);
		ob->onto = p->g->b[par].parent_oid;
	}
	rc = stack_upstream(&ob->upstream, p->repo, b->parent_tip, &b->tip,
			    &b->parent_oid, &p->ctx->err);
	if (rc < 0)
		return error_set(&p->ctx->err, rc,
				 "'%s' has no history in common with '%s'",
				 b->name, b->parent);
	return restack_check_linear(p->repo, &ob->upstream, &b->tip, b->name,
				    &p->ctx->err);
}

/* The branches of the operation, parents first, into op. */
static int plan(struct stack_op *op, struct ctx *ctx, struct stack_graph *g,
		const struct restack_opts *o, git_repository *repo,
		struct strvec *skipped)
{
	struct planning p = {.op = op,
			     .ctx = ctx,
			     .g = g,
			     .o = o,
			     .repo = repo,
			     .moved = STACK_NONE,
			     .skipped = skipped};
	size_t i;
	int rc;

	p.order = xcalloc(g->n + 1, sizeof(*p.order));
	p.in_op = xcalloc(g->n + 1, sizeof(*p.in_op));
	if ((rc = select_branches(&p)) < 0)
		goto out;
	order_queue(&p);
	op->b = xcalloc(p.n + 1, sizeof(*op->b));
	for (i = 0; i < p.n; i++) {
		rc = check_preconditions(&p, p.order[i]);
		if (rc == 0)
			rc = queue_branch(&p, p.order[i]);
		free(p.wt_path);
		p.wt_path = NULL;
		if (rc < 0)
			goto out;
	}
	rc = 0;
out:
	free(p.order);
	free(p.in_op);
	return rc;
}

/* With commit.gpgSign, a signature that cannot be made refuses the
 * restack before anything starts, rather than unsigned commits */
static int check_signing(struct ctx *ctx)
{
	struct stack_signer s;
	git_signature *me = NULL;
	int rc;

	if ((rc = ctx_signature(&me, ctx, SIG_COMMITTER)) < 0)
		return rc;
	if ((rc = stack_signer_load(&s, ctx, me)) == 0)
		rc = stack_signer_check(&s, &ctx->err);
	stack_signer_release(&s);
	git_signature_free(me);
	return rc;
}

/* The checked-out branch in *head; restack --all, which checks nothing
 * out, also runs from a detached HEAD (*head NULL) */
static int restack_head(char **head, git_repository *repo,
			const struct restack_opts *o, struct error *err)
{
	struct refs refs;
	int rc;

	if (!o->all || o->move)
		return stack_check_head(
			head, repo, o->move ? "stack move" : "restack", err);
	repo_refs(&refs, repo);
	if ((rc = refs_head_branch(head, &refs, err)) < 0)
		return rc;
	return 0;
}

int restack_start(struct restack_result *out, struct ctx *ctx,
		  const struct restack_opts *o)
{
	struct stack_op *op = xcalloc(1, sizeof(*op));
	struct stack_graph g = {0};
	struct buf summary = BUF_INIT;
	git_repository *repo;
	struct refs refs;
	char hex[REFS_HEX_SIZE];
	size_t i;
	int rc, loaded = 0;

	memset(out, 0, sizeof(*out));
	trace_printf("restack: start");
	if ((rc = ctx_repo(&repo, ctx, 1)) < 0 ||
	    (rc = repo_check_state(repo, &ctx->err)) < 0 ||
	    (rc = stack_op_none_pending(ctx)) < 0 ||
	    (rc = restack_head(&op->head, repo, o, &ctx->err)) < 0 ||
	    (rc = stack_graph_load(&g, ctx)) < 0)
		goto out;
	loaded = 1;
	trace_printf("restack: checked, graph of %zu branches loaded", g.n);
	repo_refs(&refs, repo);
	if (op->head && (refs_branch_tip(hex, &refs, NULL, op->head) < 0 ||
			 git_oid_fromstr(&op->head_old, hex) < 0)) {
		rc = error_set(&ctx->err, GCAMP_EFATAL,
			       "'%s' has no commits yet", op->head);
		goto out;
	}
	op->kind = xstrdup("restack");
	if ((rc = plan(op, ctx, &g, o, repo, &out->notes)) < 0)
		goto out;
	trace_printf("restack: planned %zu branches", op->n);
	if (!op->n) {
		out->nothing = 1;
		goto out;
	}
	/* from a detached HEAD nothing is checked out, a conflict included */
	op->may_checkout = !o->no_checkout && op->head;
	if (o->move)
		buf_addf(&summary, "move %s onto %s", o->move, o->onto);
	else
		buf_puts(&summary, "restack");
	for (i = 0; i < op->n && !o->move; i++)
		buf_addf(&summary, " %s", op->b[i].name);
	if ((rc = check_signing(ctx)) < 0 ||
	    (rc = stack_op_begin(op, ctx, summary.ptr)) < 0 ||
	    (rc = stack_op_backup(op, ctx)) < 0)
		goto out;
	out->op_id = op->id;
	trace_printf("restack: journal begun, backups written");
	rc = restack_run_queue(op, ctx, out, o->no_checkout);
out:
	if (loaded)
		stack_graph_release(&g);
	buf_release(&summary);
	stack_op_free(op);
	return rc;
}

/* 1 when the linked work tree named id (its folder under
 * $GIT_COMMON_DIR/worktrees) is still there: `git worktree remove` takes
 * the folder away, an `rm -rf` of the work tree leaves its gitdir file
 * naming a path that is gone */
static int worktree_exists(git_repository *repo, const char *id)
{
	char *path = xasprintf("%sworktrees/%s/gitdir",
			       git_repository_commondir(repo), id);
	char line[4096];
	FILE *fp = fopen(path, "r");
	int there = 0;

	if (fp && fgets(line, sizeof(line), fp)) {
		line[strcspn(line, "\n")] = 0;
		there = access(line, F_OK) == 0;
	}
	if (fp)
		fclose(fp);
	free(path);
	return there;
}

static int need_op(struct stack_op **op, struct ctx *ctx, const char *what,
		   struct strvec *notes)
{
	git_repository *repo;
	char *wt;
	int rc;

	if ((rc = ctx_repo(&repo, ctx, 1)) < 0 ||
	    (rc = stack_op_unfinished(op, ctx)) < 0)
		return rc;
	if (!*op) {
		rc = error_set(&ctx->err, GCAMP_EFATAL,
			       "no stack operation to %s", what);
		return rc;
	}
	wt = stack_worktree_id(repo);
	if ((*op)->wt && *(*op)->wt && strcmp((*op)->wt, wt) &&
	    !strcmp(what, "abort") && !worktree_exists(repo, (*op)->wt)) {
		(*op)->wt_gone = 1;
	} else if ((*op)->wt && *(*op)->wt && strcmp((*op)->wt, wt) &&
		   !worktree_exists(repo, (*op)->wt)) {
		rc = error_set(&ctx->err, GCAMP_EFATAL,
			       "%s #%lld ran in the work tree '%s', which is "
			       "gone",
			       (*op)->kind, (*op)->id, (*op)->wt);
		error_hint(&ctx->err, "undo it from here with 'git campaign "
				      "stack abort'");
	} else if ((*op)->wt && strcmp((*op)->wt, wt)) {
		rc = error_set(&ctx->err, GCAMP_EFATAL,
			       "%s #%lld runs in another work tree (%s)",
			       (*op)->kind, (*op)->id,
			       *(*op)->wt ? (*op)->wt : "the main one");
		error_hint(&ctx->err, "%s it from there", what);
	}
	free(wt);
	if (rc == 0)
		rc = stack_op_drop_stale_locks(notes, *op, ctx);
	return rc;
}

/* HEAD still where the conflict left it */
/* HEAD still where the conflict left it: 1 when at the base replayed
 * onto, 2 when one commit above it (the user committed the resolution,
 * as git allows at a rebase stop), else 0 */
static int at_conflict(git_repository *repo, const struct stack_op *op)
{
	git_commit *c = NULL;
	git_oid head;
	int at = 0;

	if (git_repository_head_detached(repo) != 1 ||
	    git_reference_name_to_id(&head, repo, "HEAD") < 0) {
		git_error_clear();
		return 0;
	}
	if (git_oid_equal(&head, &op->c_onto))
		return 1;
	if (git_commit_lookup(&c, repo, &head) == 0 &&
	    git_commit_parentcount(c) == 1 &&
	    git_oid_equal(git_commit_parent_id(c, 0), &op->c_onto))
		at = 2;
	git_commit_free(c);
	git_error_clear();
	return at;
}

/* Commits the user's resolution of the conflicted commit. */
static int take_resolution(struct stack_op *op, struct ctx *ctx)
{
	git_repository *repo;
	git_index *idx = NULL;
	git_commit *c = NULL, *onto = NULL;
	git_tree *tree = NULL;
	struct strvec paths = STRVEC_INIT;
	git_signature *me = NULL;
	struct stack_signer signer = {0};
	git_oid tid, nid;
	cJSON *d, *notes;
	int rc, at;
	char hex[8];

	if ((rc = ctx_repo(&repo, ctx, 1)) < 0)
		return rc;
	git_oid_tostr(hex, sizeof(hex), &op->c_onto);
	if (!(at = at_conflict(repo, op))) {
		rc = error_set(&ctx->err, GCAMP_EFATAL,
			       "HEAD is no longer at the conflict in '%s' (a "
			       "'git checkout' or 'git rebase --abort' moved "
			       "it)",
			       op->b[op->ci].name);
		error_hint(&ctx->err,
			   "run 'git campaign stack abort' to put every "
			   "branch back, or 'git checkout --detach %s' and "
			   "resolve again",
			   hex);
		return rc;
	}
	if ((rc = git_repository_index(&idx, repo)) < 0 ||
	    (rc = git_index_read(idx, 1)) < 0) {
		rc = error_git(&ctx->err, rc, "cannot read the index");
		goto out;
	}
	if (git_index_has_conflicts(idx)) {
		struct buf b = BUF_INIT;
		size_t i;

		restack_conflict_paths(&paths, idx);
		for (i = 0; i < paths.nr; i++)
			buf_addf(&b, "%s'%s'", i ? " " : "", paths.v[i]);
		rc = error_set(&ctx->err, GCAMP_EFATAL,
			       "unresolved conflicts remain: %s", b.ptr);
		error_hint(&ctx->err, "edit them, 'git add' them, then run "
				      "'git campaign stack continue'");
		buf_release(&b);
		goto out;
	}
	if ((rc = workdir_dirty(repo, &paths, &ctx->err)) != 0) {
		if (rc > 0) {
			rc = error_set(&ctx->err, GCAMP_EFATAL,
				       "changes not added to the index: '%s'",
				       paths.v[0]);
			error_hint(&ctx->err, "'git add' the resolution (or "
					      "'git checkout' the file)");
		}
		goto out;
	}
	if ((rc = git_index_write_tree(&tid, idx)) < 0 ||
	    (rc = git_commit_lookup(&c, repo, &op->c_commit)) < 0 ||
	    (rc = git_commit_lookup(&onto, repo, &op->c_onto)) < 0 ||
	    (rc = git_tree_lookup(&tree, repo, &tid)) < 0) {
		rc = error_git(&ctx->err, rc, "cannot read the resolution");
		goto out;
	}
	notes = cJSON_Duplicate(op->c_notes, 1);
	if (at == 2) {
		git_commit *mine = NULL;

		/* the resolution the user committed is taken as it is */
		if ((rc = git_reference_name_to_id(&nid, repo, "HEAD")) < 0 ||
		    (rc = git_commit_lookup(&mine, repo, &nid)) < 0) {
			cJSON_Delete(notes);
			rc = error_git(&ctx->err, rc, "cannot read HEAD");
			goto out;
		}
		rc = git_oid_equal(git_commit_tree_id(mine), &tid);
		git_commit_free(mine);
		if (!rc) {
			cJSON_Delete(notes);
			rc = error_set(&ctx->err, GCAMP_EFATAL,
				       "the index differs from the resolution "
				       "committed on the conflict");
			error_hint(&ctx->err,
				   "commit it ('git commit --amend') or "
				   "reset it ('git reset'), then continue");
			goto out;
		}
		cJSON_AddItemToArray(notes, oid_pair_json(&op->c_commit, &nid));
	} else if (git_oid_equal(&tid, git_commit_tree_id(onto))) {
		nid = op->c_onto; /* resolved to nothing: dropped */
	} else {
		if ((rc = ctx_signature(&me, ctx, SIG_COMMITTER)) < 0 ||
		    (rc = stack_signer_load(&signer, ctx, me)) < 0 ||
		    (rc = stack_signer_commit(&nid, &signer, repo,
					      git_commit_author(c), me,
					      git_commit_message_encoding(c),
					      git_commit_message_raw(c), tree,
					      onto, &ctx->err)) < 0) {
			cJSON_Delete(notes);
			goto out;
		}
		cJSON_AddItemToArray(notes, oid_pair_json(&op->c_commit, &nid));
	}
	d = cJSON_CreateObject();
	cJSON_AddNumberToObject(d, "i", (double)op->ci);
	cJSON_AddItemToObject(d, "new", repo_oid_json(&nid));
	cJSON_AddItemReferenceToObject(d, "rest", op->c_rest);
	cJSON_AddItemToObject(d, "notes", cJSON_Duplicate(notes, 1));
	op->partial = 1;
	op->pi = op->ci;
	op->p_new = nid;
	cJSON_Delete(op->p_rest);
	cJSON_Delete(op->p_notes);
	op->p_rest = cJSON_Duplicate(op->c_rest, 1);
	op->p_notes = notes;
	op->conflict = 0;
	rc = stack_op_step(op, ctx, "resolved", d);
out:
	strvec_clear(&paths);
	stack_signer_release(&signer);
	git_signature_free(me);
	git_tree_free(tree);
	git_commit_free(c);
	git_commit_free(onto);
	git_index_free(idx);
	return rc;
}

int restack_continue(struct restack_result *out, struct ctx *ctx,
		     int no_checkout)
{
	struct stack_op *op = NULL;
	git_repository *repo;
	int rc;

	memset(out, 0, sizeof(*out));
	if ((rc = need_op(&op, ctx, "continue", &out->notes)) < 0 ||
	    (rc = ctx_repo(&repo, ctx, 1)) < 0)
		goto out;
	out->op_id = op->id;
	if (op->planless) {
		strvec_push_owned(&out->notes,
				  xasprintf("%s #%lld was stopped before its "
					    "plan: it changed nothing, and "
					    "is closed",
					    op->kind, op->id));
		out->nothing = 1;
		rc = stack_op_finish(op, ctx, 0);
		goto out;
	}
	if ((rc = repo_check_state(repo, &ctx->err)) < 0)
		goto out;
	/* the choice of the first run does not bind this one */
	op->may_checkout = !no_checkout;
	if (op->apply) {
		rc = restack_finish_op(op, ctx, out);
		goto out;
	}
	if (!op->backed_up && (rc = stack_op_backup(op, ctx)) < 0)
		goto out;
	if (op->conflict) {
		if (op->c_checkout && op->stopped) {
			if ((rc = take_resolution(op, ctx)) < 0)
				goto out;
		} else {
			/* not shown in the work tree: replay the branch
			 * again, to show it now or to pass */
			op->conflict = 0;
		}
	}
	rc = restack_run_queue(op, ctx, out, no_checkout);
out:
	stack_op_free(op);
	return rc;
}

/* Brings the work tree back for abort and skip: refused when HEAD was
 * moved elsewhere since and the work tree has changes. */
static int put_worktree_back(struct stack_op *op, struct ctx *ctx)
{
	git_repository *repo;
	char *cur = NULL, *paths = NULL;
	int rc;

	if ((rc = ctx_repo(&repo, ctx, 1)) < 0)
		return rc;
	if (!op->touched && !(op->apply && op->head))
		return 0;
	if (op->conflict && !at_conflict(repo, op)) {
		struct refs refs;

		repo_refs(&refs, repo);
		refs_head_branch(&cur, &refs, &ctx->err);
		if ((!cur || strcmp(cur, op->head)) &&
		    (rc = repo_worktree_dirty(repo, &paths, &ctx->err)) != 0) {
			if (rc > 0) {
				rc = error_set(&ctx->err, GCAMP_EFATAL,
					       "HEAD moved since the conflict "
					       "and the work tree has changes "
					       "(%s)",
					       paths);
				error_hint(&ctx->err,
					   "commit or stash them, then run "
					   "it again");
			}
			free(cur);
			free(paths);
			return rc;
		}
		free(cur);
	}
	return stack_op_restore_worktree(op, ctx);
}

int restack_abort(struct restack_result *out, struct ctx *ctx)
{
	struct stack_op *op = NULL;
	git_repository *repo;
	size_t notes_before;
	int rc, left;

	memset(out, 0, sizeof(*out));
	if ((rc = need_op(&op, ctx, "abort", &out->notes)) < 0 ||
	    (rc = ctx_repo(&repo, ctx, 1)) < 0)
		goto out;
	out->op_id = op->id;
	notes_before = out->notes.nr;
	if (op->apply &&
	    (rc = stack_op_apply_refs(op, ctx, 1, &out->notes)) < 0)
		goto out;
	left = out->notes.nr > notes_before;
	if (op->wt_gone) {
		strvec_push_owned(&out->notes,
				  xasprintf("the work tree '%s' that ran %s "
					    "#%lld is gone: no HEAD, index or "
					    "file was put back",
					    op->wt, op->kind, op->id));
	} else if ((rc = put_worktree_back(op, ctx)) < 0) {
		goto out;
	}
	if (op->apply && (rc = stack_op_restore_elsewhere(op, ctx)) < 0)
		goto out;
	/* backups stay when a branch was left where someone moved it */
	if (!left)
		stack_op_drop_backups(repo, op);
	rc = stack_op_finish(op, ctx, 0);
out:
	stack_op_free(op);
	return rc;
}

int restack_skip(struct restack_result *out, struct ctx *ctx)
{
	struct stack_op *op = NULL;
	cJSON *d;
	int rc;

	memset(out, 0, sizeof(*out));
	if ((rc = need_op(&op, ctx, "skip a branch of", &out->notes)) < 0)
		goto out;
	out->op_id = op->id;
	if (!op->conflict || op->apply) {
		rc = error_set(&ctx->err, GCAMP_EFATAL,
			       "%s #%lld is not stopped at a conflict",
			       op->kind, op->id);
		error_hint(&ctx->err,
			   "finish it with 'git campaign stack continue'");
		goto out;
	}
	if ((rc = put_worktree_back(op, ctx)) < 0)
		goto out;
	op->touched = 0;
	op->conflict = 0;
	op->b[op->ci].skipped = 1;
	strvec_push_owned(&out->notes,
			  xasprintf("skipped %s (and the branches on it)",
				    op->b[op->ci].name));
	d = cJSON_CreateObject();
	cJSON_AddNumberToObject(d, "i", (double)op->ci);
	if ((rc = stack_op_step(op, ctx, "skip", d)) < 0)
		goto out;
	rc = restack_run_queue(op, ctx, out, 0);
out:
	stack_op_free(op);
	return rc;
}
