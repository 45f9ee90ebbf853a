/* stack submit's reviewers and labels: each PR asked, once, for a review
 * by every campaign.github.reviewers and given every campaign.github.labels,
 * what was asked of it kept in the database's meta table. */
#include "core/forge/ask.h"

#include <stdlib.h>
#include <string.h>

#include "io/db.h"
#include "io/gitcfg.h"
#include "io/github/api.h"
#include "util/buf.h"
#include "util/xalloc.h"

/* The meta key of what stack submit asked of PR number: lines "r LOGIN"
 * (a review requested; a team "r @SLUG") and "l LABEL" (a label added), so
 * that each is asked once: a reviewer who has reviewed leaves GitHub's
 * list and is not asked again, a label someone removed stays removed. */
static char *asked_key(const char *forge, long number)
{
	return xasprintf("submit.asked %s#%ld", forge, number);
}

static int in_vec(const struct strvec *v, const char *s)
{
	size_t i;

	for (i = 0; i < v->nr; i++)
		if (!strcmp(v->v[i], s))
			return 1;
	return 0;
}

void submit_wanted(struct strvec *reviewers, struct strvec *labels,
		   struct ctx *ctx)
{
	struct strvec v = STRVEC_INIT;
	struct gitcfg *cfg;
	size_t i;

	if (ctx_config(&cfg, ctx) < 0 ||
	    gitcfg_get_all(&v, cfg, "campaign.github.reviewers", &ctx->err) <
		    0 ||
	    gitcfg_get_all(labels, cfg, "campaign.github.labels", &ctx->err) <
		    0)
		error_clear(&ctx->err);
	for (i = 0; i < v.nr; i++) {
		const char *slash = strchr(v.v[i], '/');

		if (slash)
			strvec_pushf(reviewers, "@%s", slash + 1);
		else
			strvec_push(reviewers, v.v[i]);
	}
	strvec_clear(&v);
}

/* what of want is neither on GitHub (have) nor asked before (kind "r" or
 * "l" in asked), nor skip, into todo */
static void to_ask(struct strvec *todo, const struct strvec *want,
		   const struct strvec *have, const struct strvec *asked,
		   const char *kind, const char *skip)
{
	size_t i;

	for (i = 0; i < want->nr; i++) {
		char *line = xasprintf("%s %s", kind, want->v[i]);

		if (!in_vec(have, want->v[i]) && !in_vec(asked, line) &&
		    !in_vec(todo, want->v[i]) &&
		    (!skip || strcmp(skip, want->v[i])))
			strvec_push(todo, want->v[i]);
		free(line);
	}
}

static void join(struct buf *out, const struct strvec *v)
{
	size_t i;

	buf_reset(out);
	for (i = 0; i < v->nr; i++)
		buf_addf(out, "%s%s", i ? ", " : "", v->v[i]);
}

/* a request GitHub refused (a login that may not review, a label the
 * token may not add) or that got no answer: the PRs are sent, so it is a
 * line, not the command's failure, and it is asked again next time */
static void refused(struct strvec *lines, struct ctx *ctx, const char *verb,
		    const char *what, const struct github_pr *p,
		    const char *name)
{
	strvec_pushf(lines, "could not %s %s for #%ld %s: %s", verb, what,
		     p->number, name, ctx->err.msg);
	error_clear(&ctx->err);
}

int submit_ask(struct strvec *lines, struct ctx *ctx, struct github *gh,
	       const char *forge, const char *name, const struct github_pr *p,
	       const struct strvec *reviewers, const struct strvec *labels,
	       int dry_run)
{
	struct strvec asked = STRVEC_INIT, rv = STRVEC_INIT, lb = STRVEC_INIT;
	struct error ignore = ERROR_INIT;
	struct buf words = BUF_INIT;
	char *key = NULL, *v = NULL, *line, *nl;
	struct db *db = NULL;
	size_t k;

	if (!p->number || strcmp(p->state, "open") ||
	    (!reviewers->nr && !labels->nr))
		return 0;
	key = asked_key(forge, p->number);
	if (ctx_db(&db, ctx, 0) == 0 && db_meta_get(&v, db, key, &ignore) == 0)
		for (line = v; line && *line; line = nl) {
			if ((nl = strchr(line, '\n')))
				*nl++ = '\0';
			strvec_push(&asked, line);
		}
	to_ask(&rv, reviewers, &p->reviewers, &asked, "r", p->author);
	to_ask(&lb, labels, &p->labels, &asked, "l", NULL);
	/* those GitHub lists already count as asked from now on */
	for (k = 0; k < reviewers->nr; k++)
		if (!in_vec(&rv, reviewers->v[k]))
			strvec_pushf(&asked, "r %s", reviewers->v[k]);
	for (k = 0; k < labels->nr; k++)
		if (!in_vec(&lb, labels->v[k]))
			strvec_pushf(&asked, "l %s", labels->v[k]);
	if (rv.nr) {
		join(&words, &rv);
		if (dry_run) {
			strvec_pushf(lines, "would ask %s to review #%ld %s",
				     words.ptr, p->number, name);
		} else {
			if (github_pr_request_reviewers(gh, p->number, &rv,
							&ctx->err) < 0) {
				refused(lines, ctx, "ask", words.ptr, p, name);
				strvec_clear(&rv);
			} else {
				strvec_pushf(lines,
					     "asked %s to review #%ld %s",
					     words.ptr, p->number, name);
			}
		}
		for (k = 0; k < rv.nr; k++)
			strvec_pushf(&asked, "r %s", rv.v[k]);
	}
	if (lb.nr) {
		join(&words, &lb);
		if (dry_run) {
			strvec_pushf(lines, "would label #%ld %s: %s",
				     p->number, name, words.ptr);
		} else {
			if (github_issue_add_labels(gh, p->number, &lb,
						    &ctx->err) < 0) {
				refused(lines, ctx, "add", words.ptr, p, name);
				strvec_clear(&lb);
			} else {
				strvec_pushf(lines, "labelled #%ld %s: %s",
					     p->number, name, words.ptr);
			}
		}
		for (k = 0; k < lb.nr; k++)
			strvec_pushf(&asked, "l %s", lb.v[k]);
	}
	if (!dry_run && db) {
		buf_reset(&words);
		strvec_sort(&asked);
		for (k = 0; k < asked.nr; k++)
			if (!k || strcmp(asked.v[k], asked.v[k - 1]))
				buf_addf(&words, "%s\n", asked.v[k]);
		if (!v || strcmp(v, words.ptr ? words.ptr : ""))
			db_meta_set(db, key, words.len ? words.ptr : NULL,
				    DB_TRY, &ignore);
	}
	strvec_clear(&asked);
	strvec_clear(&rv);
	strvec_clear(&lb);
	buf_release(&words);
	free(key);
	free(v);
	return 0;
}
