/* The campaign report's document: every number of the campaign, read
 * through the owners of each record (the measurement index, the A/B runs,
 * the stack, the hypotheses, the findings), and the machines' labels. */
#include "core/views/report.h"

#include <stdlib.h>
#include <string.h>

#include "core/campaign/campaign.h"
#include "core/machine/label.h"
#include "core/measure/query.h"
#include "core/measure/stored.h"
#include "core/records/ab_run.h"
#include "core/records/finding.h"
#include "core/records/hypo.h"
#include "core/stack/graph.h"
#include "core/views/prbody.h"
#include "io/repo.h"
#include "util/json.h"
#include "util/xalloc.h"

/* A commit of the range and its place, oldest first */
struct placed {
	git_oid id;
	long idx;
};

struct gather {
	struct ctx *ctx;
	cJSON *d;
	struct placed *by_id; /* sorted by id */
	size_t n;
	struct strvec envs;
};

static int cmp_placed(const void *a, const void *b)
{
	return git_oid_cmp(&((const struct placed *)a)->id,
			   &((const struct placed *)b)->id);
}

/* The index of commit id in the range, -1 when outside */
static long place_of(const struct gather *g, const git_oid *id)
{
	struct placed key, *p;

	key.id = *id;
	key.idx = -1;
	p = g->n ? bsearch(&key, g->by_id, g->n, sizeof(key), cmp_placed)
		 : NULL;
	return p ? p->idx : -1;
}

static void add_env(struct gather *g, const char *env)
{
	size_t i;

	if (!env || !*env || !strcmp(env, "*"))
		return;
	for (i = 0; i < g->envs.nr; i++)
		if (!strcmp(g->envs.v[i], env))
			return;
	strvec_push(&g->envs, env);
}

/* The range's first-parent commits, oldest first, into "commits" */
static int gather_commits(struct gather *g, const char *range)
{
	cJSON *arr = cJSON_AddArrayToObject(g->d, "commits");
	git_repository *repo;
	git_revwalk *walk = NULL;
	git_oid id, *v = NULL;
	size_t n = 0, alloc = 0, i;
	int rc;

	if ((rc = ctx_repo(&repo, g->ctx, 0)) < 0)
		return rc;
	/* a repository without a commit yet: a page of no history */
	if (!range && git_repository_head_unborn(repo) == 1) {
		g->by_id = xcalloc(1, sizeof(*g->by_id));
		return 0;
	}
	if ((rc = measure_walk_range(&walk, repo, range, &g->ctx->err)) < 0)
		return rc;
	while (!(rc = git_revwalk_next(&id, walk))) {
		if (n == alloc)
			v = xrealloc(v, (alloc = alloc ? 2 * alloc : 256) *
						sizeof(*v));
		v[n++] = id;
	}
	git_revwalk_free(walk);
	if (rc != GIT_ITEROVER) {
		free(v);
		return error_git(&g->ctx->err, rc, "cannot walk the history");
	}
	g->by_id = xcalloc(n ? n : 1, sizeof(*g->by_id));
	g->n = n;
	for (i = 0; i < n; i++) {
		const git_oid *c = &v[n - 1 - i];
		git_commit *commit = NULL;
		char hex[GIT_OID_HEXSZ + 1];
		cJSON *o = cJSON_CreateObject();

		git_oid_tostr(hex, sizeof(hex), c);
		cJSON_AddStringToObject(o, "id", hex);
		if (!git_commit_lookup(&commit, repo, c))
			cJSON_AddStringToObject(o, "subject",
						git_commit_summary(commit));
		git_commit_free(commit);
		cJSON_AddItemToArray(arr, o);
		g->by_id[i].id = *c;
		g->by_id[i].idx = (long)i;
	}
	qsort(g->by_id, n, sizeof(*g->by_id), cmp_placed);
	free(v);
	return 0;
}

static int cmp_point(const void *a, const void *b)
{
	double x = cJSON_GetArrayItem(*(cJSON *const *)a, 0)->valuedouble;
	double y = cJSON_GetArrayItem(*(cJSON *const *)b, 0)->valuedouble;

	return x < y ? -1 : x > y;
}

/* One metric's series, one per env and config, its points by commit */
static int gather_metric(struct gather *g, cJSON *arr, const char *metric,
			 const char *range)
{
	struct measure_log_opts o;
	struct measure_series s;
	cJSON *m, *series;
	size_t i, k;
	int rc;

	memset(&o, 0, sizeof(o));
	o.metric = metric;
	o.range = range;
	o.cross_config = 1;
	if ((rc = measure_log(&s, g->ctx, &o)) < 0) {
		if (rc != GCAMP_ENOTFOUND)
			return rc;
		error_clear(&g->ctx->err);
		return 0;
	}
	m = cJSON_CreateObject();
	cJSON_AddStringToObject(m, "metric", metric);
	json_add_str_or_null(m, "unit", s.unit);
	json_add_str_or_null(m, "better", s.better);
	series = cJSON_AddArrayToObject(m, "series");
	for (k = 0; k < s.ngroups; k++) {
		cJSON *one = cJSON_CreateObject();
		cJSON *pts = cJSON_AddArrayToObject(one, "points");
		cJSON **v;
		size_t n = 0;

		cJSON_AddStringToObject(one, "env", s.groups[k].env);
		cJSON_AddItemToObject(one, "config",
				      cJSON_Parse(s.groups[k].config));
		for (i = 0; i < s.npts; i++) {
			const struct measure_point *p = &s.pts[i];
			long idx = place_of(g, &p->commit);
			cJSON *pt;

			if (p->group != k || idx < 0)
				continue;
			pt = cJSON_CreateArray();
			cJSON_AddItemToArray(pt,
					     cJSON_CreateNumber((double)idx));
			cJSON_AddItemToArray(pt, cJSON_CreateNumber(p->value));
			cJSON_AddItemToArray(
				pt, cJSON_CreateNumber((double)p->nrec));
			cJSON_AddItemToArray(pts, pt);
			n++;
		}
		if (!n) {
			cJSON_Delete(one);
			continue;
		}
		/* oldest first */
		v = xcalloc(n, sizeof(*v));
		for (i = 0; i < n; i++)
			v[i] = cJSON_DetachItemFromArray(pts, 0);
		qsort(v, n, sizeof(*v), cmp_point);
		for (i = 0; i < n; i++)
			cJSON_AddItemToArray(pts, v[i]);
		free(v);
		add_env(g, s.groups[k].env);
		cJSON_AddItemToArray(series, one);
	}
	measure_series_release(&s);
	if (cJSON_GetArraySize(series))
		cJSON_AddItemToArray(arr, m);
	else
		cJSON_Delete(m);
	return 0;
}

static int gather_metrics(struct gather *g, const struct report_opts *o)
{
	cJSON *arr = cJSON_AddArrayToObject(g->d, "metrics");
	struct strvec all = STRVEC_INIT;
	const struct strvec *v = &all;
	size_t i;
	int rc = 0;

	if (o->metrics && o->metrics->nr)
		v = o->metrics;
	else if ((rc = measure_metrics(&all, g->ctx)) < 0)
		goto out;
	for (i = 0; i < v->nr && !rc; i++)
		rc = gather_metric(g, arr, v->v[i], o->range);
out:
	strvec_clear(&all);
	return rc;
}

static int add_run(const struct ab_run_row *row, void *data)
{
	struct gather *g = data;
	cJSON *arr = cJSON_GetObjectItemCaseSensitive(g->d, "ab_runs");
	cJSON *o, *r = cJSON_Parse(row->result);
	git_oid a;

	if (!r)
		return 0;
	o = cJSON_CreateObject();
	cJSON_AddNumberToObject(o, "id", (double)row->id);
	cJSON_AddStringToObject(o, "at", row->at);
	cJSON_AddStringToObject(o, "verdict", row->verdict);
	cJSON_AddNumberToObject(
		o, "a_index",
		repo_oid_from_json(&a, cJSON_GetObjectItemCaseSensitive(
					       r, "a_commit")) == 0
			? (double)place_of(g, &a)
			: -1);
	add_env(g, json_get_str(r, "env"));
	cJSON_AddItemToObject(o, "result", r);
	cJSON_AddItemToArray(arr, o);
	return 0;
}

static int gather_runs(struct gather *g)
{
	struct db *db;
	int rc;

	cJSON_AddArrayToObject(g->d, "ab_runs");
	if ((rc = ctx_db_if_any(&db, g->ctx)) < 0 || !db)
		return rc;
	return ab_run_for_each(db, 0, add_run, g, &g->ctx->err);
}

static int gather_stack(struct gather *g)
{
	cJSON *arr = cJSON_AddArrayToObject(g->d, "stack");
	struct stack_graph sg;
	size_t i;
	int rc;

	if ((rc = stack_graph_load(&sg, g->ctx)) < 0)
		return rc;
	for (i = 0; i < sg.n; i++) {
		const struct stack_branch *b = &sg.b[i];
		cJSON *o = cJSON_CreateObject();
		char *title = NULL, *claim = NULL;

		cJSON_AddStringToObject(o, "branch", b->name);
		cJSON_AddStringToObject(o, "parent", b->parent);
		cJSON_AddNumberToObject(o, "pr", b->pr_number);
		json_add_str_or_null(o, "state", b->pr_state);
		cJSON_AddBoolToObject(o, "needs_restack", b->needs_restack);
		cJSON_AddNumberToObject(o, "own", (double)b->own);
		if (b->exists &&
		    prbody_claim(&title, &claim, g->ctx, b->name) < 0)
			error_clear(&g->ctx->err);
		json_add_str_or_null(o, "title", title);
		json_add_str_or_null(o, "claim", claim);
		free(title);
		free(claim);
		cJSON_AddItemToArray(arr, o);
	}
	stack_graph_release(&sg);
	return 0;
}

static int gather_hypos(struct gather *g)
{
	cJSON *arr = cJSON_AddArrayToObject(g->d, "hypotheses");
	struct hypo *v = NULL;
	size_t n = 0, i;
	int rc;

	if ((rc = hypo_list(&v, &n, g->ctx)) < 0)
		return rc;
	for (i = 0; i < n; i++) {
		cJSON *o = cJSON_CreateObject();

		cJSON_AddNumberToObject(o, "id", (double)v[i].id);
		cJSON_AddStringToObject(o, "text", v[i].text);
		cJSON_AddStringToObject(o, "metric", v[i].metric);
		cJSON_AddNumberToObject(o, "predicted", v[i].predicted);
		cJSON_AddNumberToObject(o, "tolerance", v[i].tolerance);
		json_add_str_or_null(o, "unit", v[i].unit);
		cJSON_AddStringToObject(o, "state", v[i].state);
		if (v[i].has_measured)
			cJSON_AddNumberToObject(o, "measured", v[i].measured);
		else
			cJSON_AddNullToObject(o, "measured");
		json_add_str_or_null(o, "evidence", v[i].evidence);
		cJSON_AddItemToArray(arr, o);
	}
	hypo_free(v, n);
	return 0;
}

static int gather_findings(struct gather *g)
{
	cJSON *arr = cJSON_AddArrayToObject(g->d, "findings");
	struct finding *v = NULL;
	size_t n = 0, i;
	int rc;

	if ((rc = finding_list(&v, &n, g->ctx)) < 0)
		return rc;
	for (i = 0; i < n; i++) {
		cJSON *o = cJSON_CreateObject();

		cJSON_AddNumberToObject(o, "id", (double)v[i].id);
		cJSON_AddStringToObject(o, "kind", v[i].kind);
		cJSON_AddStringToObject(o, "title", v[i].title);
		cJSON_AddStringToObject(o, "state", v[i].state);
		json_add_str_or_null(o, "issue", v[i].issue);
		cJSON_AddNumberToObject(o, "pr", (double)v[i].pr);
		cJSON_AddItemToArray(arr, o);
	}
	finding_free(v, n);
	return 0;
}

static void gather_envs(struct gather *g)
{
	cJSON *o = cJSON_AddObjectToObject(g->d, "envs");
	size_t i;

	for (i = 0; i < g->envs.nr; i++) {
		struct buf label = BUF_INIT;

		machine_label_of_env(&label, g->ctx, g->envs.v[i]);
		cJSON_AddStringToObject(o, g->envs.v[i],
					label.ptr ? label.ptr : g->envs.v[i]);
		buf_release(&label);
	}
}

int report_data(cJSON **out, struct ctx *ctx, const struct report_opts *o)
{
	struct campaign c;
	struct gather g;
	int rc;

	*out = NULL;
	memset(&g, 0, sizeof(g));
	if ((rc = campaign_load(&c, ctx)) < 0)
		return rc;
	g.ctx = ctx;
	g.d = cJSON_CreateObject();
	cJSON_AddStringToObject(g.d, "campaign", c.name);
	cJSON_AddStringToObject(g.d, "base", c.base);
	cJSON_AddStringToObject(g.d, "range", o->range ? o->range : "HEAD");
	campaign_release(&c);
	if ((rc = gather_commits(&g, o->range)) < 0 ||
	    (rc = gather_metrics(&g, o)) < 0 || (rc = gather_runs(&g)) < 0 ||
	    (rc = gather_stack(&g)) < 0 || (rc = gather_hypos(&g)) < 0 ||
	    (rc = gather_findings(&g)) < 0) {
		cJSON_Delete(g.d);
		g.d = NULL;
	} else {
		gather_envs(&g);
	}
	*out = g.d;
	free(g.by_id);
	strvec_clear(&g.envs);
	return rc;
}
