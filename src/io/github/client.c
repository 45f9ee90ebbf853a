/* The GitHub REST client: base URL, headers, the ETag cache, pacing of
 * writes and the retry loop (github_decide says what to do after each
 * answer). The calls themselves are in api.c. */
#include "io/github/client.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "io/github/github_int.h"
#include "io/github/token.h"
#include "util/clock.h"
#include "util/trace.h"
#include "util/xalloc.h"

#ifndef GCAMP_VERSION
#define GCAMP_VERSION "unknown"
#endif

static long env_long(const char *name, long def)
{
	const char *v = getenv(name);
	char *end;
	long n;

	if (!v || !*v)
		return def;
	errno = 0;
	n = strtol(v, &end, 10);
	return errno || *end || n < 0 ? def : n;
}

char *github_api_url(const char *host)
{
	const char *v = getenv("GIT_CAMPAIGN_API_URL");
	size_t n;
	char *s;

	if (v && *v) {
		s = xstrdup(v);
		n = strlen(s);
		while (n > 0 && s[n - 1] == '/')
			s[--n] = '\0';
		return s;
	}
	n = strlen(host);
	if (!github_host_is_enterprise(host) && n > 8 &&
	    !strcasecmp(host + n - 8, ".ghe.com"))
		return xasprintf("https://api.%s", host);
	if (!github_host_is_enterprise(host))
		return xstrdup("https://api.github.com");
	return xasprintf("https://%s/api/v3", host);
}

int github_open(struct github **out, const char *host, const char *forge,
		struct db *db, struct error *err)
{
	struct github *gh = xcalloc(1, sizeof(*gh));
	const char *h = getenv("GH_HOST");
	char *token = NULL;
	const char *slash;
	int rc;

	*out = NULL;
	/* gh's variable, for where no host is known, as gh uses it */
	if ((!host || !*host) && h && *h)
		host = h;
	if (!host || !*host)
		host = "github.com";
	if (!forge || !(slash = strchr(forge, '/'))) {
		rc = error_set(err, GCAMP_ENOTFOUND,
			       "no repository to open: expected OWNER/REPO, "
			       "not '%s'",
			       forge ? forge : "");
		goto out;
	}
	gh->db = db;
	gh->repo = xstrdup(forge);
	gh->owner = xstrndup(forge, (size_t)(slash - forge));
	gh->api = github_api_url(host);
	gh->write_gap_ms = env_long("GIT_CAMPAIGN_WRITE_GAP_MS", 1000);
	gh->wait_cap_ms = env_long("GIT_CAMPAIGN_RATE_WAIT_MAX", 900) * 1000;
	gh->secondary_ms = env_long("GIT_CAMPAIGN_SECONDARY_WAIT", 60) * 1000;
	gh->backoff_ms = env_long("GIT_CAMPAIGN_BACKOFF_MS", 1000);
	github_set_timeout(gh, 0, 0);
	if ((rc = github_token(&token, host, err)) < 0)
		goto out;
	gh->auth = xasprintf("Authorization: Bearer %s", token);
	if ((rc = http_new(&gh->http, err)) < 0)
		goto out;
	trace_printf("github: %s at %s", gh->repo, gh->api);
	*out = gh;
	gh = NULL;
out:
	if (token) {
		memset(token, 0, strlen(token));
		free(token);
	}
	github_close(gh);
	return rc;
}

void github_close(struct github *gh)
{
	if (!gh)
		return;
	http_free(gh->http);
	if (gh->auth) {
		memset(gh->auth, 0, strlen(gh->auth));
		free(gh->auth);
	}
	free(gh->api);
	free(gh->moved_to);
	free(gh->repo);
	free(gh->owner);
	free(gh);
}

void github_on_wait(struct github *gh, github_wait_fn fn)
{
	gh->on_wait = fn;
}

void github_set_timeout(struct github *gh, long total_s, int max_tries)
{
	long env = env_long("GIT_CAMPAIGN_HTTP_TIMEOUT", 0);

	gh->budget_ms = (total_s > 0 ? total_s : 20) * 1000;
	gh->try_ms = env > 0 ? env * 1000 : gh->budget_ms / 2;
	if (gh->try_ms < 1000)
		gh->try_ms = gh->budget_ms < 1000 ? gh->budget_ms : 1000;
	gh->max_tries = max_tries > 0 ? max_tries : 3;
}

const char *github_moved_to(const struct github *gh)
{
	return gh->moved_to;
}

void github_span_begin(struct github *gh)
{
	gh->span_start = clock_now_s();
	gh->span_waited = gh->waited_ms;
}

void github_span_end(struct github *gh)
{
	gh->span_start = 0;
}

/* ms left of the budget of a call that started at start having waited
 * waited ms for rate limits then, and of the span it is in */
static long budget_left(const struct github *gh, double start, long waited)
{
	double now = clock_now_s();
	long left = gh->budget_ms - (long)((now - start) * 1000) +
		    (gh->waited_ms - waited);
	long span;

	if (gh->span_start > 0) {
		span = gh->budget_ms - (long)((now - gh->span_start) * 1000) +
		       (gh->waited_ms - gh->span_waited);
		if (span < left)
			left = span;
	}
	return left;
}

void github_repo_hint(struct github *gh, const char *hint)
{
	gh->repo_hint = hint;
}

int github_request_count(const struct github *gh)
{
	return gh->requests;
}

static int contains_nocase(const char *hay, const char *needle)
{
	size_t n = strlen(needle);

	for (; hay && *hay; hay++)
		if (!strncasecmp(hay, needle, n))
			return 1;
	return 0;
}

enum github_action github_decide(const struct github_attempt *a, long *wait_ms)
{
	long s = a->status;

	*wait_ms = 0;
	if (s == 0 || s >= 500) {
		if (a->attempt >= 3)
			return GITHUB_FAIL;
		*wait_ms = (long)a->attempt * a->attempt * a->backoff_unit_ms;
		return GITHUB_BACKOFF;
	}
	if (s != 403 && s != 429)
		return GITHUB_DONE;
	if (a->retry_after && isdigit((unsigned char)*a->retry_after)) {
		*wait_ms = strtol(a->retry_after, NULL, 10) * 1000;
		return GITHUB_RATE;
	}
	if (a->remaining && !strcmp(a->remaining, "0") && a->reset) {
		long long reset = strtoll(a->reset, NULL, 10);

		*wait_ms = reset > a->now ? (long)(reset - a->now + 1) * 1000
					  : 1000;
		return GITHUB_RATE;
	}
	if (s == 429 || contains_nocase(a->body, "secondary rate")) {
		int k = a->attempt > 1 ? a->attempt - 1 : 0;

		*wait_ms = a->secondary_floor_ms << (k > 5 ? 5 : k);
		return GITHUB_RATE;
	}
	return GITHUB_DONE; /* a real permission error */
}

static void sleep_ms(long ms)
{
	struct timespec ts;

	if (ms <= 0)
		return;
	ts.tv_sec = ms / 1000;
	ts.tv_nsec = (ms % 1000) * 1000000L;
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

int github_pause(struct github *gh, int attempt)
{
	if (attempt < 3)
		sleep_ms((long)attempt * attempt * gh->backoff_ms);
	return GITHUB_EUNSURE;
}

/* GitHub asks for at least a second between content-creating requests */
static void pace_write(struct github *gh)
{
	double gap = (double)gh->write_gap_ms / 1000.0, since;

	if (gh->last_write > 0) {
		since = clock_now_s() - gh->last_write;
		if (since < gap)
			sleep_ms((long)((gap - since) * 1000.0));
	}
}

/* the ETag cache: one row per URL (never the token) */
static void cache_get(char **etag, char **body, char **link, struct github *gh,
		      const char *url)
{
	sqlite3_stmt *st = NULL;
	struct error ignore = ERROR_INIT;

	*etag = *body = *link = NULL;
	if (!gh->db || db_prepare(&st, gh->db,
				  "SELECT etag, body, link FROM http_cache "
				  "WHERE url = ?1",
				  &ignore) < 0)
		return;
	sqlite3_bind_text(st, 1, url, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW) {
		*etag = xstrdup((const char *)sqlite3_column_text(st, 0));
		*body = xstrdup((const char *)sqlite3_column_text(st, 1));
		if (sqlite3_column_type(st, 2) == SQLITE_TEXT)
			*link = xstrdup(
				(const char *)sqlite3_column_text(st, 2));
	}
	sqlite3_finalize(st);
}

/* a failed cache write costs a later request, nothing else */
static void cache_put(struct github *gh, const char *url, const char *etag,
		      const char *body, const char *link)
{
	sqlite3_stmt *st = NULL;
	struct error ignore = ERROR_INIT;

	if (!gh->db || db_prepare(&st, gh->db,
				  "INSERT OR REPLACE INTO http_cache "
				  "(url, etag, body, link, at) VALUES (?1, ?2, "
				  "?3, ?4, strftime('%Y-%m-%dT%H:%M:%SZ', "
				  "'now'))",
				  &ignore) < 0)
		return;
	sqlite3_bind_text(st, 1, url, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, etag, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, body, -1, SQLITE_STATIC);
	if (link)
		sqlite3_bind_text(st, 4, link, -1, SQLITE_STATIC);
	sqlite3_step(st);
	sqlite3_finalize(st);
}

static int parse_body(cJSON **out, const struct http_response *r,
		      const char *what, struct error *err)
{
	*out = NULL;
	if (!r->body.len)
		return 0;
	*out = cJSON_ParseWithLength(r->body.ptr, r->body.len);
	if (!*out)
		return error_set(err, GCAMP_EFATAL,
				 "%s: GitHub's answer is not JSON", what);
	return 0;
}

/* One call in flight: what github_call's steps share. */
struct call {
	const struct github_req *req;
	char *url;
	int is_get;
	char *etag, *cached, *clink; /* the ETag cache's row for url */
	char *inm;		     /* "If-None-Match: ..." */
	const char *hdrs[9];
	struct http_request http;
	struct http_response r;
};

static void build_headers(struct call *c, struct github *gh)
{
	const struct github_req *req = c->req;
	int n = 0;

	c->hdrs[n++] = "Accept: application/vnd.github+json";
	c->hdrs[n++] = "X-GitHub-Api-Version: 2022-11-28";
	c->hdrs[n++] = "User-Agent: git-campaign/" GCAMP_VERSION;
	c->hdrs[n++] = gh->auth;
	if (req->body)
		c->hdrs[n++] = "Content-Type: application/json";
	if (c->is_get) {
		/* If-None-Match on GETs only: GitHub refuses it elsewhere */
		cache_get(&c->etag, &c->cached, &c->clink, gh, c->url);
		if (c->etag) {
			c->inm = xasprintf("If-None-Match: %s", c->etag);
			c->hdrs[n++] = c->inm;
		}
	}
	c->hdrs[n] = NULL;
	c->http.method = req->method;
	c->http.url = c->url;
	c->http.headers = c->hdrs;
	c->http.body = req->body;
	c->http.body_len = req->body ? strlen(req->body) : 0;
	/* redirects are followed in attempt(), as GitHub says */
	c->http.follow = 0;
}

/* error_http, with the opener's hint for an answer that may mean a wrong
 * repository name or a token without access to it */
static int http_failed(const struct github *gh, struct error *err, long status,
		       const char *body, const char *what)
{
	int rc = error_http(err, status, body, what);

	if (gh->repo_hint && (status == 404 || status == 403))
		error_hint(err, "%s", gh->repo_hint);
	return rc;
}

/* the words for an answer github_decide gave up on (a POST is unsure:
 * why, in gh->last_unsure) */
static int give_up(const struct call *c, struct github *gh, long status,
		   const struct error *neterr, struct error *err)
{
	const char *what = c->req->what;

	if (!strcmp(c->req->method, "POST")) {
		struct error why = ERROR_INIT;

		if (status)
			error_http(&why, status, c->r.body.ptr, "");
		snprintf(gh->last_unsure, sizeof(gh->last_unsure), "%.255s",
			 status ? why.msg + 2 : neterr->msg);
		return GITHUB_EUNSURE;
	}
	if (status)
		return http_failed(gh, err, status, c->r.body.ptr, what);
	error_set(err, neterr->code, "%s: %s", what, neterr->msg);
	if (neterr->hint[0])
		error_hint(err, "%s (now %ld s for a request and its tries)",
			   neterr->hint, gh->budget_ms / 1000);
	return neterr->code;
}

/* a call whose budget ran out before it got an answer */
static int out_of_time(const struct call *c, struct github *gh,
		       const struct error *neterr, struct error *err)
{
	if (!strcmp(c->req->method, "POST")) {
		snprintf(gh->last_unsure, sizeof(gh->last_unsure), "%.255s",
			 neterr->msg[0] ? neterr->msg : "no answer");
		return GITHUB_EUNSURE;
	}
	error_set(err, GCAMP_EFATAL,
		  "%s: no answer from GitHub within %ld s (%s)", c->req->what,
		  gh->budget_ms / 1000,
		  neterr->msg[0] ? neterr->msg : "campaign.github.timeout");
	error_hint(err, "campaign.github.timeout sets the limit in seconds");
	return GCAMP_EFATAL;
}

void github_rate_why(char *out, size_t n, const struct github_attempt *a,
		     long wait_ms)
{
	int primary = a->remaining && !strcmp(a->remaining, "0");
	int by_retry =
		a->retry_after && isdigit((unsigned char)*a->retry_after);
	time_t until = (time_t)(a->now + (wait_ms + 999) / 1000);
	const char *from = by_retry  ? "retry-after"
			   : primary ? "x-ratelimit-reset"
				     : "no retry-after: the secondary wait";
	struct tm tm;
	char hms[16] = "?";

	/* the reset GitHub names, not our rounding of it */
	if (primary && !by_retry && a->reset)
		until = (time_t)strtoll(a->reset, NULL, 10);
	if (gmtime_r(&until, &tm))
		strftime(hms, sizeof(hms), "%H:%M:%S", &tm);
	snprintf(out, n, "GitHub's %s rate limit, until %s UTC (%s)",
		 primary ? "primary" : "secondary", hms, from);
}

/* adds wait_ms to *waited, or refuses a total past the cap; why: the
 * reason and the end of the wait (github_rate_why) */
static int wait_rate(struct github *gh, long *waited, long wait_ms,
		     const char *what, const char *why, struct error *err)
{
	if (*waited + wait_ms > gh->wait_cap_ms) {
		error_set(err, GCAMP_EFATAL,
			  "%s: GitHub's rate limit asks for a wait of %ld s, "
			  "past the limit of %ld s",
			  what, (wait_ms + 999) / 1000, gh->wait_cap_ms / 1000);
		error_hint(err, "try again later, or raise "
				"GIT_CAMPAIGN_RATE_WAIT_MAX (seconds)");
		return GCAMP_EFATAL;
	}
	*waited += wait_ms;
	gh->waited_ms += wait_ms;
	if (gh->on_wait)
		gh->on_wait(wait_ms, why);
	return 0;
}

/*
 * GitHub's redirects, as its REST documentation says to follow them: a
 * 301 (the URI is superseded: a renamed or transferred repository) and a
 * 302, 307 or 308 (repeat the request verbatim at Location). Only a
 * Location under the API's base is followed, so that the token goes
 * nowhere else; one that moves /repos/OWNER/REPO renames gh->repo.
 */
static int redirect(struct call *c, struct github *gh, const char *loc,
		    struct error *err)
{
	size_t n = strlen(gh->api);
	const char *p, *slash, *end;

	if (!loc || strncmp(loc, gh->api, n) || loc[n] != '/')
		return error_set(
			err, GCAMP_EFATAL,
			"%s: GitHub redirected to '%.200s', outside %s",
			c->req->what, loc ? loc : "(no Location)", gh->api);
	trace_printf("github: redirected to %s", loc);
	free(c->url);
	c->url = xstrdup(loc);
	c->http.url = c->url;
	p = loc + n;
	if (strncmp(p, "/repos/", 7))
		return 0;
	p += 7;
	slash = strchr(p, '/');
	end = slash ? slash + 1 + strcspn(slash + 1, "/?#") : NULL;
	if (!slash || end == slash + 1)
		return 0;
	if (strlen(gh->repo) == (size_t)(end - p) &&
	    !strncasecmp(gh->repo, p, (size_t)(end - p)))
		return 0;
	free(gh->moved_to);
	gh->moved_to = xstrndup(p, (size_t)(end - p));
	free(gh->repo);
	free(gh->owner);
	gh->repo = xstrdup(gh->moved_to);
	gh->owner = xstrndup(p, (size_t)(slash - p));
	return 0;
}

/* Sends c->http until github_decide says GITHUB_DONE (0, the answer in
 * c->r), waiting and trying again as it says; < 0 when it gives up. */
static int attempt(struct call *c, struct github *gh, struct error *err)
{
	int is_post = !strcmp(c->req->method, "POST");
	struct error neterr = ERROR_INIT;
	long waited = 0, wait_ms, left, at_start = gh->waited_ms;
	double start = clock_now_s();
	int tries, rc, ccode, redirects = 0;

	for (tries = 1;; tries++) {
		struct github_attempt a = {0};
		enum github_action act;

		if (!c->is_get)
			pace_write(gh);
		if ((left = budget_left(gh, start, at_start)) <= 0)
			return out_of_time(c, gh, &neterr, err);
		c->http.timeout_ms = left < gh->try_ms ? left : gh->try_ms;
		error_clear(&neterr);
		gh->requests++;
		rc = http_send(&c->r, gh->http, &c->http, &ccode, &neterr);
		if (!c->is_get)
			gh->last_write = clock_now_s();
		a.status = rc < 0 ? 0 : c->r.status;
		a.attempt = tries;
		a.retry_after = http_header(&c->r, "retry-after");
		a.remaining = http_header(&c->r, "x-ratelimit-remaining");
		a.reset = http_header(&c->r, "x-ratelimit-reset");
		a.body = c->r.body.ptr;
		a.now = (long long)time(NULL);
		a.secondary_floor_ms = gh->secondary_ms;
		a.backoff_unit_ms = gh->backoff_ms;
		if (rc == 0 && redirects < 3 &&
		    (a.status == 301 || a.status == 302 || a.status == 307 ||
		     a.status == 308)) {
			if ((rc = redirect(c, gh,
					   http_header(&c->r, "location"),
					   err)) < 0)
				return rc;
			redirects++;
			tries--;
			continue;
		}
		act = github_decide(&a, &wait_ms);
		if (act == GITHUB_DONE)
			return 0;
		/* no time, or no try left, for another */
		if (act == GITHUB_BACKOFF &&
		    (tries >= gh->max_tries ||
		     budget_left(gh, start, at_start) <= wait_ms))
			act = GITHUB_FAIL;
		if (act == GITHUB_FAIL || (act == GITHUB_BACKOFF && is_post))
			return give_up(c, gh, a.status, &neterr, err);
		if (act == GITHUB_RATE) {
			char why[160];

			github_rate_why(why, sizeof(why), &a, wait_ms);
			if ((rc = wait_rate(gh, &waited, wait_ms, c->req->what,
					    why, err)) < 0)
				return rc;
		}
		trace_printf("github: try %d again in %ld ms", tries + 1,
			     wait_ms);
		sleep_ms(wait_ms);
	}
}

/* Reads the final answer into out: a 304 from the cache, a 2xx parsed (and
 * cached when it carries an ETag), anything else an error; then Link. */
static int finish(struct github_resp *out, struct github *gh,
		  const struct call *c, struct error *err)
{
	const struct http_response *r = &c->r;
	const char *what = c->req->what, *link = http_header(r, "link");
	const char *etag = http_header(r, "etag");
	int rc = 0;

	out->status = r->status;
	if (r->status == 304 && c->cached) {
		link = c->clink;
		out->json = cJSON_Parse(c->cached);
		if (!out->json)
			rc = error_set(err, GCAMP_EFATAL, "%s: bad cache entry",
				       what);
	} else if (r->status < 200 || r->status > 299) {
		return http_failed(gh, err, r->status, r->body.ptr, what);
	} else if ((rc = parse_body(&out->json, r, what, err)) == 0 &&
		   (c->is_get || !strcmp(c->req->method, "PATCH")) && etag) {
		/* a PATCH answers with the resource as a GET of its URL would:
		 * the next GET can be a free 304 */
		cache_put(gh, c->url, etag, r->body.ptr, link);
	}
	if (rc == 0 && link)
		out->next = http_link_next(link);
	return rc;
}

int github_call(struct github_resp *out, struct github *gh,
		const struct github_req *req, struct error *err)
{
	struct call c = {0};
	int rc;

	memset(out, 0, sizeof(*out));
	c.req = req;
	c.r = (struct http_response)HTTP_RESPONSE_INIT;
	c.is_get = !strcmp(req->method, "GET");
	c.url = strstr(req->path, "://")
			? xstrdup(req->path)
			: xasprintf("%s%s", gh->api, req->path);
	build_headers(&c, gh);
	if ((rc = attempt(&c, gh, err)) == 0)
		rc = finish(out, gh, &c, err);
	http_response_release(&c.r);
	free(c.url);
	free(c.etag);
	free(c.cached);
	free(c.clink);
	free(c.inm);
	return rc;
}

void github_resp_release(struct github_resp *r)
{
	cJSON_Delete(r->json);
	free(r->next);
	memset(r, 0, sizeof(*r));
}
