/* git campaign ab: a same-build A/B run with controls, an iteration sweep
 * and verdicts a reviewer can trust. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "cmd/abprogress.h"
#include "cmd/cmd.h"
#include "core/ab/ab.h"
#include "core/ab/flags.h"
#include "core/ab/gc.h"
#include "core/ab/notes.h"
#include "core/ab/render.h"
#include "core/records/journal.h"
#include "util/color.h"
#include "util/options.h"
#include "util/xalloc.h"

#define ATTACH_USAGE "git campaign ab attach [REV]"

static const char *const ab_usage[] = {
	"git campaign ab --build CMD --run CMD [--control CMD]... "
	"[--gpu-control] [-n N] "
	"[--warmup K] [--iters LIST] [--metric SPEC] "
	"[--mode worktree|stash|artifact] [--artifact PATH] "
	"[--base REV] [--order abba|random|blocked] [--min-effect PCT] "
	"[--control-tolerance PCT] [--require-flag STR]... [--config K=V]... "
	"[--seed N] [--json | --format FMT]",
	"git campaign ab --continue",
	"git campaign ab --abort",
	ATTACH_USAGE,
	NULL,
};

/* How the GPU control's number is read: the time of its device work that
 * it prints, not its wall time, which is mostly process start, cuInit and
 * context creation. */
#define GPU_CONTROL_METRIC                                                     \
	"re:gpu-control: ([0-9.]+) us;unit=us;name=gpu-control"

/* --gpu-control: this binary's `env gpu-control` as one more control, a
 * fixed piece of device work that no change can move, read by its own
 * figure (*metric, set here) whatever the run's metric is. *cm gets the
 * controls' metrics (the caller frees it). */
static int add_gpu_control(struct ctx *ctx, struct strvec *controls,
			   struct ab_opts *o, struct ab_metric *metric,
			   const struct ab_metric ***cm)
{
	char exe[4096];
	ssize_t len;
	int rc;

	if ((rc = ab_metric_parse(metric, GPU_CONTROL_METRIC, &ctx->err)) < 0)
		return rc;
	len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (len <= 0 || memchr(exe, '\'', (size_t)len))
		return error_set(&ctx->err, GCAMP_EFATAL,
				 "--gpu-control: cannot name this program "
				 "for the shell");
	exe[len] = 0;
	strvec_push_owned(controls, xasprintf("'%s' env gpu-control", exe));
	o->controls = (const char *const *)controls->v;
	o->ncontrols = controls->nr;
	*cm = xcalloc(controls->nr, sizeof(**cm));
	(*cm)[controls->nr - 1] = metric;
	o->control_metrics = *cm;
	return 0;
}

SUB_USAGE(attach_usage, ATTACH_USAGE);

/* ab attach: the numbers of a change follow it into its commit */
static int attach_cmd(int argc, const char **argv, struct ctx *ctx)
{
	size_t n;
	int k = parse_options(argc, argv, NULL, attach_usage);

	if (k < 0)
		return parse_options_status(k);
	if (k > 1)
		return usage_error(attach_usage, NULL, "too many arguments");
	if (ab_attach(&n, ctx, k ? argv[0] : "HEAD") < 0)
		return cmd_fail(ctx);
	cmd_say("attached %zu B record%s to %s\n", n, n == 1 ? "" : "s",
		k ? argv[0] : "HEAD");
	return 0;
}

static int parse_pct(double *out, const char *s, const char *what)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (*end == '%')
		end++;
	if (end == s || *end || errno || !(v >= 0) || v > 100)
		return usage_error(ab_usage, NULL,
				   "%s '%s' is not a percentage", what, s);
	*out = v / 100;
	return 0;
}

static int parse_iters(long **out, size_t *n, const char *s)
{
	const char *p = s;
	char *end;
	long v;

	*out = NULL;
	*n = 0;
	while (*p) {
		errno = 0;
		v = strtol(p, &end, 10);
		if (end == p || errno || v <= 0 || (*end && *end != ',')) {
			free(*out);
			*out = NULL;
			return usage_error(ab_usage, NULL,
					   "--iters '%s' is not a list of "
					   "counts like 64,512,4096",
					   s);
		}
		*out = xrealloc(*out, (*n + 1) * sizeof(**out));
		(*out)[(*n)++] = v;
		p = *end ? end + 1 : end;
	}
	return 0;
}

/* The honest-number rules: a control when campaign.requireControl is set;
 * every --require-flag (and campaign.requireFlag) in every command that is
 * measured; no campaign.forbidFlag unless the run is labelled with the
 * profiler on (ab_flags_check reads them as the JVM reads -D properties) */
static int check_flags(struct ctx *ctx, const struct ab_opts *o,
		       const struct strvec *required,
		       const struct strvec *config, int gpu_control)
{
	struct strvec req = STRVEC_INIT, forbid = STRVEC_INIT;
	struct gitcfg *cfg;
	const char *v;
	size_t i, w;
	int profiler_on = 0, need_control = 0, rc = 0;

	for (i = 0; i < config->nr; i++)
		profiler_on |= !strcmp(config->v[i], "profiler=on");
	for (i = 0; i < required->nr; i++)
		strvec_push(&req, required->v[i]);
	if (ctx_config(&cfg, ctx) == 0) {
		gitcfg_get_all(&req, cfg, "campaign.requireFlag", &ctx->err);
		gitcfg_get_all(&forbid, cfg, "campaign.forbidFlag", &ctx->err);
		need_control =
			gitcfg_get(&v, cfg, "campaign.requireControl") == 0 &&
			gitcfg_bool(v) == 1;
	}
	error_clear(&ctx->err);
	if (need_control && !o->ncontrols && !gpu_control) {
		rc = error_set(&ctx->err, GCAMP_EREFUSED,
			       "no control: campaign.requireControl asks for "
			       "one");
		error_hint(&ctx->err,
			   "add --control CMD, a workload the change "
			   "does not touch, or --gpu-control");
	}
	for (w = 0; w <= o->ncontrols && !rc; w++)
		rc = ab_flags_check(&ctx->err, w ? o->controls[w - 1] : o->run,
				    &req, &forbid, profiler_on);
	strvec_clear(&req);
	strvec_clear(&forbid);
	return rc;
}

/* How much the kept A/B worktrees and builds hold, and when gc takes
 * them: on a terminal only, after the run */
static void say_kept_space(struct ctx *ctx)
{
	uint64_t bytes;
	long days;
	char size[32];

	if (ab_kept_size(&bytes, ctx) < 0 || !bytes ||
	    ab_gc_days(&days, ctx, 30) < 0) {
		error_clear(&ctx->err);
		return;
	}
	ab_size_text(size, sizeof(size), bytes);
	fprintf(stderr,
		"A/B worktrees and builds hold %s; 'git campaign gc' prunes "
		"those unused for %ld days\n",
		size, days);
}

static char *argv_json(int argc, const char **argv)
{
	cJSON *a = cJSON_CreateArray();
	char *s;
	int i;

	for (i = 0; i < argc; i++)
		cJSON_AddItemToArray(a, cJSON_CreateString(argv[i]));
	s = cJSON_PrintUnformatted(a);
	cJSON_Delete(a);
	return s;
}

static int ab_run_cmd(int argc, const char **argv, struct ctx *ctx);

static int abort_cmd(struct ctx *ctx)
{
	long long id;

	if (ab_abort(&id, ctx) < 0)
		return cmd_fail(ctx);
	cmd_say("aborted A/B #%lld; the working tree is as before it\n", id);
	return 0;
}

/* --continue: an interrupted A/B's numbers are not kept (the machine and
 * the tree may have changed under them): put everything back, then run the
 * journalled command again from the start */
static int continue_cmd(struct ctx *ctx)
{
	struct journal_op *ops = NULL;
	struct journal_step *steps = NULL;
	const char **args = NULL;
	struct db *db;
	cJSON *a = NULL, *e;
	size_t n = 0, ns = 0, i;
	long long id;
	int argc = 0, rc = 128;

	if (ctx_db(&db, ctx, 0) < 0 ||
	    journal_unfinished(&ops, &n, db, &ctx->err) < 0)
		return cmd_fail(ctx);
	for (i = n; i-- > 0;)
		if (!strcmp(ops[i].kind, "ab"))
			break;
	if (i == (size_t)-1) {
		error_set(&ctx->err, GCAMP_ENOTFOUND,
			  "no unfinished A/B to continue");
		rc = cmd_fail(ctx);
		goto out;
	}
	if (journal_read(&steps, &ns, db, ops[i].id, &ctx->err) < 0 || !ns ||
	    strcmp(steps[0].step, "start") ||
	    !(a = cJSON_Parse(steps[0].data)) || !cJSON_IsArray(a)) {
		error_set(&ctx->err, GCAMP_EFATAL,
			  "A/B #%lld has no recorded command to run again",
			  ops[i].id);
		error_hint(&ctx->err, "'git campaign ab --abort' puts the "
				      "working tree back");
		rc = cmd_fail(ctx);
		goto out;
	}
	if (ab_abort(&id, ctx) < 0) {
		rc = cmd_fail(ctx);
		goto out;
	}
	cmd_say_err("A/B #%lld put back; running it again\n", id);
	args = xcalloc((size_t)cJSON_GetArraySize(a) + 1, sizeof(*args));
	cJSON_ArrayForEach(e, a)
		if (cJSON_IsString(e))
			args[argc++] = e->valuestring;
	rc = ab_run_cmd(argc, args, ctx);
out:
	free(args);
	cJSON_Delete(a);
	journal_steps_free(steps, ns);
	journal_ops_free(ops, n);
	return rc;
}

/* What the options of an A/B run hold before they become its ab_opts. */
struct ab_args {
	const char *build, *run, *iters, *metric, *base, *artifact;
	const char *min_effect, *tolerance;
	int mode, order; /* enum ab_mode, enum ab_order */
	struct strvec controls, required, config;
	long n, warmup, seed;
	int json, cont, abort_, gpu_control;
};

#define AB_ARGS_INIT                                                           \
	{                                                                      \
		.min_effect = "2", .tolerance = "2", .mode = AB_MODE_WORKTREE, \
		.order = AB_ORDER_ABBA, .controls = STRVEC_INIT,               \
		.required = STRVEC_INIT, .config = STRVEC_INIT, .n = 10,       \
		.warmup = 1, .seed = 1                                         \
	}

static void ab_args_release(struct ab_args *a)
{
	strvec_clear(&a->controls);
	strvec_clear(&a->required);
	strvec_clear(&a->config);
}

/* Checks the options of a run and fills o from them, borrowing a's strings
 * and *iter_list (the caller's to free): 0, or 129 after a usage error. */
static int ab_opts_from_args(struct ab_opts *o, long **iter_list,
			     const struct ab_args *a, const struct option *opts)
{
	size_t i;

	if (!a->build || !a->run)
		return usage_error(ab_usage, opts, "%s is missing",
				   !a->build ? "--build" : "--run");
	if (a->n < 1 || a->n > 100000 || a->warmup < 0 || a->warmup > 100000)
		return usage_error(ab_usage, opts,
				   "-n must be 1 or more and "
				   "--warmup 0 or more");
	for (i = 0; !a->iters && i <= a->controls.nr; i++)
		if (strstr(i ? a->controls.v[i - 1] : a->run, "{iters}"))
			return usage_error(ab_usage, opts,
					   "{iters} in '%s' needs --iters",
					   i ? a->controls.v[i - 1] : a->run);
	if ((a->mode == AB_MODE_ARTIFACT) != !!a->artifact)
		return usage_error(ab_usage, opts,
				   a->artifact
					   ? "--artifact needs --mode artifact"
					   : "--mode artifact needs --artifact "
					     "PATH");
	o->build = a->build;
	o->run = a->run;
	o->controls = (const char *const *)a->controls.v;
	o->ncontrols = a->controls.nr;
	o->n = a->n;
	o->warmup = a->warmup;
	o->base = a->base;
	o->seed = (unsigned)a->seed;
	o->mode = (enum ab_mode)a->mode;
	o->order = (enum ab_order)a->order;
	o->artifact = a->artifact;
	o->config = (const char *const *)a->config.v;
	o->nconfig = a->config.nr;
	if (parse_pct(&o->min_effect, a->min_effect, "--min-effect") ||
	    parse_pct(&o->control_tol, a->tolerance, "--control-tolerance") ||
	    (a->iters && parse_iters(iter_list, &o->niters, a->iters)))
		return 129;
	o->iters = *iter_list;
	return 0;
}

/* git campaign ab --build ... --run ...: the run itself, or --continue and
 * --abort of an interrupted one */
static int ab_run_cmd(int argc, const char **argv, struct ctx *ctx)
{
	struct ab_args a = AB_ARGS_INIT;
	struct ab_opts o;
	struct ab_metric gpu_metric;
	const struct ab_metric **cmetrics = NULL;
	struct ab_result res;
	struct ab_progress_line line;
	struct buf table = BUF_INIT;
	long *iter_list = NULL;
	int format = -1;
	const struct option opts[] = {
		OPT_STRING(0, "build", &a.build, "CMD",
			   "build command, run in each arm's tree"),
		OPT_STRING(0, "run", &a.run, "CMD",
			   "the workload; {iters} takes each --iters count"),
		OPT_LIST(0, "control", &a.controls, "CMD",
			 "a workload that must not move (repeatable)"),
		OPT_BOOL(0, "gpu-control", &a.gpu_control,
			 "add the built-in GPU control (env gpu-control)"),
		OPT_INT('n', NULL, &a.n, "N", "measured runs per arm (10)"),
		OPT_INT(0, "warmup", &a.warmup, "K",
			"runs discarded per arm first (1)"),
		OPT_STRING(0, "iters", &a.iters, "LIST",
			   "iteration counts of a sweep, e.g. 64,512,4096"),
		OPT_STRING(0, "metric", &a.metric, "SPEC",
			   "wall, user, sys, maxrss or re:REGEX[;unit=U]"
			   "[;better=higher]"),
		OPT_CHOICE(0, "mode", &a.mode, ab_mode_names, "MODE",
			   "worktree (default), stash or artifact"),
		OPT_STRING(0, "artifact", &a.artifact, "PATH",
			   "artifact mode: what the build makes"),
		OPT_STRING(0, "base", &a.base, "REV", "A's commit (HEAD)"),
		OPT_CHOICE(0, "order", &a.order, ab_order_names, "ORDER",
			   "abba (default), random or blocked"),
		OPT_STRING(0, "min-effect", &a.min_effect, "PCT",
			   "smallest change called a verdict (2)"),
		OPT_STRING(0, "control-tolerance", &a.tolerance, "PCT",
			   "how far a control's 95% CI may reach (2)"),
		OPT_LIST(0, "require-flag", &a.required, "STR",
			 "refuse commands without STR (repeatable)"),
		OPT_LIST(0, "config", &a.config, "K=V",
			 "label the run (repeatable)"),
		OPT_INT(0, "seed", &a.seed, "N",
			"seed of the random order (1)"),
		OPT_BOOL(0, "json", &a.json, "print the result as JSON"),
		OPT_CHOICE(0, "format", &format, cmd_format_names, "FMT",
			   "text (the Markdown table), json or csv"),
		OPT_BOOL(0, "continue", &a.cont,
			 "put back an interrupted A/B and run it again"),
		OPT_BOOL(0, "abort", &a.abort_,
			 "put back an interrupted A/B and forget it"),
		OPT_END(),
	};
	/* journalled before parse_options reorders argv */
	char *args_json = argv_json(argc, argv);
	int k = parse_options(argc, argv, opts, ab_usage), rc;

	memset(&o, 0, sizeof(o));
	memset(&gpu_metric, 0, sizeof(gpu_metric));
	memset(&res, 0, sizeof(res));
	memset(&line, 0, sizeof(line));
	if (k < 0) {
		rc = parse_options_status(k);
		goto out;
	}
	if (k) {
		rc = usage_error(ab_usage, opts, "unexpected argument '%s'",
				 argv[0]);
		goto out;
	}
	if ((rc = cmd_format_resolve(&format, a.json, ab_usage, opts)))
		goto out;
	if (a.cont || a.abort_) {
		rc = a.cont && a.abort_ ? usage_error(ab_usage, opts,
						      "--continue or --abort, "
						      "not both")
		     : a.cont		? continue_cmd(ctx)
					: abort_cmd(ctx);
		goto out;
	}
	if ((rc = ab_opts_from_args(&o, &iter_list, &a, opts)))
		goto out;
	if (ab_metric_parse(&o.metric, a.metric, &ctx->err) < 0 ||
	    check_flags(ctx, &o, &a.required, &a.config, a.gpu_control) < 0 ||
	    (a.gpu_control && add_gpu_control(ctx, &a.controls, &o, &gpu_metric,
					      &cmetrics) < 0)) {
		rc = cmd_fail(ctx);
		goto out;
	}
	o.argv_json = args_json;
	rc = ab_run(&res, ctx, &o,
		    isatty(2) && !options_quiet() ? ab_progress_show : NULL,
		    &line);
	/* the table, or the message after Ctrl-C, on a line of its own */
	ab_progress_end(&line);
	if (rc < 0) {
		rc = cmd_fail(ctx);
		goto out;
	}
	if (isatty(2) && !options_quiet())
		say_kept_space(ctx);
	if (format == CMD_FORMAT_JSON) {
		cmd_print_json(ab_result_json(&res));
	} else if (format == CMD_FORMAT_CSV) {
		ab_render_csv(&table, &res);
		fputs(table.ptr, stdout);
	} else {
		ab_render_painted(&table, &res, color_on(1));
		fputs(table.ptr, stdout);
	}
	rc = res.invalid ? 1 : 0;
out:
	ab_result_release(&res);
	ab_metric_release(&o.metric);
	ab_metric_release(&gpu_metric);
	free(cmetrics);
	buf_release(&table);
	free(iter_list);
	free(args_json);
	ab_args_release(&a);
	return rc;
}

int cmd_ab(int argc, const char **argv, struct ctx *ctx)
{
	/* "" is ab's own form: it runs when no subcommand is named */
	static const struct subcommand subs[] = {
		{"attach", attach_cmd, attach_usage, 0},
		{"", ab_run_cmd, ab_usage, 0},
		{NULL},
	};

	return cmd_subcommand(argc, argv, ctx, subs, ab_usage, NULL);
}
