/* The GitHub REST client (API version 2022-11-28): the client for one
 * repository, its base URL, and the retry rules (github_decide) behind ETag
 * caching, rate-limit waits, retries that never create an object twice and
 * paced writes. */
#ifndef GCAMP_GITHUB_CLIENT_H
#define GCAMP_GITHUB_CLIENT_H

#include <stddef.h>

#include "io/db.h"
#include "util/error.h"

struct github;

/* Called while the client sleeps for GitHub's rate limit, so that a
 * command can say why it waits. */
typedef void (*github_wait_fn)(long wait_ms, const char *why);

/*
 * Opens a client for OWNER/REPO (forge) on host ("github.com", a GitHub
 * Enterprise host; NULL or "": GH_HOST, else github.com: the host given
 * wins over GH_HOST, as in gh); GIT_CAMPAIGN_API_URL overrides
 * the API base URL (see github_api_url). Finds the token (github_token) and
 * loads libcurl. db, when not NULL, holds the ETag cache and must outlive
 * the client. A forge that is not OWNER/REPO is GCAMP_ENOTFOUND, without a
 * hint: the caller knows where the name came from. Free with
 * github_close.
 */
int github_open(struct github **out, const char *host, const char *forge,
		struct db *db, struct error *err);
void github_close(struct github *gh);
/* Sets the function told about rate-limit waits (NULL: none). */
void github_on_wait(struct github *gh, github_wait_fn fn);

/* The time a call may take, every try included (rate-limit waits, which
 * are bounded on their own, left out): total_s seconds (default 20) and
 * at most max_tries tries (default 3) when no answer comes; one try takes
 * at most GIT_CAMPAIGN_HTTP_TIMEOUT seconds when that is set, else half
 * of total_s. A call out of time fails naming campaign.github.timeout. */
void github_set_timeout(struct github *gh, long total_s, int max_tries);

/* The repository's new name ("OWNER/REPO", borrowed from gh) once GitHub
 * answered a request with a redirect to it (a renamed or transferred
 * repository: 301 for reads, 307 for writes, each followed, and the later
 * requests sent to the new name), else NULL. */
const char *github_moved_to(const struct github *gh);
/* Sets the hint that a 403 or 404 answer carries (hint borrowed; it must
 * outlive gh; NULL: a generic one): the caller's words for where the
 * repository's name came from. */
void github_repo_hint(struct github *gh, const char *hint);
/* The number of HTTP requests made so far (for the efficiency counts). */
int github_request_count(const struct github *gh);

/* The REST base URL for host, without a final slash, into a new string:
 * GIT_CAMPAIGN_API_URL when set; "https://api.github.com" for github.com;
 * "https://api.HOST" for *.ghe.com; "https://HOST/api/v3" for any other
 * (GitHub Enterprise Server). */
char *github_api_url(const char *host);

/* What to do after one response (or none), exposed for the unit tests. */
enum github_action {
	GITHUB_DONE,	/* a response to hand to the caller */
	GITHUB_RATE,	/* rate limited: wait *wait_ms, then again */
	GITHUB_BACKOFF, /* server or network failure: wait, then again */
	GITHUB_FAIL,	/* give up */
};

struct github_attempt {
	long status;		 /* 0: no response */
	int attempt;		 /* 1 for the first try */
	const char *retry_after; /* header values, or NULL */
	const char *remaining;
	const char *reset;
	const char *body;
	long long now;		 /* seconds since the epoch */
	long secondary_floor_ms; /* wait for a secondary limit */
	long backoff_unit_ms;	 /* 1000: waits of 1 s, 4 s */
};

/* GitHub's rules: retry-after, else x-ratelimit-remaining 0 until reset,
 * else a "secondary rate limit" body (at least the floor, doubling); 5xx
 * and network failures back off (attempt^2 units), 3 tries in all; any
 * other 4xx is final (GITHUB_DONE: the caller words it). */
enum github_action github_decide(const struct github_attempt *a, long *wait_ms);

/* The words for a rate-limit wait of wait_ms after answer a, into out (n
 * bytes): which limit (primary when x-ratelimit-remaining is 0, else
 * secondary), the UTC time the wait ends (x-ratelimit-reset for a primary
 * limit without retry-after, else a->now + the wait) and where that came
 * from: "GitHub's primary rate limit, until 12:00:05 UTC
 * (x-ratelimit-reset)". */
void github_rate_why(char *out, size_t n, const struct github_attempt *a,
		     long wait_ms);

#endif
