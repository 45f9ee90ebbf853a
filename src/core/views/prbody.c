/* The data of a campaign PR's body, gathered from the branch's records
 * (A/B runs, hypotheses, findings here; notes, test results, environments
 * in gather.c), and its rendering through template pr-body.md. */
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/ab/load.h"
#include "core/ab/notes.h"
#include "core/ab/render.h"
#include "core/campaign/campaign.h"
#include "core/measure/line.h"
#include "core/records/ab_run.h"
#include "core/records/finding.h"
#include "core/records/hypo.h"
#include "core/records/pr.h"
#include "core/records/testrun.h"
#include "core/stack/model.h"
#include "core/views/gather.h"
#include "core/views/prbody.h"
#include "core/views/prlint.h"
#include "core/views/render.h"
#include "io/gitcfg.h"
#include "io/repo.h"
#include "util/json.h"
#include "util/xalloc.h"

/* 1 when hex (a full id or a prefix of 7 or more) is one of the commits */
static int pb_branch_commit(const struct pb *b, const char *hex)
{
	size_t i, k = hex ? strlen(hex) : 0;

	for (i = 0; k >= 7 && i < b->commits.nr; i++)
		if (!strncmp(b->commits.v[i], hex, k))
			return 1;
	return 0;
}

static void pb_negative(struct pb *b, char *text)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddStringToObject(o, "text", text);
	cJSON_AddItemToArray(b->negatives, o);
	free(text);
}

/* What the branch's PR is based on: its stack parent when it is stacked
 * on one that is still there (GitHub shows the PR as parent..branch), else
 * campaign.base; *name is borrowed from the model or the campaign, *remote
 * says where else the tip may be looked for */
static int pr_base_of(const char **name, const char **remote,
		      struct stack_model *m, struct pb *b, const char *branch,
		      const struct refs *refs)
{
	const struct stack_rel *rel;
	char hex[REFS_HEX_SIZE];
	struct gitcfg *cfg;
	int rc;

	*name = b->c.base;
	*remote = b->c.remote;
	if ((rc = ctx_config(&cfg, b->ctx)) < 0 ||
	    (rc = gitcfg_foreach(cfg, "branch.", "", stack_model_add, m,
				 &b->ctx->err)) < 0)
		return rc;
	rel = stack_model_find(m, branch);
	if (rel && rel->parent && strcmp(rel->parent, b->c.base) &&
	    refs_branch_tip(hex, refs, NULL, rel->parent) == 0) {
		*name = rel->parent;
		*remote = NULL;
	}
	return 0;
}

/* The branch, its tip, the merge base with what its PR is based on (its
 * stack parent, else campaign.base), the commits between (newest first) */
static int gather_commits(struct pb *b, const char *branch)
{
	git_oid tip, base;
	git_revwalk *walk = NULL;
	git_commit *c = NULL;
	struct stack_model m = STACK_MODEL_INIT;
	struct refs refs;
	cJSON *arr;
	char hex[GIT_OID_HEXSZ + 1];
	const char *onto, *remote;
	char *cur = NULL;
	int rc;

	repo_refs(&refs, b->repo);
	if (!branch) {
		if ((rc = refs_head_branch(&cur, &refs, &b->ctx->err)) < 0)
			return rc;
		if (!cur)
			return error_set(&b->ctx->err, GCAMP_EUSAGE,
					 "HEAD is detached: name the branch");
		branch = cur;
	}
	if ((rc = pr_base_of(&onto, &remote, &m, b, branch, &refs)) < 0)
		goto out;
	cJSON_AddStringToObject(b->d, "branch", branch);
	cJSON_AddStringToObject(b->d, "base", onto);
	if (refs_branch_tip(hex, &refs, NULL, branch) < 0 ||
	    git_oid_fromstr(&tip, hex) < 0) {
		rc = error_set(&b->ctx->err, GCAMP_ENOTFOUND, "no branch '%s'",
			       branch);
		goto out;
	}
	if (refs_branch_tip(hex, &refs, remote, onto) < 0 ||
	    git_oid_fromstr(&base, hex) < 0) {
		rc = error_set(&b->ctx->err, GCAMP_ENOTFOUND,
			       "no base branch '%s'", onto);
		goto out;
	}
	if ((rc = git_merge_base(&b->merge_base, b->repo, &tip, &base)) < 0) {
		rc = error_git(&b->ctx->err, rc,
			       "'%s' and '%s' have no common history", branch,
			       onto);
		goto out;
	}
	git_oid_tostr(hex, sizeof(hex), &tip);
	cJSON_AddStringToObject(b->d, "head", hex);
	hex[12] = '\0';
	cJSON_AddStringToObject(b->d, "head_short", hex);
	git_oid_tostr(hex, sizeof(hex), &b->merge_base);
	cJSON_AddStringToObject(b->d, "merge_base", hex);
	hex[12] = '\0';
	cJSON_AddStringToObject(b->d, "merge_base_short", hex);
	arr = cJSON_AddArrayToObject(b->d, "commits");
	if ((rc = git_revwalk_new(&walk, b->repo)) < 0 ||
	    (rc = git_revwalk_push(walk, &tip)) < 0 ||
	    (rc = git_revwalk_hide(walk, &b->merge_base)) < 0) {
		rc = error_git(&b->ctx->err, rc, "cannot walk '%s'", branch);
		goto out;
	}
	git_revwalk_sorting(walk, GIT_SORT_TOPOLOGICAL);
	while (b->commits.nr < MAX_COMMITS && !git_revwalk_next(&tip, walk)) {
		cJSON *o = cJSON_CreateObject();

		if ((rc = git_commit_lookup(&c, b->repo, &tip)) < 0) {
			cJSON_Delete(o);
			rc = error_git(&b->ctx->err, rc,
				       "cannot read a commit");
			goto out;
		}
		git_oid_tostr(hex, sizeof(hex), &tip);
		strvec_push(&b->commits, hex);
		cJSON_AddStringToObject(o, "id", hex);
		hex[12] = '\0';
		cJSON_AddStringToObject(o, "short", hex);
		cJSON_AddStringToObject(
			o, "subject",
			git_commit_summary(c) ? git_commit_summary(c) : "");
		git_oid_tostr(hex, sizeof(hex), git_commit_tree_id(c));
		strvec_push(&b->trees, hex);
		/* oldest first, as a PR lists them */
		cJSON_InsertItemInArray(arr, 0, o);
		git_commit_free(c);
		c = NULL;
	}
out:
	git_revwalk_free(walk);
	stack_model_release(&m);
	free(cur);
	return rc;
}

static int gather_pr(struct pb *b, struct db *db)
{
	struct pr_cached pr;
	cJSON *o;
	int rc;

	if (!db) {
		cJSON_AddNullToObject(b->d, "pr");
		return 0;
	}
	rc = pr_get(&pr, db_handle(db), json_get_str(b->d, "branch"),
		    &b->ctx->err);
	if (rc == GCAMP_ENOTFOUND) {
		cJSON_AddNullToObject(b->d, "pr");
		return 0;
	}
	if (rc < 0)
		return rc;
	o = cJSON_AddObjectToObject(b->d, "pr");
	b->pr = pr.number;
	cJSON_AddNumberToObject(o, "number", (double)b->pr);
	cJSON_AddStringToObject(o, "state", pr.state);
	cJSON_AddStringToObject(o, "url", pr.url);
	return 0;
}

/* One point that did not help, or cost: a negative */
static void point_negative(struct pb *b, const char *run,
			   const struct ab_result *r, const struct ab_point *p)
{
	struct buf t = BUF_INIT;

	if (p->control ||
	    (p->verdict != AB_VERDICT_SAME && p->verdict != AB_VERDICT_SLOWER))
		return;
	buf_addf(&t, "`%s`", p->workload);
	if (p->iters)
		buf_addf(&t, " at %ld iteration%s", p->iters,
			 p->iters == 1 ? "" : "s");
	buf_addf(&t, ": %s",
		 p->verdict == AB_VERDICT_SAME ? "no change (~)" : "slower");
	if (!isnan(p->cmp.ratio)) {
		buf_addf(&t, ", B/A %.3f", p->cmp.ratio);
		if (!isnan(p->cmp.ci_lo) && !isnan(p->cmp.ci_hi))
			buf_addf(&t, " [%.3f, %.3f]", p->cmp.ci_lo,
				 p->cmp.ci_hi);
	}
	buf_addf(&t, " (A/B #%s, env %s)", run, r->env);
	pb_negative(b, buf_detach(&t));
}

/* The arms by what they are to the PR's reader: the base or the branch at
 * a commit, rather than "HEAD" and "working tree" as they were at the run */
static void relabel(const struct pb *b, struct ab_result *r)
{
	char hex[GIT_OID_HEXSZ + 1];
	size_t i;

	git_oid_tostr(hex, sizeof(hex), &r->b_tree);
	for (i = 0; i < b->trees.nr; i++)
		if (!strcmp(b->trees.v[i], hex)) {
			snprintf(r->b_desc, sizeof(r->b_desc), "%.40s (%.12s)",
				 json_get_str(b->d, "branch"), b->commits.v[i]);
			break;
		}
	git_oid_tostr(hex, sizeof(hex), &r->a_commit);
	if (git_oid_equal(&r->a_commit, &b->merge_base))
		snprintf(r->a_desc, sizeof(r->a_desc), "%.40s (%.12s)",
			 json_get_str(b->d, "base"), hex);
	else if (pb_branch_commit(b, hex))
		snprintf(r->a_desc, sizeof(r->a_desc), "%.40s (%.12s)",
			 json_get_str(b->d, "branch"), hex);
}

static int add_run(struct pb *b, const struct ab_run_row *row, const cJSON *j)
{
	struct ab_result r;
	struct buf md = BUF_INIT;
	cJSON *o, *arr = cJSON_GetObjectItemCaseSensitive(b->d, "ab_runs");
	char id[24];
	size_t i;

	snprintf(id, sizeof(id), "%lld", row->id);
	if (ab_result_from_json(&r, j) < 0)
		return 0;
	if (ab_describe_stored_env(&r, b->ctx) < 0) {
		error_clear(&b->ctx->err);
		r.env_line = xasprintf("env %s", r.env);
	}
	relabel(b, &r);
	ab_render_markdown(&md, &r);
	buf_rtrim(&md);
	strvec_push(&b->runs, id);
	pb_add_env(b, r.env);
	o = cJSON_CreateObject();
	cJSON_AddNumberToObject(o, "id", (double)row->id);
	cJSON_AddStringToObject(o, "at", row->at);
	cJSON_AddStringToObject(o, "verdict", row->verdict);
	cJSON_AddBoolToObject(o, "invalid", r.invalid);
	cJSON_AddStringToObject(o, "env", r.env);
	cJSON_AddStringToObject(o, "markdown", md.ptr);
	cJSON_AddItemToObject(o, "result", cJSON_Duplicate(j, 1));
	cJSON_AddItemToArray(arr, o);
	if (r.invalid)
		pb_negative(b, xasprintf("A/B #%s is INVALID: a control moved; "
					 "its numbers are not in the table",
					 id));
	for (i = 0; i < r.npoints; i++) {
		if (r.points[i].control && !r.invalid)
			cJSON_ReplaceItemInObjectCaseSensitive(
				b->d, "has_control", cJSON_CreateTrue());
		if (!r.invalid)
			point_negative(b, id, &r, &r.points[i]);
	}
	buf_release(&md);
	ab_result_release(&r);
	return 0;
}

static int gather_run(const struct ab_run_row *row, void *data)
{
	struct pb *b = data;
	cJSON *j = cJSON_Parse(row->result);

	if (pb_in_list(&b->trees, json_get_str(j, "b_tree")))
		add_run(b, row, j);
	cJSON_Delete(j);
	return 0;
}

/* The A/B runs whose B was the tree of one of the branch's commits */
static int gather_runs(struct pb *b, struct db *db)
{
	cJSON_AddArrayToObject(b->d, "ab_runs");
	cJSON_AddFalseToObject(b->d, "has_control");
	if (!db)
		return 0;
	return ab_run_for_each(db, 0, gather_run, b, &b->ctx->err);
}

/* "ab #3" of one of the branch's runs, or "commit ID" of its commits */
static int hypo_ours(const struct pb *b, const struct hypo *h)
{
	if (!h->evidence)
		return 0;
	if (!strncmp(h->evidence, "ab #", 4))
		return pb_in_list(&b->runs, h->evidence + 4);
	if (!strncmp(h->evidence, "commit ", 7))
		return pb_branch_commit(b, h->evidence + 7);
	return 0;
}

static int gather_hypos(struct pb *b)
{
	struct hypo *v = NULL;
	size_t n = 0, i;
	cJSON *yes = cJSON_AddArrayToObject(b->d, "confirmed");
	cJSON *no = cJSON_AddArrayToObject(b->d, "falsified");
	int rc;

	if ((rc = hypo_list(&v, &n, b->ctx)) < 0)
		return rc;
	for (i = 0; i < n; i++) {
		const struct hypo *h = &v[i];
		const char *u = h->unit ? h->unit : "";
		cJSON *o;
		char *p, *m;

		if (!h->has_measured || !hypo_ours(b, h))
			continue;
		o = cJSON_CreateObject();
		p = pb_value_text(h->predicted, u);
		m = pb_value_text(h->measured, u);
		cJSON_AddNumberToObject(o, "id", (double)h->id);
		cJSON_AddStringToObject(o, "text", h->text);
		cJSON_AddStringToObject(o, "metric", h->metric);
		cJSON_AddNumberToObject(o, "predicted", h->predicted);
		cJSON_AddNumberToObject(o, "measured", h->measured);
		cJSON_AddStringToObject(o, "unit", u);
		cJSON_AddStringToObject(o, "evidence", h->evidence);
		cJSON_AddStringToObject(o, "predicted_text", p);
		cJSON_AddStringToObject(o, "measured_text", m);
		if (!strcmp(h->state, "confirmed")) {
			cJSON_AddItemToArray(yes, o);
		} else {
			cJSON_AddItemToArray(no, o);
			pb_negative(b,
				    xasprintf("falsified: %s (%s predicted %s, "
					      "measured %s; %s)",
					      h->text, h->metric, p, m,
					      h->evidence));
		}
		free(p);
		free(m);
	}
	hypo_free(v, n);
	return 0;
}

static int gather_findings(struct pb *b)
{
	struct finding *v = NULL;
	size_t n = 0, i;
	cJSON *arr = cJSON_AddArrayToObject(b->d, "findings");
	int rc;

	if ((rc = finding_list(&v, &n, b->ctx)) < 0)
		return rc;
	for (i = 0; i < n; i++) {
		const struct finding *f = &v[i];
		cJSON *o;

		if (!(b->pr && (f->pr == b->pr || f->closed_pr == b->pr)) &&
		    !pb_branch_commit(b, f->commit_id))
			continue;
		o = cJSON_CreateObject();
		cJSON_AddNumberToObject(o, "id", (double)f->id);
		cJSON_AddStringToObject(o, "kind", f->kind);
		cJSON_AddStringToObject(o, "title", f->title);
		json_add_str_or_null(o, "issue", f->issue);
		if (f->pr)
			cJSON_AddNumberToObject(o, "pr", (double)f->pr);
		if (f->commit_id)
			cJSON_AddStringToObject(o, "commit", f->commit_id);
		cJSON_AddStringToObject(o, "state", f->state);
		cJSON_AddItemToArray(arr, o);
	}
	finding_free(v, n);
	return 0;
}

struct claim_walk {
	struct pb *b;
	struct buf *claim;
};

/* the claim of one run, when it is the branch's; stops at the first */
static int claim_of(const struct ab_run_row *row, void *data)
{
	struct claim_walk *w = data;
	cJSON *j = cJSON_Parse(row->result);
	struct ab_result r;
	size_t i;

	if (pb_in_list(&w->b->trees, json_get_str(j, "b_tree")) &&
	    ab_result_from_json(&r, j) == 0) {
		for (i = 0; i < r.npoints && !w->claim->len; i++) {
			const struct ab_point *p = &r.points[i];

			if (p->control || p->verdict == AB_VERDICT_NONE ||
			    isnan(p->cmp.ratio))
				continue;
			buf_addf(
				w->claim,
				"%s, B/A %.3f [%.3f, %.3f] on `%s` (A/B #%lld)",
				ab_verdict_name(p->verdict), p->cmp.ratio,
				p->cmp.ci_lo, p->cmp.ci_hi, p->workload,
				row->id);
		}
		ab_result_release(&r);
	}
	cJSON_Delete(j);
	return w->claim->len > 0;
}

/* claim: the first judged point, not a control, of the newest A/B run of
 * the branch: "faster, B/A 0.950 [0.947, 0.953] on `./prog 100` (A/B #3)" */
static int newest_claim(struct pb *b, struct db *db, struct buf *claim)
{
	struct claim_walk w = {b, claim};
	int rc = ab_run_for_each(db, 1, claim_of, &w, &b->ctx->err);

	return rc > 0 ? 0 : rc;
}

/* A gathering for ctx: the campaign and the repository; release with
 * pb_release() whatever it returns. */
static int pb_open(struct pb *b, struct ctx *ctx)
{
	int rc;

	memset(b, 0, sizeof(*b));
	b->ctx = ctx;
	b->d = cJSON_CreateObject();
	if ((rc = campaign_load(&b->c, ctx)) < 0)
		return rc;
	return ctx_repo(&b->repo, ctx, 0);
}

static void pb_release(struct pb *b)
{
	cJSON_Delete(b->negatives);
	cJSON_Delete(b->d);
	strvec_clear(&b->commits);
	strvec_clear(&b->trees);
	strvec_clear(&b->runs);
	strvec_clear(&b->envs);
	campaign_release(&b->c);
}

static int is_branch_run(const struct ab_run_row *row, void *data)
{
	struct pb *b = data;
	cJSON *j = cJSON_Parse(row->result);
	int is = pb_in_list(&b->trees, json_get_str(j, "b_tree"));

	cJSON_Delete(j);
	return is;
}

int prbody_has_ab(int *has, struct ctx *ctx, const char *branch)
{
	struct pb b;
	struct db *db = NULL;
	int rc;

	*has = 0;
	if ((rc = pb_open(&b, ctx)) < 0 || (rc = ctx_db_if_any(&db, ctx)) < 0 ||
	    !db || (rc = gather_commits(&b, branch)) < 0)
		goto out;
	if ((rc = ab_run_for_each(db, 0, is_branch_run, &b, &ctx->err)) > 0) {
		*has = 1;
		rc = 0;
	}
out:
	pb_release(&b);
	return rc;
}

int prbody_claim(char **title, char **claim, struct ctx *ctx,
		 const char *branch)
{
	struct buf text = BUF_INIT;
	struct pb b;
	struct db *db = NULL;
	const cJSON *first;
	int rc;

	*title = *claim = NULL;
	if ((rc = pb_open(&b, ctx)) < 0 || (rc = ctx_db(&db, ctx, 0)) < 0 ||
	    (rc = gather_commits(&b, branch)) < 0 ||
	    (rc = newest_claim(&b, db, &text)) < 0)
		goto out;
	first = cJSON_GetArrayItem(
		cJSON_GetObjectItemCaseSensitive(b.d, "commits"), 0);
	if (first)
		*title = xstrdup(json_get_str(first, "subject"));
	if (text.len)
		*claim = buf_detach(&text);
out:
	buf_release(&text);
	pb_release(&b);
	return rc;
}

int prbody_data(cJSON **data, struct ctx *ctx, const char *branch)
{
	struct pb b;
	struct db *db = NULL;
	int rc;

	*data = NULL;
	if ((rc = pb_open(&b, ctx)) < 0 || (rc = ctx_db_if_any(&db, ctx)) < 0)
		goto out;
	cJSON_AddStringToObject(b.d, "campaign", b.c.name ? b.c.name : "");
	cJSON_AddStringToObject(b.d, "todo", PRBODY_TODO);
	b.negatives = cJSON_CreateArray();
	if ((rc = gather_commits(&b, branch)) < 0 ||
	    (rc = gather_pr(&b, db)) < 0 || (rc = gather_runs(&b, db)) < 0 ||
	    (rc = gather_hypos(&b)) < 0 || (rc = gather_findings(&b)) < 0 ||
	    (rc = pb_gather_notes(&b)) < 0 || (rc = pb_gather_tests(&b)) < 0 ||
	    (rc = pb_gather_envs(&b)) < 0)
		goto out;
	cJSON_AddBoolToObject(
		b.d, "has_numbers",
		cJSON_GetArraySize(
			cJSON_GetObjectItemCaseSensitive(b.d, "ab_runs")) > 0 ||
			cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(
				b.d, "measurements")) > 0);
	cJSON_AddItemToObject(b.d, "negatives", b.negatives);
	b.negatives = NULL;
	*data = b.d;
	b.d = NULL;
out:
	pb_release(&b);
	return rc;
}

int prbody_render(struct ctx *ctx, const char *branch, struct buf *out,
		  cJSON **data)
{
	struct buf body = BUF_INIT;
	git_repository *repo;
	cJSON *d = NULL;
	int rc;

	if (data)
		*data = NULL;
	if ((rc = prbody_data(&d, ctx, branch)) < 0 ||
	    (rc = ctx_repo(&repo, ctx, 0)) < 0)
		goto out;
	/* user text cannot end the stack section the template may place */
	json_defuse_strings(d);
	if ((rc = views_render(ctx, git_repository_workdir(repo), "pr-body.md",
			       "git campaign pr body --json", d, &body, NULL)) <
	    0)
		goto out;
	buf_add(out, body.ptr, body.len);
	if (data) {
		*data = d;
		d = NULL;
	}
out:
	cJSON_Delete(d);
	buf_release(&body);
	return rc;
}
