/* A recorded A/B read back: its JSON (ab_result_from_json) and its row in
 * table ab_run, so that what shows an old run (resume, PR bodies) draws it
 * with the same code as `git campaign ab` did. */
#include "core/ab/load.h"

#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/ab/control.h"
#include "core/records/ab_run.h"
#include "io/db.h"
#include "util/json.h"
#include "util/xalloc.h"

/* The literal among words equal to s, or NULL: sweep words are pointers
 * to literals, not copies */
static const char *intern(const char *const *words, const char *s)
{
	for (; s && *words; words++)
		if (!strcmp(*words, s))
			return *words;
	return NULL;
}

static double *samples_from(size_t *n, const cJSON *a)
{
	double *v = xcalloc((size_t)cJSON_GetArraySize(a) + 1, sizeof(*v));
	const cJSON *e;

	*n = 0;
	cJSON_ArrayForEach(e, a)
		if (cJSON_IsNumber(e))
			v[(*n)++] = e->valuedouble;
	return v;
}

int ab_result_from_json(struct ab_result *out, const cJSON *j)
{
	const cJSON *pts = cJSON_GetObjectItemCaseSensitive(j, "workloads");
	const cJSON *e, *sw, *cfg;
	const char *s;
	size_t k = 0;

	memset(out, 0, sizeof(*out));
	if (!cJSON_IsObject(j) || !cJSON_IsArray(pts))
		return -1;
	out->invalid = json_get_bool(j, "invalid");
	snprintf(out->a_desc, sizeof(out->a_desc), "%s",
		 json_get_str_or(j, "a", "A"));
	snprintf(out->b_desc, sizeof(out->b_desc), "%s",
		 json_get_str_or(j, "b", "B"));
	out->mode =
		ab_mode_from_name(json_get_str(j, "mode"), AB_MODE_WORKTREE);
	out->order =
		ab_order_from_name(json_get_str(j, "order"), AB_ORDER_ABBA);
	out->n = (long)json_get_num(j, "n", 0);
	out->warmup = (long)json_get_num(j, "warmup", 0);
	out->metric = xstrdup(json_get_str_or(j, "metric", "wall"));
	out->unit = xstrdup(json_get_str_or(j, "unit", ""));
	out->higher_is_better =
		!strcmp(json_get_str_or(j, "better", ""), "higher");
	snprintf(out->env, sizeof(out->env), "%s",
		 json_get_str_or(j, "env", ""));
	if ((s = json_get_str(j, "a_commit")))
		git_oid_fromstrp(&out->a_commit, s);
	if ((s = json_get_str(j, "b_tree")))
		git_oid_fromstrp(&out->b_tree, s);
	cfg = cJSON_GetObjectItemCaseSensitive(j, "config");
	cJSON_ArrayForEach(e, cfg)
		if (cJSON_IsString(e))
			strvec_push_owned(
				&out->labels,
				xasprintf("%s=%s", e->string, e->valuestring));
	cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(j, "warnings"))
		if (cJSON_IsString(e))
			strvec_push(&out->warnings, e->valuestring);
	out->npoints = (size_t)cJSON_GetArraySize(pts);
	out->points = xcalloc(out->npoints + 1, sizeof(*out->points));
	cJSON_ArrayForEach(e, pts) {
		struct ab_point *p = &out->points[k++];

		p->workload = xstrdup(json_get_str_or(e, "workload", ""));
		if ((s = json_get_str(e, "metric"))) {
			p->metric = xstrdup(s);
			p->unit = xstrdup(json_get_str_or(e, "unit", ""));
		}
		p->control = json_get_bool(e, "control");
		p->iters = (long)json_get_num(e, "iters", 0);
		p->a = samples_from(&p->na,
				    cJSON_GetObjectItemCaseSensitive(e, "a"));
		p->b = samples_from(&p->nb,
				    cJSON_GetObjectItemCaseSensitive(e, "b"));
		/* what the tables draw: the median's CI is not one */
		stats_summarize_no_ci(&p->sa, p->a, p->na);
		stats_summarize_no_ci(&p->sb, p->b, p->nb);
		p->failed_a = (size_t)fmax(0, json_get_num(e, "failed_a", NAN));
		p->failed_b = (size_t)fmax(0, json_get_num(e, "failed_b", NAN));
		p->cmp.ratio = json_get_num(e, "ratio", NAN);
		p->cmp.median_ratio = json_get_num(e, "median_ratio", NAN);
		p->cmp.diff = json_get_num(e, "diff", NAN);
		p->cmp.diff_lo = json_get_num(e, "diff_low", NAN);
		p->cmp.diff_hi = json_get_num(e, "diff_high", NAN);
		p->cmp.on_diff = !isnan(p->cmp.diff);
		p->cmp.ci_lo = json_get_num(e, "ci_low", NAN);
		p->cmp.ci_hi = json_get_num(e, "ci_high", NAN);
		p->cmp.p = json_get_num(e, "p", NAN);
		p->p_holm = json_get_num(e, "p_holm", NAN);
		p->cmp.significant = p->cmp.p < STATS_ALPHA;
		p->cmp.median_a = p->sa.median;
		p->cmp.median_b = p->sb.median;
		p->verdict = ab_verdict_from_name(json_get_str(e, "verdict"),
						  AB_VERDICT_NONE);
		snprintf(p->why, sizeof(p->why), "%s",
			 json_get_str_or(e, "why", ""));
		p->n_needed = (long)json_get_num(e, "n_needed", 0);
	}
	out->vouch = ab_vouch_of(out);
	out->control_tests =
		(size_t)fmax(0, json_get_num(j, "control_tests", 0));
	sw = cJSON_GetObjectItemCaseSensitive(j, "sweep");
	if (cJSON_IsObject(sw))
		snprintf(out->sweep.why, sizeof(out->sweep.why), "%s",
			 json_get_str_or(sw, "why", ""));
	if (cJSON_IsObject(sw) &&
	    (out->sweep.words =
		     intern(ab_sweep_words, json_get_str(sw, "words")))) {
		struct stats_sweep *f = &out->sweep.fit;

		out->sweep.ok = 1;
		f->fixed_a = json_get_num(sw, "fixed_a", NAN);
		f->per_iter_a = json_get_num(sw, "per_iter_a", NAN);
		f->fixed_b = json_get_num(sw, "fixed_b", NAN);
		f->per_iter_b = json_get_num(sw, "per_iter_b", NAN);
		f->d_fixed = json_get_num(sw, "d_fixed", NAN);
		f->d_fixed_lo = json_get_num(sw, "d_fixed_low", NAN);
		f->d_fixed_hi = json_get_num(sw, "d_fixed_high", NAN);
		f->per_iter_ratio = json_get_num(sw, "per_iter_ratio", NAN);
		f->per_iter_ratio_lo =
			json_get_num(sw, "per_iter_ratio_low", NAN);
		f->per_iter_ratio_hi =
			json_get_num(sw, "per_iter_ratio_high", NAN);
		out->sweep.p_fixed = json_get_num(sw, "p_fixed", NAN);
		out->sweep.p_per_iter = json_get_num(sw, "p_per_iter", NAN);
		out->sweep.reciprocal = json_get_bool(sw, "reciprocal");
		out->sweep.n_needed = (long)json_get_num(sw, "n_needed", 0);
	}
	return 0;
}

int ab_load(struct ab_result *out, char **at, struct ctx *ctx, long long id)
{
	char *when = NULL, *text = NULL;
	cJSON *j = NULL;
	struct db *db;
	int rc;

	memset(out, 0, sizeof(*out));
	if (at)
		*at = NULL;
	if ((rc = ctx_db_if_any(&db, ctx)) < 0)
		goto out;
	if (!db)
		goto none;
	rc = ab_run_get(&when, &text, db, id, &ctx->err);
	if (rc == GCAMP_ENOTFOUND)
		goto none;
	if (rc < 0)
		goto out;
	j = cJSON_Parse(text);
	if (ab_result_from_json(out, j) < 0) {
		rc = error_set(&ctx->err, GCAMP_EFATAL,
			       "A/B run #%lld: its record is not an A/B result",
			       id);
		goto out;
	}
	if (at) {
		*at = when;
		when = NULL;
	}
	rc = 0;
	goto out;
none:
	rc = error_set(&ctx->err, GCAMP_ENOTFOUND, "no A/B run #%lld", id);
out:
	free(when);
	free(text);
	cJSON_Delete(j);
	return rc;
}
