/* Unit tests for the controls of an A/B (src/core/ab/control.c): the
 * family Holm corrects over, what the run is said to be, and results of
 * earlier versions read back. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>

#include "core/ab/control.h"
#include "core/ab/load.h"
#include "util/xalloc.h"

/* A control point with n samples per arm: a + i % 3 and b + i % 3 */
static void control(struct ab_point *p, double a, double b, size_t n)
{
	size_t i;

	p->workload = xstrdup("./ctl");
	p->control = 1;
	p->na = p->nb = n;
	p->a = xcalloc(n, sizeof(double));
	p->b = xcalloc(n, sizeof(double));
	for (i = 0; i < n; i++) {
		p->a[i] = a + (double)(i % 3);
		p->b[i] = b + (double)(i % 3);
	}
}

static void judge(struct ab_result *r)
{
	size_t i;

	for (i = 0; i < r->npoints; i++)
		ab_judge(&r->points[i], 0.02, 0);
	ab_controls_judge(r, 0.02);
}

static void
a_failed_control_is_not_in_the_family_and_leaves_the_run_unvouched(void **state)
{
	struct ab_result r;

	(void)state;
	memset(&r, 0, sizeof(r));
	r.npoints = 3;
	r.points = xcalloc(3, sizeof(*r.points));
	control(&r.points[0], 500, 500, 10);
	control(&r.points[1], 500, 500, 10);
	control(&r.points[2], 500, 500, 10);
	r.points[2].failed_b = 1;
	judge(&r);
	assert_int_equal(r.control_tests, 2);
	assert_int_equal(r.points[0].verdict, AB_VERDICT_STEADY);
	assert_int_equal(r.points[2].verdict, AB_VERDICT_FAILED);
	assert_true(isnan(r.points[2].p_holm));
	assert_int_equal(r.vouch, AB_VOUCH_UNVOUCHED);
	assert_false(r.invalid);
	/* Holm over two equal p: both twice the raw p, at most 1 */
	assert_true(r.points[0].p_holm == fmin(1, 2 * r.points[0].cmp.p));
	ab_result_release(&r);
}

static void one_move_makes_the_run_invalid_and_no_control_is_none(void **state)
{
	struct ab_result r;

	(void)state;
	memset(&r, 0, sizeof(r));
	r.npoints = 2;
	r.points = xcalloc(2, sizeof(*r.points));
	control(&r.points[0], 500, 500, 10);
	control(&r.points[1], 500, 550, 10);
	judge(&r);
	assert_int_equal(r.points[0].verdict, AB_VERDICT_STEADY);
	assert_int_equal(r.points[1].verdict, AB_VERDICT_MOVED);
	assert_int_equal(r.vouch, AB_VOUCH_MOVED);
	assert_true(r.invalid);
	assert_non_null(strstr(r.points[1].why, "after Holm over 2"));
	/* the same points, not controls: nothing vouches */
	r.points[0].control = r.points[1].control = 0;
	assert_int_equal(ab_vouch_of(&r), AB_VOUCH_NONE);
	ab_result_release(&r);
}

static void
a_noisy_control_of_an_earlier_version_reads_as_unvouched(void **state)
{
	struct ab_result r;
	cJSON *j = cJSON_Parse(
		"{\"invalid\":false,\"workloads\":["
		"{\"workload\":\"w\",\"a\":[1,2],\"b\":[1,2],\"verdict\":"
		"\"faster\"},{\"workload\":\"c\",\"control\":true,\"a\":[1,2],"
		"\"b\":[1,2],\"verdict\":\"noisy\"}]}");

	(void)state;
	assert_int_equal(ab_result_from_json(&r, j), 0);
	assert_int_equal(r.vouch, AB_VOUCH_UNVOUCHED);
	ab_result_release(&r);
	cJSON_Delete(j);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(
			a_failed_control_is_not_in_the_family_and_leaves_the_run_unvouched),
		cmocka_unit_test(
			one_move_makes_the_run_invalid_and_no_control_is_none),
		cmocka_unit_test(
			a_noisy_control_of_an_earlier_version_reads_as_unvouched),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
