/* The forge over GitHub's REST API (version 2022-11-28): issues, comments
 * and pull requests, with ETag caching, pagination, rate-limit waits,
 * retries that never create an object twice, and paced writes. */
#ifndef GCAMP_GITHUB_H
#define GCAMP_GITHUB_H

#include <cjson/cJSON.h>

#include "io/db.h"
#include "util/error.h"

struct github;

/* Only fields that also survive API version 2026-03-10. */
struct github_issue {
	long number;
	char *state; /* "open", "closed" */
	char *title;
	char *body; /* "" when GitHub has none */
	char *html_url;
	char *updated_at;
};

struct github_comment {
	long long id;
	char *body;
	char *html_url;
};

struct github_pr {
	long number;
	char *state; /* "open", "closed" */
	int merged;  /* merged, or merged_at set */
	char *merged_at;
	char *base; /* base.ref */
	char *head; /* head.ref */
	char *head_label;
	char *title;
	char *body;
	int draft;
	char *html_url;
	char *updated_at;
	int stacked; /* a GitHub native stack holds it: no retargeting */
};

/* Called while the client sleeps for GitHub's rate limit, so that a
 * command can say why it waits. */
typedef void (*github_wait_fn)(long wait_ms, const char *why);

/*
 * Opens a client for OWNER/REPO (forge) on host ("github.com", a GitHub
 * Enterprise host). GH_HOST overrides host; GIT_CAMPAIGN_API_URL overrides
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
/* 1 when host is a GitHub Enterprise Server (its own token variables). */
int github_host_is_enterprise(const char *host);

/*
 * Finds a token for host, first found wins: GH_TOKEN, GITHUB_TOKEN
 * (enterprise hosts: GH_ENTERPRISE_TOKEN, GITHUB_ENTERPRISE_TOKEN), then
 * `gh auth token --hostname HOST` when gh is on PATH, then `git credential
 * fill` with prompts disabled. The token is never traced nor put in an
 * error. *out is the caller's to free. GCAMP_ENOTFOUND naming what was
 * tried when none gives one.
 */
int github_token(char **out, const char *host, struct error *err);

/* GitHub's limits on an issue, PR or comment body: characters, and the
 * bytes it stores */
#define GITHUB_BODY_MAX_CHARS 65536
#define GITHUB_BODY_MAX_BYTES 262144

/* 1 when GitHub refuses s as an issue, PR or comment body: over
 * GITHUB_BODY_MAX_CHARS characters or GITHUB_BODY_MAX_BYTES bytes. */
int github_body_too_big(const char *s);

/* Issues. The returned structures are released with the _release calls. */
int github_issue_get(struct github_issue *out, struct github *gh, long number,
		     struct error *err);
/* PATCHes the issue's body; out gets the issue as GitHub returned it. */
int github_issue_set_body(struct github_issue *out, struct github *gh,
			  long number, const char *body, struct error *err);
/* Opens an issue (a POST: on a lost response it looks for the title among
 * the newest issues before trying again). */
int github_issue_create(struct github_issue *out, struct github *gh,
			const char *title, const char *body, struct error *err);
void github_issue_release(struct github_issue *i);

/* Every comment of issue number, oldest first, all pages; *out is an array
 * of *n, released with github_comments_free. */
int github_comments_list(struct github_comment **out, size_t *n,
			 struct github *gh, long number, struct error *err);
/* Adds a comment. marker, a text the body contains, is how a comment whose
 * POST lost its response is found before a second POST. */
int github_comment_create(struct github_comment *out, struct github *gh,
			  long number, const char *body, const char *marker,
			  struct error *err);
int github_comment_update(struct github_comment *out, struct github *gh,
			  long long id, const char *body, struct error *err);
void github_comment_release(struct github_comment *c);
void github_comments_free(struct github_comment *c, size_t n);

/* Pull requests. github_pr_find looks up the PR of OWNER:branch (any
 * state, the newest), GCAMP_ENOTFOUND when there is none. */
int github_pr_find(struct github_pr *out, struct github *gh, const char *branch,
		   struct error *err);
int github_pr_get(struct github_pr *out, struct github *gh, long number,
		  struct error *err);
/* Every open PR of the repository, newest first, all pages (one
 * conditional GET each: a 304 answers from the ETag cache); *out is an
 * array of *n, released with github_prs_free. */
int github_pr_list_open(struct github_pr **out, size_t *n, struct github *gh,
			struct error *err);
void github_prs_free(struct github_pr *v, size_t n);
/* The number of the newest issue or PR (one sequence on GitHub), 0 in an
 * empty repository: the next one opened gets *out + 1 unless someone else
 * opens one first. */
int github_newest_number(long *out, struct github *gh, struct error *err);
/* Creates the PR head -> base; a PR that exists already for head (GitHub's
 * 422, or a POST whose response was lost) is returned instead. */
int github_pr_create(struct github_pr *out, struct github *gh, const char *head,
		     const char *base, const char *title, const char *body,
		     int draft, struct error *err);
/* PATCHes what is not NULL among title, body and base. */
int github_pr_update(struct github_pr *out, struct github *gh, long number,
		     const char *title, const char *body, const char *base,
		     struct error *err);
void github_pr_release(struct github_pr *p);

/* JSON mapping, exposed for the unit tests: fill out from GitHub's JSON
 * object; 0, or -1 when it lacks a number. */
int github_issue_from_json(struct github_issue *out, const cJSON *j);
int github_pr_from_json(struct github_pr *out, const cJSON *j);

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

#endif
