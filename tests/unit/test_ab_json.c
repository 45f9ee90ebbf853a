/* Unit tests for a stored A/B result rendered again (ab_result_from_json in
 * src/core/ab/load.c): the JSON of a judged run read back renders the
 * same Markdown table, sweep, labels and warnings as the run itself. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/ab/judge.h"
#include "core/ab/load.h"
#include "core/ab/render.h"
#include "util/xalloc.h"

static void point(struct ab_point *p, const char *w, int control, long iters,
		  double a, double b)
{
	size_t i;

	p->workload = xstrdup(w);
	p->control = control;
	p->iters = iters;
	p->na = p->nb = 8;
	p->a = xcalloc(8, sizeof(double));
	p->b = xcalloc(8, sizeof(double));
	for (i = 0; i < 8; i++) {
		p->a[i] = a + (double)((i * 7) % 5);
		p->b[i] = b + (double)((i * 3) % 5);
	}
}

/* A sweep over 1 and 100 iterations with a control, judged */
static void make_run(struct ab_result *r)
{
	memset(r, 0, sizeof(*r));
	r->npoints = 4;
	r->points = xcalloc(4, sizeof(*r->points));
	point(&r->points[0], "./prog {iters}", 0, 1, 1010, 1009);
	point(&r->points[1], "./ctl", 1, 1, 500, 500);
	point(&r->points[2], "./prog {iters}", 0, 100, 2000, 1900);
	point(&r->points[3], "./ctl", 1, 100, 500, 501);
	r->unit = xstrdup("us");
	r->metric = xstrdup("value");
	r->n = 8;
	r->warmup = 1;
	r->mode = AB_MODE_WORKTREE;
	r->order = AB_ORDER_ABBA;
	strvec_push(&r->labels, "model=tiny");
	memcpy(r->env, "0123456789abcdef", 17);
	snprintf(r->a_desc, sizeof(r->a_desc), "HEAD (1a2b3c4d5e6f)");
	snprintf(r->b_desc, sizeof(r->b_desc), "working tree");
	git_oid_fromstr(&r->a_commit,
			"1a2b3c4d5e6f1a2b3c4d5e6f1a2b3c4d5e6f1a2b");
	git_oid_fromstr(&r->b_tree, "ffeeddccbbaa99887766554433221100ffeeddcc");
	ab_finish(r, 0.02, 0.02, 1, 7);
	r->env_line = xstrdup("env 0123456789abcdef: a CPU, backend none");
}

static void round_trip_renders_the_same(void **state)
{
	struct ab_result r, back;
	struct buf md = BUF_INIT, md2 = BUF_INIT;
	cJSON *j;
	char hex[GIT_OID_HEXSZ + 1];

	(void)state;
	make_run(&r);
	/* a control read by a metric of its own (ab --gpu-control) */
	assert_true(r.points[1].control);
	r.points[1].metric = xstrdup("gpu-control");
	r.points[1].unit = xstrdup("us");
	assert_true(r.sweep.ok);
	assert_int_equal(r.points[0].verdict, AB_VERDICT_SAME);
	assert_int_equal(r.points[2].verdict, AB_VERDICT_FASTER);
	ab_render_markdown(&md, &r);
	j = ab_result_json(&r);
	assert_int_equal(ab_result_from_json(&back, j), 0);
	assert_null(back.env_line);
	back.env_line = xstrdup(r.env_line);
	ab_render_markdown(&md2, &back);
	assert_string_equal(md2.ptr, md.ptr);
	assert_int_equal(back.points[2].verdict, r.points[2].verdict);
	/* the sweep words are the literals, not copies */
	assert_ptr_equal(back.sweep.words, r.sweep.words);
	git_oid_tostr(hex, sizeof(hex), &back.b_tree);
	assert_string_equal(hex, "ffeeddccbbaa99887766554433221100ffeeddcc");
	assert_true(git_oid_equal(&back.a_commit, &r.a_commit));
	assert_string_equal(back.env, "0123456789abcdef");
	assert_string_equal(back.points[1].metric, "gpu-control");
	assert_string_equal(back.points[1].unit, "us");
	assert_null(back.points[0].metric);
	cJSON_Delete(j);
	ab_result_release(&back);
	ab_result_release(&r);
	buf_release(&md);
	buf_release(&md2);
}

static void not_a_result(void **state)
{
	struct ab_result r;
	cJSON *j = cJSON_Parse("{\"a\":1}");

	(void)state;
	assert_int_equal(ab_result_from_json(&r, j), -1);
	assert_int_equal(ab_result_from_json(&r, NULL), -1);
	ab_result_release(&r);
	cJSON_Delete(j);
	/* before a_commit and b_tree were stored: zero ids */
	j = cJSON_Parse("{\"workloads\":[{\"workload\":\"w\",\"a\":[1,2],"
			"\"b\":[1,2],\"verdict\":\"bogus\"}]}");
	assert_int_equal(ab_result_from_json(&r, j), 0);
	assert_true(git_oid_is_zero(&r.b_tree));
	assert_int_equal(r.points[0].verdict, AB_VERDICT_NONE);
	assert_int_equal(r.points[0].na, 2);
	assert_true(r.points[0].sa.median == 1.5);
	ab_result_release(&r);
	cJSON_Delete(j);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(round_trip_renders_the_same),
		cmocka_unit_test(not_a_result),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
