/* The REST operations git-campaign uses (issues, comments, pull requests)
 * and the mapping of GitHub's JSON onto our structures: only the fields that
 * survive API version 2026-03-10 are read. */
#include "io/github/api.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/github/github_int.h"
#include "util/buf.h"
#include "util/json.h"
#include "util/text.h"
#include "util/xalloc.h"

int github_body_too_big(const char *s)
{
	return strlen(s) > GITHUB_BODY_MAX_BYTES ||
	       text_utf8_length(s) > GITHUB_BODY_MAX_CHARS;
}

int github_issue_from_json(struct github_issue *out, const cJSON *j)
{
	const cJSON *n = cJSON_GetObjectItemCaseSensitive(j, "number");

	memset(out, 0, sizeof(*out));
	if (!cJSON_IsNumber(n))
		return -1;
	out->number = (long)n->valuedouble;
	out->state = json_dup_str(j, "state");
	out->title = json_dup_str(j, "title");
	out->body = json_dup_str(j, "body");
	if (!out->body)
		out->body = xstrdup(""); /* GitHub sends null for none */
	out->html_url = json_dup_str(j, "html_url");
	out->updated_at = json_dup_str(j, "updated_at");
	return 0;
}

void github_issue_release(struct github_issue *i)
{
	free(i->state);
	free(i->title);
	free(i->body);
	free(i->html_url);
	free(i->updated_at);
	memset(i, 0, sizeof(*i));
}

int github_pr_from_json(struct github_pr *out, const cJSON *j)
{
	const cJSON *n = cJSON_GetObjectItemCaseSensitive(j, "number");
	const cJSON *base = cJSON_GetObjectItemCaseSensitive(j, "base");
	const cJSON *head = cJSON_GetObjectItemCaseSensitive(j, "head");
	const cJSON *stack = cJSON_GetObjectItemCaseSensitive(j, "stack");
	const cJSON *e, *a;
	const char *s;

	memset(out, 0, sizeof(*out));
	if (!cJSON_IsNumber(n))
		return -1;
	out->number = (long)n->valuedouble;
	out->state = json_dup_str(j, "state");
	out->merged_at = json_dup_str(j, "merged_at");
	/* pull-request-simple (the list) has no "merged": merged_at tells */
	out->merged = json_get_bool(j, "merged") || out->merged_at;
	out->base = json_dup_str(base, "ref");
	out->head = json_dup_str(head, "ref");
	out->head_label = json_dup_str(head, "label");
	out->title = json_dup_str(j, "title");
	out->body = json_dup_str(j, "body");
	if (!out->body)
		out->body = xstrdup("");
	out->draft = json_get_bool(j, "draft");
	out->html_url = json_dup_str(j, "html_url");
	out->updated_at = json_dup_str(j, "updated_at");
	out->stacked = stack && !cJSON_IsNull(stack);
	out->head_sha = json_dup_str(head, "sha");
	out->author = json_dup_str(cJSON_GetObjectItemCaseSensitive(j, "user"),
				   "login");
	a = cJSON_GetObjectItemCaseSensitive(j, "requested_reviewers");
	cJSON_ArrayForEach(e, a) {
		if ((s = json_get_str(e, "login")))
			strvec_push(&out->reviewers, s);
	}
	a = cJSON_GetObjectItemCaseSensitive(j, "requested_teams");
	cJSON_ArrayForEach(e, a) {
		if ((s = json_get_str(e, "slug")))
			strvec_pushf(&out->reviewers, "@%s", s);
	}
	a = cJSON_GetObjectItemCaseSensitive(j, "labels");
	cJSON_ArrayForEach(e, a) {
		if ((s = json_get_str(e, "name")))
			strvec_push(&out->labels, s);
	}
	return 0;
}

void github_pr_release(struct github_pr *p)
{
	free(p->state);
	free(p->merged_at);
	free(p->base);
	free(p->head);
	free(p->head_label);
	free(p->title);
	free(p->body);
	free(p->html_url);
	free(p->updated_at);
	free(p->head_sha);
	free(p->author);
	strvec_clear(&p->reviewers);
	strvec_clear(&p->labels);
	memset(p, 0, sizeof(*p));
}

void github_comment_release(struct github_comment *c)
{
	free(c->body);
	free(c->html_url);
	memset(c, 0, sizeof(*c));
}

void github_comments_free(struct github_comment *c, size_t n)
{
	size_t i;

	for (i = 0; c && i < n; i++)
		github_comment_release(&c[i]);
	free(c);
}

static int comment_from_json(struct github_comment *out, const cJSON *j)
{
	const cJSON *id = cJSON_GetObjectItemCaseSensitive(j, "id");

	memset(out, 0, sizeof(*out));
	if (!cJSON_IsNumber(id))
		return -1;
	out->id = (long long)id->valuedouble;
	out->body = json_dup_str(j, "body");
	if (!out->body)
		out->body = xstrdup("");
	out->html_url = json_dup_str(j, "html_url");
	return 0;
}

static int bad_answer(struct error *err, const char *what)
{
	return error_set(err, GCAMP_EFATAL,
			 "%s: GitHub's answer lacks the "
			 "expected fields",
			 what);
}

static int map_issue(void *out, const cJSON *j)
{
	return github_issue_from_json(out, j);
}

static int map_comment(void *out, const cJSON *j);
static int map_pr(void *out, const cJSON *j);

/* One request whose answer is one object, read by map into out; takes
 * path and req (NULL: no body) */
static int call_one(void *out, int (*map)(void *, const cJSON *),
		    struct github *gh, const char *method, char *path,
		    cJSON *req, const char *what, struct error *err)
{
	char *text = req ? cJSON_PrintUnformatted(req) : NULL;
	struct github_req q = {method, path, text, what};
	struct github_resp r;
	int rc = github_call(&r, gh, &q, err);

	if (rc >= 0 && map(out, r.json) < 0)
		rc = bad_answer(err, what);
	github_resp_release(&r);
	cJSON_Delete(req);
	free(text);
	free(path);
	return rc;
}

int github_issue_get(struct github_issue *out, struct github *gh, long number,
		     struct error *err)
{
	char what[96];

	memset(out, 0, sizeof(*out));
	snprintf(what, sizeof(what), "cannot read issue #%ld", number);
	return call_one(out, map_issue, gh, "GET",
			xasprintf("/repos/%s/issues/%ld", gh->repo, number),
			NULL, what, err);
}

int github_issue_set_body(struct github_issue *out, struct github *gh,
			  long number, const char *body, struct error *err)
{
	cJSON *req = cJSON_CreateObject();
	char what[96];

	memset(out, 0, sizeof(*out));
	snprintf(what, sizeof(what), "cannot update issue #%ld", number);
	cJSON_AddStringToObject(req, "body", body);
	return call_one(out, map_issue, gh, "PATCH",
			xasprintf("/repos/%s/issues/%ld", gh->repo, number),
			req, what, err);
}

/* A lookup for a POST whose answer was lost: fills out and returns 0 when
 * the object exists, GCAMP_ENOTFOUND when it does not, or an error. */
typedef int (*post_lookup_fn)(void *out, struct github *gh, const void *arg,
			      struct error *err);

/*
 * POSTs text to path, up to 3 times: when the answer is lost or a server
 * error came (GITHUB_EUNSURE) the object may exist all the same, so lookup
 * looks for it before the next try, and nothing is created twice. 0: *j
 * holds GitHub's answer; 1: lookup found the object (in found); < 0: an
 * error (err), the same words for every kind of object.
 */
static int post_once(cJSON **j, struct github *gh, const char *path,
		     const char *text, const char *what, post_lookup_fn lookup,
		     void *found, const void *arg, struct error *err)
{
	struct github_req q = {"POST", path, text, what};
	struct github_resp r;
	int rc = 0, tries;

	/* the POST, its lookups and its tries again share one budget */
	github_span_begin(gh);
	for (tries = 1; tries <= 3; tries++) {
		rc = github_call(&r, gh, &q, err);
		*j = r.json;
		r.json = NULL;
		github_resp_release(&r);
		if (rc != GITHUB_EUNSURE)
			goto out;
		/* it may exist already: look before posting again */
		rc = lookup(found, gh, arg, err);
		if (rc == 0) {
			rc = 1;
			goto out;
		}
		if (rc != GCAMP_ENOTFOUND)
			goto out;
		error_clear(err);
		rc = github_pause(gh, tries);
	}
	rc = error_set(err, GCAMP_EFATAL,
		       "%s: no answer or a server error, 3 times (last: %s)",
		       what,
		       gh->last_unsure[0] ? gh->last_unsure : "no answer");
out:
	github_span_end(gh);
	return rc;
}

/* the newest open issue with this title, for a POST that lost its answer */
static int find_issue_by_title(void *vout, struct github *gh, const void *arg,
			       struct error *err)
{
	struct github_issue *out = vout;
	const char *title = arg;
	char *path = xasprintf("/repos/%s/issues?state=open&sort=created&"
			       "direction=desc&per_page=30",
			       gh->repo);
	struct github_req q = {"GET", path, NULL, "cannot list issues"};
	struct github_resp r = {0};
	cJSON *e;
	int rc;

	if ((rc = github_call(&r, gh, &q, err)) < 0)
		goto out;
	rc = GCAMP_ENOTFOUND;
	cJSON_ArrayForEach(e, r.json) {
		const char *t = json_get_str(e, "title");

		if (t && !strcmp(t, title) &&
		    !cJSON_GetObjectItemCaseSensitive(e, "pull_request")) {
			rc = github_issue_from_json(out, e) < 0
				     ? GCAMP_ENOTFOUND
				     : 0;
			break;
		}
	}
out:
	github_resp_release(&r);
	free(path);
	return rc;
}

int github_issue_create(struct github_issue *out, struct github *gh,
			const char *title, const char *body, struct error *err)
{
	char *path = xasprintf("/repos/%s/issues", gh->repo);
	cJSON *req = cJSON_CreateObject(), *j = NULL;
	char *text, what[256];
	int rc;

	memset(out, 0, sizeof(*out));
	snprintf(what, sizeof(what), "cannot open the issue '%s'", title);
	cJSON_AddStringToObject(req, "title", title);
	cJSON_AddStringToObject(req, "body", body);
	text = cJSON_PrintUnformatted(req);
	rc = post_once(&j, gh, path, text, what, find_issue_by_title, out,
		       title, err);
	if (rc == 0 && github_issue_from_json(out, j) < 0)
		rc = bad_answer(err, what);
	if (rc > 0)
		rc = 0;
	cJSON_Delete(req);
	cJSON_Delete(j);
	free(text);
	free(path);
	return rc;
}

static int map_comment(void *out, const cJSON *j)
{
	return comment_from_json(out, j);
}

static int map_pr(void *out, const cJSON *j)
{
	return github_pr_from_json(out, j);
}

static void free_comments(void *v, size_t n)
{
	github_comments_free(v, n);
}

static void free_prs(void *v, size_t n)
{
	github_prs_free(v, n);
}

/* A listing: the first page's path and how its items become ours. */
struct github_list {
	const char *path;
	const char *what; /* the error's subject */
	size_t size;	  /* bytes of one of our items */
	int (*map)(void *out, const cJSON *j);
	void (*release)(void *v, size_t n);
};

/*
 * Every item of every page from l->path on (Link rel="next" as given, each
 * page a conditional GET), mapped in order into a new array of *n items of
 * l->size bytes (those l->map refuses are left out); at most 100 pages. On
 * an error *out is NULL, what was read freed with l->release.
 */
static int list_pages(void **out, size_t *n, struct github *gh,
		      const struct github_list *l, struct error *err)
{
	const char *what = l->what;
	char *url = xstrdup(l->path), *v = NULL;
	size_t nr = 0, alloc = 0, size = l->size;
	int rc = 0, pages = 0;

	while (url) {
		struct github_req q = {"GET", url, NULL, what};
		struct github_resp r;
		cJSON *e;

		if (++pages > 100) {
			rc = error_set(err, GCAMP_EFATAL,
				       "%s: more than 100 pages", what);
			break;
		}
		rc = github_call(&r, gh, &q, err);
		free(url);
		url = r.next;
		r.next = NULL;
		if (rc < 0) {
			github_resp_release(&r);
			break;
		}
		cJSON_ArrayForEach(e, r.json) {
			if (nr == alloc) {
				alloc = alloc ? 2 * alloc : 16;
				v = xrealloc(v, alloc * size);
			}
			if (l->map(v + nr * size, e) == 0)
				nr++;
		}
		github_resp_release(&r);
	}
	free(url);
	if (rc < 0) {
		l->release(v, nr);
		v = NULL;
		nr = 0;
	}
	*out = v;
	*n = nr;
	return rc;
}

int github_comments_list(struct github_comment **out, size_t *n,
			 struct github *gh, long number, struct error *err)
{
	char *path = xasprintf("/repos/%s/issues/%ld/comments?per_page=100",
			       gh->repo, number);
	struct github_list l = {path, "cannot list the comments", sizeof(**out),
				map_comment, free_comments};
	void *v = NULL;
	int rc = list_pages(&v, n, gh, &l, err);

	*out = v;
	free(path);
	return rc;
}

struct comment_key {
	long number;
	const char *marker;
};

static int find_comment(void *vout, struct github *gh, const void *arg,
			struct error *err)
{
	struct github_comment *out = vout;
	const struct comment_key *k = arg;
	struct github_comment *v = NULL;
	size_t n = 0, i;
	int rc;

	if ((rc = github_comments_list(&v, &n, gh, k->number, err)) < 0)
		return rc;
	rc = GCAMP_ENOTFOUND;
	for (i = n; i-- > 0;)
		if (strstr(v[i].body, k->marker)) {
			*out = v[i];
			memset(&v[i], 0, sizeof(v[i]));
			rc = 0;
			break;
		}
	github_comments_free(v, n);
	return rc;
}

int github_comment_create(struct github_comment *out, struct github *gh,
			  long number, const char *body, const char *marker,
			  struct error *err)
{
	char *path =
		xasprintf("/repos/%s/issues/%ld/comments", gh->repo, number);
	cJSON *req = cJSON_CreateObject(), *j = NULL;
	struct comment_key key = {number, marker};
	char what[96], *text;
	int rc;

	memset(out, 0, sizeof(*out));
	snprintf(what, sizeof(what), "cannot comment on issue #%ld", number);
	cJSON_AddStringToObject(req, "body", body);
	text = cJSON_PrintUnformatted(req);
	rc = post_once(&j, gh, path, text, what, find_comment, out, &key, err);
	if (rc == 0 && comment_from_json(out, j) < 0)
		rc = bad_answer(err, what);
	if (rc > 0)
		rc = 0;
	cJSON_Delete(req);
	cJSON_Delete(j);
	free(text);
	free(path);
	return rc;
}

int github_comment_update(struct github_comment *out, struct github *gh,
			  long long id, const char *body, struct error *err)
{
	cJSON *req = cJSON_CreateObject();

	memset(out, 0, sizeof(*out));
	cJSON_AddStringToObject(req, "body", body);
	return call_one(
		out, map_comment, gh, "PATCH",
		xasprintf("/repos/%s/issues/comments/%lld", gh->repo, id), req,
		"cannot update a comment", err);
}

int github_comment_get(struct github_comment *out, struct github *gh,
		       long long id, struct error *err)
{
	memset(out, 0, sizeof(*out));
	return call_one(
		out, map_comment, gh, "GET",
		xasprintf("/repos/%s/issues/comments/%lld", gh->repo, id), NULL,
		"cannot read a comment", err);
}

/* branch names go into a query: escape what is not unreserved */
static void add_escaped(struct buf *b, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || strchr("-._~/", c))
			buf_putc(b, (char)c);
		else
			buf_addf(b, "%%%02X", c);
	}
}

int github_pr_find(struct github_pr *out, struct github *gh, const char *branch,
		   struct error *err)
{
	struct buf path = BUF_INIT;
	struct github_req q = {"GET", NULL, NULL, NULL};
	struct github_resp r = {0};
	cJSON *e;
	char *label = xasprintf("%s:%s", gh->owner, branch);
	char what[300];
	int rc;

	memset(out, 0, sizeof(*out));
	snprintf(what, sizeof(what), "cannot look up the PR of '%s'", branch);
	/* head must be OWNER:BRANCH; a bare name is silently ignored */
	buf_addf(&path,
		 "/repos/%s/pulls?state=all&per_page=100&head=", gh->repo);
	add_escaped(&path, gh->owner);
	buf_puts(&path, "%3A");
	add_escaped(&path, branch);
	q.path = path.ptr;
	q.what = what;
	if ((rc = github_call(&r, gh, &q, err)) < 0)
		goto out;
	rc = GCAMP_ENOTFOUND;
	/* the first (newest) whose head is really ours */
	cJSON_ArrayForEach(e, r.json) {
		const cJSON *h = cJSON_GetObjectItemCaseSensitive(e, "head");
		const char *l = json_get_str(h, "label");

		if (l && !strcmp(l, label) &&
		    github_pr_from_json(out, e) == 0) {
			rc = 0;
			break;
		}
	}
out:
	github_resp_release(&r);
	buf_release(&path);
	free(label);
	return rc;
}

int github_pr_get(struct github_pr *out, struct github *gh, long number,
		  struct error *err)
{
	char what[96];

	memset(out, 0, sizeof(*out));
	snprintf(what, sizeof(what), "cannot read PR #%ld", number);
	return call_one(out, map_pr, gh, "GET",
			xasprintf("/repos/%s/pulls/%ld", gh->repo, number),
			NULL, what, err);
}

int github_pr_list_open(struct github_pr **out, size_t *n, struct github *gh,
			struct error *err)
{
	char *path =
		xasprintf("/repos/%s/pulls?state=open&per_page=100", gh->repo);
	struct github_list l = {path, "cannot list the open PRs", sizeof(**out),
				map_pr, free_prs};
	void *v = NULL;
	int rc = list_pages(&v, n, gh, &l, err);

	*out = v;
	free(path);
	return rc;
}

void github_prs_free(struct github_pr *v, size_t n)
{
	size_t i;

	for (i = 0; v && i < n; i++)
		github_pr_release(&v[i]);
	free(v);
}

int github_newest_number(long *out, struct github *gh, struct error *err)
{
	char *path = xasprintf("/repos/%s/issues?state=all&sort=created&"
			       "direction=desc&per_page=1",
			       gh->repo);
	struct github_req q = {"GET", path, NULL,
			       "cannot read the newest issue number"};
	struct github_resp r = {0};
	cJSON *n;
	int rc;

	*out = 0;
	if ((rc = github_call(&r, gh, &q, err)) < 0)
		goto out;
	n = cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(r.json, 0),
					     "number");
	if (cJSON_IsNumber(n))
		*out = (long)n->valuedouble;
out:
	github_resp_release(&r);
	free(path);
	return rc;
}

static int find_pr_of(void *out, struct github *gh, const void *head,
		      struct error *err)
{
	return github_pr_find(out, gh, head, err);
}

int github_pr_create(struct github_pr *out, struct github *gh, const char *head,
		     const char *base, const char *title, const char *body,
		     int draft, struct error *err)
{
	char *path = xasprintf("/repos/%s/pulls", gh->repo);
	cJSON *req = cJSON_CreateObject(), *j = NULL;
	struct error e422 = ERROR_INIT;
	char what[300], *text;
	int rc;

	memset(out, 0, sizeof(*out));
	snprintf(what, sizeof(what), "cannot open a PR for '%s'", head);
	cJSON_AddStringToObject(req, "title", title);
	cJSON_AddStringToObject(req, "head", head);
	cJSON_AddStringToObject(req, "base", base);
	cJSON_AddStringToObject(req, "body", body);
	cJSON_AddBoolToObject(req, "draft", draft);
	text = cJSON_PrintUnformatted(req);
	rc = post_once(&j, gh, path, text, what, find_pr_of, out, head, &e422);
	if (rc < 0 && strstr(e422.msg, "HTTP 422") &&
	    strstr(e422.msg, "already exists")) {
		/* "A pull request already exists": use it */
		rc = github_pr_find(out, gh, head, err);
		if (rc == GCAMP_ENOTFOUND) {
			*err = e422;
			rc = e422.code;
		}
		goto out;
	}
	if (rc < 0)
		*err = e422;
	if (rc == 0 && github_pr_from_json(out, j) < 0)
		rc = bad_answer(err, what);
	if (rc > 0)
		rc = 0;
out:
	cJSON_Delete(req);
	cJSON_Delete(j);
	free(text);
	free(path);
	return rc;
}

int github_pr_update(struct github_pr *out, struct github *gh, long number,
		     const char *title, const char *body, const char *base,
		     struct error *err)
{
	cJSON *req = cJSON_CreateObject();
	char what[96];

	memset(out, 0, sizeof(*out));
	snprintf(what, sizeof(what), "cannot update PR #%ld", number);
	if (title)
		cJSON_AddStringToObject(req, "title", title);
	if (body)
		cJSON_AddStringToObject(req, "body", body);
	if (base)
		cJSON_AddStringToObject(req, "base", base);
	return call_one(out, map_pr, gh, "PATCH",
			xasprintf("/repos/%s/pulls/%ld", gh->repo, number), req,
			what, err);
}

static int map_review(void *vout, const cJSON *j)
{
	struct github_review *out = vout;

	memset(out, 0, sizeof(*out));
	out->login = json_dup_str(cJSON_GetObjectItemCaseSensitive(j, "user"),
				  "login");
	out->state = json_dup_str(j, "state");
	if (!out->login || !out->state) {
		free(out->login);
		free(out->state);
		return -1;
	}
	return 0;
}

void github_reviews_free(struct github_review *v, size_t n)
{
	size_t i;

	for (i = 0; v && i < n; i++) {
		free(v[i].login);
		free(v[i].state);
	}
	free(v);
}

static void free_reviews(void *v, size_t n)
{
	github_reviews_free(v, n);
}

int github_pr_reviews(struct github_review **out, size_t *n, struct github *gh,
		      long number, struct error *err)
{
	char *path = xasprintf("/repos/%s/pulls/%ld/reviews?per_page=100",
			       gh->repo, number);
	char what[96];
	struct github_list l = {path, what, sizeof(**out), map_review,
				free_reviews};
	void *v = NULL;
	int rc;

	snprintf(what, sizeof(what), "cannot list the reviews of PR #%ld",
		 number);
	rc = list_pages(&v, n, gh, &l, err);
	*out = v;
	free(path);
	return rc;
}

/* one GET of path into *j (the caller's to delete) */
static int get_json(cJSON **j, struct github *gh, char *path, const char *what,
		    struct error *err)
{
	struct github_req q = {"GET", path, NULL, what};
	struct github_resp r;
	int rc = github_call(&r, gh, &q, err);

	*j = r.json;
	r.json = NULL;
	github_resp_release(&r);
	free(path);
	return rc;
}

int github_ref_ci(struct github_ci *out, struct github *gh, const char *sha,
		  struct error *err)
{
	cJSON *status = NULL, *checks = NULL, *e;
	char what[128];
	int rc;

	memset(out, 0, sizeof(*out));
	snprintf(what, sizeof(what), "cannot read the CI of %.12s", sha);
	if ((rc = get_json(&status, gh,
			   xasprintf("/repos/%s/commits/%s/status?per_page=100",
				     gh->repo, sha),
			   what, err)) < 0 ||
	    (rc = get_json(&checks, gh,
			   xasprintf("/repos/%s/commits/%s/check-runs?"
				     "per_page=100",
				     gh->repo, sha),
			   what, err)) < 0)
		goto out;
	/* the combined state says "pending" for none at all: count them */
	cJSON_ArrayForEach(
		e, cJSON_GetObjectItemCaseSensitive(status, "statuses")) {
		const char *st = json_get_str_or(e, "state", "");

		out->statuses++;
		if (!strcmp(st, "success"))
			out->passing++;
		else if (!strcmp(st, "pending"))
			out->pending++;
		else
			out->failing++;
	}
	cJSON_ArrayForEach(
		e, cJSON_GetObjectItemCaseSensitive(checks, "check_runs")) {
		const char *st = json_get_str_or(e, "status", "");
		const char *c = json_get_str_or(e, "conclusion", "");

		out->checks++;
		if (strcmp(st, "completed"))
			out->pending++;
		else if (!strcmp(c, "success") || !strcmp(c, "neutral") ||
			 !strcmp(c, "skipped"))
			out->passing++;
		else
			out->failing++;
	}
out:
	cJSON_Delete(status);
	cJSON_Delete(checks);
	return rc;
}

/* for a POST GitHub applies once however often it comes: nothing to look
 * up, it is sent again */
static int not_found(void *out, struct github *gh, const void *arg,
		     struct error *err)
{
	(void)out;
	(void)gh;
	(void)arg;
	(void)err;
	return GCAMP_ENOTFOUND;
}

/* POSTs {key: [names...]} (and {key2: [...]} for names split off by
 * is_second) to path */
static int post_names(struct github *gh, char *path, const char *key,
		      const char *key2, const struct strvec *names,
		      const char *what, struct error *err)
{
	cJSON *req = cJSON_CreateObject(), *j = NULL;
	cJSON *a = cJSON_AddArrayToObject(req, key), *b = NULL;
	char *text;
	size_t i;
	int rc;

	for (i = 0; i < names->nr; i++) {
		const char *v = names->v[i];

		if (key2 && v[0] == '@') {
			if (!b)
				b = cJSON_AddArrayToObject(req, key2);
			cJSON_AddItemToArray(b, cJSON_CreateString(v + 1));
		} else {
			cJSON_AddItemToArray(a, cJSON_CreateString(v));
		}
	}
	text = cJSON_PrintUnformatted(req);
	rc = post_once(&j, gh, path, text, what, not_found, NULL, NULL, err);
	cJSON_Delete(req);
	cJSON_Delete(j);
	free(text);
	free(path);
	return rc < 0 ? rc : 0;
}

int github_pr_request_reviewers(struct github *gh, long number,
				const struct strvec *logins, struct error *err)
{
	char what[96];

	snprintf(what, sizeof(what), "cannot request reviews of PR #%ld",
		 number);
	return post_names(gh,
			  xasprintf("/repos/%s/pulls/%ld/requested_reviewers",
				    gh->repo, number),
			  "reviewers", "team_reviewers", logins, what, err);
}

int github_issue_add_labels(struct github *gh, long number,
			    const struct strvec *labels, struct error *err)
{
	char what[96];

	snprintf(what, sizeof(what), "cannot label #%ld", number);
	return post_names(
		gh, xasprintf("/repos/%s/issues/%ld/labels", gh->repo, number),
		"labels", NULL, labels, what, err);
}
