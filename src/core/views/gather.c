/* The gathering of a PR body's notes, test results and environments, and
 * the helpers prbody.c shares with it (gather.h). */
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/machine/fingerprint.h"
#include "core/machine/label.h"
#include "core/measure/line.h"
#include "core/measure/measure.h"
#include "core/records/testrun.h"
#include "core/views/gather.h"
#include "core/views/profile.h"
#include "core/views/testdiff.h"
#include "io/gitcfg.h"
#include "io/repo.h"
#include "util/json.h"
#include "util/xalloc.h"

void pb_add_env(struct pb *b, const char *env)
{
	size_t i;

	if (!env || !*env)
		return;
	for (i = 0; i < b->envs.nr; i++)
		if (!strcmp(b->envs.v[i], env))
			return;
	strvec_push(&b->envs, env);
}

int pb_in_list(const struct strvec *v, const char *s)
{
	size_t i;

	for (i = 0; s && i < v->nr; i++)
		if (!strcmp(v->v[i], s))
			return 1;
	return 0;
}

/* "%.4g" with the unit, no exponent for large values */
char *pb_value_text(double v, const char *unit)
{
	return xasprintf(fabs(v) >= 1000 ? "%.0f%s%s" : "%.4g%s%s", v,
			 unit && *unit ? " " : "", unit ? unit : "");
}

/* The first 12 digits of hex, as key */
void pb_add_short(cJSON *o, const char *key, const char *hex)
{
	char s[13];

	snprintf(s, sizeof(s), "%.12s", hex);
	cJSON_AddStringToObject(o, key, s);
}

/* 1116 as "1,116" */
void pb_count_str(struct buf *out, long v)
{
	char digits[32];
	size_t i, len;

	len = (size_t)snprintf(digits, sizeof(digits), "%ld", v < 0 ? -v : v);
	if (v < 0)
		buf_putc(out, '-');
	for (i = 0; i < len; i++) {
		if (i && (len - i) % 3 == 0)
			buf_putc(out, ',');
		buf_putc(out, digits[i]);
	}
}

/* {"id", "label" (machine_label), "os", "backend"} */
cJSON *pb_env_json(struct ctx *ctx, const char *env)
{
	cJSON *o = cJSON_CreateObject(), *fp = NULL;
	const cJSON *id;
	struct buf label = BUF_INIT;

	cJSON_AddStringToObject(o, "id", env);
	if (fingerprint_load_json(&fp, ctx, env) < 0) {
		error_clear(&ctx->err);
		cJSON_AddStringToObject(o, "label", "an unknown machine");
		cJSON_AddStringToObject(o, "os", "unknown OS");
		cJSON_AddStringToObject(o, "backend", "unknown");
		return o;
	}
	id = cJSON_GetObjectItemCaseSensitive(fp, "identity");
	machine_label(&label, fp, env);
	cJSON_AddStringToObject(o, "label", label.ptr);
	cJSON_AddStringToObject(o, "os",
				json_get_str_or(id, "os", "unknown OS"));
	cJSON_AddStringToObject(o, "backend",
				json_get_str_or(id, "backend", "none"));
	buf_release(&label);
	cJSON_Delete(fp);
	return o;
}

static cJSON *record_json(const struct record *r, const char *commit)
{
	cJSON *o = cJSON_CreateObject();
	struct buf cfg = BUF_INIT;
	char *v = pb_value_text(r->value, r->unit);

	cJSON_AddStringToObject(o, "commit", commit);
	pb_add_short(o, "commit_short", commit);
	cJSON_AddStringToObject(o, "metric", r->metric);
	cJSON_AddNumberToObject(o, "value", r->value);
	cJSON_AddStringToObject(o, "unit", r->unit ? r->unit : "");
	cJSON_AddStringToObject(o, "value_text", v);
	cJSON_AddNumberToObject(o, "n", (double)r->n);
	cJSON_AddStringToObject(o, "env", r->env);
	cJSON_AddStringToObject(o, "source", r->source ? r->source : "");
	record_config_json(&cfg, r);
	cJSON_AddItemToObject(o, "config",
			      cJSON_Parse(cfg.len ? cfg.ptr : "{}"));
	buf_release(&cfg);
	free(v);
	return o;
}

/* The notes: profiles on the merge base and the branch's commits (one
 * entry per import, see profile.h), other
 * measurements (not the A/B's, which the runs show) on the commits */
int pb_gather_notes(struct pb *b)
{
	cJSON *prof = cJSON_AddArrayToObject(b->d, "profile");
	cJSON *meas = cJSON_AddArrayToObject(b->d, "measurements");
	char hex[GIT_OID_HEXSZ + 1];
	size_t c, i;
	int rc = 0;

	git_oid_tostr(hex, sizeof(hex), &b->merge_base);
	for (c = 0; c <= b->commits.nr && !rc; c++) {
		const char *commit = c < b->commits.nr ? b->commits.v[c] : hex;
		struct record *recs = NULL;
		size_t n = 0, bad;
		git_oid oid;

		git_oid_fromstr(&oid, commit);
		if ((rc = measure_read_note(&recs, &n, &bad, b->ctx, &oid)) < 0)
			break;
		if (cJSON_GetArraySize(prof) < MAX_ROWS)
			profile_summarize(prof, recs, n, commit);
		for (i = 0; i < n; i++) {
			const struct record *r = &recs[i];

			if (profile_source(r->source))
				continue;
			if (c < b->commits.nr &&
			    (!r->source || strcmp(r->source, "ab")) &&
			    cJSON_GetArraySize(meas) < MAX_ROWS) {
				cJSON_AddItemToArray(meas,
						     record_json(r, commit));
				pb_add_env(b, r->env);
			}
		}
		measure_records_free(recs, n);
	}
	cJSON_AddBoolToObject(b->d, "has_measurements",
			      cJSON_GetArraySize(meas) > 0);
	return rc;
}

/* The totals of commit on env, or NULL when it has none there */
static cJSON *suite(struct pb *b, const char *commit, const char *env, int *rc)
{
	struct testrun_class *v = NULL;
	struct buf t = BUF_INIT;
	struct testdiff_sum sum;
	size_t n = 0;
	cJSON *o;

	if ((*rc = testrun_classes(&v, &n, b->ctx, commit, env)) < 0 || !n) {
		testrun_classes_free(v, n);
		return NULL;
	}
	testdiff_sum(&sum, v, n);
	o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "commit", commit);
	pb_add_short(o, "short", commit);
	cJSON_AddNumberToObject(o, "passed", (double)sum.passed);
	cJSON_AddNumberToObject(o, "failed", (double)sum.failed);
	cJSON_AddNumberToObject(o, "skipped", (double)sum.skipped);
	cJSON_AddNumberToObject(o, "unsupported", (double)sum.unsupported);
	cJSON_AddNumberToObject(o, "total", (double)sum.total);
	cJSON_AddNumberToObject(o, "classes", (double)n);
	pb_count_str(&t, sum.failed);
	buf_puts(&t, " failed of ");
	pb_count_str(&t, sum.total);
	buf_puts(&t, " (");
	pb_count_str(&t, sum.passed);
	buf_puts(&t, " passed, ");
	pb_count_str(&t, sum.skipped);
	buf_puts(&t, " skipped, ");
	pb_count_str(&t, sum.unsupported);
	buf_addf(&t, " unsupported; %zu class%s)", n, n == 1 ? "" : "es");
	cJSON_AddStringToObject(o, "text", t.ptr);
	buf_release(&t);
	testrun_classes_free(v, n);
	return o;
}

/* The base's numbers on env: the merge base, else its nearest tested
 * first-parent ancestor */
static cJSON *base_suite(struct pb *b, const char *env, int *rc)
{
	git_commit *c = NULL, *parent = NULL;
	char hex[GIT_OID_HEXSZ + 1];
	cJSON *o = NULL;
	int depth;

	if ((*rc = git_commit_lookup(&c, b->repo, &b->merge_base)) < 0) {
		*rc = error_git(&b->ctx->err, *rc,
				"cannot read the merge base");
		return NULL;
	}
	for (depth = 0; depth < BASE_DEPTH; depth++) {
		git_oid_tostr(hex, sizeof(hex), git_commit_id(c));
		if ((o = suite(b, hex, env, rc)) || *rc < 0 ||
		    git_commit_parent(&parent, c, 0) < 0)
			break;
		git_commit_free(c);
		c = parent;
		parent = NULL;
	}
	git_commit_free(c);
	return o;
}

/* Per env with results on the branch: the newest tested commit of the
 * branch, and the base on that same env */
int pb_gather_tests(struct pb *b)
{
	cJSON *arr = cJSON_AddArrayToObject(b->d, "tests");
	struct strvec envs = STRVEC_INIT;
	size_t c, e;
	int rc = 0, both = 0;

	for (c = 0; c < b->commits.nr && !rc; c++)
		rc = testrun_envs(&envs, b->ctx, b->commits.v[c]);
	strvec_sort(&envs);
	for (e = 0; e < envs.nr && !rc; e++) {
		cJSON *o, *mine = NULL, *theirs;

		if (e && !strcmp(envs.v[e], envs.v[e - 1]))
			continue;
		for (c = 0; c < b->commits.nr && !mine && !rc; c++)
			mine = suite(b, b->commits.v[c], envs.v[e], &rc);
		if (rc < 0 || !mine)
			break;
		theirs = base_suite(b, envs.v[e], &rc);
		o = pb_env_json(b->ctx, envs.v[e]);
		cJSON_AddItemToObject(o, "this_branch", mine);
		if (theirs)
			cJSON_AddItemToObject(o, "on_base", theirs);
		both |= theirs != NULL;
		cJSON_AddItemToArray(arr, o);
		pb_add_env(b, envs.v[e]);
	}
	cJSON_AddBoolToObject(b->d, "tests_complete", both);
	strvec_clear(&envs);
	return rc;
}

/* The envs measured, and the backends of campaign.backends none of them
 * ran */
int pb_gather_envs(struct pb *b)
{
	cJSON *arr = cJSON_AddArrayToObject(b->d, "envs");
	cJSON *tested = cJSON_AddArrayToObject(b->d, "backends_tested");
	cJSON *untested = cJSON_AddArrayToObject(b->d, "backends_untested");
	struct strvec conf = STRVEC_INIT, seen = STRVEC_INIT;
	struct buf list = BUF_INIT;
	struct gitcfg *cfg;
	size_t i;
	int rc;

	for (i = 0; i < b->envs.nr; i++) {
		cJSON *o = pb_env_json(b->ctx, b->envs.v[i]);
		const char *be = json_get_str(o, "backend");

		cJSON_AddItemToArray(arr, o);
		if (!pb_in_list(&seen, be)) {
			strvec_push(&seen, be);
			cJSON_AddItemToArray(tested, cJSON_CreateString(be));
		}
	}
	if ((rc = ctx_config(&cfg, b->ctx)) < 0 ||
	    (rc = gitcfg_get_all(&conf, cfg, "campaign.backends",
				 &b->ctx->err)) < 0)
		goto out;
	for (i = 0; i < conf.nr; i++) {
		if (pb_in_list(&seen, conf.v[i]))
			continue;
		strvec_push(&seen, conf.v[i]);
		cJSON_AddItemToArray(untested, cJSON_CreateString(conf.v[i]));
		buf_addf(&list, "%s%s", list.len ? ", " : "", conf.v[i]);
	}
	cJSON_AddBoolToObject(b->d, "multi_env", b->envs.nr > 1);
	cJSON_AddBoolToObject(b->d, "backends_configured", conf.nr > 0);
	cJSON_AddBoolToObject(b->d, "all_backends_tested",
			      conf.nr > 0 && !list.len);
	cJSON_AddStringToObject(b->d, "untested_text",
				list.ptr ? list.ptr : "");
out:
	buf_release(&list);
	strvec_clear(&conf);
	strvec_clear(&seen);
	return rc;
}
