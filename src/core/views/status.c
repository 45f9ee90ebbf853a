/* Gathering what status shows. */
#include "core/views/status.h"

#include <stdlib.h>
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <cjson/cJSON.h>

#include "core/base/outcache.h"
#include "core/stack/graph.h"
#include "core/stack/landed.h"
#include "core/stack/model.h"
#include "core/stack/conflict.h"
#include "core/stash/journal.h"
#include "io/db.h"
#include "io/gitlite.h"
#include "io/repo.h"
#include "util/buf.h"
#include "util/clock.h"
#include "util/json.h"
#include "util/xalloc.h"

void status_release(struct status *st)
{
	size_t i;

	if (!st)
		return;
	campaign_release(&st->campaign);
	free(st->branch);
	free(st->last_ab.at);
	free(st->last_ab.workload);
	free(st->last_ab.verdict);
	hypo_release(&st->next_hypo);
	finding_free(st->findings, st->nfindings);
	for (i = 0; i < st->nstack; i++) {
		free(st->stack[i].branch);
		free(st->stack[i].parent);
		free(st->stack[i].recorded);
	}
	free(st->stack);
	for (i = 0; i < st->nstashes; i++)
		free(st->stashes[i].name);
	free(st->stashes);
	journal_ops_free(st->ops, st->nops);
	stack_conflict_release(&st->conflict);
	free(st->index_path);
	memset(st, 0, sizeof(*st));
}

static int cmp_link(const void *a, const void *b)
{
	return strcmp(((const struct stack_link *)a)->branch,
		      ((const struct stack_link *)b)->branch);
}

static int collect_stack(struct status *st, struct ctx *ctx,
			 const struct refs *refs, struct gitcfg *cfg)
{
	struct stack_model m = STACK_MODEL_INIT;
	size_t i;
	int rc;

	rc = gitcfg_foreach(cfg, "branch.", "", stack_model_add, &m, &ctx->err);
	if (rc < 0)
		goto out;
	stack_model_resolve(&m, refs, st->campaign.remote);
	st->stack = xcalloc(m.n + 1, sizeof(*st->stack));
	/* roots first: the names move into the links below */
	for (i = 0; i < m.n; i++)
		st->stack[i].may_have_landed =
			m.rel[i].needs_restack && m.rel[i].tip_now[0] &&
			!stack_model_find(&m, m.rel[i].parent);
	for (i = 0; i < m.n; i++) {
		struct stack_link *l = &st->stack[st->nstack++];

		l->branch = m.rel[i].branch;
		l->parent = m.rel[i].parent;
		m.rel[i].branch = m.rel[i].parent = NULL;
		l->parent_missing = !m.rel[i].parent_now[0];
		l->needs_restack = m.rel[i].needs_restack;
		if (l->may_have_landed) {
			snprintf(l->tip, sizeof(l->tip), "%s",
				 m.rel[i].tip_now);
			snprintf(l->parent_tip, sizeof(l->parent_tip), "%s",
				 m.rel[i].parent_now);
			l->recorded = m.rel[i].parent_tip
					      ? xstrdup(m.rel[i].parent_tip)
					      : NULL;
		}
	}
	if (st->nstack > 1)
		qsort(st->stack, st->nstack, sizeof(*st->stack), cmp_link);
out:
	stack_model_release(&m);
	return rc;
}

struct stash_walk {
	struct status *st;
	size_t alloc;
};

static int collect_stash(const char *refname, const char *oid, void *data)
{
	static const char prefix[] = "refs/campaign/stash/";
	struct stash_walk *w = data;
	struct named_stash *s;

	if (w->st->nstashes == w->alloc) {
		w->alloc = w->alloc ? 2 * w->alloc : 4;
		w->st->stashes = xrealloc(w->st->stashes,
					  w->alloc * sizeof(*w->st->stashes));
	}
	s = &w->st->stashes[w->st->nstashes++];
	s->name = xstrdup(refname + sizeof(prefix) - 1);
	snprintf(s->id, sizeof(s->id), "%s", oid);
	return 0;
}

/* A stash save, apply or pop stopped while it wrote the working tree (its
 * journal names a stash that still exists) as an unfinished operation */
static void collect_stash_journal(struct status *st, const struct refs *refs,
				  const char *git_dir, const char *file)
{
	char *path =
		xasprintf("%s%s%s", git_dir,
			  git_dir[strlen(git_dir) - 1] == '/' ? "" : "/", file);
	char *refname = NULL, id[41];
	struct stash_journal j;
	struct journal_op *op;
	const char *verb;
	char when[CLOCK_ISO_SIZE];
	struct stat sb;

	if (stash_journal_read(&j, path) < 0)
		goto out;
	refname = xasprintf("refs/campaign/stash/%s", j.name);
	/* a journal whose stash is gone or moved is a finished one's */
	if (!*j.name || refs_resolve(id, refs, refname) < 0 || strcmp(id, j.id))
		goto out;
	verb = *j.verb ? j.verb : "apply";
	st->ops = xrealloc(st->ops, (st->nops + 1) * sizeof(*st->ops));
	op = &st->ops[st->nops++];
	memset(op, 0, sizeof(*op));
	op->kind = xasprintf("stash %s", verb);
	op->summary = xasprintf("stash %s '%s' was stopped while writing the "
				"working tree",
				verb, j.name);
	op->continue_cmd = xasprintf("git campaign stash %s %s", verb, j.name);
	/* a save is undone by putting the stash back; an apply is only
	 * finished (the stash stays until one is done) */
	if (!strcmp(verb, "save"))
		op->abort_cmd = xasprintf("git campaign stash pop %s", j.name);
	op->pid = j.pid;
	if (!stat(path, &sb)) {
		clock_iso(when, sb.st_mtime);
		op->started_at = xstrdup(when);
	}
out:
	stash_journal_release(&j);
	free(refname);
	free(path);
}

/*
 * HEAD's commits ahead of and behind base. The answer for a pair of
 * commits never changes, so the last one is kept in the database (meta
 * key status.aheadBehind: "HEAD BASE AHEAD BEHIND"): a prompt that runs
 * status again and again opens no object database. A cache that cannot
 * be read or written is a miss, never an error.
 */
#define AHEAD_BEHIND_KEY "status.aheadBehind"

static int ahead_behind(struct status *out, struct ctx *ctx, struct db *db)
{
	struct error ignored = ERROR_INIT;
	git_repository *repo;
	git_oid head_oid, base_oid;
	char *v = NULL, h[41], b[41];
	size_t ahead, behind;
	int rc;

	if (db && db_meta_get(&v, db, AHEAD_BEHIND_KEY, &ignored) == 0 &&
	    sscanf(v, "%40s %40s %zu %zu", h, b, &ahead, &behind) == 4 &&
	    !strcmp(h, out->head) && !strcmp(b, out->base)) {
		out->ahead = ahead;
		out->behind = behind;
		free(v);
		return 0;
	}
	free(v);
	if ((rc = ctx_repo(&repo, ctx, 0)) < 0)
		return rc;
	if (git_oid_fromstr(&head_oid, out->head) < 0 ||
	    git_oid_fromstr(&base_oid, out->base) < 0 ||
	    (rc = git_graph_ahead_behind(&out->ahead, &out->behind, repo,
					 &head_oid, &base_oid)) < 0)
		return error_git(&ctx->err, rc ? rc : -1,
				 "cannot compare HEAD with '%s'",
				 out->campaign.base);
	if (db) {
		v = xasprintf("%s %s %zu %zu", out->head, out->base, out->ahead,
			      out->behind);
		db_meta_set(db, AHEAD_BEHIND_KEY, v, DB_TRY, &ignored);
		free(v);
	}
	return 0;
}

/* Which roots that need a restack have landed in their parent: the one
 * part of the stack that needs the object database, read only when the
 * rendering is not kept already (the facts hold its inputs) */
static int collect_landed(struct status *st, struct ctx *ctx)
{
	git_repository *repo = NULL;
	size_t i;
	int rc;

	for (i = 0; i < st->nstack; i++) {
		struct stack_link *l = &st->stack[i];
		struct error e = ERROR_INIT;
		git_oid tip, ptip, up;

		if (!l->may_have_landed)
			continue;
		if (!repo && (rc = ctx_repo(&repo, ctx, 0)) < 0)
			return rc;
		l->landed = git_oid_fromstr(&tip, l->tip) == 0 &&
			    git_oid_fromstr(&ptip, l->parent_tip) == 0 &&
			    stack_upstream(&up, repo, l->recorded, &tip, &ptip,
					   &e) == 0 &&
			    stack_landed(repo, l->recorded, &up, &tip, &ptip);
	}
	return 0;
}

/* each stacked branch's PR from the cache; a database from before the
 * cache has none */
static int collect_prs(struct status *st, struct db *db, struct error *err)
{
	size_t i;
	int rc;

	for (i = 0; i < st->nstack; i++) {
		rc = pr_get(&st->stack[i].pr, db_handle(db),
			    st->stack[i].branch, err);
		if (rc == GCAMP_ENOTFOUND)
			continue;
		if (rc < 0)
			return rc;
		st->stack[i].has_pr = 1;
	}
	return 0;
}

int status_collect_repo(struct status *out, struct ctx *ctx)
{
	struct stash_walk stashes = {NULL, 0};
	const char *work_tree;
	struct gitlite *lite;
	struct gitcfg *cfg;
	struct refs refs;
	int rc;

	memset(out, 0, sizeof(*out));
	stashes.st = out;
	if ((rc = ctx_work_tree(&work_tree, ctx)) < 0 ||
	    (rc = ctx_lite(&lite, ctx)) < 0 ||
	    (rc = ctx_config(&cfg, ctx)) < 0 ||
	    (rc = campaign_load(&out->campaign, ctx)) < 0)
		goto fail;
	gitlite_refs(&refs, lite);
	if ((rc = refs_head_branch(&out->branch, &refs, &ctx->err)) < 0)
		goto fail;
	if (refs_resolve(out->head, &refs, "HEAD") < 0)
		out->head[0] = '\0';
	out->base_found =
		refs_branch_tip(out->base, &refs, out->campaign.remote,
				out->campaign.base) == 0;
	if (out->campaign.remote && out->campaign.base) {
		char *ref = xasprintf("refs/remotes/%s/%s",
				      out->campaign.remote, out->campaign.base);

		if (refs_resolve(out->base_remote, &refs, ref) < 0)
			out->base_remote[0] = '\0';
		free(ref);
	}
	/* a conflict is checked out on a detached HEAD: its paths are in
	 * the index, so the index is a fact of the rendering then */
	if (!out->branch)
		out->index_path = xasprintf("%sindex", lite->git_dir);
	if ((rc = collect_stack(out, ctx, &refs, cfg)) < 0)
		goto fail;
	refs_for_each_prefix(&refs, "refs/campaign/stash/", collect_stash,
			     &stashes);
	collect_stash_journal(out, &refs, lite->git_dir, STASH_JOURNAL_SAVE);
	collect_stash_journal(out, &refs, lite->git_dir, STASH_JOURNAL_APPLY);
	return 0;
fail:
	status_release(out);
	return rc;
}

/* How far the local base is behind its remote-tracking branch. */
static int collect_base_behind(struct status *st, struct ctx *ctx)
{
	git_repository *repo;
	git_oid local, remote;
	size_t ahead = 0;
	int rc;

	if (!st->base_remote[0] || !st->base_found ||
	    !strcmp(st->base_remote, st->base))
		return 0;
	if ((rc = ctx_repo(&repo, ctx, 0)) < 0)
		return rc;
	if (git_oid_fromstr(&local, st->base) < 0 ||
	    git_oid_fromstr(&remote, st->base_remote) < 0 ||
	    git_graph_ahead_behind(&ahead, &st->base_behind, repo, &local,
				   &remote) < 0) {
		git_error_clear();
		st->base_behind = 0;
	}
	return 0;
}

/* Frees what collect_stash_journal filled in op */
static void stash_op_release(struct journal_op *op)
{
	free(op->kind);
	free(op->summary);
	free(op->continue_cmd);
	free(op->abort_cmd);
	free(op->started_at);
	memset(op, 0, sizeof(*op));
}

/* The journal's operations, after the stash journals already gathered */
static int collect_ops(struct status *st, struct db *db, struct error *err)
{
	struct journal_op *ops;
	size_t n, i, kept;
	int rc = journal_unfinished(&ops, &n, db, err), ab = 0;

	if (rc < 0)
		return rc;
	for (i = 0; i < n; i++)
		ab |= !strcmp(ops[i].kind, "ab");
	/* an A/B's own stash, stopped inside it, is finished by the A/B's
	 * --continue or --abort: one hint, the A/B's */
	for (i = kept = 0; i < st->nops; i++) {
		if (ab && strstr(st->ops[i].continue_cmd, " ab/"))
			stash_op_release(&st->ops[i]);
		else
			st->ops[kept++] = st->ops[i];
	}
	st->nops = kept;
	if (!st->nops) {
		free(st->ops);
		st->ops = ops;
		st->nops = n;
		return 0;
	}
	st->ops = xrealloc(st->ops, (st->nops + n + 1) * sizeof(*st->ops));
	if (n)
		memcpy(st->ops + st->nops, ops, n * sizeof(*ops));
	st->nops += n;
	free(ops);
	return 0;
}

int status_collect_records(struct status *out, struct ctx *ctx)
{
	struct db *db;
	int rc;

	/* status only reads: no database yet means nothing unfinished */
	if ((rc = ctx_db_if_any(&db, ctx)) < 0)
		goto fail;
	if (out->base_found && out->head[0] &&
	    (rc = ahead_behind(out, ctx, db)) < 0)
		goto fail;
	if ((rc = collect_base_behind(out, ctx)) < 0 ||
	    (rc = collect_landed(out, ctx)) < 0)
		goto fail;
	if (!db)
		return 0;
	if ((rc = collect_ops(out, db, &ctx->err)) < 0 ||
	    (rc = collect_prs(out, db, &ctx->err)) < 0 ||
	    (rc = ab_run_last(&out->last_ab, db, &ctx->err)) < 0 ||
	    (rc = hypo_next(&out->next_hypo, &out->has_next_hypo,
			    &out->open_hypos, ctx)) < 0 ||
	    (rc = finding_open_ranked(&out->findings, &out->nfindings,
				      &out->open_findings, ctx,
				      STATUS_FINDINGS)) < 0 ||
	    (rc = umbrella_state_pending(&out->umbrella_pending, ctx)) < 0)
		goto fail;
	out->has_umbrella_pending = rc;
	if ((rc = stack_conflict_find(&out->conflict, ctx, out->ops,
				      out->nops)) < 0)
		goto fail;
	return 0;
fail:
	status_release(out);
	return rc;
}

void status_facts(struct buf *out, const struct status *st)
{
	const struct campaign *c = &st->campaign;
	size_t i;

	buf_addf(out, "campaign %s\nbase %s\nremote %s\nforge %s %s\n", c->name,
		 c->base, c->remote ? c->remote : "", c->forge ? c->forge : "",
		 c->forge_host ? c->forge_host : "");
	buf_addf(out, "umbrella %ld %d\nbranch %s\nhead %s\nbase-tip %s\n",
		 c->umbrella, c->umbrella_auto, st->branch ? st->branch : "",
		 st->head, st->base_found ? st->base : "");
	if (st->base_remote[0])
		buf_addf(out, "base-remote %s\n", st->base_remote);
	if (st->index_path)
		outcache_file_fact(out, st->index_path);
	for (i = 0; i < st->nstack; i++) {
		const struct stack_link *l = &st->stack[i];

		buf_addf(out, "stack %s %s %d %d\n", l->branch, l->parent,
			 l->needs_restack, l->parent_missing);
		if (l->may_have_landed)
			buf_addf(out, "landed? %s %s %s\n", l->tip,
				 l->parent_tip, l->recorded ? l->recorded : "");
	}
	for (i = 0; i < st->nstashes; i++)
		buf_addf(out, "stash %s %s\n", st->stashes[i].name,
			 st->stashes[i].id);
	/* only the stash journals are gathered with the repository's files */
	for (i = 0; i < st->nops; i++)
		buf_addf(out, "journal %s %s\n", st->ops[i].kind,
			 st->ops[i].continue_cmd);
}

static size_t find_link(const struct status *st, const char *branch)
{
	size_t i;

	for (i = 0; i < st->nstack; i++)
		if (!strcmp(st->stack[i].branch, branch))
			return i;
	return (size_t)-1;
}

void status_chain(size_t **out, size_t *out_n, const struct status *st,
		  const char *branch)
{
	size_t *chain = xcalloc(st->nstack + 1, sizeof(*chain));
	size_t n = 0, i, k;
	const char *b = branch;

	/* walk up to the base; a branch seen twice is a cycle */
	while (b && (k = find_link(st, b)) != (size_t)-1 && n < st->nstack) {
		for (i = 0; i < n; i++)
			if (chain[i] == k)
				break;
		if (i < n)
			break;
		chain[n++] = k;
		b = st->stack[k].parent;
	}
	for (i = 0; i < n / 2; i++) {
		k = chain[i];
		chain[i] = chain[n - 1 - i];
		chain[n - 1 - i] = k;
	}
	*out = chain;
	*out_n = n;
}

void status_stack_line(struct buf *out, const struct status *st)
{
	size_t *chain, n, i;

	status_chain(&chain, &n, st, st->branch ? st->branch : "");
	if (!st->nstack) {
		buf_puts(out, "none");
	} else if (!n) {
		buf_addf(out, "%s is not stacked (%zu stacked branch%s)",
			 st->branch ? st->branch : "HEAD", st->nstack,
			 st->nstack == 1 ? "" : "es");
	} else {
		buf_puts(out, st->stack[chain[0]].parent);
		for (i = 0; i < n; i++) {
			const struct stack_link *l = &st->stack[chain[i]];
			int cur = i == n - 1;

			buf_addf(out, " -> %s%s%s%s", cur ? "*" : "", l->branch,
				 cur ? "*" : "",
				 l->parent_missing  ? " (parent gone)"
				 : l->landed	    ? " (landed)"
				 : l->needs_restack ? " (needs restack)"
						    : "");
		}
	}
	free(chain);
}

cJSON *status_op_json(const struct journal_op *op)
{
	cJSON *e = cJSON_CreateObject();

	/* a stash journal's operation has no number */
	if (op->id)
		cJSON_AddNumberToObject(e, "id", (double)op->id);
	else
		cJSON_AddNullToObject(e, "id");
	json_add_str_or_null(e, "kind", op->kind);
	json_add_str_or_null(e, "summary", op->summary);
	json_add_str_or_null(e, "worktree", op->worktree);
	json_add_str_or_null(e, "started_at", op->started_at);
	json_add_str_or_null(e, "updated_at", op->updated_at);
	json_add_str_or_null(e, "last_step", op->last_step);
	json_add_str_or_null(e, "continue", op->continue_cmd);
	json_add_str_or_null(e, "abort", op->abort_cmd);
	return e;
}
