/* Unit tests for the pure parts of src/io/http.c, src/io/github*.c and
 * src/core/views/umbrella.c: Link parsing, redaction, error wording, retry
 * decisions, base URLs, JSON mapping on GitHub's examples, body limits,
 * umbrella marker splicing, and the token helpers' environment. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/views/umbrella.h"
#include "io/github/api.h"
#include "io/github/client.h"
#include "io/github/token.h"
#include "io/http.h"
#include "util/xalloc.h"

static char *slurp(const char *name)
{
	const char *src = getenv("SRC_DIR");
	char path[1024];
	FILE *fp;
	char *s;
	long n;

	snprintf(path, sizeof(path), "%s/tests/fixtures/github/%s",
		 src ? src : ".", name);
	fp = fopen(path, "rb");
	assert_non_null(fp);
	fseek(fp, 0, SEEK_END);
	n = ftell(fp);
	rewind(fp);
	s = malloc((size_t)n + 1);
	assert_int_equal(fread(s, 1, (size_t)n, fp), (size_t)n);
	s[n] = '\0';
	fclose(fp);
	return s;
}

static void link_next_is_taken_as_given(void **state)
{
	char *link = slurp("link-next.txt"), *next;

	(void)state;
	next = http_link_next(link);
	assert_string_equal(next, "https://api.github.com/repositories/1000/"
				  "issues?per_page=3&page=2");
	free(next);
	free(link);
	/* the last page has prev and first only */
	assert_null(http_link_next("<https://x/a?page=1>; rel=\"first\", "
				   "<https://x/a?page=4>; rel=\"prev\""));
	next = http_link_next("<https://x/a?page=1>; rel=\"prev\",<https://"
			      "x/a?page=3>;rel=\"next\"");
	assert_string_equal(next, "https://x/a?page=3");
	free(next);
	assert_null(http_link_next(""));
	assert_null(http_link_next("<broken"));
}

static void authorization_is_redacted(void **state)
{
	struct buf b = BUF_INIT;

	(void)state;
	http_redact(&b, "Authorization: Bearer ghp_secret");
	assert_string_equal(b.ptr, "Authorization: <redacted>");
	assert_null(strstr(b.ptr, "secret"));
	buf_reset(&b);
	http_redact(&b, "authorization: token abc");
	assert_string_equal(b.ptr, "authorization: <redacted>");
	buf_reset(&b);
	http_redact(&b, "Accept: application/vnd.github+json");
	assert_string_equal(b.ptr, "Accept: application/vnd.github+json");
	buf_release(&b);
}

static void http_errors_carry_githubs_message(void **state)
{
	struct error err = ERROR_INIT;

	(void)state;
	assert_int_equal(
		error_http(&err, 422,
			   "{\"message\":\"Validation Failed\",\"errors\":[{"
			   "\"resource\":\"PullRequest\",\"code\":\"custom\","
			   "\"message\":\"A pull request already exists for "
			   "o:b.\"}],\"documentation_url\":\"x\"}",
			   "cannot open a PR for 'b'"),
		GCAMP_EFATAL);
	assert_string_equal(err.msg,
			    "cannot open a PR for 'b': HTTP 422: Validation "
			    "Failed (A pull request already exists for o:b.)");
	error_clear(&err);
	assert_int_equal(error_http(&err, 404, "{\"message\":\"Not Found\"}",
				    "cannot read issue #3"),
			 GCAMP_ENOTFOUND);
	assert_string_equal(err.msg, "cannot read issue #3: HTTP 404: Not "
				     "Found");
	assert_true(err.hint[0] != '\0');
	error_clear(&err);
	/* not JSON, and several lines: still one line */
	error_http(&err, 502, "<html>\nbad gateway\n</html>", "x");
	assert_string_equal(err.msg, "x: HTTP 502");
	error_clear(&err);
	error_http(&err, 422,
		   "{\"message\":\"Invalid\\nrequest\",\"errors\":[{\"field\":"
		   "\"base\",\"code\":\"invalid\"}]}",
		   "y");
	assert_string_equal(err.msg, "y: HTTP 422: Invalid request (base "
				     "invalid)");
	error_clear(&err);
	error_curl(&err, 7, "https://u@api.github.com:443/repos/o/r",
		   "Connection refused");
	assert_string_equal(err.msg, "cannot reach 'api.github.com:443': "
				     "Connection refused");
}

static enum github_action decide(long status, const char *ra, const char *rem,
				 const char *reset, const char *body,
				 int attempt, long *wait)
{
	struct github_attempt a = {0};

	a.status = status;
	a.attempt = attempt;
	a.retry_after = ra;
	a.remaining = rem;
	a.reset = reset;
	a.body = body;
	a.now = 1000;
	a.secondary_floor_ms = 60000;
	a.backoff_unit_ms = 1000;
	return github_decide(&a, wait);
}

static void retry_decisions_follow_github(void **state)
{
	long w;

	(void)state;
	assert_int_equal(decide(200, NULL, NULL, NULL, "", 1, &w), GITHUB_DONE);
	assert_int_equal(decide(304, NULL, NULL, NULL, "", 1, &w), GITHUB_DONE);
	/* retry-after first, even with remaining 0 */
	assert_int_equal(decide(403, "7", "0", "2000", "", 1, &w), GITHUB_RATE);
	assert_int_equal(w, 7000);
	assert_int_equal(decide(429, "3", NULL, NULL, "", 1, &w), GITHUB_RATE);
	assert_int_equal(w, 3000);
	/* then the primary limit's reset (+1 s) */
	assert_int_equal(decide(403, NULL, "0", "1010", "", 1, &w),
			 GITHUB_RATE);
	assert_int_equal(w, 11000);
	assert_int_equal(decide(403, NULL, "0", "900", "", 1, &w), GITHUB_RATE);
	assert_int_equal(w, 1000);
	/* then the secondary floor, doubling */
	assert_int_equal(decide(403, NULL, "12", NULL,
				"{\"message\":\"You have exceeded a "
				"Secondary Rate limit\"}",
				1, &w),
			 GITHUB_RATE);
	assert_int_equal(w, 60000);
	assert_int_equal(
		decide(403, NULL, NULL, NULL, "secondary rate limit", 3, &w),
		GITHUB_RATE);
	assert_int_equal(w, 240000);
	assert_int_equal(decide(429, NULL, NULL, NULL, "", 1, &w), GITHUB_RATE);
	assert_int_equal(w, 60000);
	/* a real permission error, and other 4xx: final */
	assert_int_equal(decide(403, NULL, "4999", "2000",
				"{\"message\":\"Resource not accessible\"}", 1,
				&w),
			 GITHUB_DONE);
	assert_int_equal(decide(422, NULL, NULL, NULL, "", 1, &w), GITHUB_DONE);
	assert_int_equal(decide(401, NULL, NULL, NULL, "", 1, &w), GITHUB_DONE);
	/* 5xx and no answer: 1 s, 4 s, then give up */
	assert_int_equal(decide(502, NULL, NULL, NULL, "", 1, &w),
			 GITHUB_BACKOFF);
	assert_int_equal(w, 1000);
	assert_int_equal(decide(0, NULL, NULL, NULL, "", 2, &w),
			 GITHUB_BACKOFF);
	assert_int_equal(w, 4000);
	assert_int_equal(decide(503, NULL, NULL, NULL, "", 3, &w), GITHUB_FAIL);
}

static void base_urls(void **state)
{
	char *u;

	(void)state;
	unsetenv("GIT_CAMPAIGN_API_URL");
	u = github_api_url("github.com");
	assert_string_equal(u, "https://api.github.com");
	free(u);
	u = github_api_url("ghe.example.org");
	assert_string_equal(u, "https://ghe.example.org/api/v3");
	free(u);
	u = github_api_url("acme.ghe.com");
	assert_string_equal(u, "https://api.acme.ghe.com");
	free(u);
	assert_false(github_host_is_enterprise("github.com"));
	assert_false(github_host_is_enterprise("GitHub.com"));
	assert_false(github_host_is_enterprise("acme.ghe.com"));
	assert_true(github_host_is_enterprise("git.corp.example"));
	setenv("GIT_CAMPAIGN_API_URL", "http://127.0.0.1:9/api/v3//", 1);
	u = github_api_url("github.com");
	assert_string_equal(u, "http://127.0.0.1:9/api/v3");
	free(u);
	unsetenv("GIT_CAMPAIGN_API_URL");
}

static void json_mapping_on_githubs_examples(void **state)
{
	char *text = slurp("pull-request.json");
	cJSON *j = cJSON_Parse(text), *arr;
	struct github_pr pr;
	struct github_issue is;

	(void)state;
	assert_int_equal(github_pr_from_json(&pr, j), 0);
	assert_int_equal(pr.number, 1347);
	assert_string_equal(pr.state, "open");
	assert_string_equal(pr.base, "master");
	assert_string_equal(pr.head, "new-topic");
	assert_string_equal(pr.head_label, "octocat:new-topic");
	assert_string_equal(pr.html_url,
			    "https://github.com/octocat/Hello-World/pull/1347");
	assert_false(pr.draft);
	assert_false(pr.stacked);
	/* what stack submit and stack show --remote read */
	assert_string_equal(pr.head_sha,
			    "6dcb09b5b57875f334f61aebed695e2e4193db5e");
	assert_string_equal(pr.author, "octocat");
	assert_int_equal(pr.reviewers.nr, 2);
	assert_string_equal(pr.reviewers.v[0], "other_user");
	assert_string_equal(pr.reviewers.v[1], "@justice-league");
	assert_int_equal(pr.labels.nr, 1);
	assert_string_equal(pr.labels.v[0], "bug");
	github_pr_release(&pr);
	assert_int_equal(pr.reviewers.nr, 0);
	cJSON_Delete(j);
	free(text);

	/* the list's items have no "merged": merged_at says it */
	text = slurp("pull-request-simple-items.json");
	arr = cJSON_Parse(text);
	j = cJSON_GetArrayItem(arr, 0);
	cJSON_ReplaceItemInObject(j, "merged_at",
				  cJSON_CreateString("2026-01-01T00:00:00Z"));
	cJSON_AddItemToObject(j, "stack", cJSON_CreateObject());
	assert_int_equal(github_pr_from_json(&pr, j), 0);
	assert_true(pr.merged);
	assert_true(pr.stacked);
	github_pr_release(&pr);
	cJSON_Delete(arr);
	free(text);

	text = slurp("issue.json");
	j = cJSON_Parse(text);
	cJSON_ReplaceItemInObject(j, "body", cJSON_CreateNull());
	assert_int_equal(github_issue_from_json(&is, j), 0);
	assert_int_equal(is.number, 1347);
	assert_string_equal(is.body, "");
	assert_string_equal(is.state, "open");
	github_issue_release(&is);
	cJSON_DeleteItemFromObject(j, "number");
	assert_int_equal(github_issue_from_json(&is, j), -1);
	github_issue_release(&is);
	cJSON_Delete(j);
	free(text);
}

static void splice_keeps_the_human_text(void **state)
{
	struct buf out = BUF_INIT;

	(void)state;
	/* LF, markers present */
	assert_int_equal(umbrella_splice(&out,
					 "top\n" UMBRELLA_BEGIN "\nold\n"
					 "stuff\n" UMBRELLA_END "\nbottom",
					 "new\n"),
			 0);
	assert_string_equal(out.ptr, "top\n" UMBRELLA_BEGIN
				     "\nnew\n" UMBRELLA_END "\nbottom");
	/* CRLF: the block is written CRLF, the rest untouched */
	assert_int_equal(umbrella_splice(&out,
					 "a\r\n\r\n" UMBRELLA_BEGIN
					 "\r\nx\r\n" UMBRELLA_END "\r\nz\r\n",
					 "l1\nl2\n"),
			 0);
	assert_string_equal(out.ptr,
			    "a\r\n\r\n" UMBRELLA_BEGIN
			    "\r\nl1\r\nl2\r\n" UMBRELLA_END "\r\nz\r\n");
	/* missing markers: appended after a blank line */
	assert_int_equal(umbrella_splice(&out, "human", "s\n"), 1);
	assert_string_equal(out.ptr, "human\n\n" UMBRELLA_BEGIN
				     "\ns\n" UMBRELLA_END "\n");
	assert_int_equal(umbrella_splice(&out, "", "s\n"), 1);
	assert_string_equal(out.ptr, UMBRELLA_BEGIN "\ns\n" UMBRELLA_END "\n");
	/* a begin marker alone: refused */
	assert_int_equal(umbrella_splice(&out, "x " UMBRELLA_BEGIN " y", "s"),
			 -1);
	assert_int_equal(out.len, 0);
	/* an end marker before the begin marker does not count */
	assert_int_equal(
		umbrella_splice(&out, UMBRELLA_END " " UMBRELLA_BEGIN, "s"),
		-1);
	buf_release(&out);
}

static void bodies_over_githubs_limits_are_refused(void **state)
{
	size_t n = GITHUB_BODY_MAX_BYTES + 4, i;
	char *s = malloc(n + 1);

	(void)state;
	assert_non_null(s);
	assert_int_equal(github_body_too_big(""), 0);
	/* characters: 65536 fit, one more does not */
	memset(s, 'x', GITHUB_BODY_MAX_CHARS + 1);
	s[GITHUB_BODY_MAX_CHARS] = '\0';
	assert_int_equal(github_body_too_big(s), 0);
	s[GITHUB_BODY_MAX_CHARS] = 'x';
	s[GITHUB_BODY_MAX_CHARS + 1] = '\0';
	assert_int_equal(github_body_too_big(s), 1);
	/* 65536 four-byte characters are 262144 bytes: they fit */
	for (i = 0; i < n; i += 4)
		memcpy(s + i, "\xf0\x9f\x9a\x80", 4);
	s[GITHUB_BODY_MAX_BYTES] = '\0';
	assert_int_equal(github_body_too_big(s), 0);
	s[GITHUB_BODY_MAX_BYTES] = '\xf0';
	s[n] = '\0';
	assert_int_equal(github_body_too_big(s), 1);
	free(s);
}

/* `gh auth token` runs without prompts in an environment of its own; asking
 * it changes neither our environment nor how we take SIGPIPE. */
static void token_helper_leaves_our_process_as_it_was(void **state)
{
	char dir[] = "/tmp/gcamp-token.XXXXXX";
	char *gh, *old_path = xstrdup(getenv("PATH")), *tok = NULL;
	struct error err = ERROR_INIT;
	struct sigaction now;
	FILE *fp;

	(void)state;
	assert_non_null(mkdtemp(dir));
	gh = xasprintf("%s/gh", dir);
	fp = fopen(gh, "w");
	assert_non_null(fp);
	fputs("#!/bin/sh\necho \"t-$GH_PROMPT_DISABLED-${GIT_ASKPASS-none}\"\n",
	      fp);
	fclose(fp);
	assert_int_equal(chmod(gh, 0755), 0);
	unsetenv("GH_TOKEN");
	unsetenv("GITHUB_TOKEN");
	unsetenv("GH_PROMPT_DISABLED");
	setenv("GIT_ASKPASS", "/bin/false", 1);
	setenv("PATH", dir, 1);
	signal(SIGPIPE, SIG_DFL);
	assert_int_equal(github_token(&tok, "github.com", &err), 0);
	setenv("PATH", old_path, 1);
	assert_string_equal(tok, "t-1-none");
	assert_null(getenv("GH_PROMPT_DISABLED"));
	assert_string_equal(getenv("GIT_ASKPASS"), "/bin/false");
	assert_int_equal(sigaction(SIGPIPE, NULL, &now), 0);
	assert_true(now.sa_handler == SIG_DFL);
	unsetenv("GIT_ASKPASS");
	unlink(gh);
	rmdir(dir);
	free(gh);
	free(tok);
	free(old_path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(link_next_is_taken_as_given),
		cmocka_unit_test(authorization_is_redacted),
		cmocka_unit_test(http_errors_carry_githubs_message),
		cmocka_unit_test(retry_decisions_follow_github),
		cmocka_unit_test(base_urls),
		cmocka_unit_test(json_mapping_on_githubs_examples),
		cmocka_unit_test(splice_keeps_the_human_text),
		cmocka_unit_test(bodies_over_githubs_limits_are_refused),
		cmocka_unit_test(token_helper_leaves_our_process_as_it_was),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
