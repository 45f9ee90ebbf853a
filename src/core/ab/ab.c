/* The A/B harness: prepares both arms (a kept worktree for A, or the
 * user's stash procedure made safe), runs the schedule and collects the
 * samples; judge.c judges them, render.c renders them. */
#include "core/ab/ab.h"

#include <errno.h>
#include <math.h>
#include <regex.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/ab/ab_int.h"
#include "core/ab/notes.h"
#include "core/ab/render.h"
#include "core/records/journal.h"
#include "core/stash/stash.h"
#include "io/proc.h"
#include "io/repo.h"
#include "util/clock.h"
#include "util/xalloc.h"

static volatile sig_atomic_t ab_stop;

static void on_signal(int sig)
{
	ab_stop = sig;
}

int ab_metric_parse(struct ab_metric *out, const char *spec, struct error *err)
{
	char *copy = xstrdup(spec ? spec : "wall"), *opt, *save = NULL;
	const char *head = strtok_r(copy, ";", &save);
	int rc = 0;

	memset(out, 0, sizeof(*out));
	if (!head)
		head = "wall";
	if (!strcmp(head, "wall") || !strcmp(head, "user") ||
	    !strcmp(head, "sys")) {
		out->kind = head[0] == 'w'   ? AB_METRIC_WALL
			    : head[0] == 'u' ? AB_METRIC_USER
					     : AB_METRIC_SYS;
		out->unit = xstrdup("s");
	} else if (!strcmp(head, "maxrss")) {
		out->kind = AB_METRIC_RSS;
		out->unit = xstrdup("KiB");
	} else if (!strncmp(head, "re:", 3)) {
		regex_t re;

		out->kind = AB_METRIC_REGEX;
		out->regex = xstrdup(head + 3);
		if (regcomp(&re, out->regex, REG_EXTENDED)) {
			rc = error_set(err, GCAMP_EUSAGE,
				       "bad --metric regex '%s'", out->regex);
			goto out;
		}
		if (re.re_nsub != 1)
			rc = error_set(err, GCAMP_EUSAGE,
				       "--metric regex '%s' needs exactly one "
				       "group, the number",
				       out->regex);
		regfree(&re);
		if (rc)
			goto out;
	} else if (!strncmp(head, "json:", 5) && head[5]) {
		out->kind = AB_METRIC_JSON;
		out->regex = xstrdup(head + 5);
	} else if (!strncmp(head, "import:", 7)) {
		const char *colon = strchr(head + 7, ':');
		char *fmt =
			colon ? xstrndup(head + 7, (size_t)(colon - head - 7))
			      : xstrdup(head + 7);

		out->kind = AB_METRIC_IMPORT;
		out->format = import_format_find(fmt);
		if (!out->format || !colon || !colon[1])
			rc = error_set(
				err, GCAMP_EUSAGE,
				out->format ? "--metric '%s' needs a metric: "
					      "import:FORMAT:METRIC"
					    : "--metric '%s': no importer "
					      "of that name",
				head);
		else
			out->regex = xstrdup(colon + 1);
		free(fmt);
		if (rc)
			goto out;
	} else {
		rc = error_set(
			err, GCAMP_EUSAGE,
			"unknown --metric '%s': wall, user, sys, maxrss, "
			"re:REGEX, json:PATH or import:FORMAT:METRIC",
			head);
		goto out;
	}
	out->name = xstrdup(out->kind == AB_METRIC_REGEX    ? "value"
			    : out->kind == AB_METRIC_JSON   ? out->regex
			    : out->kind == AB_METRIC_IMPORT ? out->regex
							    : head);
	while ((opt = strtok_r(NULL, ";", &save))) {
		char **slot = !strncmp(opt, "unit=", 5)	  ? &out->unit
			      : !strncmp(opt, "name=", 5) ? &out->name
							  : NULL;

		if (slot) {
			free(*slot);
			*slot = xstrdup(opt + 5);
		} else if (!strcmp(opt, "better=higher")) {
			out->higher_is_better = 1;
		} else if (!strcmp(opt, "better=lower")) {
			out->higher_is_better = 0;
		} else {
			rc = error_set(err, GCAMP_EUSAGE,
				       "unknown --metric option '%s': unit=, "
				       "name= or better=higher|lower",
				       opt);
			goto out;
		}
	}
out:
	free(copy);
	if (rc)
		ab_metric_release(out);
	return rc;
}

void ab_metric_release(struct ab_metric *m)
{
	if (!m)
		return;
	free(m->regex);
	free(m->name);
	free(m->unit);
	memset(m, 0, sizeof(*m));
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

/* Runs workload w of point p once in arm; measure == 0 for a warm-up */
static int run_once(struct schedule *s, struct ab_point *p,
		    const struct arm *arm, int measure)
{
	struct proc_result r = PROC_RESULT_INIT;
	struct proc_opts po;
	struct strvec argv = STRVEC_INIT;
	char armname[2] = {arm->name, '\0'};
	double v;
	int rc;

	memset(&po, 0, sizeof(po));
	po.dir = arm->dir;
	po.stdin_null = 1;
	po.cap = 1 << 20;
	command_argv(&argv, p->workload, p->iters, arm->artifact);
	setenv("GIT_CAMPAIGN_ARM", armname, 1);
	if (arm->artifact)
		setenv("GIT_CAMPAIGN_ARTIFACT", arm->artifact, 1);
	if (s->progress && measure)
		s->progress(
			s->data, arm->name,
			(long)(arm->name == 'A' ? p->na : p->nb) + 1, s->o->n,
			p->workload,
			arm->name == 'A'
				? (p->na ? stats_median(p->a, p->na) : NAN)
				: (p->nb ? stats_median(p->b, p->nb) : NAN));
	rc = proc_run(&r, (const char *const *)argv.v, &po, &s->ctx->err);
	strvec_clear(&argv);
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
	     const struct ab_metric *m)
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
	command_argv(&argv, cmd, 0, NULL);
	v = xcalloc((size_t)n, sizeof(*v));
	for (i = 0; i < n && !rc; i++) {
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

int ab_build(struct ctx *ctx, const char *cmd, const struct arm *arm,
	     const char *desc)
{
	struct proc_result r = PROC_RESULT_INIT;
	struct proc_opts po;
	struct strvec argv = STRVEC_INIT;
	struct buf last = BUF_INIT;
	char armname[2] = {arm->name, '\0'};
	int rc;

	memset(&po, 0, sizeof(po));
	po.dir = arm->dir;
	po.stdin_null = 1;
	command_argv(&argv, cmd, 0, NULL);
	setenv("GIT_CAMPAIGN_ARM", armname, 1);
	if (isatty(STDERR_FILENO))
		fprintf(stderr, "building %c (%s)...\n", arm->name, desc);
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
	proc_result_release(&r);
	return rc;
}

/* The points: every workload at every iteration count */
static void make_points(struct ab_result *res, const struct ab_opts *o)
{
	size_t nit = o->niters ? o->niters : 1, w, i, k = 0;

	res->npoints = nit * (1 + o->ncontrols);
	res->points = xcalloc(res->npoints, sizeof(*res->points));
	for (i = 0; i < nit; i++)
		for (w = 0; w <= o->ncontrols; w++, k++) {
			struct ab_point *p = &res->points[k];

			p->workload = xstrdup(w ? o->controls[w - 1] : o->run);
			p->control = w > 0;
			p->spec = w && o->control_metrics
					  ? o->control_metrics[w - 1]
					  : NULL;
			if (p->spec) {
				p->metric = xstrdup(p->spec->name);
				p->unit = xstrdup(p->spec->unit ? p->spec->unit
								: "");
			}
			p->iters = o->niters ? o->iters[i] : 0;
		}
}

/* Keeps the result, every sample included, in the database, keyed by
 * the journal operation's id */
static int ab_store(struct ctx *ctx, struct db *db, const struct ab_result *r)
{
	struct buf md = BUF_INIT, verdict = BUF_INIT;
	sqlite3_stmt *st = NULL;
	cJSON *j = ab_result_json(r);
	char *json = cJSON_PrintUnformatted(j), now[21];
	int rc;

	ab_render_markdown(&md, r);
	clock_now_iso(now);
	if (r->invalid)
		buf_puts(&verdict, "INVALID");
	else if (r->npoints)
		buf_addf(&verdict, "%s %.3f",
			 ab_verdict_name(r->points[0].verdict),
			 r->points[0].cmp.ratio);
	rc = db_prepare(&st, db,
			"INSERT INTO ab_run (id, at, mode, workload, verdict,"
			" invalid, result, markdown)"
			" VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
			&ctx->err);
	if (!rc) {
		sqlite3_bind_int64(st, 1, r->op_id);
		sqlite3_bind_text(st, 2, now, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 3, ab_mode_name(r->mode), -1,
				  SQLITE_STATIC);
		sqlite3_bind_text(st, 4,
				  r->npoints ? r->points[0].workload : "", -1,
				  SQLITE_STATIC);
		sqlite3_bind_text(st, 5, verdict.ptr, -1, SQLITE_STATIC);
		sqlite3_bind_int(st, 6, r->invalid);
		sqlite3_bind_text(st, 7, json, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 8, md.ptr, -1, SQLITE_STATIC);
		if ((rc = sqlite3_step(st)) != SQLITE_DONE)
			rc = error_sqlite(&ctx->err, db, rc,
					  "cannot store the A/B result");
		else
			rc = 0;
	}
	sqlite3_finalize(st);
	cJSON_Delete(j);
	free(json);
	buf_release(&md);
	buf_release(&verdict);
	return rc;
}

int ab_run(struct ab_result *out, struct ctx *ctx, const struct ab_opts *o,
	   ab_progress_fn progress, void *data)
{
	struct schedule s = {ctx, o, out, progress, data};
	struct sigaction sa, old_int, old_term;
	struct arm a = {'A', NULL, NULL}, b = {'B', NULL, NULL};
	git_repository *repo;
	git_object *base = NULL, *obj = NULL;
	struct db *db;
	struct buf summary = BUF_INIT;
	char *dir = NULL, *branch = NULL, hex[13];
	unsigned seed = o->seed;
	long long op = 0;
	size_t per = 1 + o->ncontrols, i;
	struct error ignored = ERROR_INIT;
	int rc, changes;

	memset(out, 0, sizeof(*out));
	out->mode = o->mode;
	out->order = o->mode == AB_MODE_STASH ? AB_ORDER_BLOCKED : o->order;
	out->n = o->n;
	out->warmup = o->warmup;
	out->unit = xstrdup(o->metric.unit ? o->metric.unit : "");
	out->metric = xstrdup(o->metric.name ? o->metric.name : "wall");
	out->higher_is_better = o->metric.higher_is_better;
	for (i = 0; i < o->nconfig; i++)
		strvec_push(&out->labels, o->config[i]);
	if ((rc = ctx_repo(&repo, ctx, 1)) < 0 ||
	    (rc = ctx_db(&db, ctx, DB_CREATE)) < 0)
		return rc;
	if (git_revparse_single(&obj, repo, o->base ? o->base : "HEAD") < 0 ||
	    git_object_peel(&base, obj, GIT_OBJECT_COMMIT) < 0) {
		git_object_free(obj);
		return error_set(&ctx->err, GCAMP_ENOTFOUND,
				 "no commit '%s' to build A from",
				 o->base ? o->base : "HEAD");
	}
	git_object_free(obj);
	git_oid_cpy(&out->a_commit, git_object_id(base));
	if ((rc = ab_describe_env(out, ctx)) < 0)
		goto out;
	if ((rc = stash_worktree_tree(&out->b_tree, ctx)) < 0)
		goto out;
	git_oid_tostr(hex, sizeof(hex), git_object_id(base));
	snprintf(out->a_desc, sizeof(out->a_desc), "%s (%s)",
		 o->base ? o->base : "HEAD", hex);
	snprintf(out->b_desc, sizeof(out->b_desc), "working tree");
	changes = repo_worktree_dirty(repo, NULL, &ignored);
	error_clear(&ignored);
	if (o->mode == AB_MODE_STASH && changes <= 0) {
		rc = error_set(&ctx->err, GCAMP_EREFUSED,
			       "nothing to compare: the working tree has no "
			       "change to stash");
		error_hint(&ctx->err, "stash mode measures HEAD against your "
				      "uncommitted change");
		goto out;
	}
	if (o->mode != AB_MODE_WORKTREE && o->base) {
		rc = error_set(&ctx->err, GCAMP_EUSAGE,
			       "--base needs --mode worktree: %s mode "
			       "compares HEAD with the working tree",
			       ab_mode_name(o->mode));
		goto out;
	}
	make_points(out, o);
	buf_addf(&summary, "ab %s: %s", ab_mode_name(o->mode), o->run);
	if ((rc = journal_begin(&op, db, "ab", git_repository_workdir(repo),
				summary.ptr, "git campaign ab --continue",
				"git campaign ab --abort", &ctx->err)) < 0 ||
	    (rc = journal_step(db, op, "start",
			       o->argv_json ? o->argv_json : "[]", &ctx->err)) <
		    0)
		goto out;
	out->op_id = op;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	ab_stop = 0;
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	if (o->mode == AB_MODE_STASH) {
		rc = ab_run_stash_mode(&s, db, op);
	} else if (o->mode == AB_MODE_ARTIFACT) {
		git_commit *c = (git_commit *)base;

		rc = ab_run_artifact_mode(&s, db, op, repo,
					  git_commit_tree_id(c));
	} else {
		struct refs refs;

		repo_refs(&refs, repo);
		if (refs_head_branch(&branch, &refs, &ctx->err) < 0)
			branch = NULL;
		if (!branch || o->base)
			branch = (free(branch), xstrdup(hex));
		for (i = 0; branch[i]; i++)
			if (branch[i] == '/')
				branch[i] = '-';
		if ((rc = ab_step(ctx, db, op, "build-A")) < 0 ||
		    (rc = ab_prepare_worktree(ctx, repo, o, git_object_id(base),
					      branch, &a, &dir)) < 0 ||
		    (rc = ab_step(ctx, db, op, "build-B")) < 0 ||
		    (rc = ab_build(ctx, o->build, &b, "working tree")) < 0 ||
		    (rc = ab_step(ctx, db, op, "measure")) < 0)
			goto signals;
		for (i = 0; i < out->npoints && !rc; i += per) {
			if (o->order != AB_ORDER_BLOCKED)
				rc = ab_run_interleaved(&s, i, i + per, &a, &b,
							&seed);
			else if (!(rc = ab_run_block(&s, i, i + per, &a)))
				rc = ab_run_block(&s, i, i + per, &b);
		}
	}
      signals:
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	if (rc < 0) {
		struct error keep = ctx->err;

		/* the working tree is back (or the change is in the stash,
		 * as the hint says): the operation is over */
		error_clear(&ctx->err);
		journal_finish(db, op, 0, &ctx->err);
		ctx->err = keep;
		goto out;
	}
	ab_finish(out, o->min_effect, o->control_tol, o->niters > 1, o->seed);
	if ((rc = ab_store(ctx, db, out)) < 0 ||
	    (!out->invalid && (rc = ab_record(ctx, out, o)) < 0))
		goto out;
	rc = journal_finish(db, op, 1, &ctx->err);
out:
	buf_release(&summary);
	free(branch);
	free(dir);
	git_object_free(base);
	return rc;
}

int ab_abort(long long *out_id, struct ctx *ctx)
{
	struct journal_op *ops = NULL;
	struct stash_info info;
	struct strvec conflicts = STRVEC_INIT;
	struct db *db;
	size_t n = 0, i;
	char *name = NULL;
	int rc;

	if ((rc = ctx_db(&db, ctx, 0)) < 0 ||
	    (rc = journal_unfinished(&ops, &n, db, &ctx->err)) < 0)
		return rc;
	for (i = n; i-- > 0;)
		if (!strcmp(ops[i].kind, "ab"))
			break;
	if (i == (size_t)-1) {
		rc = error_set(&ctx->err, GCAMP_ENOTFOUND,
			       "no unfinished A/B to abort");
		goto out;
	}
	*out_id = ops[i].id;
	name = ab_stash_name(ops[i].id);
	if (!stash_lookup(&info, ctx, name)) {
		stash_info_release(&info);
		/* the change is still in the stash: bring it back */
		if ((rc = stash_apply(ctx, name, 1, &conflicts)) < 0) {
			error_hint(&ctx->err,
				   "your change is kept in stash '%s'; "
				   "'git campaign stash show %s' shows it",
				   name, name);
			goto out;
		}
	} else {
		error_clear(&ctx->err);
	}
	rc = journal_finish(db, ops[i].id, 0, &ctx->err);
out:
	strvec_clear(&conflicts);
	free(name);
	journal_ops_free(ops, n);
	return rc;
}
