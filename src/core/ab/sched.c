/* The A/B's schedule: one run of a workload and how its number is read,
 * the arms' builds, the blocked and interleaved orders of the runs, the
 * probe, and the stop that SIGINT, SIGTERM, SIGHUP and SIGQUIT ask for. */
#include "core/ab/sched.h"

#include <math.h>
#include <regex.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "io/proc.h"
#include "util/xalloc.h"

static volatile sig_atomic_t ab_stop;

static void on_signal(int sig)
{
	ab_stop = sig;
}

void ab_sched_trap(struct ab_trap *old)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	ab_stop = 0;
	sigaction(SIGINT, &sa, &old->sigint);
	sigaction(SIGTERM, &sa, &old->sigterm);
	/* a closed terminal or a dropped ssh connection: as git's
	 * sigchain_push_common, the same stop as SIGINT */
	sigaction(SIGHUP, &sa, &old->sighup);
	sigaction(SIGQUIT, &sa, &old->sigquit);
}

void ab_sched_untrap(const struct ab_trap *old)
{
	sigaction(SIGINT, &old->sigint, NULL);
	sigaction(SIGTERM, &old->sigterm, NULL);
	sigaction(SIGHUP, &old->sighup, NULL);
	sigaction(SIGQUIT, &old->sigquit, NULL);
}

/* The command line cmd with {iters} replaced, as an argument vector: run
 * by /bin/sh -c when it holds anything a shell would interpret, else split
 * at blanks and run directly (no shell's start-up in the timing). */
static void command_argv(struct strvec *out, const char *cmd, long iters,
			 const char *artifact)
{
	struct buf line = BUF_INIT;
	const char *p = cmd, *a, *b, *hit;
	char *copy, *tok, *save = NULL;

	for (;;) {
		a = strstr(p, "{iters}");
		b = artifact ? strstr(p, "{artifact}") : NULL;
		hit = a && (!b || a < b) ? a : b;
		if (!hit)
			break;
		buf_add(&line, p, (size_t)(hit - p));
		if (hit == a) {
			buf_addf(&line, "%ld", iters);
			p = hit + 7;
		} else {
			buf_puts(&line, artifact);
			p = hit + 10;
		}
	}
	buf_puts(&line, p);
	if (strpbrk(line.ptr, "|&;<>()$`\\\"'*?[]#~{}=%\n")) {
		strvec_push(out, "/bin/sh");
		strvec_push(out, "-c");
		strvec_push(out, line.ptr);
	} else {
		copy = xstrdup(line.ptr);
		for (tok = strtok_r(copy, " \t", &save); tok;
		     tok = strtok_r(NULL, " \t", &save))
			strvec_push(out, tok);
		free(copy);
	}
	buf_release(&line);
}

/* The number at path ("a.b.0.c") in the JSON text; -1 when it is not
 * there. A program that prints more than the JSON: the last line that
 * parses alone is tried too. */
static int json_value(double *out, const char *path, const char *text,
		      size_t len)
{
	cJSON *root = cJSON_ParseWithLength(text, len), *at;
	const char *line;
	char *copy, *key, *save = NULL;
	int rc = -1;

	for (line = text + len; !root && line > text;) {
		const char *end = line;

		while (end > text && (end[-1] == '\n' || end[-1] == '\r'))
			end--;
		line = end;
		while (line > text && line[-1] != '\n')
			line--;
		if (end > line)
			root = cJSON_ParseWithLength(line,
						     (size_t)(end - line));
	}
	at = root;
	copy = xstrdup(path);
	for (key = strtok_r(copy, ".", &save); key && at;
	     key = strtok_r(NULL, ".", &save))
		at = cJSON_IsArray(at)
			     ? cJSON_GetArrayItem(at, atoi(key))
			     : cJSON_GetObjectItemCaseSensitive(at, key);
	if (cJSON_IsNumber(at) && isfinite(at->valuedouble)) {
		*out = at->valuedouble;
		rc = 0;
	}
	free(copy);
	cJSON_Delete(root);
	return rc;
}

/* The first record called m->regex that the importer reads from text */
static int import_value(double *out, const struct ab_metric *m,
			const char *text, size_t len)
{
	struct import_set set = IMPORT_SET_INIT;
	struct error err = ERROR_INIT;
	size_t i;
	int rc = -1;

	if (!import_data(&set, m->format, text, len, "-", &err))
		for (i = 0; i < set.nr && rc; i++)
			if (!strcmp(set.recs[i].metric, m->regex)) {
				*out = set.recs[i].value;
				rc = 0;
			}
	import_set_release(&set);
	return rc;
}

/* Reads the metric of one finished run; -1 when it is not there */
static int metric_value(double *out, const struct ab_metric *m,
			const struct proc_result *r)
{
	const struct timeval *tv;
	regmatch_t g[2];
	regex_t re;
	const char *text;
	int found = -1, pass;

	switch (m->kind) {
	case AB_METRIC_WALL:
		*out = r->wall_s;
		return 0;
	case AB_METRIC_USER:
	case AB_METRIC_SYS:
		tv = m->kind == AB_METRIC_USER ? &r->ru.ru_utime
					       : &r->ru.ru_stime;
		*out = (double)tv->tv_sec + (double)tv->tv_usec / 1e6;
		return 0;
	case AB_METRIC_RSS:
		*out = (double)r->ru.ru_maxrss;
		return 0;
	case AB_METRIC_JSON:
		return json_value(out, m->regex, r->out.ptr, r->out.len);
	case AB_METRIC_IMPORT:
		return import_value(out, m, r->out.ptr, r->out.len);
	case AB_METRIC_REGEX:
		break;
	}
	if (regcomp(&re, m->regex, REG_EXTENDED))
		return -1;
	/* the last match on stdout, else on stderr: a program that prints
	 * progress reports its final figure last */
	for (pass = 0; pass < 2 && found < 0; pass++) {
		text = pass ? r->err.ptr : r->out.ptr;
		while (!regexec(&re, text, 2, g,
				text == r->out.ptr || text == r->err.ptr
					? 0
					: REG_NOTBOL)) {
			char *end, num[64];
			size_t len = (size_t)(g[1].rm_eo - g[1].rm_so);

			if (g[1].rm_so >= 0 && len < sizeof(num)) {
				memcpy(num, text + g[1].rm_so, len);
				num[len] = '\0';
				*out = strtod(num, &end);
				if (end != num && !*end && isfinite(*out))
					found = 0;
			}
			if (g[0].rm_eo == 0)
				break;
			text += g[0].rm_eo;
		}
	}
	regfree(&re);
	return found;
}

static int interrupted(struct ctx *ctx)
{
	if (!ab_stop)
		return 0;
	return error_set(&ctx->err, GCAMP_EFATAL, "interrupted by signal %d",
			 (int)ab_stop);
}

static void add_sample(double **v, size_t *n, double x)
{
	*v = xrealloc(*v, (*n + 1) * sizeof(**v));
	(*v)[(*n)++] = x;
}

/* The changes to the child's environment (proc_opts.env): GIT_CAMPAIGN_ARM
 * set to the arm and, with_artifact and an arm that has a copy,
 * GIT_CAMPAIGN_ARTIFACT naming it. Our own environment is left as it is. */
static void child_env(struct strvec *out, const struct arm *arm,
		      int with_artifact)
{
	const char *artifact = with_artifact ? arm->artifact : NULL;

	strvec_push_owned(out, xasprintf("GIT_CAMPAIGN_ARM=%c", arm->name));
	if (artifact)
		strvec_push_owned(
			out, xasprintf("GIT_CAMPAIGN_ARTIFACT=%s", artifact));
}

/* Runs workload w of point p once in arm; measure == 0 for a warm-up */
static int run_once(struct schedule *s, struct ab_point *p,
		    const struct arm *arm, int measure)
{
	struct proc_result r = PROC_RESULT_INIT;
	struct proc_opts po;
	struct strvec argv = STRVEC_INIT, env = STRVEC_INIT;
	double v;
	int rc;

	memset(&po, 0, sizeof(po));
	po.dir = arm->dir;
	po.stdin_null = 1;
	po.cap = 1 << 20;
	command_argv(&argv, p->workload, p->iters, arm->artifact);
	child_env(&env, arm, 1);
	po.env = (const char *const *)env.v;
	po.no_tokens = 1;
	s->done++;
	if (s->progress) {
		struct ab_progress ev = {.what = AB_PROGRESS_RUN,
					 .arm = arm->name,
					 .workload = p->workload};
		const char *unit = p->spec ? p->unit : s->res->unit;

		ev.i = (long)(arm->name == 'A' ? p->na : p->nb) + 1;
		ev.n = s->o->n;
		ev.median = arm->name == 'A'
				    ? (p->na ? stats_median(p->a, p->na) : NAN)
				    : (p->nb ? stats_median(p->b, p->nb) : NAN);
		ev.iters = p->iters;
		ev.warmup = !measure;
		ev.k = s->done;
		ev.total = s->total;
		ev.unit = unit ? unit : "";
		s->progress(s->data, &ev);
	}
	rc = proc_run(&r, (const char *const *)argv.v, &po, &s->ctx->err);
	strvec_clear(&argv);
	strvec_clear(&env);
	if (rc < 0)
		goto out;
	if ((rc = interrupted(s->ctx)) < 0 || !measure)
		goto out;
	if (r.status != 0) {
		*(arm->name == 'A' ? &p->failed_a : &p->failed_b) += 1;
		goto out;
	}
	if (metric_value(&v, p->spec ? p->spec : &s->o->metric, &r) < 0) {
		rc = error_set(&s->ctx->err, GCAMP_EFATAL,
			       "no number for --metric in the output of '%s' "
			       "(arm %c)",
			       p->workload, arm->name);
		goto out;
	}
	if (arm->name == 'A')
		add_sample(&p->a, &p->na, v);
	else
		add_sample(&p->b, &p->nb, v);
out:
	proc_result_release(&r);
	return rc;
}

int ab_probe(double **out, struct ctx *ctx, const char *cmd, long n,
	     const struct ab_metric *m, const char *const *env,
	     ab_progress_fn progress, void *data)
{
	struct proc_result r = PROC_RESULT_INIT;
	struct strvec argv = STRVEC_INIT;
	struct proc_opts po;
	double *v = NULL;
	long i;
	int rc = 0;

	*out = NULL;
	if (n < 1)
		return error_set(&ctx->err, GCAMP_EUSAGE,
				 "a probe runs at least once");
	memset(&po, 0, sizeof(po));
	po.stdin_null = 1;
	po.cap = 1 << 20;
	po.env = env;
	po.no_tokens = 1;
	command_argv(&argv, cmd, 0, NULL);
	v = xcalloc((size_t)n, sizeof(*v));
	for (i = 0; i < n && !rc; i++) {
		struct ab_progress ev = {
			.what = AB_PROGRESS_RUN, .arm = 0, .workload = cmd};

		ev.i = ev.k = i + 1;
		ev.n = ev.total = n;
		ev.median = i ? stats_median(v, (size_t)i) : NAN;
		ev.unit = m->unit ? m->unit : "";
		if (progress)
			progress(data, &ev);
		proc_result_release(&r);
		if ((rc = proc_run(&r, (const char *const *)argv.v, &po,
				   &ctx->err)) < 0 ||
		    (rc = interrupted(ctx)) < 0)
			break;
		if (r.status != 0)
			rc = error_set(&ctx->err, GCAMP_EFATAL,
				       "the probe '%s' failed (exit status "
				       "%d, run %ld)",
				       cmd, r.status, i + 1);
		else if (metric_value(&v[i], m, &r) < 0)
			rc = error_set(&ctx->err, GCAMP_EFATAL,
				       "no number for --metric in the output "
				       "of '%s'",
				       cmd);
	}
	proc_result_release(&r);
	strvec_clear(&argv);
	if (rc < 0)
		free(v);
	else
		*out = v;
	return rc;
}

/* Runs the points [from, to) in one arm: warm-ups, then n runs each */
int ab_run_block(struct schedule *s, size_t from, size_t to,
		 const struct arm *arm)
{
	long i;
	size_t k;
	int rc;

	for (k = from; k < to; k++)
		for (i = 0; i < s->o->warmup; i++)
			if ((rc = run_once(s, &s->res->points[k], arm, 0)) < 0)
				return rc;
	for (i = 0; i < s->o->n; i++)
		for (k = from; k < to; k++)
			if ((rc = run_once(s, &s->res->points[k], arm, 1)) < 0)
				return rc;
	return 0;
}

/* Runs the points [from, to) with both arms built: warm-ups of each arm,
 * then n rounds, in each round A and B (A B, then B A for abba; a coin for
 * random) and within an arm every point. */
int ab_run_interleaved(struct schedule *s, size_t from, size_t to,
		       const struct arm *a, const struct arm *b, unsigned *seed)
{
	long i;
	size_t k;
	int rc;

	for (k = from; k < to; k++) {
		for (i = 0; i < s->o->warmup; i++)
			if ((rc = run_once(s, &s->res->points[k], a, 0)) < 0 ||
			    (rc = run_once(s, &s->res->points[k], b, 0)) < 0)
				return rc;
	}
	for (i = 0; i < s->o->n; i++) {
		int b_first = s->o->order == AB_ORDER_ABBA
				      ? (int)(i & 1)
				      : (int)(rand_r(seed) & 1);

		for (k = from; k < to; k++) {
			const struct arm *x = b_first ? b : a;
			const struct arm *y = b_first ? a : b;

			if ((rc = run_once(s, &s->res->points[k], x, 1)) < 0 ||
			    (rc = run_once(s, &s->res->points[k], y, 1)) < 0)
				return rc;
		}
	}
	return 0;
}

int ab_build(struct schedule *s, const struct arm *arm, const char *desc)
{
	struct ab_progress ev = {
		.what = AB_PROGRESS_BUILD, .arm = arm->name, .workload = desc};
	struct ctx *ctx = s->ctx;
	struct proc_result r = PROC_RESULT_INIT;
	struct proc_opts po;
	struct strvec argv = STRVEC_INIT, env = STRVEC_INIT;
	struct buf last = BUF_INIT;
	int rc;

	memset(&po, 0, sizeof(po));
	po.dir = arm->dir;
	po.stdin_null = 1;
	command_argv(&argv, s->o->build, 0, NULL);
	child_env(&env, arm, 0);
	po.env = (const char *const *)env.v;
	po.no_tokens = 1;
	if (s->progress)
		s->progress(s->data, &ev);
	rc = proc_run(&r, (const char *const *)argv.v, &po, &ctx->err);
	if (!rc && (rc = interrupted(ctx)) == 0 && r.status) {
		proc_last_line(&last, r.err.len ? r.err.ptr : r.out.ptr);
		rc = error_set(&ctx->err, GCAMP_EFATAL,
			       "the build of %c (%s) failed with exit %d%s%s",
			       arm->name, desc, r.status, last.len ? ": " : "",
			       last.ptr);
	}
	buf_release(&last);
	strvec_clear(&argv);
	strvec_clear(&env);
	proc_result_release(&r);
	return rc;
}
