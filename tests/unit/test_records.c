/* Unit tests for src/core/records/hypo.c, finding.c and testrun.c: the
 * tolerance rule, one next hypothesis, the findings' rank, and test counts
 * summed per class within one environment only. The database is a file
 * named by GIT_CAMPAIGN_DB, so no repository is needed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/records/finding.h"
#include "core/records/hypo.h"
#include "core/records/testrun.h"

static char dir[] = "/tmp/gcamp-test-records-XXXXXX";

static int setup(void **state)
{
	char path[256];

	(void)state;
	if (!mkdtemp(dir))
		return -1;
	snprintf(path, sizeof(path), "%s/campaign.db", dir);
	return setenv("GIT_CAMPAIGN_DB", path, 1);
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static void tolerance_is_a_share_of_the_prediction(void **state)
{
	(void)state;
	assert_true(hypo_within(2.0, 10, 2.2));
	assert_true(hypo_within(2.0, 10, 1.8));
	assert_false(hypo_within(2.0, 10, 2.21));
	assert_true(hypo_within(-4.0, 5, -4.2));
	assert_false(hypo_within(-4.0, 5, 4.0));
	assert_true(hypo_within(3.0, 0, 3.0));
	assert_false(hypo_within(0.0, 50, 0.001));
}

static void one_next_hypothesis_and_one_verdict(void **state)
{
	struct ctx ctx = CTX_INIT;
	struct hypo *v, h;
	long long a, b;
	size_t n, open;
	int found;

	(void)state;
	assert_int_equal(hypo_add(&a, &ctx, "", "m", 1, NULL, 10),
			 GCAMP_EUSAGE);
	assert_int_equal(hypo_add(&a, &ctx, "t", "m", 1.0 / 0.0, NULL, 10),
			 GCAMP_EUSAGE);
	assert_int_equal(hypo_add(&a, &ctx, "t", "m", 1, NULL, -1),
			 GCAMP_EUSAGE);
	error_clear(&ctx.err);
	assert_int_equal(hypo_add(&a, &ctx, "a", "m", 2, "us", 10), 0);
	assert_int_equal(hypo_add(&b, &ctx, "b", "m", 4, NULL, 5), 0);
	assert_int_equal(hypo_set_next(&ctx, a), 0);
	assert_int_equal(hypo_set_next(&ctx, b), 0);
	assert_int_equal(hypo_list(&v, &n, &ctx), 0);
	assert_int_equal(n, 2);
	assert_false(v[0].is_next);
	assert_true(v[1].is_next);
	assert_string_equal(v[0].unit, "us");
	assert_null(v[1].unit);
	hypo_free(v, n);
	assert_int_equal(hypo_decide(&ctx, b, 0, 9, "ab #1"), 0);
	/* none marked now: the oldest open one, said so */
	assert_int_equal(hypo_next(&h, &found, &open, &ctx), 0);
	assert_int_equal(found, 2);
	assert_int_equal(h.id, a);
	assert_int_equal(open, 1);
	hypo_release(&h);
	assert_int_equal(hypo_decide(&ctx, b, 1, 4, NULL), GCAMP_EREFUSED);
	error_clear(&ctx.err);
	assert_int_equal(hypo_get(&h, &ctx, b), 0);
	assert_string_equal(h.state, "falsified");
	assert_true(h.has_measured);
	assert_true(h.measured == 9);
	assert_string_equal(h.evidence, "ab #1");
	hypo_release(&h);
	assert_int_equal(hypo_get(&h, &ctx, 99), GCAMP_ENOTFOUND);
	ctx_release(&ctx);
}

static void findings_rank_by_kind_then_age(void **state)
{
	struct ctx ctx = CTX_INIT;
	struct finding *v, top;
	long long id[4];
	size_t n, open;
	int found;

	(void)state;
	assert_int_equal(finding_add(&id[0], &ctx, "slow", "s", NULL, 0, NULL),
			 0);
	assert_int_equal(
		finding_add(&id[1], &ctx, "crash", "c1", NULL, 0, NULL), 0);
	assert_int_equal(
		finding_add(&id[2], &ctx, "wrong-answer", "w", NULL, 7, NULL),
		0);
	assert_int_equal(
		finding_add(&id[3], &ctx, "crash", "c2", NULL, 0, NULL), 0);
	assert_int_equal(finding_add(&id[0], &ctx, "oops", "x", NULL, 0, NULL),
			 GCAMP_EUSAGE);
	error_clear(&ctx.err);
	/* ranked, bounded, and counted, through the index */
	assert_int_equal(finding_open_ranked(&v, &n, &open, &ctx, 2), 0);
	assert_int_equal(n, 2);
	assert_int_equal(open, 4);
	assert_string_equal(v[0].title, "w");
	assert_string_equal(v[1].title, "c1");
	finding_free(v, n);
	assert_int_equal(finding_open_ranked(&v, &n, &open, &ctx, 9), 0);
	assert_int_equal(n, 4);
	assert_string_equal(v[2].title, "c2");
	assert_string_equal(v[3].title, "s");
	finding_free(v, n);
	assert_int_equal(finding_list(&v, &n, &ctx), 0);
	assert_int_equal(n, 4);
	assert_string_equal(v[0].title, "w");
	assert_int_equal(v[0].pr, 7);
	assert_string_equal(v[1].title, "c1");
	assert_string_equal(v[2].title, "c2");
	assert_string_equal(v[3].title, "s");
	finding_free(v, n);
	assert_int_equal(finding_close(&ctx, id[2], 1025), 0);
	assert_int_equal(finding_close(&ctx, id[2], 1025), GCAMP_EREFUSED);
	error_clear(&ctx.err);
	assert_int_equal(finding_top(&top, &found, &ctx), 0);
	assert_true(found);
	assert_string_equal(top.title, "c1");
	finding_release(&top);
	assert_int_equal(finding_open_ranked(&v, &n, &open, &ctx, 5), 0);
	assert_int_equal(n, 3);
	assert_int_equal(open, 3);
	finding_free(v, n);
	ctx_release(&ctx);
}

static void tests_add_up_per_class_within_one_env(void **state)
{
	struct import_set set = IMPORT_SET_INIT;
	struct ctx ctx = CTX_INIT;
	struct testrun_class *c;
	struct testrun_total *t;
	struct import_rec *r;
	struct strvec envs = STRVEC_INIT;
	const char *commit = "0123456789012345678901234567890123456789";
	size_t n;

	(void)state;
	set.format = "junit";
	/* one class in two blocks; errors count as failures */
	r = import_add(&set, "tests.passed", 3, NULL);
	import_rec_config(r, "class", "a.A");
	r = import_add(&set, "tests.errored", 1, NULL);
	import_rec_config(r, "class", "a.A");
	r = import_add(&set, "tests.failed", 2, NULL);
	import_rec_config(r, "class", "a.A");
	r = import_add(&set, "tests.skipped", 1, NULL);
	import_rec_config(r, "class", "b.B");
	r = import_add(&set, "tests.flaky", 1, NULL);
	import_rec_config(r, "class", "b.B");
	assert_int_equal(testrun_store(&n, &ctx, &set, commit, "env1"), 0);
	assert_int_equal(n, 2);
	assert_int_equal(testrun_store(&n, &ctx, &set, commit, "env2"), 0);
	assert_int_equal(testrun_classes(&c, &n, &ctx, commit, "env1"), 0);
	assert_int_equal(n, 2);
	assert_string_equal(c[0].name, "a.A");
	assert_int_equal(c[0].passed, 3);
	assert_int_equal(c[0].failed, 3);
	assert_int_equal(c[1].skipped, 1);
	assert_int_equal(c[1].passed, 0);
	testrun_classes_free(c, n);
	assert_int_equal(testrun_baseline(&t, &n, &ctx, NULL, 0), 0);
	assert_int_equal(n, 2);
	assert_string_equal(t[0].env, "env1");
	assert_int_equal(t[0].failed, 3);
	assert_int_equal(t[1].failed, 3);
	testrun_totals_free(t, n);
	assert_int_equal(testrun_baseline(&t, &n, &ctx, "env2", 0), 0);
	assert_int_equal(n, 1);
	assert_string_equal(t[0].env, "env2");
	testrun_totals_free(t, n);
	/* bounded: the first environments by id */
	assert_int_equal(testrun_baseline(&t, &n, &ctx, NULL, 1), 0);
	assert_int_equal(n, 1);
	assert_string_equal(t[0].env, "env1");
	testrun_totals_free(t, n);
	assert_int_equal(testrun_baseline(&t, &n, &ctx, "env3", 0), 0);
	assert_int_equal(n, 0);
	testrun_totals_free(t, n);
	/* the commit imported last is an env's baseline */
	assert_int_equal(
		testrun_store(&n, &ctx, &set,
			      "1111111111111111111111111111111111111111",
			      "env1"),
		0);
	assert_int_equal(testrun_baseline(&t, &n, &ctx, NULL, 0), 0);
	assert_int_equal(n, 2);
	assert_string_equal(t[0].commit,
			    "1111111111111111111111111111111111111111");
	assert_string_equal(t[1].commit, commit);
	testrun_totals_free(t, n);
	/* an env that extends another's id comes next, not skipped; an id
	 * that only begins others is no env */
	assert_int_equal(testrun_store(&n, &ctx, &set, commit, "env10"), 0);
	assert_int_equal(testrun_baseline(&t, &n, &ctx, NULL, 0), 0);
	assert_int_equal(n, 3);
	assert_string_equal(t[0].env, "env1");
	assert_string_equal(t[1].env, "env10");
	assert_string_equal(t[2].env, "env2");
	testrun_totals_free(t, n);
	assert_int_equal(testrun_baseline(&t, &n, &ctx, "env", 0), 0);
	assert_int_equal(n, 0);
	testrun_totals_free(t, n);
	assert_int_equal(testrun_envs(&envs, &ctx, commit), 0);
	assert_int_equal(envs.nr, 3);
	strvec_clear(&envs);
	import_set_release(&set);
	/* nothing countable: refused as input, not as usage */
	r = import_add(&set, "tests.passed", 3, NULL);
	assert_int_equal(testrun_store(&n, &ctx, &set, commit, "env1"),
			 GCAMP_EFATAL);
	import_set_release(&set);
	ctx_release(&ctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(tolerance_is_a_share_of_the_prediction),
		cmocka_unit_test(one_next_hypothesis_and_one_verdict),
		cmocka_unit_test(findings_rank_by_kind_then_age),
		cmocka_unit_test(tests_add_up_per_class_within_one_env),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
