/* A/B results as measurement records in the notes, and their move to the
 * commit that holds the change once it is committed. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/ab/enums.h"
#include "core/ab/notes.h"
#include "core/machine/collect.h"
#include "core/machine/fingerprint.h"
#include "core/machine/label.h"
#include "core/measure/line.h"
#include "core/measure/measure.h"
#include "core/measure/stored.h"
#include "io/repo.h"
#include "util/clock.h"
#include "util/json.h"
#include "util/xalloc.h"

static int fill(struct record *rec, struct ctx *ctx, const struct ab_result *r,
		const struct ab_opts *o, const struct ab_point *p, int arm_b,
		const char *run, const char *env, const char *at)
{
	char tree[GIT_OID_HEXSZ + 1];
	const char *unit;
	size_t i;
	int rc;

	record_init(rec);
	memcpy(rec->run, run, RECORD_RUN_LEN + 1);
	rec->metric = xstrdup(p->metric ? p->metric : r->metric);
	rec->value = arm_b ? p->sb.median : p->sa.median;
	unit = p->unit ? p->unit : r->unit;
	rec->unit = *unit ? xstrdup(unit) : NULL;
	rec->better = xstrdup(r->higher_is_better ? "higher" : "lower");
	rec->stat = xstrdup("median");
	rec->n = (long)(arm_b ? p->nb : p->na);
	rec->nsamples = arm_b ? p->nb : p->na;
	rec->samples = xmalloc(rec->nsamples * sizeof(double));
	memcpy(rec->samples, arm_b ? p->b : p->a,
	       rec->nsamples * sizeof(double));
	rec->arm = xstrdup(arm_b ? "B" : "A");
	rec->ctl = p->control;
	rec->iters = p->iters ? p->iters : -1;
	/* what the controls said of the run travels with its numbers */
	rec->vouch = xstrdup(ab_vouch_name(r->vouch));
	rec->env = xstrdup(env);
	rec->source = xstrdup("ab");
	rec->at = xstrdup(at);
	for (i = 0; i < o->nconfig; i++)
		if ((rc = record_config_parse(rec, o->config[i], &ctx->err)) <
		    0)
			return rc;
	if (!record_config_get(rec, "profiler"))
		record_config_put(rec, "profiler", "off");
	record_config_put(rec, "workload", p->workload);
	if (arm_b) {
		git_oid_tostr(tree, sizeof(tree), &r->b_tree);
		record_config_put(rec, "b_tree", tree);
	}
	return record_check(rec, &ctx->err);
}

int ab_describe_env(struct ab_result *r, struct ctx *ctx)
{
	int rc;

	if ((rc = fingerprint_current_id(r->env, ctx, NULL)) < 0)
		return rc;
	return ab_describe_stored_env(r, ctx);
}

/* r->env_line and r->gpu from fp, the fingerprint of r->env */
static void describe(struct ab_result *r, const cJSON *fp)
{
	struct buf line = BUF_INIT;
	const cJSON *id = cJSON_GetObjectItemCaseSensitive(fp, "identity");

	r->gpu = cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(
			 id, "gpu_models")) > 0;
	buf_addf(&line, "env %s: ", r->env);
	machine_label(&line, fp, r->env);
	free(r->env_line);
	r->env_line = buf_detach(&line);
}

int ab_describe_stored_env(struct ab_result *r, struct ctx *ctx)
{
	cJSON *fp = NULL;
	int rc;

	free(r->env_line);
	r->env_line = NULL;
	if ((rc = fingerprint_load_json(&fp, ctx, r->env)) < 0)
		return rc;
	describe(r, fp);
	cJSON_Delete(fp);
	/* the floor column is a reference beside the run's own numbers: an
	 * index that cannot be read leaves it out, never the run */
	r->has_floor = r->gpu && floor_stored(&r->floor, ctx, r->env) > 0;
	error_clear(&ctx->err);
	return 0;
}

void ab_describe_known_env(struct ab_result *r, const cJSON *fp,
			   const struct floor_ref *floor)
{
	free(r->env_line);
	r->env_line = NULL;
	if (!fp)
		return;
	describe(r, fp);
	r->has_floor = r->gpu && floor && floor->launch_us >= 0;
	if (r->has_floor)
		r->floor = *floor;
}

int ab_record(struct ctx *ctx, const struct ab_result *r,
	      const struct ab_opts *o)
{
	char run[RECORD_RUN_LEN + 1], at[21];
	const char *env = r->env;
	struct record *recs;
	size_t n = 0, i;
	int arm, rc;

	if ((rc = record_new_run(run, &ctx->err)) < 0)
		return rc;
	clock_now_iso(at);
	recs = xcalloc(2 * r->npoints + 1, sizeof(*recs));
	for (i = 0; i < r->npoints; i++)
		for (arm = 0; arm < 2; arm++) {
			const struct ab_point *p = &r->points[i];

			if (!(arm ? p->nb : p->na) || p->failed_a ||
			    p->failed_b)
				continue;
			if ((rc = fill(&recs[n++], ctx, r, o, p, arm, run, env,
				       at)) < 0)
				goto out;
		}
	rc = n ? measure_append(ctx, &r->a_commit, recs, n, "ab") : 0;
out:
	for (i = 0; i < n; i++)
		record_release(&recs[i]);
	free(recs);
	return rc;
}

/* Drops from recs[0..*n) every record whose line is in the note on
 * commit already, or repeats an earlier one of recs: what is left is what
 * an append adds */
static int drop_present(struct record *recs, size_t *n, struct ctx *ctx,
			const git_oid *commit)
{
	struct record *have = NULL;
	struct strvec lines = STRVEC_INIT;
	struct buf b = BUF_INIT;
	size_t nhave = 0, nbad, i, j, kept = 0;
	int rc;

	if ((rc = measure_read_note(&have, &nhave, &nbad, ctx, commit)) < 0)
		return rc;
	for (i = 0; i < nhave && rc >= 0; i++) {
		buf_reset(&b);
		if ((rc = record_encode(&b, &have[i], &ctx->err)) >= 0)
			strvec_push(&lines, b.ptr);
	}
	for (i = 0; i < *n && rc >= 0; i++) {
		buf_reset(&b);
		if ((rc = record_encode(&b, &recs[i], &ctx->err)) < 0)
			break;
		for (j = 0; j < lines.nr; j++)
			if (!strcmp(lines.v[j], b.ptr))
				break;
		if (j < lines.nr) {
			record_release(&recs[i]);
			continue;
		}
		strvec_push(&lines, b.ptr);
		recs[kept++] = recs[i];
	}
	/* after an error, the ones not looked at stay too */
	for (j = i; j < *n; j++)
		recs[kept++] = recs[j];
	/* the dropped ones are released, the moved ones live on */
	for (j = kept; j < *n; j++)
		record_init(&recs[j]);
	*n = kept;
	buf_release(&b);
	strvec_clear(&lines);
	measure_records_free(have, nhave);
	return rc < 0 ? rc : 0;
}

int ab_attach(size_t *out_n, struct ctx *ctx, const char *rev)
{
	git_repository *repo;
	git_object *obj = NULL;
	git_commit *c = NULL, *cur = NULL, *parent = NULL;
	struct record *found = NULL, *recs = NULL;
	char tree[GIT_OID_HEXSZ + 1];
	size_t nfound = 0, nrecs, nbad, i;
	int depth, rc;

	*out_n = 0;
	if ((rc = ctx_repo(&repo, ctx, 0)) < 0)
		return rc;
	if (git_revparse_single(&obj, repo, rev) < 0 ||
	    git_object_peel((git_object **)&c, obj, GIT_OBJECT_COMMIT) < 0) {
		rc = error_set(&ctx->err, GCAMP_ENOTFOUND, "no commit '%s'",
			       rev);
		goto out;
	}
	git_oid_tostr(tree, sizeof(tree), git_commit_tree_id(c));
	/* the change was measured on an ancestor: the commit it was made on */
	if ((rc = git_commit_dup(&cur, c)) < 0)
		goto git_fail;
	for (depth = 0; depth < 50; depth++) {
		if (git_commit_parentcount(cur) == 0)
			break;
		if ((rc = git_commit_parent(&parent, cur, 0)) < 0)
			goto git_fail;
		git_commit_free(cur);
		cur = parent;
		parent = NULL;
		if ((rc = measure_read_note(&recs, &nrecs, &nbad, ctx,
					    git_commit_id(cur))) < 0)
			goto out;
		for (i = 0; i < nrecs; i++) {
			const char *bt = record_config_get(&recs[i], "b_tree");

			if (!recs[i].source || strcmp(recs[i].source, "ab") ||
			    !bt || strcmp(bt, tree))
				continue;
			found = xrealloc(found, (nfound + 1) * sizeof(*found));
			found[nfound++] = recs[i];
			record_init(&recs[i]);
		}
		measure_records_free(recs, nrecs);
		recs = NULL;
	}
	/* a record already on rev (an earlier attach) is not copied again:
	 * it would count twice */
	if ((rc = drop_present(found, &nfound, ctx, git_commit_id(c))) < 0)
		goto out;
	if (nfound && (rc = measure_append(ctx, git_commit_id(c), found, nfound,
					   "ab attach")) < 0)
		goto out;
	*out_n = nfound;
	goto out;
git_fail:
	rc = error_git(&ctx->err, rc, "cannot walk the history of '%s'", rev);
out:
	for (i = 0; i < nfound; i++)
		record_release(&found[i]);
	free(found);
	git_commit_free(parent);
	git_commit_free(cur);
	git_commit_free(c);
	git_object_free(obj);
	return rc;
}
