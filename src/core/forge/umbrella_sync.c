/* The umbrella issue on GitHub: its section brought up to date (by hand or
 * automatically after commands), marked comments posted, and the issue
 * opened. The section it was last given is kept in the database
 * (umbrella_state), so that a command that changed nothing the umbrella
 * shows costs no request; an update GitHub did not take is queued there,
 * and sent by the next command or umbrella sync. */
#include "core/forge/umbrella_sync.h"

/* The automatic update's one try, in seconds */
#define AUTO_TIMEOUT_S 2

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/campaign/campaign.h"
#include "core/forge/open.h"
#include "core/records/umbrella_state.h"
#include "core/views/umbrella.h"
#include "io/db.h"
#include "io/gitcfg.h"
#include "io/github/client.h"
#include "io/github/api.h"
#include "io/github/client.h"
#include "util/sha256.h"
#include "util/text.h"
#include "util/trace.h"
#include "util/xalloc.h"

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

/* The meta key of the comment a result was posted as: its value is "ID
 * SHA256" (the comment's id, the hash of the body last sent), so that a
 * later post is one request, not a read of every page of comments. */
static char *post_key(const struct campaign *c, const char *name)
{
	return xasprintf("umbrella.comment %s#%ld %s", c->forge, c->umbrella,
			 name);
}

static void post_remember(struct ctx *ctx, const char *key, long long id,
			  const char *body)
{
	char hex[2 * SHA256_DIGEST_LEN + 1], *v;
	struct error ignore = ERROR_INIT;
	struct db *db;

	sha256_hex(hex, body, strlen(body));
	v = xasprintf("%lld %s", id, hex);
	/* a cache: failing to write it costs the next post a listing */
	if (ctx_db(&db, ctx, 0) == 0)
		db_meta_set(db, key, id > 0 ? v : NULL, DB_TRY, &ignore);
	free(v);
}

/* the comment id remembered under key, 0 when none; *same: the body last
 * sent was body */
static long long post_known(struct ctx *ctx, const char *key, const char *body,
			    int *same)
{
	char hex[2 * SHA256_DIGEST_LEN + 1], *v = NULL, *end;
	struct error ignore = ERROR_INIT;
	long long id = 0;
	struct db *db;

	*same = 0;
	if (ctx_db_if_any(&db, ctx) < 0 || !db ||
	    db_meta_get(&v, db, key, &ignore) < 0)
		return 0;
	id = strtoll(v, &end, 10);
	sha256_hex(hex, body, strlen(body));
	if (*end == ' ' && !strcmp(end + 1, hex))
		*same = 1;
	free(v);
	return id > 0 ? id : 0;
}

/*
 * The comment whose id is remembered: the same text is one conditional GET
 * (a 304 unless someone changed it), new text one PATCH. 1: done, with out
 * and done filled; 0: the comment is gone (or nothing was remembered), so
 * the caller lists the comments as a first post does; < 0: an error.
 */
static int post_by_id(struct umbrella_result *out, struct github_comment *done,
		      struct ctx *ctx, struct github *gh, const char *key,
		      const char *body)
{
	int same, rc;
	long long id = post_known(ctx, key, body, &same);

	if (!id)
		return 0;
	if (same) {
		rc = github_comment_get(done, gh, id, &ctx->err);
		if (rc == 0 && !strcmp(done->body, body)) {
			out->url =
				done->html_url ? xstrdup(done->html_url) : NULL;
			return 1;
		}
		github_comment_release(done);
		if (rc == 0)
			same = 0; /* changed on GitHub: ours again */
	}
	if (!same)
		rc = github_comment_update(done, gh, id, body, &ctx->err);
	if (rc == GCAMP_ENOTFOUND) {
		/* deleted on GitHub: forget it, look for it as at first */
		error_clear(&ctx->err);
		post_remember(ctx, key, 0, body);
		return 0;
	}
	if (rc < 0)
		return rc;
	out->changed = 1;
	out->url = done->html_url ? xstrdup(done->html_url) : NULL;
	post_remember(ctx, key, id, body);
	return 1;
}

int umbrella_post(struct umbrella_result *out, struct ctx *ctx,
		  const struct campaign *c, struct github *gh, const char *name,
		  const char *text)
{
	struct github_comment *v = NULL, done = {0};
	char *marker = xasprintf("<!-- git-campaign:result %s -->", name);
	char *key = NULL;
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
	key = post_key(c, name);
	if ((rc = post_by_id(out, &done, ctx, gh, key, body.ptr)) != 0) {
		rc = rc > 0 ? 0 : rc;
		goto out;
	}
	if ((rc = github_comments_list(&v, &n, gh, c->umbrella, &ctx->err)) < 0)
		goto out;
	for (i = 0; i < n; i++)
		if (strstr(v[i].body, marker))
			break;
	if (i < n && !strcmp(v[i].body, body.ptr)) {
		out->url = v[i].html_url ? xstrdup(v[i].html_url) : NULL;
		post_remember(ctx, key, v[i].id, body.ptr);
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
	post_remember(ctx, key, done.id, body.ptr);
out:
	github_comments_free(v, n);
	github_comment_release(&done);
	buf_release(&body);
	free(marker);
	free(key);
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

int umbrella_auto_update(struct umbrella_auto *out, struct ctx *ctx)
{
	struct campaign c = {0};
	struct umbrella_result r = {0};
	struct github *gh = NULL;
	struct buf section = BUF_INIT;
	int rc, same, pending = 0, wait;

	memset(out, 0, sizeof(*out));
	if (campaign_load(&c, ctx) < 0) {
		error_clear(&ctx->err); /* no campaign: nothing to show */
		return UMBRELLA_AUTO_OFF;
	}
	if (!c.umbrella_auto || c.umbrella <= 0)
		goto out;
	out->number = c.umbrella;
	out->outcome = UMBRELLA_AUTO_UNCHANGED;
	if ((rc = umbrella_render(&section, ctx, &c, 20)) < 0)
		goto queue;
	umbrella_state_of(&same, &pending, &wait, ctx, c.umbrella, section.ptr);
	if (same) {
		trace_printf("umbrella: #%ld shows this already", c.umbrella);
		goto out;
	}
	if (wait) {
		trace_printf("umbrella: #%ld queued, tried too recently",
			     c.umbrella);
		out->outcome = UMBRELLA_AUTO_WAITING;
		goto out;
	}
	if ((rc = forge_open(&gh, ctx, &c)) < 0)
		goto queue;
	/* best effort: one short try, so that no local command waits on a
	 * GitHub that does not answer; umbrella sync has the full retries */
	github_set_timeout(gh, AUTO_TIMEOUT_S, 1);
	if ((rc = umbrella_sync(&r, ctx, &c, gh)) < 0)
		goto queue;
	out->outcome = UMBRELLA_AUTO_SENT;
	out->changed = r.changed;
	goto out;
queue:
	out->outcome =
		pending ? UMBRELLA_AUTO_STILL_QUEUED : UMBRELLA_AUTO_QUEUED;
	snprintf(out->why, sizeof(out->why), "%s", ctx->err.msg);
	error_clear(&ctx->err);
	if (umbrella_state_queue(ctx, c.umbrella, out->why) < 0) {
		trace_printf("umbrella: %s", ctx->err.msg);
		error_clear(&ctx->err);
	}
out:
	umbrella_result_release(&r);
	github_close(gh);
	buf_release(&section);
	campaign_release(&c);
	return out->outcome;
}
