/* Unit tests for stack show --remote's words (src/core/forge/remote.c: the
 * review decision and the CI state) and the rate-limit wait's words
 * (github_rate_why in src/io/github/client.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "core/forge/remote.h"
#include "io/github/client.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* writable strings, as struct github_review holds */
static char alice[] = "alice", bob[] = "bob", carol[] = "carol";
static char APPROVED[] = "APPROVED", CHANGES[] = "CHANGES_REQUESTED";
static char COMMENTED[] = "COMMENTED", DISMISSED[] = "DISMISSED";

static const char *decide(struct github_review *v, size_t n, size_t asked)
{
	return remote_review_decision(v, n, asked);
}

static void review_decision_as_github_reckons_it(void **state)
{
	struct github_review none[1] = {{NULL, NULL}};
	struct github_review approved_after_changes[] = {
		{alice, CHANGES},
		{alice, APPROVED},
	};
	struct github_review comment_keeps_approval[] = {
		{alice, APPROVED},
		{alice, COMMENTED},
	};
	struct github_review one_standing_change[] = {
		{alice, APPROVED},
		{bob, CHANGES},
		{bob, COMMENTED},
	};
	struct github_review dismissed[] = {
		{bob, CHANGES},
		{bob, DISMISSED},
	};
	struct github_review comments_only[] = {
		{carol, COMMENTED},
	};

	(void)state;
	assert_string_equal(decide(none, 0, 0), "no review");
	assert_string_equal(decide(none, 0, 2), "review requested");
	assert_string_equal(
		decide(approved_after_changes, N(approved_after_changes), 0),
		"approved");
	assert_string_equal(
		decide(comment_keeps_approval, N(comment_keeps_approval), 0),
		"approved");
	assert_string_equal(
		decide(one_standing_change, N(one_standing_change), 0),
		"changes requested");
	assert_string_equal(decide(dismissed, N(dismissed), 1),
			    "review requested");
	assert_string_equal(decide(dismissed, N(dismissed), 0), "no review");
	assert_string_equal(decide(comments_only, N(comments_only), 0),
			    "commented");
}

static void ci_state_over_statuses_and_check_runs(void **state)
{
	struct github_ci ci = {0};

	(void)state;
	assert_string_equal(remote_ci_state(&ci), "none");
	ci.passing = 2;
	assert_string_equal(remote_ci_state(&ci), "passing");
	ci.pending = 1;
	assert_string_equal(remote_ci_state(&ci), "pending");
	ci.failing = 1;
	assert_string_equal(remote_ci_state(&ci), "failing");
}

static void rate_wait_names_the_limit_and_its_end(void **state)
{
	struct github_attempt a = {0};
	char why[160];

	(void)state;
	/* 2023-11-14T22:13:20Z */
	a.now = 1700000000;
	a.status = 403;
	a.remaining = "0";
	a.reset = "1700000065";
	github_rate_why(why, sizeof(why), &a, 66000);
	assert_string_equal(why, "GitHub's primary rate limit, until 22:14:25 "
				 "UTC (x-ratelimit-reset)");
	a.remaining = "4999";
	a.retry_after = "30";
	github_rate_why(why, sizeof(why), &a, 30000);
	assert_string_equal(why, "GitHub's secondary rate limit, until "
				 "22:13:50 UTC (retry-after)");
	a.retry_after = NULL;
	github_rate_why(why, sizeof(why), &a, 60000);
	assert_string_equal(why, "GitHub's secondary rate limit, until "
				 "22:14:20 UTC (no retry-after: the secondary "
				 "wait)");
	/* retry-after on an exhausted quota: primary, its end retry-after's */
	a.remaining = "0";
	a.retry_after = "5";
	github_rate_why(why, sizeof(why), &a, 5000);
	assert_string_equal(why, "GitHub's primary rate limit, until 22:13:25 "
				 "UTC (retry-after)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(review_decision_as_github_reckons_it),
		cmocka_unit_test(ci_state_over_statuses_and_check_runs),
		cmocka_unit_test(rate_wait_names_the_limit_and_its_end),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
