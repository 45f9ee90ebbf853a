/* Unit tests for src/core/views/testdiff.c: the per-class diff of two
 * commits' test results, known-flaky classes apart. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/views/testdiff.h"

static char dir[] = "/tmp/gcamp-test-testdiff-XXXXXX";

static const char *const A = "0123456789012345678901234567890123456789";
static const char *const B = "1111111111111111111111111111111111111111";

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

static void add(struct import_set *set, const char *cls, long passed,
		long failed)
{
	struct import_rec *r = import_add(set, "tests.passed", passed, NULL);

	import_rec_config(r, "class", "%s", cls);
	r = import_add(set, "tests.failed", failed, NULL);
	import_rec_config(r, "class", "%s", cls);
}

static void store(struct ctx *ctx, const char *commit,
		  const struct import_set *set)
{
	size_t n;

	assert_int_equal(testrun_store(&n, ctx, set, commit, "env1"), 0);
}

static void changed_classes_count_and_flaky_ones_stand_apart(void **state)
{
	struct import_set a = IMPORT_SET_INIT, b = IMPORT_SET_INIT;
	struct strvec flaky = STRVEC_INIT;
	struct ctx ctx = CTX_INIT;
	struct testdiff d;

	(void)state;
	a.format = b.format = "junit";
	add(&a, "p.Same", 4, 0);
	add(&a, "p.Worse", 3, 0);
	add(&a, "p.Gone", 1, 0);
	add(&a, "q.Flaky", 2, 0);
	add(&a, "q.Steady", 2, 0);
	add(&b, "p.Same", 4, 0);
	add(&b, "p.Worse", 2, 1);
	add(&b, "p.New", 1, 0);
	add(&b, "q.Flaky", 1, 1);
	add(&b, "q.Steady", 2, 0);
	store(&ctx, A, &a);
	store(&ctx, B, &b);
	/* by the dotted tail, and whole */
	strvec_push(&flaky, "Flaky");
	strvec_push(&flaky, "q.Steady");
	assert_int_equal(testdiff_load(&d, &ctx, A, B, "env1", &flaky), 0);
	assert_int_equal(d.sum[0].failed, 0);
	assert_int_equal(d.sum[0].total, 12);
	assert_int_equal(d.sum[1].failed, 2);
	assert_int_equal(d.sum[1].classes, 5);
	assert_int_equal(d.nchanged, 3);
	assert_string_equal(d.changed[0].name, "p.Gone");
	assert_null(d.changed[0].b);
	assert_string_equal(d.changed[1].name, "p.New");
	assert_null(d.changed[1].a);
	assert_string_equal(d.changed[2].name, "p.Worse");
	/* a flaky class that did not change and passed is not shown */
	assert_int_equal(d.nflaky, 1);
	assert_string_equal(d.flaky[0].name, "q.Flaky");
	assert_true(d.worse);
	testdiff_release(&d);
	/* the flaky failure alone makes nothing worse */
	strvec_push(&flaky, "p.Worse");
	assert_int_equal(testdiff_load(&d, &ctx, A, B, "env1", &flaky), 0);
	assert_int_equal(d.nchanged, 2);
	assert_int_equal(d.nflaky, 2);
	assert_false(d.worse);
	testdiff_release(&d);
	strvec_clear(&flaky);
	import_set_release(&a);
	import_set_release(&b);
	ctx_release(&ctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(
			changed_classes_count_and_flaky_ones_stand_apart),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
