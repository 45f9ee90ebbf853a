/* stack show --remote: each stacked PR's state on GitHub, its review
 * decision and its CI, read with conditional requests only. */
#ifndef GCAMP_FORGE_REMOTE_H
#define GCAMP_FORGE_REMOTE_H

#include <stddef.h>

#include "core/base/ctx.h"
#include "io/github/api.h"
#include "io/github/client.h"

/* One stacked branch's PR as GitHub has it. */
struct remote_pr {
	char *branch;
	long number;	    /* 0: no PR */
	const char *state;  /* submit_pr_state: "open", "draft", "merged"... */
	const char *review; /* remote_review_decision; NULL: not read */
	struct github_ci ci;
	int ci_read; /* ci holds the head's CI */
};

struct remote_result {
	struct remote_pr *v;
	size_t n;
	int requests; /* HTTP requests made, 304s included */
};

void remote_result_release(struct remote_result *r);

/*
 * The PR of every stacked branch, parents first (one conditional list of
 * the open PRs, as stack submit reads them), and for each open one its
 * review decision and its head's CI: three conditional GETs a PR (its
 * reviews, the commit's combined status, its check runs), which GitHub
 * answers 304 when nothing changed, and does not count against the rate
 * limit then. REST has no one call for either: the review decision is
 * GraphQL's, and commit statuses and check runs are two systems. on_wait
 * (NULL: none) is told of rate-limit waits.
 */
int stack_remote(struct remote_result *out, struct ctx *ctx,
		 github_wait_fn on_wait);

/*
 * The review decision from a PR's reviews (oldest first) as GitHub reckons
 * it over each reviewer's latest APPROVED, CHANGES_REQUESTED or DISMISSED
 * review (a COMMENTED one changes no earlier verdict): "changes requested"
 * when one stands, else "approved", else "review requested" when reviewers
 * are still asked (requested > 0), else "commented" when someone commented,
 * else "no review". A static string.
 */
const char *remote_review_decision(const struct github_review *v, size_t n,
				   size_t requested);

/* The one word for ci: "failing", "pending", "passing", or "none" when
 * the commit has neither statuses nor check runs. */
const char *remote_ci_state(const struct github_ci *ci);

#endif
