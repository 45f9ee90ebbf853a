/* What src/io/github/client.c shares with github_api.c: the client and its one
 * request function. Not for use outside src/io. */
#ifndef GCAMP_GITHUB_INT_H
#define GCAMP_GITHUB_INT_H

#include <cjson/cJSON.h>

#include "io/github/github.h"
#include "io/http.h"

struct github {
	struct http *http;
	struct db *db;
	char *api;   /* base URL, no final slash */
	char *repo;  /* "OWNER/REPO" */
	char *owner; /* "OWNER" */
	char *auth;  /* "Authorization: Bearer ..." */
	github_wait_fn on_wait;
	double last_write; /* seconds, monotonic clock; 0 before any */
	long write_gap_ms; /* GIT_CAMPAIGN_WRITE_GAP_MS, default 1000 */
	long wait_cap_ms;  /* GIT_CAMPAIGN_RATE_WAIT_MAX (s), default 900 */
	long secondary_ms; /* GIT_CAMPAIGN_SECONDARY_WAIT (s), default 60 */
	long backoff_ms;   /* GIT_CAMPAIGN_BACKOFF_MS, default 1000 */
	int requests;
};

/* Returned by github_call when a POST got no answer or a 5xx: it may have
 * been applied; the caller looks the object up before posting again. */
#define GITHUB_EUNSURE (-100)

/*
 * One REST call: method on path (relative to the API base, or an absolute
 * URL from a Link header), body (JSON text or NULL). On 2xx (and a 304
 * answered from the cache) *out gets the parsed JSON (NULL for an empty
 * body) and 0 is returned; any other answer is an error worded with `what`
 * (error_http). GETs use the ETag cache and retry; PATCHes retry; POSTs
 * return GITHUB_EUNSURE instead of retrying. *status, when not NULL, gets
 * the final HTTP status; *next, when not NULL, the Link rel="next" URL.
 */
int github_call(cJSON **out, struct github *gh, const char *method,
		const char *path, const char *body, const char *what,
		long *status, char **next, struct error *err);

/* Sleeps before try attempt + 1 of a POST (attempt^2 back-off units) and
 * returns GITHUB_EUNSURE, the state the caller is still in. */
int github_pause(struct github *gh, int attempt);

#endif
