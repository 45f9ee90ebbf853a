/* Journaled stack operations: the state the journal holds, backups, the
 * all-at-once ref update and the work tree at the end or on abort. */
#include "core/stack/op.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "core/records/journal.h"
#include "core/stack/graph.h"
#include "core/stack/recover.h"
#include "core/stack/renamed.h"
#include "core/stack/treediff.h"
#include "core/stack/worktrees.h"
#include "io/gitcfg.h"
#include "io/proc.h"
#include "io/repo.h"
#include "io/signature.h"
#include "util/buf.h"
#include "util/clock.h"
#include "util/strvec.h"
#include "util/json.h"
#include "util/xalloc.h"

char *stack_worktree_id(git_repository *repo)
{
	const char *mine = git_repository_path(repo);
	const char *common = git_repository_commondir(repo);
	size_t n = strlen(common);

	if (!strncmp(mine, common, n) && !strncmp(mine + n, "worktrees/", 10))
		return xstrndup(mine + n + 10, strcspn(mine + n + 10, "/"));
	return xstrdup("");
}

static void free_branch(struct op_branch *b)
{
	free(b->name);
	free(b->parent_old);
	free(b->tip_old);
	free(b->parent_new);
	free(b->wt_path);
	cJSON_Delete(b->notes);
}

void stack_op_free(struct stack_op *op)
{
	size_t i;

	if (!op)
		return;
	for (i = 0; i < op->n; i++)
		free_branch(&op->b[i]);
	free(op->b);
	free(op->kind);
	free(op->name);
	free(op->head);
	free(op->index_copy);
	free(op->wt);
	cJSON_Delete(op->fixed);
	cJSON_Delete(op->c_rest);
	cJSON_Delete(op->c_notes);
	cJSON_Delete(op->p_rest);
	cJSON_Delete(op->p_notes);
	cJSON_Delete(op->apply);
	free(op);
}

static cJSON *plan_json(const struct stack_op *op)
{
	cJSON *j = cJSON_CreateObject(), *a;
	size_t i;

	json_add_str_or_null(j, "kind", op->kind);
	json_add_str_or_null(j, "name", op->name);
	json_add_str_or_null(j, "head", op->head);
	cJSON_AddItemToObject(j, "head_old", repo_oid_json(&op->head_old));
	cJSON_AddBoolToObject(j, "may_checkout", op->may_checkout);
	json_add_str_or_null(j, "index_copy", op->index_copy);
	json_add_str_or_null(j, "wt", op->wt);
	a = cJSON_AddArrayToObject(j, "branches");
	for (i = 0; i < op->n; i++) {
		const struct op_branch *b = &op->b[i];
		cJSON *e = cJSON_CreateObject();

		cJSON_AddStringToObject(e, "name", b->name);
		cJSON_AddItemToObject(e, "old", repo_oid_json(&b->old));
		cJSON_AddItemToObject(e, "upstream",
				      repo_oid_json(&b->upstream));
		cJSON_AddItemToObject(e, "onto", repo_oid_json(&b->onto));
		cJSON_AddNumberToObject(e, "pidx", b->pidx);
		json_add_str_or_null(e, "parent_old", b->parent_old);
		json_add_str_or_null(e, "tip_old", b->tip_old);
		json_add_str_or_null(e, "parent_new", b->parent_new);
		if (b->wt_path)
			cJSON_AddStringToObject(e, "wt_path", b->wt_path);
		cJSON_AddItemToArray(a, e);
	}
	if (op->fixed)
		cJSON_AddItemReferenceToObject(j, "fixed", op->fixed);
	return j;
}

static int plan_from_json(struct stack_op *op, const cJSON *j)
{
	const cJSON *a = cJSON_GetObjectItemCaseSensitive(j, "branches"), *e;
	const cJSON *f = cJSON_GetObjectItemCaseSensitive(j, "fixed");
	size_t i = 0;

	op->kind = json_dup_str(j, "kind");
	op->name = json_dup_str(j, "name");
	op->head = json_dup_str(j, "head");
	op->index_copy = json_dup_str(j, "index_copy");
	op->wt = json_dup_str(j, "wt");
	op->may_checkout = cJSON_IsTrue(
		cJSON_GetObjectItemCaseSensitive(j, "may_checkout"));
	if (!op->kind || !op->name ||
	    repo_oid_from_json(&op->head_old, cJSON_GetObjectItemCaseSensitive(
						      j, "head_old")) < 0)
		return GCAMP_EFATAL;
	op->n = (size_t)cJSON_GetArraySize(a);
	op->b = xcalloc(op->n + 1, sizeof(*op->b));
	cJSON_ArrayForEach(e, a) {
		struct op_branch *b = &op->b[i++];

		b->name = json_dup_str(e, "name");
		b->parent_old = json_dup_str(e, "parent_old");
		b->tip_old = json_dup_str(e, "tip_old");
		b->parent_new = json_dup_str(e, "parent_new");
		b->wt_path = json_dup_str(e, "wt_path");
		b->pidx = cJSON_GetObjectItemCaseSensitive(e, "pidx")->valueint;
		if (!b->name ||
		    repo_oid_from_json(
			    &b->old,
			    cJSON_GetObjectItemCaseSensitive(e, "old")) < 0 ||
		    repo_oid_from_json(&b->upstream,
				       cJSON_GetObjectItemCaseSensitive(
					       e, "upstream")) < 0 ||
		    repo_oid_from_json(
			    &b->onto,
			    cJSON_GetObjectItemCaseSensitive(e, "onto")) < 0)
			return GCAMP_EFATAL;
	}
	if (f)
		op->fixed = cJSON_Duplicate(f, 1);
	return 0;
}

static cJSON *take(const cJSON *o, const char *key)
{
	const cJSON *j = cJSON_GetObjectItemCaseSensitive(o, key);

	return j ? cJSON_Duplicate(j, 1) : cJSON_CreateArray();
}

static size_t json_index(const cJSON *o)
{
	return (size_t)cJSON_GetObjectItemCaseSensitive(o, "i")->valueint;
}

/* Replays the journal of op into its state. */
static int op_load(struct stack_op **out, struct db *db, long long id,
		   const char *kind, struct error *err)
{
	struct journal_step *steps = NULL;
	struct stack_op *op = xcalloc(1, sizeof(*op));
	size_t n = 0, k, i;
	int rc;

	*out = NULL;
	op->id = id;
	if ((rc = journal_read(&steps, &n, db, id, err)) < 0)
		goto out;
	for (k = 0; k < n; k++) {
		const char *s = steps[k].step;
		cJSON *d = cJSON_Parse(steps[k].data);

		rc = d ? 0 : GCAMP_EFATAL;
		if (!d) {
		} else if (!strcmp(s, "plan")) {
			rc = plan_from_json(op, d);
		} else if (!strcmp(s, "backup")) {
			op->backed_up = 1;
		} else if (!strcmp(s, "replay") &&
			   (i = json_index(d)) < op->n) {
			op->b[i].done = 1;
			rc = repo_oid_from_json(
				&op->b[i].new,
				cJSON_GetObjectItemCaseSensitive(d, "new"));
			cJSON_Delete(op->b[i].notes);
			op->b[i].notes = take(d, "notes");
			op->partial = 0;
		} else if (!strcmp(s, "conflict")) {
			op->conflict = 1;
			op->stopped = 0;
			op->partial = 0;
			op->ci = json_index(d);
			op->c_checkout =
				cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(
					d, "checkout"));
			op->touched |= op->c_checkout;
			cJSON_Delete(op->c_rest);
			cJSON_Delete(op->c_notes);
			op->c_rest = take(d, "rest");
			op->c_notes = take(d, "notes");
			if (repo_oid_from_json(&op->c_commit,
					       cJSON_GetObjectItemCaseSensitive(
						       d, "commit")) < 0 ||
			    repo_oid_from_json(&op->c_onto,
					       cJSON_GetObjectItemCaseSensitive(
						       d, "onto")) < 0)
				rc = GCAMP_EFATAL;
		} else if (!strcmp(s, "stopped")) {
			op->stopped = 1;
		} else if (!strcmp(s, "resolved")) {
			op->conflict = 0;
			op->partial = 1;
			op->pi = json_index(d);
			cJSON_Delete(op->p_rest);
			cJSON_Delete(op->p_notes);
			op->p_rest = take(d, "rest");
			op->p_notes = take(d, "notes");
			rc = repo_oid_from_json(
				&op->p_new,
				cJSON_GetObjectItemCaseSensitive(d, "new"));
		} else if (!strcmp(s, "skip") && (i = json_index(d)) < op->n) {
			op->b[i].skipped = 1;
			op->conflict = 0;
			op->touched = 0;
		} else if (!strcmp(s, "apply")) {
			cJSON_Delete(op->apply);
			op->apply = cJSON_Duplicate(d, 1);
		} else if (!strcmp(s, "applied")) {
			op->applied = 1;
		} else if (!strcmp(s, "checkout")) {
			op->checked = 1;
		}
		cJSON_Delete(d);
		if (rc < 0) {
			rc = error_set(err, GCAMP_EFATAL,
				       "the journal of operation %lld is "
				       "damaged at step '%s'",
				       id, s);
			goto out;
		}
	}
	if (!op->kind && kind) {
		/* killed between journal_begin and its plan: nothing moved */
		op->kind = xstrdup(kind);
		op->planless = 1;
	} else if (!op->kind) {
		rc = error_set(err, GCAMP_EFATAL,
			       "the journal of operation %lld has no plan", id);
		goto out;
	}
	*out = op;
	op = NULL;
out:
	journal_steps_free(steps, n);
	stack_op_free(op);
	return rc;
}

int stack_op_load(struct stack_op **out, struct ctx *ctx, long long id)
{
	struct db *db;
	int rc;

	*out = NULL;
	if ((rc = ctx_db(&db, ctx, DB_CREATE)) < 0)
		return rc;
	return op_load(out, db, id, NULL, &ctx->err);
}

int stack_op_kind_is_stack(const char *kind)
{
	return !strcmp(kind, "restack") || !strcmp(kind, "stack-delete") ||
	       !strcmp(kind, "undo") || !strcmp(kind, "stack-rename") ||
	       !strcmp(kind, "stack-fold") || !strcmp(kind, "stack-split");
}

/* "2026-11-29T12:00:00Z" as seconds since the epoch; 0 when not that */
static long long iso_epoch(const char *iso)
{
	int y, mo, d, h, mi, sec;

	if (!iso ||
	    sscanf(iso, "%d-%d-%dT%d:%d:%d", &y, &mo, &d, &h, &mi, &sec) != 6)
		return 0;
	return clock_days_from_civil(y, mo, d) * 86400 + h * 3600LL +
	       mi * 60LL + sec;
}

static int pid_alive(long long pid)
{
	return proc_alive(pid);
}

int stack_op_unfinished(struct stack_op **out, struct ctx *ctx)
{
	struct journal_op *ops = NULL;
	struct db *db;
	size_t n = 0, i;
	int rc;

	*out = NULL;
	if ((rc = ctx_db(&db, ctx, DB_CREATE)) < 0 ||
	    (rc = journal_unfinished(&ops, &n, db, &ctx->err)) < 0)
		return rc;
	for (i = 0; i < n; i++) {
		if (!stack_op_kind_is_stack(ops[i].kind))
			continue;
		if (pid_alive(ops[i].pid)) {
			rc = error_set(&ctx->err, GCAMP_EFATAL,
				       "another git campaign (pid %lld) is "
				       "running %s #%lld",
				       ops[i].pid, ops[i].kind, ops[i].id);
			error_hint(&ctx->err, "wait for it to finish");
			break;
		}
		rc = op_load(out, db, ops[i].id, ops[i].kind, &ctx->err);
		if (rc == 0)
			(*out)->started = iso_epoch(ops[i].started_at);
		break;
	}
	journal_ops_free(ops, n);
	return rc;
}

int stack_op_none_pending(struct ctx *ctx)
{
	struct stack_op *op = NULL;
	int rc = stack_op_unfinished(&op, ctx);

	if (rc == 0 && op && op->planless) {
		/* it changed nothing: closed, it is no longer in the way */
		rc = stack_op_finish(op, ctx, 0);
	} else if (rc == 0 && op) {
		rc = error_set(&ctx->err, GCAMP_EFATAL,
			       "%s #%lld is unfinished", op->kind, op->id);
		error_hint(&ctx->err,
			   "finish it with 'git campaign stack continue' or "
			   "undo it with 'git campaign stack abort'");
	}
	stack_op_free(op);
	return rc;
}

cJSON *stack_op_record_json(const char *branch, const char *parent_old,
			    const char *tip_old, const char *parent_new,
			    const char *tip_new)
{
	cJSON *e = cJSON_CreateObject();

	cJSON_AddStringToObject(e, "branch", branch);
	json_add_str_or_null(e, "parent_old", parent_old);
	json_add_str_or_null(e, "tip_old", tip_old);
	json_add_str_or_null(e, "parent_new", parent_new);
	json_add_str_or_null(e, "tip_new", tip_new);
	return e;
}

int stack_op_step(struct stack_op *op, struct ctx *ctx, const char *name,
		  cJSON *data)
{
	char *s = data ? cJSON_PrintUnformatted(data) : NULL;
	struct db *db;
	int rc;

	cJSON_Delete(data);
	rc = ctx_db(&db, ctx, DB_CREATE);
	if (rc == 0)
		rc = journal_step(db, op->id, name, s, &ctx->err);
	free(s);
	return rc;
}

/* Copies file from to to (through to.lock, renamed into place). */
static int copy_file(const char *from, const char *to, struct error *err)
{
	char *lock = xasprintf("%s.lock", to);
	char buf[65536];
	FILE *in = fopen(from, "rb"), *o = NULL;
	size_t n;
	int rc = 0;

	if (!in) {
		rc = errno == ENOENT ? GCAMP_ENOTFOUND
				     : error_set(err, GCAMP_EFATAL,
						 "cannot read '%s': %s", from,
						 strerror(errno));
		goto out;
	}
	if (!(o = fopen(lock, "wb"))) {
		rc = error_set(err, GCAMP_EFATAL, "cannot write '%s': %s", lock,
			       strerror(errno));
		goto out;
	}
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
		if (fwrite(buf, 1, n, o) != n)
			break;
	if (ferror(in) || fflush(o) || ferror(o) || fsync(fileno(o))) {
		rc = error_set(err, GCAMP_EFATAL, "cannot copy '%s': %s", from,
			       strerror(errno));
		goto out;
	}
	fclose(o);
	o = NULL;
	if (rename(lock, to) < 0)
		rc = error_set(err, GCAMP_EFATAL, "cannot write '%s': %s", to,
			       strerror(errno));
out:
	if (o) {
		fclose(o);
		unlink(lock);
	}
	if (in)
		fclose(in);
	free(lock);
	return rc;
}

int stack_op_begin(struct stack_op *op, struct ctx *ctx, const char *summary)
{
	git_repository *repo;
	struct db *db;
	struct buf wt = BUF_INIT, idx = BUF_INIT;
	char now[21], stamp[21], *copy;
	size_t i, k = 0;
	int rc;

	if ((rc = ctx_repo(&repo, ctx, 1)) < 0 ||
	    (rc = ctx_db(&db, ctx, DB_CREATE)) < 0)
		return rc;
	buf_puts(&wt, git_repository_workdir(repo));
	rc = journal_begin(&op->id, db, op->kind, wt.ptr, summary,
			   "git campaign stack continue",
			   "git campaign stack abort", &ctx->err);
	if (rc < 0)
		goto out;
	clock_now_iso(now);
	for (i = 0; now[i]; i++)
		if (now[i] != '-' && now[i] != ':')
			stamp[k++] = now[i];
	stamp[k] = 0;
	op->name = xasprintf("%s-%lld", stamp, op->id);
	op->wt = stack_worktree_id(repo);
	if (op->head) {
		buf_addf(&idx, "%sindex", git_repository_path(repo));
		op->index_copy = xasprintf("campaign-%s.index", op->name);
		copy = xasprintf("%s%s", git_repository_path(repo),
				 op->index_copy);
		rc = copy_file(idx.ptr, copy, &ctx->err);
		free(copy);
		if (rc == GCAMP_ENOTFOUND) {
			free(op->index_copy);
			op->index_copy = NULL;
			rc = 0;
		}
		if (rc < 0)
			goto out;
	}
	rc = stack_op_step(op, ctx, "plan", plan_json(op));
out:
	buf_release(&wt);
	buf_release(&idx);
	return rc;
}

int stack_op_save_index(struct stack_op *op, struct ctx *ctx)
{
	git_repository *repo;
	char *idx, *copy;
	int rc;

	if (!op->index_copy)
		return 0;
	if ((rc = ctx_repo(&repo, ctx, 1)) < 0)
		return rc;
	idx = xasprintf("%sindex", git_repository_path(repo));
	copy = xasprintf("%s%s", git_repository_path(repo), op->index_copy);
	rc = copy_file(idx, copy, &ctx->err);
	free(idx);
	free(copy);
	return rc == GCAMP_ENOTFOUND ? 0 : rc;
}

static int backup_one(git_repository *repo, const struct stack_op *op,
		      const char *branch, const git_oid *old, struct error *err)
{
	git_reference *ref = NULL;
	char *name = xasprintf("refs/campaign/backup/%s/%s", op->name, branch);
	char *msg =
		xasprintf("campaign: backup before %s #%lld", op->kind, op->id);
	int rc = git_reference_create(&ref, repo, name, old, 1, msg);

	if (rc < 0) {
		rc = error_git(err, rc, "cannot save '%s'", name);
		stack_recover_lock_hint(err, git_repository_commondir(repo),
					name);
	}
	git_reference_free(ref);
	free(name);
	free(msg);
	return rc;
}

int stack_op_backup(struct stack_op *op, struct ctx *ctx)
{
	const cJSON *refs, *e;
	git_repository *repo;
	size_t i;
	int rc;

	if ((rc = ctx_repo(&repo, ctx, 1)) < 0)
		return rc;
	for (i = 0; i < op->n; i++)
		if ((rc = backup_one(repo, op, op->b[i].name, &op->b[i].old,
				     &ctx->err)) < 0)
			return rc;
	refs = op->fixed ? cJSON_GetObjectItemCaseSensitive(op->fixed, "refs")
			 : NULL;
	cJSON_ArrayForEach(e, refs) {
		git_oid old;
		char *branch = json_dup_str(e, "branch");

		if (branch &&
		    repo_oid_from_json(&old, cJSON_GetObjectItemCaseSensitive(
						     e, "old")) == 0)
			rc = backup_one(repo, op, branch, &old, &ctx->err);
		free(branch);
		if (rc < 0)
			return rc;
	}
	op->backed_up = 1;
	return stack_op_step(op, ctx, "backup", NULL);
}

/* The id a ref has now, or 0 in *exists when it has none. */
static int ref_now(git_oid *out, int *exists, git_repository *repo,
		   const char *name)
{
	int rc = git_reference_name_to_id(out, repo, name);

	*exists = rc == 0;
	if (rc == GIT_ENOTFOUND) {
		git_error_clear();
		return 0;
	}
	return rc;
}

/* Every branch's record in one write of the config (stack_record's keys) */
static int apply_records(struct stack_op *op, struct ctx *ctx, int inverse)
{
	const cJSON *e,
		*cfg = cJSON_GetObjectItemCaseSensitive(op->apply, "cfg");
	size_t n = (size_t)cJSON_GetArraySize(cfg), k = 0, i;
	const char **keys = xcalloc(2 * n + 1, sizeof(*keys));
	char **vals = xcalloc(2 * n + 1, sizeof(*vals));
	struct gitcfg *gc;
	int rc = 0;

	cJSON_ArrayForEach(e, cfg) {
		const char *b = json_get_str(e, "branch");

		if (!b) {
			rc = GCAMP_EFATAL;
			goto out;
		}
		keys[k] = xasprintf("branch.%s.campaignParent", b);
		vals[k++] =
			json_dup_str(e, inverse ? "parent_old" : "parent_new");
		keys[k] = xasprintf("branch.%s.campaignParentTip", b);
		vals[k++] = json_dup_str(e, inverse ? "tip_old" : "tip_new");
	}
	if (k && (rc = ctx_config(&gc, ctx)) == 0)
		rc = gitcfg_set_all(gc, keys, (const char *const *)vals, k,
				    &ctx->err);
out:
	for (i = 0; i < k; i++) {
		free((char *)keys[i]);
		free(vals[i]);
	}
	free(keys);
	free(vals);
	return rc;
}

/* One application of op->apply's refs: what its steps share. */
struct ref_tx {
	struct stack_op *op;
	struct ctx *ctx;
	git_repository *repo;
	int inverse; /* revert: each ref goes from "new" back to "old" */
	git_transaction *tx;
	git_signature *sig;  /* the reflog entries' identity */
	char *msg;	     /* and their message */
	struct strvec *left; /* not NULL: a ref someone else moved is left
				where it is, and named here */
};

/* One entry of op->apply's "refs": the ref and the ids it moves between */
struct ref_move {
	const char *name;
	git_oid from, to;
	int has_from, has_to; /* 0: the ref does not exist on that side */
};

static void ref_move_from_json(struct ref_move *m, const cJSON *e, int inverse)
{
	const cJSON *jf =
		cJSON_GetObjectItemCaseSensitive(e, inverse ? "new" : "old");
	const cJSON *jt =
		cJSON_GetObjectItemCaseSensitive(e, inverse ? "old" : "new");

	m->name = cJSON_GetObjectItemCaseSensitive(e, "ref")->valuestring;
	m->has_from = repo_oid_from_json(&m->from, jf) == 0;
	m->has_to = repo_oid_from_json(&m->to, jt) == 0;
}

/* 1 when m's ref is where it should go already (a second run), 0 when it
 * is where its move starts; an error when it moved under us */
static int check_ref(const struct ref_tx *t, const struct ref_move *m)
{
	struct error *err = &t->ctx->err;
	git_oid now;
	int exists, rc;

	if ((rc = ref_now(&now, &exists, t->repo, m->name)) < 0)
		return error_git(err, rc, "cannot read '%s'", m->name);
	if (exists == m->has_to && (!exists || git_oid_equal(&now, &m->to)))
		return 1;
	if (exists != m->has_from ||
	    (exists && !git_oid_equal(&now, &m->from))) {
		if (t->left)
			return 2;
		rc = error_set(err, GCAMP_EFATAL,
			       "'%s' moved during the operation; nothing was "
			       "changed",
			       m->name);
		error_hint(err,
			   "its tip before the operation is kept under "
			   "refs/campaign/backup/%s/",
			   t->op->name);
		return rc;
	}
	return 0;
}

/* A transaction in t->tx that holds the lock of every ref, each checked
 * once locked: a ref that moved under us stops everything before anything
 * changed */
static int build_transaction(struct ref_tx *t)
{
	const cJSON *e;
	int rc;

	if ((rc = git_transaction_new(&t->tx, t->repo)) < 0)
		return error_git(&t->ctx->err, rc,
				 "cannot start a ref transaction");
	cJSON_ArrayForEach(
		e, cJSON_GetObjectItemCaseSensitive(t->op->apply, "refs")) {
		struct ref_move m;

		ref_move_from_json(&m, e, t->inverse);
		if ((rc = git_transaction_lock_ref(t->tx, m.name)) < 0) {
			rc = error_git(&t->ctx->err, rc, "cannot lock '%s'",
				       m.name);
			stack_recover_lock_hint(
				&t->ctx->err, git_repository_commondir(t->repo),
				m.name);
			return rc;
		}
		if ((rc = check_ref(t, &m)) < 0)
			return rc;
	}
	return 0;
}

/* Sets every locked ref that has to move (its reflog entry with it: the
 * commit writes both), then commits the transaction */
static int apply(struct ref_tx *t)
{
	const cJSON *e;
	int rc;

	cJSON_ArrayForEach(
		e, cJSON_GetObjectItemCaseSensitive(t->op->apply, "refs")) {
		struct ref_move m;

		ref_move_from_json(&m, e, t->inverse);
		if ((rc = check_ref(t, &m)) < 0)
			return rc;
		if (rc == 2)
			strvec_push_owned(
				t->left,
				xasprintf("left '%s' where it is: it moved "
					  "since %s #%lld began (its tip "
					  "before is kept under "
					  "refs/campaign/backup/%s/)",
					  m.name, t->op->kind, t->op->id,
					  t->op->name));
		if (rc)
			continue;
		if (m.has_to)
			rc = git_transaction_set_target(t->tx, m.name, &m.to,
							t->sig, t->msg);
		else
			rc = git_transaction_remove(t->tx, m.name);
		if (rc < 0)
			return error_git(&t->ctx->err, rc, "cannot update '%s'",
					 m.name);
	}
	if ((rc = git_transaction_commit(t->tx)) < 0)
		return error_git(&t->ctx->err, rc,
				 "cannot update the branches");
	return 0;
}

int stack_op_apply_refs(struct stack_op *op, struct ctx *ctx, int inverse,
			struct strvec *left)
{
	struct ref_tx t = {op, ctx, NULL, inverse, NULL, NULL, NULL, left};
	int rc;

	if ((rc = ctx_repo(&t.repo, ctx, 1)) < 0)
		return rc;
	t.msg = xasprintf("campaign: %s%s #%lld", inverse ? "abort " : "",
			  op->kind, op->id);
	if ((rc = ctx_signature(&t.sig, ctx, SIG_TOOL)) < 0)
		goto out;
	git_error_clear();
	/* a renamed branch moves first: the records then name it */
	if ((rc = stack_rename_apply(ctx, t.repo, op->apply, inverse)) < 0 ||
	    (rc = build_transaction(&t)) < 0 || (rc = apply(&t)) < 0 ||
	    (rc = stack_head_apply(ctx, t.repo, op->apply, inverse)) < 0)
		goto out;
	rc = apply_records(op, ctx, inverse);
out:
	git_transaction_free(t.tx);
	git_signature_free(t.sig);
	free(t.msg);
	return rc;
}

/* The paths where index and commit's tree differ, appended to out. */
static int changed_paths(struct strvec *out, git_repository *repo,
			 git_commit *commit, git_index *index)
{
	struct tree_changes ch = TREE_CHANGES_INIT;
	git_tree *tree = NULL, *from = NULL;
	git_diff *diff = NULL;
	git_oid at;
	size_t i, n;
	int rc;

	if ((rc = git_commit_tree(&tree, commit)) < 0)
		goto out;
	/* an index that is a tree (its cache-tree says which) differs from
	 * the commit where the two trees do, found without reading the
	 * folders they share */
	if (repo_index_tree(&at, index) == 0 &&
	    git_tree_lookup(&from, repo, &at) == 0 &&
	    stack_tree_changes(&ch, repo, from, tree) == 0) {
		for (i = 0; i < ch.n; i++)
			strvec_push(out, ch.v[i].path);
		goto out;
	}
	git_error_clear();
	if ((rc = git_diff_tree_to_index(&diff, repo, tree, index, NULL)) < 0)
		goto out;
	n = git_diff_num_deltas(diff);
	for (i = 0; i < n; i++) {
		const git_diff_delta *d = git_diff_get_delta(diff, i);

		strvec_push(out, d->old_file.path);
		if (strcmp(d->old_file.path, d->new_file.path))
			strvec_push(out, d->new_file.path);
	}
out:
	stack_tree_changes_release(&ch);
	git_diff_free(diff);
	git_tree_free(from);
	git_tree_free(tree);
	return rc;
}

/* The branch HEAD names once op's updates are in: op->head, or where
 * their "head" entry moved it (a fold, its undo) */
static const char *head_after(const struct stack_op *op)
{
	const cJSON *h =
		op->apply ? cJSON_GetObjectItemCaseSensitive(op->apply, "head")
			  : NULL;
	const char *from = json_get_str(h, "old"), *to = json_get_str(h, "new");

	return from && to && !strcmp(from, op->head) ? to : op->head;
}

/* The other work trees whose branch moved follow it: their index and
 * files brought to its new tip, before the journal says "checkout", so
 * that continue after a kill takes them up again */
static int checkout_elsewhere(struct stack_op *op, struct ctx *ctx)
{
	struct stack_wt_move *m = NULL;
	size_t i, n = 0;
	int rc = 0;

	if (!op->checked)
		n = stack_op_wt_moves(&m, op);
	for (i = 0; i < n; i++) {
		if ((rc = stack_wt_checkout(m[i].path, &m[i].new, &ctx->err)) <
		    0) {
			error_clear(&ctx->err);
			rc = error_set(&ctx->err, GCAMP_EFATAL,
				       "the branches are updated but the work "
				       "tree of '%s' (%s) is not",
				       m[i].branch, m[i].path);
			error_hint(&ctx->err,
				   "move the files in the way aside there, "
				   "then run 'git campaign stack continue'");
			break;
		}
	}
	free(m);
	return rc;
}

size_t stack_op_wt_moves(struct stack_wt_move **out, const struct stack_op *op)
{
	const cJSON *refs =
		op->fixed ? cJSON_GetObjectItemCaseSensitive(op->fixed, "refs")
			  : NULL;
	const cJSON *e;
	size_t i, n = 0;

	*out = xcalloc(op->n + (size_t)cJSON_GetArraySize(refs) + 1,
		       sizeof(**out));
	for (i = 0; i < op->n; i++) {
		const struct op_branch *b = &op->b[i];

		if (!b->wt_path || !b->done || git_oid_equal(&b->old, &b->new))
			continue;
		(*out)[n++] = (struct stack_wt_move){b->name, b->wt_path,
						     b->old, b->new};
	}
	cJSON_ArrayForEach(e, refs) {
		struct stack_wt_move *m = &(*out)[n];

		m->branch = json_get_str(e, "branch");
		m->path = json_get_str(e, "wt_path");
		if (m->branch && m->path &&
		    repo_oid_from_json(
			    &m->old,
			    cJSON_GetObjectItemCaseSensitive(e, "old")) == 0 &&
		    repo_oid_from_json(
			    &m->new,
			    cJSON_GetObjectItemCaseSensitive(e, "new")) == 0)
			n++;
	}
	return n;
}

int stack_op_restore_elsewhere(struct stack_op *op, struct ctx *ctx)
{
	struct stack_wt_move *m = NULL;
	git_repository *repo;
	size_t i, n;
	int rc;

	if ((rc = ctx_repo(&repo, ctx, 1)) < 0)
		return rc;
	n = stack_op_wt_moves(&m, op);
	for (i = 0; i < n && rc == 0; i++) {
		char *ref = xasprintf("refs/heads/%s", m[i].branch);
		git_oid now;
		int back;

		back = git_reference_name_to_id(&now, repo, ref) == 0 &&
		       git_oid_equal(&now, &m[i].old);
		git_error_clear();
		free(ref);
		/* only one moved back: one left where someone moved it is
		 * theirs */
		if (back)
			rc = stack_wt_checkout(m[i].path, &m[i].old, &ctx->err);
	}
	free(m);
	return rc;
}

int stack_op_checkout(struct stack_op *op, struct ctx *ctx)
{
	struct strvec paths = STRVEC_INIT;
	git_checkout_options co;
	git_repository *repo;
	git_commit *commit = NULL;
	git_index *index = NULL;
	char *ref = NULL;
	git_oid tip;
	int rc;

	git_checkout_options_init(&co, GIT_CHECKOUT_OPTIONS_VERSION);
	if ((rc = ctx_repo(&repo, ctx, 1)) < 0)
		return rc;
	if ((rc = checkout_elsewhere(op, ctx)) < 0)
		return rc;
	if (!op->head || op->checked)
		goto done;
	ref = xasprintf("refs/heads/%s", head_after(op));
	if (git_reference_name_to_id(&tip, repo, ref) < 0) {
		git_error_clear();
		goto done;
	}
	if (!op->touched && git_oid_equal(&tip, &op->head_old))
		goto done;
	if ((rc = git_commit_lookup(&commit, repo, &tip)) < 0 ||
	    (rc = git_repository_index(&index, repo)) < 0) {
		rc = error_git(&ctx->err, rc, "cannot read '%s'", op->head);
		goto out;
	}
	/* only the paths that differ between the index and the new tip are
	 * looked at and written: the other files keep their mtimes, and the
	 * work tree is not scanned */
	co.checkout_strategy =
		GIT_CHECKOUT_SAFE | GIT_CHECKOUT_DISABLE_PATHSPEC_MATCH;
	co.baseline_index = index;
	if ((rc = changed_paths(&paths, repo, commit, index)) < 0 ||
	    (rc = stack_recover_done_paths(&paths, repo, commit, index)) < 0) {
		rc = error_git(&ctx->err, rc, "cannot compare with '%s'",
			       op->head);
		goto out;
	}
	co.paths.strings = paths.v;
	co.paths.count = paths.nr;
	rc = paths.nr ? git_checkout_tree(repo, (git_object *)commit, &co) : 0;
	if (rc < 0) {
		rc = error_git(&ctx->err, rc,
			       "the branches are updated but the work tree "
			       "of '%s' is not",
			       op->head);
		error_hint(&ctx->err, "move the files in the way aside, then "
				      "run 'git campaign stack continue'");
		goto out;
	}
	if ((rc = git_repository_set_head(repo, ref)) < 0) {
		rc = error_git(&ctx->err, rc, "cannot check out '%s'",
			       op->head);
		goto out;
	}
done:
	op->checked = 1;
	rc = stack_op_step(op, ctx, "checkout", NULL);
out:
	strvec_clear(&paths);
	git_commit_free(commit);
	git_index_free(index);
	free(ref);
	return rc;
}

int stack_op_restore_worktree(struct stack_op *op, struct ctx *ctx)
{
	git_checkout_options co;
	git_repository *repo;
	git_commit *commit = NULL;
	git_index *index = NULL;
	char *ref = NULL, *idx = NULL;
	int rc;

	git_checkout_options_init(&co, GIT_CHECKOUT_OPTIONS_VERSION);
	if ((rc = ctx_repo(&repo, ctx, 1)) < 0)
		return rc;
	if (!op->head)
		return 0;
	ref = xasprintf("refs/heads/%s", op->head);
	if ((rc = git_commit_lookup(&commit, repo, &op->head_old)) < 0 ||
	    (rc = git_repository_index(&index, repo)) < 0 ||
	    (rc = git_index_read(index, 1)) < 0) {
		rc = error_git(&ctx->err, rc, "cannot read '%s'", op->head);
		goto out;
	}
	co.checkout_strategy = GIT_CHECKOUT_FORCE;
	co.baseline_index = index;
	if ((rc = git_checkout_tree(repo, (git_object *)commit, &co)) < 0 ||
	    (rc = git_repository_set_head(repo, ref)) < 0) {
		rc = error_git(&ctx->err, rc, "cannot restore the work tree");
		stack_recover_lock_hint(&ctx->err, git_repository_path(repo),
					"index");
		goto out;
	}
	if (op->index_copy) {
		char *copy = xasprintf("%s%s", git_repository_path(repo),
				       op->index_copy);

		idx = xasprintf("%sindex", git_repository_path(repo));
		rc = copy_file(copy, idx, &ctx->err);
		free(copy);
		if (rc == GCAMP_ENOTFOUND)
			rc = 0;
		if (rc < 0)
			goto out;
		git_index_read(index, 1);
	}
out:
	git_commit_free(commit);
	git_index_free(index);
	free(ref);
	free(idx);
	return rc;
}

void stack_op_drop_backups(git_repository *repo, const struct stack_op *op)
{
	git_reference_iterator *it = NULL;
	git_reference *ref;
	char *glob;

	if (!op->name)
		return;
	glob = xasprintf("refs/campaign/backup/%s/*", op->name);
	if (git_reference_iterator_glob_new(&it, repo, glob) == 0) {
		while (git_reference_next(&ref, it) == 0) {
			git_reference_delete(ref);
			git_reference_free(ref);
		}
	}
	git_reference_iterator_free(it);
	git_error_clear();
	free(glob);
}

int stack_op_finish(struct stack_op *op, struct ctx *ctx, int ok)
{
	git_repository *repo;
	struct db *db;
	int rc;

	if ((rc = ctx_repo(&repo, ctx, 1)) < 0 ||
	    (rc = ctx_db(&db, ctx, DB_CREATE)) < 0 ||
	    (rc = journal_finish(db, op->id, ok, &ctx->err)) < 0)
		return rc;
	if (op->index_copy) {
		char *copy = xasprintf("%s%s", git_repository_path(repo),
				       op->index_copy);

		unlink(copy);
		free(copy);
	}
	if (op->planless)
		stack_recover_drop_index_copies(repo, op->id);
	if (op->c_checkout || op->stopped) {
		/* the conflict's message, written for `git commit` */
		char *msg = xasprintf("%sMERGE_MSG", git_repository_path(repo));

		unlink(msg);
		free(msg);
	}
	return 0;
}
