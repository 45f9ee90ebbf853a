/* The umbrella issue's section: its data, rendered through the umbrella.md
 * template, and spliced between the markers. The forge writes are in
 * core/forge/umbrella_sync.c. */
#include "core/views/umbrella.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/measure/stored.h"
#include "core/records/pr.h"
#include "core/views/prbody.h"
#include "core/views/render.h"
#include "core/views/resume.h"
#include "util/json.h"
#include "util/text.h"

int umbrella_splice(struct buf *out, const char *body, const char *section)
{
	return text_splice_markers(out, body, UMBRELLA_BEGIN, UMBRELLA_END,
				   section);
}

/* a markdown table cell: no pipes, no line breaks */
static char *cell(const char *s)
{
	struct buf out = BUF_INIT;

	for (; s && *s; s++) {
		if (*s == '|')
			buf_puts(&out, "\\|");
		else if (*s == '\n' || *s == '\r')
			buf_putc(&out, ' ');
		else
			buf_putc(&out, *s);
	}
	return buf_detach(&out);
}

static void add_cell(cJSON *o, const char *key, const char *s)
{
	char *c = cell(s);

	cJSON_AddStringToObject(o, key, c);
	free(c);
}

struct prs_walk {
	cJSON *a;
	struct ctx *ctx;
};

static int add_pr(long number, const char *branch, const char *state,
		  void *data)
{
	struct prs_walk *w = data;
	cJSON *o = cJSON_CreateObject();
	char *title = NULL, *claim = NULL;

	if (prbody_claim(&title, &claim, w->ctx, branch) < 0)
		error_clear(&w->ctx->err); /* a branch deleted after merge */
	cJSON_AddNumberToObject(o, "number", (double)number);
	cJSON_AddStringToObject(o, "branch", branch);
	cJSON_AddStringToObject(o, "state", state);
	cJSON_AddBoolToObject(o, "done", !strcmp(state, "merged"));
	cJSON_AddItemToObject(o, "title",
			      title ? cJSON_CreateString(title)
				    : cJSON_CreateNull());
	cJSON_AddItemToObject(o, "claim",
			      claim ? cJSON_CreateString(claim)
				    : cJSON_CreateNull());
	cJSON_AddItemToArray(w->a, o);
	free(title);
	free(claim);
	return 0;
}

/* prs: the cached PRs by number, each {number, branch, state, done,
 * title, claim} (title and claim null when the branch is gone or has
 * none; see prbody_claim) */
static int prs_json(cJSON *d, struct ctx *ctx, struct db *db)
{
	struct prs_walk w = {cJSON_AddArrayToObject(d, "prs"), ctx};

	return pr_for_each(db, add_pr, &w, &ctx->err);
}

struct rows_walk {
	cJSON *rows;
	int n;
};

static int add_row(const struct measure_row *r, void *data)
{
	struct rows_walk *w = data;
	cJSON *o = cJSON_CreateObject();
	char v[64];

	add_cell(o, "commit", r->commit);
	add_cell(o, "metric", r->metric);
	snprintf(v, sizeof(v), "%.6g", r->value);
	cJSON_AddStringToObject(o, "value", v);
	add_cell(o, "unit", r->unit);
	add_cell(o, "arm", r->arm);
	add_cell(o, "env", r->env);
	add_cell(o, "config", r->config);
	cJSON_AddItemToArray(w->rows, o);
	w->n++;
	return 0;
}

/* measurements: {rows: [{commit, metric, value, unit, arm, env, config}],
 * folded: how many older ones are left out}, or null when none */
static int measurements_json(cJSON *d, struct ctx *ctx, struct db *db,
			     int max_rows)
{
	struct rows_walk w = {NULL, 0};
	long long total = 0;
	cJSON *m;
	int rc;

	if ((rc = measure_index_count(&total, db, &ctx->err)) < 0)
		return rc;
	if (!total) {
		cJSON_AddNullToObject(d, "measurements");
		return 0;
	}
	m = cJSON_AddObjectToObject(d, "measurements");
	w.rows = cJSON_AddArrayToObject(m, "rows");
	if ((rc = measure_index_recent(db, max_rows, add_row, &w, &ctx->err)) <
	    0)
		return rc;
	cJSON_AddNumberToObject(m, "folded", (double)(total - w.n));
	return 0;
}

/* pointer: the resume pointer saved last ({at, author, text}), or null */
static int pointer_json(cJSON *d, struct ctx *ctx)
{
	struct resume_saved s;
	cJSON *o;
	int found, rc;

	if ((rc = resume_pointer_last(&s, &found, ctx)) < 0)
		return rc;
	if (!found) {
		cJSON_AddNullToObject(d, "pointer");
		return 0;
	}
	o = cJSON_AddObjectToObject(d, "pointer");
	cJSON_AddStringToObject(o, "at", s.at);
	cJSON_AddStringToObject(o, "author", s.author);
	cJSON_AddStringToObject(o, "text", s.text);
	resume_saved_release(&s);
	return 0;
}

int umbrella_data(cJSON **out, struct ctx *ctx, int max_rows)
{
	struct db *db;
	cJSON *d = NULL;
	int rc;

	*out = NULL;
	if ((rc = ctx_db(&db, ctx, 0)) < 0 || (rc = resume_build(&d, ctx)) < 0)
		return rc;
	if ((rc = prs_json(d, ctx, db)) < 0 ||
	    (rc = measurements_json(d, ctx, db, max_rows)) < 0 ||
	    (rc = pointer_json(d, ctx)) < 0) {
		cJSON_Delete(d);
		return rc;
	}
	*out = d;
	return 0;
}

int umbrella_render(struct buf *out, struct ctx *ctx, const struct campaign *c,
		    int max_rows)
{
	git_repository *repo;
	cJSON *d = NULL;
	int rc;

	(void)c;
	buf_reset(out);
	if ((rc = ctx_repo(&repo, ctx, 0)) < 0 ||
	    (rc = umbrella_data(&d, ctx, max_rows)) < 0)
		goto out;
	/* names, titles and findings may come from anyone through sync:
	 * none may end the section or make the body invalid JSON */
	json_defuse_strings(d);
	if ((rc = views_render(
		     ctx, git_repository_workdir(repo), "umbrella.md",
		     "git campaign template show --builtin umbrella.md", d, out,
		     NULL)) < 0)
		goto out;
out:
	cJSON_Delete(d);
	return rc;
}
