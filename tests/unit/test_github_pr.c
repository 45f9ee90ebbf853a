/* The pull-request calls of src/io/github/api.c against the fake GitHub
 * (tests/fakehub, started here on a free port): create, find by OWNER:BRANCH,
 * update, merged state, a duplicate create, a create whose answer is lost;
 * and no violation of GitHub's spec in any of it. */
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
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "io/github/api.h"
#include "io/github/client.h"
#include "io/http.h"

static char dir[] = "/tmp/gcamp-test-gh-XXXXXX";
static char url[128];
static pid_t fake = -1;

static char *in_dir(const char *name)
{
	static char p[4][256];
	static int k;

	k = (k + 1) % 4;
	snprintf(p[k], sizeof(p[k]), "%s/%s", dir, name);
	return p[k];
}

static int start_fake(void **state)
{
	const char *src = getenv("SRC_DIR");
	char script[1024], port[32] = "";
	FILE *fp = NULL;
	int i;

	(void)state;
	if (!mkdtemp(dir))
		return -1;
	snprintf(script, sizeof(script), "%s/tests/fakehub/fakehub.py",
		 src ? src : ".");
	fake = fork();
	if (fake == 0) {
		execlp("python3", "python3", script, "--port-file",
		       in_dir("port"), "--violations", in_dir("violations"),
		       "--token", "test-token", (char *)NULL);
		_exit(127);
	}
	for (i = 0; i < 600 && !fp; i++) {
		struct timespec ts = {0, 100000000L};

		fp = fopen(in_dir("port"), "r");
		if (!fp)
			nanosleep(&ts, NULL);
	}
	if (!fp || !fgets(port, sizeof(port), fp))
		return -1;
	fclose(fp);
	port[strcspn(port, "\n")] = '\0';
	snprintf(url, sizeof(url), "http://127.0.0.1:%s", port);
	setenv("GIT_CAMPAIGN_API_URL", url, 1);
	setenv("GH_TOKEN", "test-token", 1);
	setenv("GIT_CAMPAIGN_WRITE_GAP_MS", "0", 1);
	setenv("GIT_CAMPAIGN_BACKOFF_MS", "10", 1);
	return 0;
}

static int stop_fake(void **state)
{
	char cmd[128];
	struct stat st;
	int violations;

	(void)state;
	if (fake > 0) {
		kill(fake, SIGTERM);
		waitpid(fake, NULL, 0);
	}
	violations = stat(in_dir("violations"), &st) == 0 && st.st_size > 0;
	if (violations) {
		snprintf(cmd, sizeof(cmd), "cat '%s' >&2",
			 in_dir("violations"));
		if (system(cmd) != 0)
			return -1;
	}
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		return -1;
	return violations ? -1 : 0;
}

/* a test control: POST /__fake/WHAT with body */
static void control(const char *what, const char *body)
{
	struct error err = ERROR_INIT;
	struct http *h = NULL;
	struct http_response r = HTTP_RESPONSE_INIT;
	struct http_request req = {0};
	char u[256];

	snprintf(u, sizeof(u), "%s/__fake/%s", url, what);
	req.method = "POST";
	req.url = u;
	req.body = body;
	req.body_len = strlen(body);
	assert_int_equal(http_new(&h, &err), 0);
	assert_int_equal(http_send(&r, h, &req, NULL, &err), 0);
	assert_int_equal(r.status, 200);
	http_response_release(&r);
	http_free(h);
}

static struct github *open_gh(void)
{
	struct error err = ERROR_INIT;
	struct github *gh = NULL;

	assert_int_equal(github_open(&gh, "github.com", "o/r", NULL, &err), 0);
	return gh;
}

static void create_find_update_merge(void **state)
{
	struct error err = ERROR_INIT;
	struct github *gh = open_gh();
	struct github_pr a, b;

	(void)state;
	assert_int_equal(github_pr_find(&a, gh, "b1", &err), GCAMP_ENOTFOUND);
	error_clear(&err);
	assert_int_equal(github_pr_create(&a, gh, "b1", "develop", "B one",
					  "body 1", 0, &err),
			 0);
	assert_string_equal(a.base, "develop");
	assert_string_equal(a.head, "b1");
	assert_string_equal(a.head_label, "o:b1");
	assert_string_equal(a.state, "open");
	assert_false(a.merged);
	assert_int_equal(
		github_pr_create(&b, gh, "b2", "b1", "B two", "", 1, &err), 0);
	assert_true(b.draft);
	assert_int_equal(b.number, a.number + 1);
	github_pr_release(&b);

	/* found by OWNER:BRANCH, not by the other branch */
	assert_int_equal(github_pr_find(&b, gh, "b2", &err), 0);
	assert_int_equal(b.number, a.number + 1);
	assert_string_equal(b.base, "b1");
	github_pr_release(&b);

	/* retarget and edit: what is NULL is not sent */
	assert_int_equal(github_pr_update(&b, gh, a.number + 1, NULL,
					  "new body", "develop", &err),
			 0);
	assert_string_equal(b.base, "develop");
	assert_string_equal(b.body, "new body");
	assert_string_equal(b.title, "B two");
	github_pr_release(&b);

	/* merged, seen by get and by the list (merged_at) */
	control("merge", "{\"repo\":\"o/r\",\"number\":1}");
	assert_int_equal(github_pr_get(&b, gh, a.number, &err), 0);
	assert_true(b.merged);
	assert_string_equal(b.state, "closed");
	github_pr_release(&b);
	assert_int_equal(github_pr_find(&b, gh, "b1", &err), 0);
	assert_true(b.merged);
	github_pr_release(&b);
	/* a closed PR cannot be retargeted: GitHub's message */
	assert_int_equal(
		github_pr_update(&b, gh, a.number, NULL, NULL, "b9", &err),
		GCAMP_EFATAL);
	assert_non_null(strstr(err.msg, "Cannot change the base branch of a "
					"closed pull request."));
	error_clear(&err);
	github_pr_release(&a);
	github_close(gh);
}

static void duplicate_and_lost_creates_give_the_existing_pr(void **state)
{
	struct error err = ERROR_INIT;
	struct github *gh = open_gh();
	struct github_pr a, b;

	(void)state;
	assert_int_equal(
		github_pr_create(&a, gh, "d1", "develop", "D", "", 0, &err), 0);
	/* GitHub's 422 "already exists": the existing one comes back */
	assert_int_equal(
		github_pr_create(&b, gh, "d1", "develop", "D", "", 0, &err), 0);
	assert_int_equal(b.number, a.number);
	github_pr_release(&a);
	github_pr_release(&b);

	/* applied, answer dropped: looked up, not created twice */
	control("fault", "{\"kind\":\"drop-after-apply\",\"method\":\"POST\","
			 "\"path\":\"/pulls$\"}");
	assert_int_equal(
		github_pr_create(&a, gh, "d2", "develop", "D2", "", 0, &err),
		0);
	assert_string_equal(a.head, "d2");
	github_pr_release(&a);
	/* 502 and not applied: looked up, then created */
	control("fault", "{\"status\":502,\"method\":\"POST\",\"path\":"
			 "\"/pulls$\",\"body\":{\"message\":\"x\","
			 "\"documentation_url\":\"x\"}}");
	assert_int_equal(
		github_pr_create(&a, gh, "d3", "develop", "D3", "", 0, &err),
		0);
	assert_string_equal(a.head, "d3");
	github_pr_release(&a);
	/* three 502s: one clear error, nothing created */
	control("fault", "{\"status\":502,\"count\":3,\"method\":\"POST\","
			 "\"path\":\"/pulls$\",\"body\":{\"message\":\"x\","
			 "\"documentation_url\":\"x\"}}");
	assert_int_equal(
		github_pr_create(&a, gh, "d5", "develop", "D5", "", 0, &err),
		GCAMP_EFATAL);
	assert_string_equal(err.msg, "cannot open a PR for 'd5': no answer "
				     "or a server error, 3 times (last: HTTP "
				     "502: x)");
	error_clear(&err);
	assert_int_equal(github_pr_find(&a, gh, "d5", &err), GCAMP_ENOTFOUND);
	error_clear(&err);
	/* a bad base is GitHub's 422 with its field message */
	assert_int_equal(github_pr_create(&a, gh, "d4", "refs/heads/develop",
					  "D4", "", 0, &err),
			 GCAMP_EFATAL);
	assert_non_null(strstr(err.msg, "HTTP 422: Validation Failed "
					"(Proposed base branch"));
	github_pr_release(&a);
	github_close(gh);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(create_find_update_merge),
		cmocka_unit_test(
			duplicate_and_lost_creates_give_the_existing_pr),
	};

	return cmocka_run_group_tests(tests, start_fake, stop_fake);
}
