/* Unit tests for src/core/ab_load.c and ab_render_table: an A/B result
 * written as JSON (as the ab_run table keeps it) and read back draws the
 * same table; what is not a result is refused. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "core/ab.h"
#include "util/xalloc.h"

static double *copy(const double *v, size_t n)
{
	double *c = xmalloc(n * sizeof(*c));

	memcpy(c, v, n * sizeof(*c));
	return c;
}

/* a main workload 5% faster and a control that does not move */
static void make_result(struct ab_result *r)
{
	static const double a[] = {100, 101, 99, 100, 102, 100};
	static const double b[] = {95, 96, 94, 95, 95, 96};
	static const double c[] = {50, 50, 51, 50, 49, 50};

	memset(r, 0, sizeof(*r));
	r->npoints = 2;
	r->points = xcalloc(2, sizeof(*r->points));
	r->points[0].workload = xstrdup("./prog 100");
	r->points[0].a = copy(a, 6);
	r->points[0].b = copy(b, 6);
	r->points[0].na = r->points[0].nb = 6;
	r->points[1].workload = xstrdup("./ctl");
	r->points[1].control = 1;
	r->points[1].a = copy(c, 6);
	r->points[1].b = copy(c, 6);
	r->points[1].na = r->points[1].nb = 6;
	strcpy(r->a_desc, "HEAD (0123456789ab)");
	strcpy(r->b_desc, "working tree");
	strcpy(r->env, "e3b0c44298fc1c14");
	r->mode = AB_MODE_STASH;
	r->order = AB_ORDER_BLOCKED;
	r->n = 6;
	r->warmup = 1;
	r->unit = xstrdup("us");
	r->metric = xstrdup("time");
	strvec_push(&r->labels, "model=tiny");
	ab_finish(r, 0.02, 0.05, 0, 1);
}

static void json_round_trip_draws_the_same_table(void **state)
{
	struct error err = ERROR_INIT;
	struct ab_result r, back;
	struct buf t1 = BUF_INIT, t2 = BUF_INIT;
	cJSON *j;

	(void)state;
	make_result(&r);
	assert_string_equal(r.points[0].verdict, "faster");
	ab_render_table(&t1, &r);
	j = ab_result_json(&r);
	assert_int_equal(ab_result_from_json(&back, j, &err), 0);
	ab_render_table(&t2, &back);
	assert_string_equal(t1.ptr, t2.ptr);
	/* the table is the first part of the whole Markdown */
	buf_reset(&t2);
	ab_render_markdown(&t2, &r);
	assert_int_equal(strncmp(t1.ptr, t2.ptr, t1.len), 0);
	assert_non_null(strstr(t1.ptr, "| control: `./ctl` |"));
	assert_non_null(strstr(t1.ptr, "Labelled model=tiny."));
	assert_null(strstr(t1.ptr, "warning: blocked order"));
	assert_non_null(strstr(t2.ptr, "warning: blocked order"));
	assert_string_equal(back.env, "e3b0c44298fc1c14");
	assert_int_equal(back.mode, AB_MODE_STASH);
	assert_int_equal(back.order, AB_ORDER_BLOCKED);
	assert_int_equal(back.warnings.nr, 1);
	assert_int_equal(back.points[1].control, 1);
	assert_string_equal(back.points[1].verdict, "steady");
	assert_true(back.points[0].sb.median == r.points[0].sb.median);
	cJSON_Delete(j);
	ab_result_release(&back);
	ab_result_release(&r);
	buf_release(&t1);
	buf_release(&t2);
}

static void what_is_not_a_result_is_refused(void **state)
{
	struct error err = ERROR_INIT;
	struct ab_result r;
	cJSON *j = cJSON_Parse("{}");

	(void)state;
	assert_int_equal(ab_result_from_json(&r, j, &err), GCAMP_EFATAL);
	assert_int_equal(ab_result_from_json(&r, NULL, &err), GCAMP_EFATAL);
	cJSON_Delete(j);
	/* an unknown verdict reads as "-", a missing number as NaN */
	error_clear(&err);
	j = cJSON_Parse(
		"{\"metric\": \"wall\", \"workloads\": [{\"workload\":"
		" \"w\", \"a\": [1], \"b\": [2], \"verdict\": \"odd\"}]}");
	assert_int_equal(ab_result_from_json(&r, j, &err), 0);
	assert_int_equal(r.npoints, 1);
	assert_string_equal(r.points[0].verdict, "-");
	assert_true(r.points[0].cmp.ratio != r.points[0].cmp.ratio);
	cJSON_Delete(j);
	ab_result_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(json_round_trip_draws_the_same_table),
		cmocka_unit_test(what_is_not_a_result_is_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
