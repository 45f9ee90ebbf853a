/* The REST operations git-campaign uses (issues, comments, pull requests)
 * and the mapping of GitHub's JSON onto our structures: only the fields that
 * survive API version 2026-03-10 are read. */
#ifndef GCAMP_GITHUB_API_H
#define GCAMP_GITHUB_API_H

#include <cjson/cJSON.h>
#include <stddef.h>

#include "io/github/client.h"
#include "util/error.h"
#include "util/strvec.h"

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
	char *head_sha;
	char *author;		 /* user.login */
	struct strvec reviewers; /* requested: logins, teams as "@SLUG" */
	struct strvec labels;	 /* label names */
};

/* A pull request's reviews and its head's CI, as REST gives them. */
struct github_review {
	char *login;
	char *state; /* APPROVED, CHANGES_REQUESTED, COMMENTED, DISMISSED,
		      * PENDING */
};

struct github_ci {
	int statuses; /* commit statuses (their latest, by context) */
	int checks;   /* check runs */
	int failing, pending, passing; /* over both */
};

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
/* PATCHes comment id's body; GCAMP_ENOTFOUND when GitHub has no such
 * comment (deleted). */
int github_comment_update(struct github_comment *out, struct github *gh,
			  long long id, const char *body, struct error *err);
/* Reads comment id (a conditional GET: a 304 when it did not change since
 * it was last read or written); GCAMP_ENOTFOUND when it is gone. */
int github_comment_get(struct github_comment *out, struct github *gh,
		       long long id, struct error *err);
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

/* Every review of PR number, oldest first, all pages (conditional GETs);
 * *out is an array of *n, released with github_reviews_free. */
int github_pr_reviews(struct github_review **out, size_t *n, struct github *gh,
		      long number, struct error *err);
void github_reviews_free(struct github_review *v, size_t n);
/* The CI of commit sha: its combined status (commit statuses) and its
 * check runs (GitHub Actions and other apps), two conditional GETs, each
 * a 304 when nothing changed. A status or run still queued or running is
 * pending; success, neutral and skipped pass; the rest fail. */
int github_ref_ci(struct github_ci *out, struct github *gh, const char *sha,
		  struct error *err);
/* Requests reviews of PR number from logins (a team as "@SLUG"); a POST
 * that GitHub applies once however often it is sent, so a lost answer is
 * simply sent again. */
int github_pr_request_reviewers(struct github *gh, long number,
				const struct strvec *logins, struct error *err);
/* Adds labels to issue or PR number (those it has are kept). */
int github_issue_add_labels(struct github *gh, long number,
			    const struct strvec *labels, struct error *err);

/* JSON mapping, exposed for the unit tests: fill out from GitHub's JSON
 * object; 0, or -1 when it lacks a number. */
int github_issue_from_json(struct github_issue *out, const cJSON *j);
int github_pr_from_json(struct github_pr *out, const cJSON *j);

#endif
