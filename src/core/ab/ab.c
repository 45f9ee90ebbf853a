/* The A/B harness: journals the operation, has its mode ready and measure
 * both arms (modes.c, over the schedule of sched.c), judges the samples
 * (judge.c) and keeps the result. */
#include "core/ab/ab.h"

#include <errno.h>
#include <math.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "core/ab/modes.h"
#include "core/ab/notes.h"
#include "core/ab/render.h"
#include "core/records/ab_run.h"
#include "core/records/journal.h"
#include "core/stash/reinstate.h"
#include "core/stash/stash.h"
#include "io/proc.h"
#include "io/repo.h"
#include "util/clock.h"
#include "util/xalloc.h"

int ab_metric_parse(struct ab_metric *out, const char *spec, struct error *err)
{
	char *copy = xstrdup(spec ? spec : "wall"), *opt, *save = NULL;
	const char *head = strtok_r(copy, ";", &save);
	int rc = 0;

	memset(out, 0, sizeof(*out));
	if (!head)
		head = "wall";
	if (!strcmp(head, "wall") || !strcmp(head, "user") ||
	    !strcmp(head, "sys")) {
		out->kind = head[0] == 'w'   ? AB_METRIC_WALL
			    : head[0] == 'u' ? AB_METRIC_USER
					     : AB_METRIC_SYS;
		out->unit = xstrdup("s");
	} else if (!strcmp(head, "maxrss")) {
		out->kind = AB_METRIC_RSS;
		out->unit = xstrdup("KiB");
	} else if (!strncmp(head, "re:", 3)) {
		regex_t re;

		out->kind = AB_METRIC_REGEX;
		out->regex = xstrdup(head + 3);
		if (regcomp(&re, out->regex, REG_EXTENDED)) {
			rc = error_set(err, GCAMP_EUSAGE,
				       "bad --metric regex '%s'", out->regex);
			goto out;
		}
		if (re.re_nsub != 1)
			rc = error_set(err, GCAMP_EUSAGE,
				       "--metric regex '%s' needs exactly one "
				       "group, the number",
				       out->regex);
		regfree(&re);
		if (rc)
			goto out;
	} else if (!strncmp(head, "json:", 5) && head[5]) {
		out->kind = AB_METRIC_JSON;
		out->regex = xstrdup(head + 5);
	} else if (!strncmp(head, "import:", 7)) {
		const char *colon = strchr(head + 7, ':');
		char *fmt =
			colon ? xstrndup(head + 7, (size_t)(colon - head - 7))
			      : xstrdup(head + 7);

		out->kind = AB_METRIC_IMPORT;
		out->format = import_format_find(fmt);
		if (!out->format || !colon || !colon[1])
			rc = error_set(
				err, GCAMP_EUSAGE,
				out->format ? "--metric '%s' needs a metric: "
					      "import:FORMAT:METRIC"
					    : "--metric '%s': no importer "
					      "of that name",
				head);
		else
			out->regex = xstrdup(colon + 1);
		free(fmt);
		if (rc)
			goto out;
	} else {
		rc = error_set(
			err, GCAMP_EUSAGE,
			"unknown --metric '%s': wall, user, sys, maxrss, "
			"re:REGEX, json:PATH or import:FORMAT:METRIC",
			head);
		goto out;
	}
	out->name = xstrdup(out->kind == AB_METRIC_REGEX    ? "value"
			    : out->kind == AB_METRIC_JSON   ? out->regex
			    : out->kind == AB_METRIC_IMPORT ? out->regex
							    : head);
	while ((opt = strtok_r(NULL, ";", &save))) {
		char **slot = !strncmp(opt, "unit=", 5)	  ? &out->unit
			      : !strncmp(opt, "name=", 5) ? &out->name
							  : NULL;

		if (slot) {
			free(*slot);
			*slot = xstrdup(opt + 5);
		} else if (!strcmp(opt, "better=higher")) {
			out->higher_is_better = 1;
		} else if (!strcmp(opt, "better=lower")) {
			out->higher_is_better = 0;
		} else {
			rc = error_set(err, GCAMP_EUSAGE,
				       "unknown --metric option '%s': unit=, "
				       "name= or better=higher|lower",
				       opt);
			goto out;
		}
	}
out:
	free(copy);
	if (rc)
		ab_metric_release(out);
	return rc;
}

void ab_metric_release(struct ab_metric *m)
{
	if (!m)
		return;
	free(m->regex);
	free(m->name);
	free(m->unit);
	memset(m, 0, sizeof(*m));
}

/* One point of workload w (0 the run, k the k-th control) at iters */
static void make_point(struct ab_point *p, const struct ab_opts *o, size_t w,
		       long iters)
{
	p->workload = xstrdup(w ? o->controls[w - 1] : o->run);
	p->control = w > 0;
	p->spec = w && o->control_metrics ? o->control_metrics[w - 1] : NULL;
	if (p->spec) {
		p->metric = xstrdup(p->spec->name);
		p->unit = xstrdup(p->spec->unit ? p->spec->unit : "");
	}
	p->iters = iters;
}

/* The points: the run and every control that takes {iters} at every
 * iteration count, in count order, then once each control that takes no
 * count: it is one workload, run once per round, not once per count */
static void make_points(struct ab_result *res, const struct ab_opts *o)
{
	size_t nit = o->niters ? o->niters : 1, w, i, k = 0;

	res->points = xcalloc(nit * (1 + o->ncontrols), sizeof(*res->points));
	for (i = 0; i < nit; i++)
		for (w = 0; w <= o->ncontrols; w++)
			if (!w || (o->niters &&
				   strstr(o->controls[w - 1], "{iters}")))
				make_point(&res->points[k++], o, w,
					   o->niters ? o->iters[i] : 0);
	for (w = 1; w <= o->ncontrols; w++)
		if (!o->niters || !strstr(o->controls[w - 1], "{iters}"))
			make_point(&res->points[k++], o, w, 0);
	res->npoints = k;
}

/* Keeps the result, every sample included, in the database, keyed by
 * the journal operation's id */
static int ab_store(struct ctx *ctx, struct db *db, const struct ab_result *r)
{
	struct buf md = BUF_INIT, verdict = BUF_INIT;
	struct ab_run_new row;
	cJSON *j = ab_result_json(r);
	char *json = cJSON_PrintUnformatted(j), now[21];
	int rc;

	ab_render_markdown(&md, r);
	clock_now_iso(now);
	if (r->invalid)
		buf_puts(&verdict, "INVALID");
	else if (r->npoints && isnan(r->points[0].cmp.ratio))
		buf_puts(&verdict, ab_verdict_name(r->points[0].verdict));
	else if (r->npoints)
		buf_addf(&verdict, "%s %.3f%s",
			 ab_verdict_name(r->points[0].verdict),
			 r->points[0].cmp.ratio,
			 r->vouch == AB_VOUCH_UNVOUCHED ? " unvouched" : "");
	row.id = r->op_id;
	row.at = now;
	row.mode = ab_mode_name(r->mode);
	row.workload = r->npoints ? r->points[0].workload : "";
	row.verdict = verdict.ptr;
	row.invalid = r->invalid;
	row.result = json;
	row.markdown = md.ptr;
	rc = ab_run_insert(db, &row, &ctx->err);
	cJSON_Delete(j);
	free(json);
	buf_release(&md);
	buf_release(&verdict);
	return rc;
}

/* What *out says before any run: the mode, order, metric and labels */
static void result_init(struct ab_result *out, const struct ab_opts *o,
			const struct ab_mode_ops *ops)
{
	size_t i;

	memset(out, 0, sizeof(*out));
	out->mode = o->mode;
	out->order = ops->blocked ? AB_ORDER_BLOCKED : o->order;
	out->n = o->n;
	out->warmup = o->warmup;
	out->unit = xstrdup(o->metric.unit ? o->metric.unit : "");
	out->metric = xstrdup(o->metric.name ? o->metric.name : "wall");
	out->higher_is_better = o->metric.higher_is_better;
	for (i = 0; i < o->nconfig; i++)
		strvec_push(&out->labels, o->config[i]);
}

/* A's commit, o->base or HEAD, into *out (caller frees) */
static int find_base(git_object **out, struct ctx *ctx, git_repository *repo,
		     const struct ab_opts *o)
{
	git_object *obj = NULL;

	*out = NULL;
	if (git_revparse_single(&obj, repo, o->base ? o->base : "HEAD") < 0 ||
	    git_object_peel(out, obj, GIT_OBJECT_COMMIT) < 0) {
		git_object_free(obj);
		return error_set(&ctx->err, GCAMP_ENOTFOUND,
				 "no commit '%s' to build A from",
				 o->base ? o->base : "HEAD");
	}
	git_object_free(obj);
	return 0;
}

/* The env, both arms' descriptions and B's tree into *out; refuses what
 * the mode cannot compare */
static int describe_arms(struct ab_result *out, struct ctx *ctx,
			 git_repository *repo, const struct ab_opts *o,
			 const struct ab_mode_ops *ops, const git_oid *a)
{
	struct error ignored = ERROR_INIT;
	char hex[13];
	int rc, changes;

	git_oid_cpy(&out->a_commit, a);
	if ((rc = ab_describe_env(out, ctx)) < 0 ||
	    (rc = stash_worktree_tree(&out->b_tree, ctx)) < 0)
		return rc;
	git_oid_tostr(hex, sizeof(hex), a);
	snprintf(out->a_desc, sizeof(out->a_desc), "%s (%s)",
		 o->base ? o->base : "HEAD", hex);
	snprintf(out->b_desc, sizeof(out->b_desc), "working tree");
	changes = ops->needs_change ? repo_worktree_dirty(repo, NULL, &ignored)
				    : 1;
	error_clear(&ignored);
	if (changes <= 0) {
		rc = error_set(&ctx->err, GCAMP_EREFUSED,
			       "nothing to compare: the working tree has no "
			       "change to stash");
		error_hint(&ctx->err, "stash mode measures HEAD against your "
				      "uncommitted change");
		return rc;
	}
	if (!ops->takes_base && o->base)
		return error_set(&ctx->err, GCAMP_EUSAGE,
				 "--base needs --mode worktree: %s mode "
				 "compares HEAD with the working tree",
				 ab_mode_name(o->mode));
	return 0;
}

/* Journals the A/B as an operation and its arguments as the first step */
static int begin(long long *op, struct ctx *ctx, struct db *db,
		 git_repository *repo, const struct ab_opts *o)
{
	struct buf summary = BUF_INIT;
	int rc;

	buf_addf(&summary, "ab %s: %s", ab_mode_name(o->mode), o->run);
	if ((rc = journal_begin(op, db, "ab", git_repository_workdir(repo),
				summary.ptr, "git campaign ab --continue",
				"git campaign ab --abort", &ctx->err)) >= 0)
		rc = journal_step(db, *op, "start",
				  o->argv_json ? o->argv_json : "[]",
				  &ctx->err);
	buf_release(&summary);
	return rc;
}

/* The mode readies and measures the arms, the stopping signals trapped;
 * on failure it puts the working tree back and the operation is over */
static int measure_arms(struct schedule *s, struct db *db, long long op,
			git_repository *repo, const git_commit *base,
			const struct ab_mode_ops *ops)
{
	struct ab_arms m;
	struct ab_trap trap;
	int rc;

	ab_arms_init(&m, s, db, op, repo, base);
	ab_sched_trap(&trap);
	if ((rc = ops->prepare(&m)) >= 0)
		rc = ops->run(&m);
	if (rc < 0 && ops->restore)
		ops->restore(&m);
	ab_sched_untrap(&trap);
	ab_arms_release(&m);
	if (rc < 0) {
		struct error keep = s->ctx->err;

		/* the working tree is back (or the change is in the stash,
		 * as the hint says): the operation is over */
		error_clear(&s->ctx->err);
		journal_finish(db, op, 0, &s->ctx->err);
		s->ctx->err = keep;
	}
	return rc;
}

int ab_run(struct ab_result *out, struct ctx *ctx, const struct ab_opts *o,
	   ab_progress_fn progress, void *data)
{
	const struct ab_mode_ops *ops = ab_mode_ops(o->mode);
	struct schedule s = {ctx, o, out, progress, data, 0, 0};
	git_repository *repo;
	git_object *base = NULL;
	struct db *db;
	long long op = 0;
	int rc;

	result_init(out, o, ops);
	if ((rc = ctx_repo(&repo, ctx, 1)) < 0 ||
	    (rc = ctx_db(&db, ctx, DB_CREATE)) < 0 ||
	    (rc = find_base(&base, ctx, repo, o)) < 0)
		return rc;
	if ((rc = describe_arms(out, ctx, repo, o, ops, git_object_id(base))) <
	    0)
		goto out;
	make_points(out, o);
	s.total = 2 * (long)out->npoints * (o->warmup + o->n);
	if ((rc = begin(&op, ctx, db, repo, o)) < 0)
		goto out;
	out->op_id = op;
	if ((rc = measure_arms(&s, db, op, repo, (const git_commit *)base,
			       ops)) < 0)
		goto out;
	ab_finish(out, o->min_effect, o->control_tol, o->niters > 1, o->seed);
	if ((rc = ab_store(ctx, db, out)) < 0 ||
	    (!out->invalid && (rc = ab_record(ctx, out, o)) < 0))
		goto out;
	rc = journal_finish(db, op, 1, &ctx->err);
out:
	git_object_free(base);
	return rc;
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

/* The index's .lock an A/B killed while it wrote the index left: made
 * since it began, by a process that is gone, it is removed */
static void drop_stale_index_lock(struct ctx *ctx, const struct journal_op *op)
{
	git_repository *repo;
	struct stat st;
	char *lock;

	if (proc_alive(op->pid))
		return;
	if (ctx_repo(&repo, ctx, 1) < 0) {
		error_clear(&ctx->err);
		return;
	}
	lock = xasprintf("%sindex.lock", git_repository_path(repo));
	if (!lstat(lock, &st) && S_ISREG(st.st_mode) &&
	    (long long)st.st_mtime + 1 >= iso_epoch(op->started_at))
		unlink(lock);
	free(lock);
}

int ab_abort(long long *out_id, struct ctx *ctx)
{
	struct journal_op *ops = NULL;
	struct stash_info info;
	struct strvec conflicts = STRVEC_INIT;
	struct db *db;
	size_t n = 0, i;
	char *name = NULL;
	int rc;

	if ((rc = ctx_db(&db, ctx, 0)) < 0 ||
	    (rc = journal_unfinished(&ops, &n, db, &ctx->err)) < 0)
		return rc;
	for (i = n; i-- > 0;)
		if (!strcmp(ops[i].kind, "ab"))
			break;
	if (i == (size_t)-1) {
		rc = error_set(&ctx->err, GCAMP_ENOTFOUND,
			       "no unfinished A/B to abort");
		goto out;
	}
	*out_id = ops[i].id;
	drop_stale_index_lock(ctx, &ops[i]);
	name = ab_stash_name(ops[i].id);
	if (!stash_lookup(&info, ctx, name)) {
		stash_info_release(&info);
		/* the change is still in the stash: bring it back */
		if ((rc = stash_reinstate(ctx, name, 1, &conflicts)) < 0) {
			error_hint(&ctx->err,
				   "your change is kept in stash '%s'; "
				   "'git campaign stash show %s' shows it",
				   name, name);
			goto out;
		}
	} else {
		error_clear(&ctx->err);
	}
	rc = journal_finish(db, ops[i].id, 0, &ctx->err);
out:
	strvec_clear(&conflicts);
	free(name);
	journal_ops_free(ops, n);
	return rc;
}
