/* A recorded A/B run read back: the JSON of ab_result_json (table ab_run)
 * into a struct ab_result, so that what shows an old run (resume, PR
 * bodies) draws it with the same code as `git campaign ab` did. */
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/ab.h"
#include "util/xalloc.h"

/* the verdicts ab_judge gives; a point's verdict points at one of these */
static const char *const verdicts[] = {
	"faster", "slower", "~",      "inconclusive", "no verdict",
	"failed", "moved",  "steady", "noisy",	      NULL,
};

static const char *str(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* a number, NaN for null or missing (ab_result_json writes NaN as null) */
static double num(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

static long whole(const cJSON *o, const char *key)
{
	double d = num(o, key);

	return isnan(d) || d < 0 || d > 1e15 ? 0 : (long)d;
}

static double *samples(size_t *n, const cJSON *o, const char *key)
{
	const cJSON *a = cJSON_GetObjectItemCaseSensitive(o, key), *e;
	double *v;
	size_t i = 0;

	*n = 0;
	if (!cJSON_IsArray(a))
		return NULL;
	v = xcalloc((size_t)cJSON_GetArraySize(a) + 1, sizeof(*v));
	cJSON_ArrayForEach(e, a) if (cJSON_IsNumber(e)) v[i++] = e->valuedouble;
	*n = i;
	return v;
}

static void load_point(struct ab_point *p, const cJSON *o)
{
	const char *v = str(o, "verdict"), *why = str(o, "why");
	size_t k;

	p->workload = xstrdup(str(o, "workload") ? str(o, "workload") : "");
	p->control = cJSON_IsTrue(cJSON_GetObjectItem(o, "control"));
	p->iters = whole(o, "iters");
	p->a = samples(&p->na, o, "a");
	p->b = samples(&p->nb, o, "b");
	p->failed_a = (size_t)whole(o, "failed_a");
	p->failed_b = (size_t)whole(o, "failed_b");
	stats_summarize(&p->sa, p->a, p->na);
	stats_summarize(&p->sb, p->b, p->nb);
	/* what was judged then, not judged again: the thresholds it was
	 * judged with are not in the record */
	p->cmp.median_a = p->sa.median;
	p->cmp.median_b = p->sb.median;
	p->cmp.ratio = num(o, "ratio");
	p->cmp.ci_lo = num(o, "ci_low");
	p->cmp.ci_hi = num(o, "ci_high");
	p->cmp.p = num(o, "p");
	p->cmp.significant = p->cmp.p < STATS_ALPHA;
	p->verdict = "-";
	for (k = 0; v && verdicts[k]; k++)
		if (!strcmp(v, verdicts[k]))
			p->verdict = verdicts[k];
	snprintf(p->why, sizeof(p->why), "%s", why ? why : "");
	p->n_needed = whole(o, "n_needed");
}

int ab_result_from_json(struct ab_result *out, const cJSON *j,
			struct error *err)
{
	const cJSON *pts = cJSON_GetObjectItemCaseSensitive(j, "workloads");
	const cJSON *cfg = cJSON_GetObjectItemCaseSensitive(j, "config");
	const cJSON *e;
	const char *s;
	size_t i = 0;

	memset(out, 0, sizeof(*out));
	if (!cJSON_IsObject(j) || !cJSON_IsArray(pts) || !str(j, "metric"))
		return error_set(err, GCAMP_EFATAL,
				 "the A/B record is not an A/B result");
	out->invalid = cJSON_IsTrue(cJSON_GetObjectItem(j, "invalid"));
	snprintf(out->a_desc, sizeof(out->a_desc), "%s",
		 str(j, "a") ? str(j, "a") : "A");
	snprintf(out->b_desc, sizeof(out->b_desc), "%s",
		 str(j, "b") ? str(j, "b") : "B");
	s = str(j, "mode");
	out->mode = !s			     ? AB_MODE_WORKTREE
		    : !strcmp(s, "stash")    ? AB_MODE_STASH
		    : !strcmp(s, "artifact") ? AB_MODE_ARTIFACT
					     : AB_MODE_WORKTREE;
	s = str(j, "order");
	out->order = s && !strcmp(s, "random")	  ? AB_ORDER_RANDOM
		     : s && !strcmp(s, "blocked") ? AB_ORDER_BLOCKED
						  : AB_ORDER_ABBA;
	out->n = whole(j, "n");
	out->warmup = whole(j, "warmup");
	out->metric = xstrdup(str(j, "metric"));
	out->unit = xstrdup(str(j, "unit") ? str(j, "unit") : "");
	out->higher_is_better =
		str(j, "better") && !strcmp(str(j, "better"), "higher");
	snprintf(out->env, sizeof(out->env), "%s",
		 str(j, "env") ? str(j, "env") : "");
	cJSON_ArrayForEach(e, cfg) if (cJSON_IsString(e)) strvec_push_owned(
		&out->labels, xasprintf("%s=%s", e->string, e->valuestring));
	cJSON_ArrayForEach(
		e, cJSON_GetObjectItem(j, "warnings")) if (cJSON_IsString(e))
		strvec_push(&out->warnings, e->valuestring);
	out->points = xcalloc((size_t)cJSON_GetArraySize(pts) + 1,
			      sizeof(*out->points));
	cJSON_ArrayForEach(e, pts) if (cJSON_IsObject(e))
		load_point(&out->points[i++], e);
	out->npoints = i;
	return 0;
}

int ab_load(struct ab_result *out, char **at, struct ctx *ctx, long long id)
{
	sqlite3_stmt *st = NULL;
	cJSON *j = NULL;
	struct db *db;
	int rc;

	memset(out, 0, sizeof(*out));
	if (at)
		*at = NULL;
	rc = ctx_db(&db, ctx, 0);
	if (rc == GCAMP_ENOTFOUND) {
		error_clear(&ctx->err);
		goto none;
	}
	if (rc < 0 ||
	    (rc = db_prepare(&st, db,
			     "SELECT at, result FROM ab_run WHERE id = ?1",
			     &ctx->err)) < 0)
		goto out;
	sqlite3_bind_int64(st, 1, id);
	rc = sqlite3_step(st);
	if (rc == SQLITE_DONE)
		goto none;
	if (rc != SQLITE_ROW) {
		rc = error_sqlite(&ctx->err, db, rc,
				  "cannot read A/B run #%lld", id);
		goto out;
	}
	j = cJSON_Parse((const char *)sqlite3_column_text(st, 1));
	if ((rc = ab_result_from_json(out, j, &ctx->err)) < 0) {
		error_set(&ctx->err, GCAMP_EFATAL,
			  "A/B run #%lld: its record is not an A/B result", id);
		goto out;
	}
	if (at)
		*at = xstrdup((const char *)sqlite3_column_text(st, 0));
	rc = 0;
	goto out;
none:
	rc = error_set(&ctx->err, GCAMP_ENOTFOUND, "no A/B run #%lld", id);
out:
	sqlite3_finalize(st);
	cJSON_Delete(j);
	return rc;
}
