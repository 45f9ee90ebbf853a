/* Unit tests for src/core/ab/sched.c: the arm and artifact reach the
 * builds and runs, and a probe its variables, through the child's
 * environment only, and builds are announced through the progress
 * callback. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/ab/sched.h"
#include "util/xalloc.h"

/* A scratch folder for the children to write into */
static char *scratch(void)
{
	char *dir = xstrdup("/tmp/test_ab_sched.XXXXXX");

	assert_non_null(mkdtemp(dir));
	return dir;
}

/* The first line of dir/name, "" when there is none */
static void read_line(char *out, size_t size, const char *dir, const char *name)
{
	char *path = xasprintf("%s/%s", dir, name);
	FILE *fp = fopen(path, "r");

	out[0] = '\0';
	if (fp) {
		if (!fgets(out, (int)size, fp))
			out[0] = '\0';
		fclose(fp);
	}
	out[strcspn(out, "\n")] = '\0';
	unlink(path);
	free(path);
}

static void drop(char *dir)
{
	rmdir(dir);
	free(dir);
}

struct seen {
	int builds, built, runs;
	char arm;
	char what[64];
};

static void record_progress(void *data, const struct ab_progress *p)
{
	struct seen *s = data;

	if (p->what == AB_PROGRESS_BUILD)
		s->builds++;
	else if (p->what == AB_PROGRESS_BUILT)
		s->built++;
	else
		s->runs++;
	s->arm = p->arm;
	snprintf(s->what, sizeof(s->what), "%s", p->workload);
}

static void
builds_see_their_arm_and_our_environment_stays_as_it_was(void **state)
{
	struct ctx ctx = CTX_INIT;
	struct ab_opts o;
	struct ab_result res;
	struct schedule s = {&ctx, &o, &res, NULL, NULL, 0, 0};
	char *dir = scratch(), line[64];
	struct arm a = {'A', dir, NULL}, b = {'B', dir, NULL};

	(void)state;
	memset(&o, 0, sizeof(o));
	memset(&res, 0, sizeof(res));
	o.build = "sh -c 'echo \"$GIT_CAMPAIGN_ARM\" >arm'";
	unsetenv("GIT_CAMPAIGN_ARM");
	assert_int_equal(ab_build(&s, &a, "HEAD"), 0);
	read_line(line, sizeof(line), dir, "arm");
	assert_string_equal(line, "A");
	assert_null(getenv("GIT_CAMPAIGN_ARM"));
	/* one of ours is not what the child sees, and stays ours */
	setenv("GIT_CAMPAIGN_ARM", "ours", 1);
	assert_int_equal(ab_build(&s, &b, "working tree"), 0);
	read_line(line, sizeof(line), dir, "arm");
	assert_string_equal(line, "B");
	assert_string_equal(getenv("GIT_CAMPAIGN_ARM"), "ours");
	unsetenv("GIT_CAMPAIGN_ARM");
	drop(dir);
}

static void runs_see_their_arm_and_artifact_and_our_environment_stays_as_it_was(
	void **state)
{
	struct ctx ctx = CTX_INIT;
	struct ab_opts o;
	struct ab_result res;
	struct ab_point p;
	struct schedule s = {&ctx, &o, &res, NULL, NULL, 0, 0};
	char *dir = scratch(), line[64];
	struct arm a = {'A', dir, "copy-a"}, b = {'B', dir, NULL};
	unsigned seed = 1;

	(void)state;
	memset(&o, 0, sizeof(o));
	memset(&res, 0, sizeof(res));
	memset(&p, 0, sizeof(p));
	assert_int_equal(
		ab_metric_parse(&o.metric, "re:time: ([0-9]+)", &ctx.err), 0);
	o.n = 1;
	o.order = AB_ORDER_ABBA;
	p.workload = xstrdup("sh -c 'echo \"$GIT_CAMPAIGN_ARM "
			     "$GIT_CAMPAIGN_ARTIFACT\" >>seen; "
			     "echo time: 7'");
	res.points = &p;
	res.npoints = 1;
	unsetenv("GIT_CAMPAIGN_ARM");
	setenv("GIT_CAMPAIGN_ARTIFACT", "ours", 1);
	assert_int_equal(ab_run_block(&s, 0, 1, &a), 0);
	read_line(line, sizeof(line), dir, "seen");
	assert_string_equal(line, "A copy-a");
	assert_null(getenv("GIT_CAMPAIGN_ARM"));
	assert_string_equal(getenv("GIT_CAMPAIGN_ARTIFACT"), "ours");
	/* an arm without a copy leaves the variable as the child inherits
	 * it */
	assert_int_equal(ab_run_interleaved(&s, 0, 1, &b, &b, &seed), 0);
	read_line(line, sizeof(line), dir, "seen");
	assert_string_equal(line, "B ours");
	assert_null(getenv("GIT_CAMPAIGN_ARM"));
	assert_int_equal(p.na, 1);
	assert_int_equal(p.nb, 2);
	assert_true(p.a[0] == 7);
	unsetenv("GIT_CAMPAIGN_ARTIFACT");
	free(p.workload);
	free(p.a);
	free(p.b);
	ab_metric_release(&o.metric);
	drop(dir);
}

static void
a_probe_sees_the_env_it_is_given_and_our_environment_stays_as_it_was(
	void **state)
{
	struct ctx ctx = CTX_INIT;
	struct ab_metric m;
	char *dir = scratch(), line[256];
	char *var = xasprintf("GIT_CAMPAIGN_SCRATCH=%s", dir);
	const char *env[] = {var, NULL};
	double *v = NULL;

	(void)state;
	assert_int_equal(ab_metric_parse(&m, "re:time: ([0-9]+)", &ctx.err), 0);
	unsetenv("GIT_CAMPAIGN_SCRATCH");
	assert_int_equal(
		ab_probe(&v, &ctx,
			 "sh -c 'echo \"$GIT_CAMPAIGN_SCRATCH\" "
			 ">>\"$GIT_CAMPAIGN_SCRATCH/seen\"; echo time: 5'",
			 2, &m, env, NULL, NULL),
		0);
	assert_true(v[0] == 5 && v[1] == 5);
	read_line(line, sizeof(line), dir, "seen");
	assert_string_equal(line, dir);
	assert_null(getenv("GIT_CAMPAIGN_SCRATCH"));
	free(v);
	free(var);
	ab_metric_release(&m);
	drop(dir);
}

static void a_build_is_announced_through_the_progress_callback(void **state)
{
	struct ctx ctx = CTX_INIT;
	struct ab_opts o;
	struct ab_result res;
	struct seen seen = {0, 0, 0, 0, ""};
	struct schedule s = {&ctx, &o, &res, record_progress, &seen, 0, 0};
	struct arm a = {'A', NULL, NULL};

	(void)state;
	memset(&o, 0, sizeof(o));
	memset(&res, 0, sizeof(res));
	o.build = "true";
	assert_int_equal(ab_build(&s, &a, "base worktree"), 0);
	assert_int_equal(seen.builds, 1);
	assert_int_equal(seen.runs, 0);
	assert_int_equal(seen.arm, 'A');
	assert_string_equal(seen.what, "base worktree");
}

/* Every progress event of one A/B's runs, in order */
struct events {
	long k[16], total[16], iters[16];
	int warmup[16];
	double median[16];
	char arm[16];
	size_t n;
};

static void record_runs(void *data, const struct ab_progress *p)
{
	struct events *e = data;

	if (p->what != AB_PROGRESS_RUN || e->n >= 16)
		return;
	e->k[e->n] = p->k;
	e->total[e->n] = p->total;
	e->iters[e->n] = p->iters;
	e->warmup[e->n] = p->warmup;
	e->median[e->n] = p->median;
	e->arm[e->n] = p->arm;
	e->n++;
}

static void
runs_count_across_points_and_arms_with_warm_ups_and_the_iteration_count(
	void **state)
{
	struct ctx ctx = CTX_INIT;
	struct ab_opts o;
	struct ab_result res;
	struct ab_point p[2];
	struct events e;
	struct schedule s = {&ctx, &o, &res, record_runs, &e, 0, 0};
	struct arm a = {'A', NULL, NULL}, b = {'B', NULL, NULL};
	unsigned seed = 1;
	size_t i;

	(void)state;
	memset(&o, 0, sizeof(o));
	memset(&res, 0, sizeof(res));
	memset(p, 0, sizeof(p));
	memset(&e, 0, sizeof(e));
	assert_int_equal(
		ab_metric_parse(&o.metric, "re:time: ([0-9]+)", &ctx.err), 0);
	o.n = 2;
	o.warmup = 1;
	o.order = AB_ORDER_ABBA;
	p[0].workload = xstrdup("echo time: {iters}");
	p[0].iters = 16;
	p[1].workload = xstrdup("echo time: {iters}");
	p[1].iters = 64;
	res.points = p;
	res.npoints = 2;
	s.total = 2 * 2 * (1 + 2);
	assert_int_equal(ab_run_interleaved(&s, 0, 1, &a, &b, &seed), 0);
	assert_int_equal(ab_run_interleaved(&s, 1, 2, &a, &b, &seed), 0);
	assert_int_equal(e.n, 12);
	for (i = 0; i < e.n; i++) {
		/* one count over both points: it never starts again */
		assert_int_equal(e.k[i], (long)i + 1);
		assert_int_equal(e.total[i], 12);
		assert_int_equal(e.iters[i], i < 6 ? 16 : 64);
	}
	/* the warm-ups are shown as such, before any median */
	assert_true(e.warmup[0] && e.warmup[1] && !e.warmup[2]);
	assert_true(isnan(e.median[2]));
	/* A B, then B A: B's second run knows B's first */
	assert_int_equal(e.arm[4], 'B');
	assert_true(e.median[4] == 16);
	for (i = 0; i < 2; i++)
		free(p[i].workload);
	for (i = 0; i < 2; i++) {
		free(p[i].a);
		free(p[i].b);
	}
	ab_metric_release(&o.metric);
}

static void a_probe_announces_each_run_with_the_running_median(void **state)
{
	struct ctx ctx = CTX_INIT;
	struct ab_metric m;
	struct events e;
	double *v = NULL;

	(void)state;
	memset(&e, 0, sizeof(e));
	assert_int_equal(
		ab_metric_parse(&m, "re:time: ([0-9]+);unit=us", &ctx.err), 0);
	assert_int_equal(ab_probe(&v, &ctx, "echo time: 3", 3, &m, NULL,
				  record_runs, &e),
			 0);
	assert_int_equal(e.n, 3);
	assert_int_equal(e.arm[0], 0);
	assert_true(e.k[0] == 1 && e.k[2] == 3 && e.total[2] == 3);
	assert_true(isnan(e.median[0]) && e.median[1] == 3 && e.median[2] == 3);
	free(v);
	ab_metric_release(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(
			builds_see_their_arm_and_our_environment_stays_as_it_was),
		cmocka_unit_test(
			runs_see_their_arm_and_artifact_and_our_environment_stays_as_it_was),
		cmocka_unit_test(
			a_probe_sees_the_env_it_is_given_and_our_environment_stays_as_it_was),
		cmocka_unit_test(
			a_build_is_announced_through_the_progress_callback),
		cmocka_unit_test(
			runs_count_across_points_and_arms_with_warm_ups_and_the_iteration_count),
		cmocka_unit_test(
			a_probe_announces_each_run_with_the_running_median),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
