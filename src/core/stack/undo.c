/* The stack operations that need no replay: delete, undo, and gc of old
 * backups and journal entries. */
#include "core/stack/undo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/records/journal.h"
#include "core/stack/graph.h"
#include "core/stack/op.h"
#include "core/stack/replay.h"
#include "core/stack/restack.h"
#include "core/stack/worktrees.h"
#include "io/repo.h"
#include "util/buf.h"
#include "util/clock.h"
#include "util/json.h"
#include "util/xalloc.h"

/* The checks every operation makes first; op->head and op->head_old. */
static int prepare(struct stack_op *op, struct ctx *ctx, const char *what)
{
	git_repository *repo;
	struct refs refs;
	char hex[REFS_HEX_SIZE];
	int rc;

	if ((rc = ctx_repo(&repo, ctx, 1)) < 0 ||
	    (rc = repo_check_state(repo, &ctx->err)) < 0 ||
	    (rc = stack_op_none_pending(ctx)) < 0 ||
	    (rc = stack_check_head(&op->head, repo, what, &ctx->err)) < 0)
		return rc;
	repo_refs(&refs, repo);
	if (refs_branch_tip(hex, &refs, NULL, op->head) < 0 ||
	    git_oid_fromstr(&op->head_old, hex) < 0)
		return error_set(&ctx->err, GCAMP_EFATAL,
				 "'%s' has no commits yet", op->head);
	return 0;
}

/* Refuses to move a branch checked out elsewhere, or the checked-out one
 * over local changes. */
static int check_ref_branch(struct ctx *ctx, const struct stack_op *op,
			    const char *branch, char **wt_path)
{
	git_repository *repo;
	char *wt = NULL, *paths = NULL, *why = NULL;
	int rc;

	if ((rc = ctx_repo(&repo, ctx, 1)) < 0)
		return rc;
	repo_branch_elsewhere(&wt, repo, branch);
	/* a clean work tree there follows, as for restack */
	if (wt && wt_path && stack_wt_ready(wt_path, &why, repo, wt, branch)) {
		free(wt);
		return 0;
	}
	free(why);
	if (wt) {
		rc = error_set(&ctx->err, GCAMP_EFATAL,
			       "'%s' is checked out in another work tree (%s); "
			       "it is not rewritten from here",
			       branch, wt);
		free(wt);
		return rc;
	}
	if (strcmp(branch, op->head))
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

/* Refuses, before anything is journaled, to undo the move of a branch
 * that is no longer where the undone operation left it (apply entry e):
 * it got new commits since, which an undo would drop. */
static int check_left_as_is(struct ctx *ctx, git_repository *repo,
			    const cJSON *e, const char *kind, long long id)
{
	const char *ref = json_get_str(e, "ref");
	const char *branch = json_get_str(e, "branch");
	char left_hex[8] = "";
	git_oid left, now;
	int has_left, rc;

	has_left = repo_oid_from_json(&left, cJSON_GetObjectItemCaseSensitive(
						     e, "new")) == 0;
	rc = ref ? git_reference_name_to_id(&now, repo, ref) : GIT_ENOTFOUND;
	git_error_clear();
	if ((rc == 0) == has_left && (!has_left || git_oid_equal(&now, &left)))
		return 0;
	if (has_left)
		git_oid_tostr(left_hex, sizeof(left_hex), &left);
	rc = error_set(&ctx->err, GCAMP_EFATAL,
		       "'%s' changed since %s #%lld left it%s%s; nothing was "
		       "undone",
		       branch, kind, id, has_left ? " at " : "",
		       has_left ? left_hex : "");
	if (has_left)
		error_hint(&ctx->err,
			   "keep its new commits elsewhere, or put it back "
			   "with 'git branch -f %s %s', then undo",
			   branch, left_hex);
	return rc;
}

int stack_delete(struct restack_result *out, struct ctx *ctx,
		 const char *branch, int delete_branch)
{
	struct stack_op *op = xcalloc(1, sizeof(*op));
	struct stack_graph g = {0};
	cJSON *refs, *cfg;
	char *summary = NULL;
	size_t i, k;
	int rc, loaded = 0;

	memset(out, 0, sizeof(*out));
	if ((rc = prepare(op, ctx, "stack delete")) < 0 ||
	    (rc = stack_graph_load(&g, ctx)) < 0)
		goto out;
	loaded = 1;
	if ((i = stack_find(&g, branch)) == STACK_NONE) {
		rc = error_set(&ctx->err, GCAMP_EFATAL, "'%s' is not stacked",
			       branch);
		goto out;
	}
	op->kind = xstrdup("stack-delete");
	op->fixed = cJSON_CreateObject();
	refs = cJSON_AddArrayToObject(op->fixed, "refs");
	cfg = cJSON_AddArrayToObject(op->fixed, "cfg");
	if (delete_branch && g.b[i].exists) {
		cJSON *e = cJSON_CreateObject();
		char *ref = xasprintf("refs/heads/%s", branch);

		if (!strcmp(branch, op->head)) {
			free(ref);
			cJSON_Delete(e);
			rc = error_set(&ctx->err, GCAMP_EFATAL,
				       "cannot delete the checked-out branch "
				       "'%s'",
				       branch);
			error_hint(&ctx->err, "check out another branch first");
			goto out;
		}
		cJSON_AddStringToObject(e, "ref", ref);
		cJSON_AddStringToObject(e, "branch", branch);
		cJSON_AddItemToObject(e, "old", repo_oid_json(&g.b[i].tip));
		cJSON_AddNullToObject(e, "new");
		cJSON_AddItemToArray(refs, e);
		free(ref);
		if ((rc = check_ref_branch(ctx, op, branch, NULL)) < 0)
			goto out;
	}
	cJSON_AddItemToArray(cfg, stack_op_record_json(branch, g.b[i].parent,
						       g.b[i].parent_tip, NULL,
						       NULL));
	/* the children keep every commit: the deleted branch's own commits
	 * become theirs */
	for (k = 0; k < g.n; k++)
		if (g.b[k].parent_idx == i)
			cJSON_AddItemToArray(
				cfg, stack_op_record_json(
					     g.b[k].name, g.b[k].parent,
					     g.b[k].parent_tip, g.b[i].parent,
					     g.b[i].parent_tip));
	summary = xasprintf("delete %s", branch);
	rc = stack_op_run_fixed(op, ctx, out, summary);
out:
	if (loaded)
		stack_graph_release(&g);
	free(summary);
	stack_op_free(op);
	return rc;
}

/*
 * The operation an undo undoes: the newest finished stack operation that
 * no undo has undone yet, so that undo after undo goes back one
 * operation further each time (git-branchless's undo, one level a run).
 * Each undo names the operation it undid ("undoes" in its updates); one
 * written before that undid the operation just before it. *undos: an
 * undo was met.
 */
static int undo_target(long long *id, char **kind, int *undos, struct ctx *ctx,
		       struct db *db)
{
	static const char *const kinds[] = {
		"restack",    "stack-delete", "stack-rename",
		"stack-fold", "stack-split",  "undo",
		NULL};
	long long before = 0, *undone = NULL;
	size_t n = 0, alloc = 0, i;
	int rc, skip = 0;

	*id = 0;
	*kind = NULL;
	*undos = 0;
	for (;;) {
		struct stack_op *u = NULL;
		const cJSON *j;

		free(*kind);
		*kind = NULL;
		if ((rc = journal_done_before(id, kind, db, kinds, before,
					      &ctx->err)) < 0 ||
		    !*id)
			break;
		before = *id;
		if (strcmp(*kind, "undo")) {
			for (i = 0; i < n && undone[i] != *id; i++)
				;
			if (i < n || skip) {
				skip -= i == n;
				continue;
			}
			break; /* not undone: this one */
		}
		*undos = 1;
		if ((rc = stack_op_load(&u, ctx, *id)) < 0)
			break;
		j = u->fixed ? cJSON_GetObjectItemCaseSensitive(u->fixed,
								"undoes")
			     : NULL;
		if (cJSON_IsNumber(j)) {
			if (n == alloc) {
				alloc = alloc ? 2 * alloc : 8;
				undone = xrealloc(undone,
						  alloc * sizeof(*undone));
			}
			undone[n++] = (long long)j->valuedouble;
		} else {
			skip++;
		}
		stack_op_free(u);
	}
	free(undone);
	if (rc < 0 || !*id) {
		free(*kind);
		*kind = NULL;
		*id = 0;
	}
	return rc;
}

/* A rename undone is the rename back, refused when the new name is
 * checked out elsewhere or gone; a HEAD moved goes back too */
static int undo_moves(struct ctx *ctx, struct stack_op *op,
		      const struct stack_op *last)
{
	const cJSON *r =
		cJSON_GetObjectItemCaseSensitive(last->apply, "rename");
	const cJSON *h = cJSON_GetObjectItemCaseSensitive(last->apply, "head");
	const char *from = json_get_str(r, "old"), *to = json_get_str(r, "new");
	cJSON *u;
	int rc;

	/* a HEAD that followed a folded branch to its parent goes back */
	if (cJSON_IsObject(h) && json_get_str(h, "old") &&
	    json_get_str(h, "new")) {
		u = cJSON_AddObjectToObject(op->fixed, "head");
		cJSON_AddStringToObject(u, "old", json_get_str(h, "new"));
		cJSON_AddStringToObject(u, "new", json_get_str(h, "old"));
	}
	if (!cJSON_IsObject(r) || !from || !to)
		return 0;
	if ((rc = check_ref_branch(ctx, op, to, NULL)) < 0)
		return rc;
	u = cJSON_AddObjectToObject(op->fixed, "rename");
	cJSON_AddStringToObject(u, "old", to);
	cJSON_AddStringToObject(u, "new", from);
	return 0;
}

int stack_undo(struct restack_result *out, struct ctx *ctx)
{
	struct stack_op *op = xcalloc(1, sizeof(*op)), *last = NULL;
	git_repository *repo;
	struct db *db;
	cJSON *refs, *cfg;
	const cJSON *e;
	char *kind = NULL, *summary = NULL, *wt_path = NULL;
	long long id;
	int rc, undos = 0;

	memset(out, 0, sizeof(*out));
	if ((rc = prepare(op, ctx, "undo")) < 0 ||
	    (rc = ctx_repo(&repo, ctx, 1)) < 0 ||
	    (rc = ctx_db(&db, ctx, DB_CREATE)) < 0 ||
	    (rc = undo_target(&id, &kind, &undos, ctx, db)) < 0)
		goto out;
	if (!id) {
		rc = error_set(&ctx->err, GCAMP_EREFUSED, "nothing to undo%s",
			       undos ? ": every stack operation the journal "
				       "holds is undone"
				     : "");
		goto out;
	}
	if ((rc = stack_op_load(&last, ctx, id)) < 0)
		goto out;
	if (!last->apply) {
		rc = error_set(&ctx->err, GCAMP_EFATAL,
			       "%s #%lld changed nothing to undo", kind, id);
		goto out;
	}
	op->kind = xstrdup("undo");
	op->fixed = cJSON_CreateObject();
	/* the operation this one undoes: a next undo goes on before it */
	cJSON_AddNumberToObject(op->fixed, "undoes", (double)id);
	refs = cJSON_AddArrayToObject(op->fixed, "refs");
	cfg = cJSON_AddArrayToObject(op->fixed, "cfg");
	cJSON_ArrayForEach(
		e, cJSON_GetObjectItemCaseSensitive(last->apply, "refs")) {
		const cJSON *br = cJSON_GetObjectItemCaseSensitive(e, "branch");
		cJSON *u;
		git_oid old;
		git_commit *c = NULL;

		/* notes copied to the new commits are kept */
		if (!cJSON_IsString(br))
			continue;
		if (repo_oid_from_json(&old, cJSON_GetObjectItemCaseSensitive(
						     e, "old")) == 0) {
			if (git_commit_lookup(&c, repo, &old) < 0) {
				git_error_clear();
				rc = error_set(&ctx->err, GCAMP_EFATAL,
					       "the old tip of '%s' is gone "
					       "(pruned by gc?)",
					       br->valuestring);
				goto out;
			}
			git_commit_free(c);
		}
		if ((rc = check_ref_branch(ctx, op, br->valuestring,
					   &wt_path)) < 0 ||
		    (rc = check_left_as_is(ctx, repo, e, kind, id)) < 0)
			goto out;
		u = cJSON_CreateObject();
		if (wt_path)
			cJSON_AddStringToObject(u, "wt_path", wt_path);
		free(wt_path);
		wt_path = NULL;
		cJSON_AddItemToObject(
			u, "ref",
			cJSON_Duplicate(
				cJSON_GetObjectItemCaseSensitive(e, "ref"), 1));
		cJSON_AddStringToObject(u, "branch", br->valuestring);
		cJSON_AddItemToObject(
			u, "old",
			cJSON_Duplicate(
				cJSON_GetObjectItemCaseSensitive(e, "new"), 1));
		cJSON_AddItemToObject(
			u, "new",
			cJSON_Duplicate(
				cJSON_GetObjectItemCaseSensitive(e, "old"), 1));
		cJSON_AddItemToArray(refs, u);
		strvec_push_owned(&out->notes,
				  xasprintf("restored %s", br->valuestring));
	}
	cJSON_ArrayForEach(
		e, cJSON_GetObjectItemCaseSensitive(last->apply, "cfg")) {
		const cJSON *br = cJSON_GetObjectItemCaseSensitive(e, "branch");
		cJSON *r;

		if (!cJSON_IsString(br))
			continue;
		r = cJSON_CreateObject();
		cJSON_AddStringToObject(r, "branch", br->valuestring);
		cJSON_AddItemToObject(
			r, "parent_old",
			cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(
						e, "parent_new"),
					1));
		cJSON_AddItemToObject(
			r, "tip_old",
			cJSON_Duplicate(
				cJSON_GetObjectItemCaseSensitive(e, "tip_new"),
				1));
		cJSON_AddItemToObject(
			r, "parent_new",
			cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(
						e, "parent_old"),
					1));
		cJSON_AddItemToObject(
			r, "tip_new",
			cJSON_Duplicate(
				cJSON_GetObjectItemCaseSensitive(e, "tip_old"),
				1));
		cJSON_AddItemToArray(cfg, r);
	}
	if ((rc = undo_moves(ctx, op, last)) < 0)
		goto out;
	summary = xasprintf("undo %s #%lld", kind, id);
	strvec_push_owned(&out->notes, xasprintf("undid %s #%lld", kind, id));
	rc = stack_op_run_fixed(op, ctx, out, summary);
out:
	free(wt_path);
	free(kind);
	free(summary);
	stack_op_free(last);
	stack_op_free(op);
	return rc;
}

/* The time of an operation folder "YYYYMMDDTHHMMSSZ-ID", or -1. */
static long long stamp_time(const char *s, long long *id)
{
	int y, mo, d, h, mi, se;
	long long n;

	if (sscanf(s, "%4d%2d%2dT%2d%2d%2dZ-%lld", &y, &mo, &d, &h, &mi, &se,
		   &n) != 7)
		return -1;
	*id = n;
	return clock_days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 +
	       se;
}

static int is_running(const struct journal_op *ops, size_t n, long long id)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (ops[i].id == id)
			return 1;
	return 0;
}

static int prune_journal(struct restack_result *out, struct ctx *ctx,
			 const char *cutoff, int dry_run)
{
	struct db *db;
	int rc, n = 0;

	if ((rc = ctx_db_if_any(&db, ctx)) < 0 || !db)
		return rc;
	if ((rc = journal_count_finished_before(&n, db, cutoff, &ctx->err)) < 0)
		return rc;
	if (n)
		strvec_push_owned(&out->done,
				  xasprintf("%s %d finished operation%s",
					    dry_run ? "would prune" : "pruned",
					    n, n == 1 ? "" : "s"));
	if (dry_run || !n)
		return 0;
	return journal_prune_finished_before(db, cutoff, &ctx->err);
}

int stack_gc(struct restack_result *out, struct ctx *ctx, long days,
	     int dry_run)
{
	static const char prefix[] = "refs/campaign/backup/";
	git_repository *repo;
	git_reference_iterator *it = NULL;
	git_reference *ref;
	struct journal_op *ops = NULL;
	struct db *db;
	size_t nops = 0;
	long long cutoff = (long long)time(NULL) - (long long)days * 86400;
	char iso[CLOCK_ISO_SIZE], last[256] = "";
	int rc;

	memset(out, 0, sizeof(*out));
	if ((rc = ctx_repo(&repo, ctx, 0)) < 0)
		return rc;
	if ((rc = ctx_db_if_any(&db, ctx)) < 0 ||
	    (db && (rc = journal_unfinished(&ops, &nops, db, &ctx->err)) < 0))
		return rc;
	if ((rc = git_reference_iterator_glob_new(
		     &it, repo, "refs/campaign/backup/*")) < 0) {
		rc = error_git(&ctx->err, rc, "cannot list the backups");
		goto out;
	}
	while ((rc = git_reference_next(&ref, it)) == 0) {
		const char *name = git_reference_name(ref) + sizeof(prefix) - 1;
		long long id = 0, t = stamp_time(name, &id);
		size_t dir = strcspn(name, "/");

		if (t >= 0 && t < cutoff && !is_running(ops, nops, id)) {
			if (strlen(last) != dir || strncmp(last, name, dir)) {
				snprintf(last, sizeof(last), "%.*s", (int)dir,
					 name);
				strvec_push_owned(
					&out->done,
					xasprintf("%s %s%s/",
						  dry_run ? "would prune"
							  : "pruned",
						  prefix, last));
			}
			if (!dry_run && git_reference_delete(ref) < 0) {
				rc = error_git(&ctx->err, -1,
					       "cannot delete '%s'",
					       git_reference_name(ref));
				git_reference_free(ref);
				goto out;
			}
		}
		git_reference_free(ref);
	}
	if (rc != GIT_ITEROVER) {
		rc = error_git(&ctx->err, rc, "cannot list the backups");
		goto out;
	}
	clock_iso(iso, (time_t)cutoff);
	rc = prune_journal(out, ctx, iso, dry_run);
	if (rc == 0 && !out->done.nr)
		out->nothing = 1;
out:
	git_reference_iterator_free(it);
	journal_ops_free(ops, nops);
	return rc;
}

int stack_undo_steps(struct restack_result *out, struct ctx *ctx, long steps)
{
	struct restack_result one;
	long k;
	size_t i;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	for (k = 0; k < steps; k++) {
		rc = stack_undo(&one, ctx);
		/* a refused undo changed nothing: its lines are not said */
		for (i = 0; rc == 0 && i < one.notes.nr; i++)
			strvec_push(&out->notes, one.notes.v[i]);
		out->op_id = one.op_id ? one.op_id : out->op_id;
		restack_result_release(&one);
		if (rc < 0)
			break;
	}
	return rc;
}
