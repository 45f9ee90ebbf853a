/* The umbrella issue: render the campaign's section, splice it between the
 * markers, keep within GitHub's body limits, and post marked comments. */
#include "core/views/umbrella.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/measure/query.h"
#include "core/records/pr.h"
#include "core/records/umbrella_state.h"
#include "core/views/prbody.h"
#include "core/views/resume.h"
#include "io/gitcfg.h"
#include "io/github/api.h"
#include "util/template.h"
#include "util/text.h"
#include "util/xalloc.h"

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
	struct buf text = BUF_INIT;
	git_repository *repo;
	cJSON *d = NULL;
	int rc;

	(void)c;
	buf_reset(out);
	if ((rc = ctx_repo(&repo, ctx, 0)) < 0 ||
	    (rc = umbrella_data(&d, ctx, max_rows)) < 0 ||
	    (rc = template_load(git_repository_workdir(repo), "umbrella.md",
				&text, NULL, &ctx->err)) < 0 ||
	    (rc = template_render("umbrella.md", text.ptr, d, out, &ctx->err)) <
		    0)
		goto out;
out:
	cJSON_Delete(d);
	buf_release(&text);
	return rc;
}

void umbrella_result_release(struct umbrella_result *r)
{
	free(r->url);
	memset(r, 0, sizeof(*r));
}

static int need_umbrella(const struct campaign *c, struct error *err)
{
	if (c->umbrella > 0)
		return 0;
	error_set(err, GCAMP_ENOTFOUND, "the campaign has no umbrella issue");
	error_hint(err, "set its number with 'git campaign config umbrella N'");
	return GCAMP_ENOTFOUND;
}

/* what the issue shows now, for the automatic updates: a failure to
 * record it costs one request later, nothing else */
static void sent(struct ctx *ctx, const struct campaign *c,
		 const struct buf *section)
{
	struct error keep = ctx->err;

	if (umbrella_state_sent(ctx, c->umbrella, section->ptr) < 0)
		ctx->err = keep;
}

int umbrella_sync(struct umbrella_result *out, struct ctx *ctx,
		  const struct campaign *c, struct github *gh)
{
	struct github_issue issue = {0}, after = {0};
	struct buf section = BUF_INIT, body = BUF_INIT, first = BUF_INIT;
	int rc, rows = 20, spliced = 0;

	memset(out, 0, sizeof(*out));
	if ((rc = need_umbrella(c, &ctx->err)) < 0)
		goto out;
	out->number = c->umbrella;
	if ((rc = github_issue_get(&issue, gh, c->umbrella, &ctx->err)) < 0)
		goto out;
	/* fold the oldest rows until GitHub would take the body */
	for (;;) {
		if ((rc = umbrella_render(&section, ctx, c, rows)) < 0)
			goto out;
		if (!first.len)
			buf_puts(&first, section.ptr);
		spliced = umbrella_splice(&body, issue.body, section.ptr);
		if (spliced < 0) {
			rc = error_set(&ctx->err, GCAMP_EFATAL,
				       "issue #%ld has '%s' without '%s' "
				       "after it",
				       c->umbrella, UMBRELLA_BEGIN,
				       UMBRELLA_END);
			error_hint(&ctx->err, "fix the markers by hand; "
					      "nothing was changed");
			goto out;
		}
		if (!github_body_too_big(body.ptr))
			break;
		if (rows == 0) {
			rc = error_set(&ctx->err, GCAMP_EFATAL,
				       "issue #%ld would be %zu characters, "
				       "over GitHub's limit of %d",
				       c->umbrella, text_utf8_length(body.ptr),
				       GITHUB_BODY_MAX_CHARS);
			error_hint(&ctx->err, "shorten the text outside the "
					      "git-campaign markers");
			goto out;
		}
		rows /= 2;
		out->folded = 1;
	}
	out->appended = spliced == 1;
	if (!strcmp(body.ptr, issue.body)) {
		out->url = issue.html_url ? xstrdup(issue.html_url) : NULL;
		sent(ctx, c, &first);
		goto out;
	}
	if ((rc = github_issue_set_body(&after, gh, c->umbrella, body.ptr,
					&ctx->err)) < 0)
		goto out;
	out->changed = 1;
	out->url = after.html_url ? xstrdup(after.html_url) : NULL;
	if (strcmp(after.body, body.ptr)) {
		rc = error_set(&ctx->err, GCAMP_EFATAL,
			       "GitHub stored a different body for issue #%ld "
			       "(%zu bytes sent, %zu kept)",
			       c->umbrella, body.len, strlen(after.body));
		error_hint(&ctx->err, "GitHub may have cut it; see %s",
			   out->url ? out->url : "the issue");
	} else {
		sent(ctx, c, &first);
	}
out:
	github_issue_release(&issue);
	github_issue_release(&after);
	buf_release(&first);
	buf_release(&section);
	buf_release(&body);
	return rc;
}

int umbrella_post(struct umbrella_result *out, struct ctx *ctx,
		  const struct campaign *c, struct github *gh, const char *name,
		  const char *text)
{
	struct github_comment *v = NULL, done = {0};
	char *marker = xasprintf("<!-- git-campaign:result %s -->", name);
	struct buf body = BUF_INIT;
	size_t n = 0, i;
	int rc;

	memset(out, 0, sizeof(*out));
	if ((rc = need_umbrella(c, &ctx->err)) < 0)
		goto out;
	out->number = c->umbrella;
	buf_addf(&body, "%s\n%s", marker, text);
	buf_rtrim(&body);
	buf_putc(&body, '\n');
	if (github_body_too_big(body.ptr)) {
		rc = error_set(&ctx->err, GCAMP_EUSAGE,
			       "the comment would be %zu characters, over "
			       "GitHub's limit of %d",
			       text_utf8_length(body.ptr),
			       GITHUB_BODY_MAX_CHARS);
		goto out;
	}
	if ((rc = github_comments_list(&v, &n, gh, c->umbrella, &ctx->err)) < 0)
		goto out;
	for (i = 0; i < n; i++)
		if (strstr(v[i].body, marker))
			break;
	if (i < n && !strcmp(v[i].body, body.ptr)) {
		out->url = v[i].html_url ? xstrdup(v[i].html_url) : NULL;
		goto out;
	}
	if (i < n)
		rc = github_comment_update(&done, gh, v[i].id, body.ptr,
					   &ctx->err);
	else
		rc = github_comment_create(&done, gh, c->umbrella, body.ptr,
					   marker, &ctx->err);
	if (rc < 0)
		goto out;
	out->changed = 1;
	out->appended = i == n;
	out->url = done.html_url ? xstrdup(done.html_url) : NULL;
out:
	github_comments_free(v, n);
	github_comment_release(&done);
	buf_release(&body);
	free(marker);
	return rc;
}

int umbrella_create(struct umbrella_result *out, struct ctx *ctx,
		    struct campaign *c, struct github *gh)
{
	struct github_issue issue = {0};
	struct buf section = BUF_INIT, body = BUF_INIT;
	struct gitcfg *cfg;
	char *title = xasprintf("Campaign %s", c->name), num[32];
	int rc;

	memset(out, 0, sizeof(*out));
	if ((rc = umbrella_render(&section, ctx, c, 20)) < 0)
		goto out;
	umbrella_splice(&body, "", section.ptr);
	if ((rc = github_issue_create(&issue, gh, title, body.ptr, &ctx->err)) <
	    0)
		goto out;
	out->number = c->umbrella = issue.number;
	out->changed = 1;
	out->url = issue.html_url ? xstrdup(issue.html_url) : NULL;
	snprintf(num, sizeof(num), "%ld", issue.number);
	if ((rc = ctx_config(&cfg, ctx)) < 0 ||
	    (rc = gitcfg_set(cfg, "campaign.umbrella", num, &ctx->err)) < 0 ||
	    (rc = gitcfg_set(cfg, "campaign.umbrella.auto", "true",
			     &ctx->err)) < 0)
		error_hint(&ctx->err,
			   "issue #%ld was opened; record it with 'git "
			   "campaign config umbrella %ld'",
			   issue.number, issue.number);
out:
	github_issue_release(&issue);
	buf_release(&section);
	buf_release(&body);
	free(title);
	return rc;
}
