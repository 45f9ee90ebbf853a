/* What src/io/github/client.c shares with api.c: the client and its one
 * request function. Not for use outside src/io. */
#ifndef GCAMP_GITHUB_INT_H
#define GCAMP_GITHUB_INT_H

#include <cjson/cJSON.h>

#include "io/github/client.h"
#include "io/http.h"

struct github {
	struct http *http;
	struct db *db;
	char *api;   /* base URL, no final slash */
	char *repo;  /* "OWNER/REPO" */
	char *owner; /* "OWNER" */
	char *auth;  /* "Authorization: Bearer ..." */
	github_wait_fn on_wait;
	const char *repo_hint; /* github_repo_hint; NULL: http's own */
	double last_write;     /* seconds, monotonic clock; 0 before any */
	long write_gap_ms;     /* GIT_CAMPAIGN_WRITE_GAP_MS, default 1000 */
	long wait_cap_ms;      /* GIT_CAMPAIGN_RATE_WAIT_MAX (s), default 900 */
	long secondary_ms;     /* GIT_CAMPAIGN_SECONDARY_WAIT (s), default 60 */
	long backoff_ms;       /* GIT_CAMPAIGN_BACKOFF_MS, default 1000 */
	long budget_ms;	       /* a call with its tries, github_set_timeout */
	long try_ms;	   /* one try: GIT_CAMPAIGN_HTTP_TIMEOUT, else half */
	int max_tries;	   /* of a call that gets no answer, default 3 */
	double span_start; /* > 0: calls until github_span_end share one */
	long span_waited;  /* budget_ms, from then; rate waits excluded */
	long waited_ms;	   /* every rate-limit wait so far */
	int requests;
	/* why the last POST was unsure: "HTTP 502: Server Error", or the
	 * network error; "" when none was */
	char last_unsure[256];
	char *moved_to; /* "OWNER/REPO" GitHub redirected gh->repo to */
};

/* Returned by github_call when a POST got no answer or a 5xx: it may have
 * been applied; the caller looks the object up before posting again. */
#define GITHUB_EUNSURE (-100)

/* One REST call's question. */
struct github_req {
	const char *method; /* "GET", "POST", "PATCH" */
	const char *path;   /* relative to the API base, or an absolute URL
			     * from a Link header */
	const char *body;   /* JSON text, or NULL */
	const char *what;   /* the error's subject: "cannot read PR #4" */
};

/* Its answer, released with github_resp_release. */
struct github_resp {
	cJSON *json; /* the parsed answer, NULL for an empty body */
	long status; /* the final HTTP status, 0 before one came */
	char *next;  /* Link's rel="next" URL, or NULL */
};

/*
 * One REST call: req->method on req->path with req->body. On 2xx (and a
 * 304 answered from the cache) out->json gets the parsed JSON and 0 is
 * returned; any other answer is an error worded with req->what
 * (error_http). GETs use the ETag cache and retry; PATCHes retry; POSTs
 * return GITHUB_EUNSURE instead of retrying. out is cleared first, then
 * gets the final HTTP status and, on success, the Link rel="next" URL;
 * release it with github_resp_release whatever is returned.
 */
int github_call(struct github_resp *out, struct github *gh,
		const struct github_req *req, struct error *err);
/* Frees what r holds and clears it; r may be cleared already. */
void github_resp_release(struct github_resp *r);

/* Sleeps before try attempt + 1 of a POST (attempt^2 back-off units) and
 * returns GITHUB_EUNSURE, the state the caller is still in. */
int github_pause(struct github *gh, int attempt);

/* From now until github_span_end, the calls share one budget_ms (a POST,
 * its lookups and its tries again); spans do not nest. */
void github_span_begin(struct github *gh);
void github_span_end(struct github *gh);

#endif
