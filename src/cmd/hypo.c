/* git campaign hypo: hypotheses as numbers, confirmed or falsified by a
 * measurement; and git campaign scratch, the folder for probes. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/abprogress.h"
#include "cmd/cmd.h"
#include "core/ab/ab.h"
#include "core/ab/sched.h"
#include "core/records/ab_run.h"
#include "core/records/hypo.h"
#include "core/stats/stats.h"
#include "util/buf.h"
#include "util/options.h"
#include "util/xalloc.h"

SUB_USAGE(add_usage, "git campaign hypo add TEXT --metric M --predict VALUE "
		     "[--unit U] [--tolerance PCT]");
SUB_USAGE(list_usage, "git campaign hypo list [--json]");
SUB_USAGE(falsify_usage, "git campaign hypo falsify ID --measured VALUE "
			 "[--ab RUN | --commit REV | --note TEXT]");
SUB_USAGE(confirm_usage, "git campaign hypo confirm ID --measured VALUE "
			 "[--ab RUN | --commit REV | --note TEXT]");
SUB_USAGE(next_usage, "git campaign hypo next ID");
SUB_USAGE(test_usage, "git campaign hypo test ID --probe CMD [-n N] "
		      "[--metric SPEC]");

static const char *const scratch_usage[] = {
	"git campaign scratch",
	NULL,
};

/* strict: the whole string, finite; a final '%' allowed when pct */
static int parse_number(double *out, const char *s, int pct)
{
	char *end;

	errno = 0;
	*out = strtod(s, &end);
	if (pct && *end == '%')
		end++;
	return *s && !*end && !errno && isfinite(*out) ? 0 : -1;
}

static int parse_id(long long *out, const char *s)
{
	char *end;

	errno = 0;
	*out = strtoll(s, &end, 10);
	return *s && !*end && !errno && *out > 0 ? 0 : -1;
}

/* "2 µs", "0.5" */
static void value_str(struct buf *out, double v, const char *unit)
{
	buf_addf(out, "%g", v);
	if (unit)
		buf_addf(out, " %s", unit);
}

static int hypo_add_cmd(int argc, const char **argv, struct ctx *ctx)
{
	const char *metric = NULL, *predict = NULL, *unit = NULL;
	const char *tol = NULL;
	double value, tolerance = HYPO_DEFAULT_TOLERANCE;
	long long id;
	const struct option opts[] = {
		OPT_STRING(0, "metric", &metric, "M", "the metric predicted"),
		OPT_STRING(0, "predict", &predict, "VALUE",
			   "the number predicted"),
		OPT_STRING(0, "unit", &unit, "U", "the prediction's unit"),
		OPT_STRING(0, "tolerance", &tol, "PCT",
			   "how far off still confirms (percent, default "
			   "10)"),
		OPT_END(),
	};
	int n = parse_options(argc, argv, opts, add_usage);

	if (n < 0)
		return parse_options_status(n);
	if (n != 1)
		return usage_error(add_usage, opts,
				   n ? "too many arguments"
				     : "TEXT is missing");
	if (!predict)
		return usage_error(add_usage, opts,
				   "a hypothesis without a number is not one: "
				   "--predict VALUE is missing");
	if (!metric)
		return usage_error(add_usage, opts, "--metric M is missing");
	if (parse_number(&value, predict, 0) < 0)
		return usage_error(add_usage, opts, "--predict wants a number");
	if (tol && (parse_number(&tolerance, tol, 1) < 0 || tolerance < 0))
		return usage_error(add_usage, opts,
				   "--tolerance wants a percentage >= 0");
	if (cmd_need_campaign(ctx) < 0 ||
	    hypo_add(&id, ctx, argv[0], metric, value, unit, tolerance) < 0)
		return cmd_fail(ctx);
	cmd_say("hypothesis %lld: %s = %g%s%s (within %g%%)\n", id, metric,
		value, unit ? " " : "", unit ? unit : "", tolerance);
	return 0;
}

static cJSON *hypo_json(const struct hypo *h)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddNumberToObject(o, "id", (double)h->id);
	cJSON_AddStringToObject(o, "text", h->text);
	cJSON_AddStringToObject(o, "metric", h->metric);
	cJSON_AddNumberToObject(o, "predicted", h->predicted);
	if (h->unit)
		cJSON_AddStringToObject(o, "unit", h->unit);
	else
		cJSON_AddNullToObject(o, "unit");
	cJSON_AddNumberToObject(o, "tolerance", h->tolerance);
	cJSON_AddStringToObject(o, "state", h->state);
	if (h->has_measured)
		cJSON_AddNumberToObject(o, "measured", h->measured);
	else
		cJSON_AddNullToObject(o, "measured");
	if (h->evidence)
		cJSON_AddStringToObject(o, "evidence", h->evidence);
	else
		cJSON_AddNullToObject(o, "evidence");
	cJSON_AddBoolToObject(o, "next", h->is_next);
	cJSON_AddStringToObject(o, "created_at", h->created_at);
	if (h->decided_at)
		cJSON_AddStringToObject(o, "decided_at", h->decided_at);
	else
		cJSON_AddNullToObject(o, "decided_at");
	return o;
}

/* "#2 falsified launch_us 2 µs ±10%, measured 4 µs (ab #1): TEXT" */
static void hypo_line(struct buf *out, const struct hypo *h)
{
	buf_addf(out, "#%lld %s%s %s ", h->id, h->state,
		 h->is_next ? " (next)" : "", h->metric);
	value_str(out, h->predicted, h->unit);
	buf_addf(out, " ±%g%%", h->tolerance);
	if (h->has_measured) {
		buf_puts(out, ", measured ");
		value_str(out, h->measured, h->unit);
	}
	if (h->evidence)
		buf_addf(out, " (%s)", h->evidence);
	buf_addf(out, ": %s", h->text);
}

static int hypo_list_cmd(int argc, const char **argv, struct ctx *ctx)
{
	struct buf line = BUF_INIT;
	struct hypo *v;
	size_t n, i;
	int json = 0;
	const struct option opts[] = {
		OPT_BOOL(0, "json", &json, "print JSON"),
		OPT_END(),
	};
	int k = parse_options(argc, argv, opts, list_usage);

	if (k < 0)
		return parse_options_status(k);
	if (k)
		return usage_error(list_usage, opts, "too many arguments");
	if (cmd_need_campaign(ctx) < 0 || hypo_list(&v, &n, ctx) < 0)
		return cmd_fail(ctx);
	if (json) {
		cJSON *arr = cJSON_CreateArray();

		for (i = 0; i < n; i++)
			cJSON_AddItemToArray(arr, hypo_json(&v[i]));
		cmd_print_json(arr);
	}
	for (i = 0; !json && i < n; i++) {
		buf_reset(&line);
		hypo_line(&line, &v[i]);
		printf("%s\n", line.ptr);
	}
	if (!json && !n)
		fprintf(stderr, "no hypotheses\n");
	buf_release(&line);
	hypo_free(v, n);
	return 0;
}

static int decide(int argc, const char **argv, struct ctx *ctx, int confirm)
{
	const char *const *usage = confirm ? confirm_usage : falsify_usage;
	const char *measured = NULL, *ab = NULL, *rev = NULL, *note = NULL;
	struct buf evidence = BUF_INIT;
	char hex[GIT_OID_HEXSZ + 1];
	struct hypo h;
	long long id, run;
	double value;
	git_oid oid;
	int rc = 0;
	const struct option opts[] = {
		OPT_STRING(0, "measured", &measured, "VALUE",
			   "the value measured"),
		OPT_STRING(0, "ab", &ab, "RUN", "the A/B run that measured it"),
		OPT_STRING(0, "commit", &rev, "REV",
			   "the commit whose measurement it is"),
		OPT_STRING(0, "note", &note, "TEXT",
			   "where the number is from"),
		OPT_END(),
	};
	int n = parse_options(argc, argv, opts, usage);

	if (n < 0)
		return parse_options_status(n);
	if (n != 1)
		return usage_error(usage, opts,
				   n ? "too many arguments" : "ID is missing");
	if (parse_id(&id, argv[0]) < 0)
		return usage_error(usage, opts, "ID is a hypothesis number");
	if (!measured || parse_number(&value, measured, 0) < 0)
		return usage_error(usage, opts,
				   "a verdict needs the number: --measured "
				   "VALUE");
	if (!!ab + !!rev + !!note > 1)
		return usage_error(usage, opts,
				   "--ab, --commit and --note: one at most");
	if (ab && parse_id(&run, ab) < 0)
		return usage_error(usage, opts, "--ab wants an A/B run number");
	if (cmd_need_campaign(ctx) < 0)
		return cmd_fail(ctx);
	if (ab) {
		if (ab_run_exists(ctx, run) < 0)
			return cmd_fail(ctx);
		buf_addf(&evidence, "ab #%lld", run);
	} else if (rev) {
		if (cmd_commit_arg(&oid, ctx, rev) < 0)
			return cmd_fail(ctx);
		git_oid_tostr(hex, sizeof(hex), &oid);
		buf_addf(&evidence, "commit %.12s", hex);
	} else if (note) {
		buf_addf(&evidence, "note: %s", note);
	}
	if (hypo_get(&h, ctx, id) < 0)
		return cmd_fail(ctx);
	if (!strcmp(h.state, "open") &&
	    hypo_within(h.predicted, h.tolerance, value) != confirm)
		fprintf(stderr,
			"warning: %g is %s %g%% of the prediction %g; "
			"%s as asked\n",
			value, confirm ? "not within" : "within", h.tolerance,
			h.predicted, confirm ? "confirmed" : "falsified");
	if (hypo_decide(ctx, id, confirm, value,
			evidence.len ? evidence.ptr : NULL) < 0)
		rc = cmd_fail(ctx);
	else
		cmd_say("hypothesis %lld %s: predicted %g, measured %g\n", id,
			confirm ? "confirmed" : "falsified", h.predicted,
			value);
	hypo_release(&h);
	buf_release(&evidence);
	return rc;
}

static int hypo_falsify_cmd(int argc, const char **argv, struct ctx *ctx)
{
	return decide(argc, argv, ctx, 0);
}

static int hypo_confirm_cmd(int argc, const char **argv, struct ctx *ctx)
{
	return decide(argc, argv, ctx, 1);
}

static int hypo_next_cmd(int argc, const char **argv, struct ctx *ctx)
{
	long long id;
	int n = parse_options(argc, argv, NULL, next_usage);

	if (n < 0)
		return parse_options_status(n);
	if (n != 1)
		return usage_error(next_usage, NULL,
				   n ? "too many arguments" : "ID is missing");
	if (parse_id(&id, argv[0]) < 0)
		return usage_error(next_usage, NULL,
				   "ID is a hypothesis number");
	if (cmd_need_campaign(ctx) < 0 || hypo_set_next(ctx, id) < 0)
		return cmd_fail(ctx);
	cmd_say("next: hypothesis %lld\n", id);
	return 0;
}

/* runs the probe in the scratch folder's sight (GIT_CAMPAIGN_SCRATCH),
 * takes the median and decides the hypothesis by its tolerance */
static int hypo_test_cmd(int argc, const char **argv, struct ctx *ctx)
{
	const char *probe = NULL, *spec = "wall";
	struct buf evidence = BUF_INIT;
	struct ab_metric m;
	struct hypo h;
	double *v = NULL, med;
	long runs = 3;
	long long id;
	char *dir = NULL, *scratch = NULL;
	const char *env[] = {NULL, NULL}; /* the probe's GIT_CAMPAIGN_SCRATCH */
	struct ab_progress_line line;
	int rc = 0, ok, probed;
	const struct option opts[] = {
		OPT_STRING(0, "probe", &probe, "CMD", "the standalone probe"),
		OPT_INT('n', NULL, &runs, "N",
			"runs (default 3); the median "
			"counts"),
		OPT_STRING(0, "metric", &spec, "SPEC",
			   "what to read from each run, as for 'ab' "
			   "(default wall)"),
		OPT_END(),
	};
	int n = parse_options(argc, argv, opts, test_usage);

	memset(&h, 0, sizeof(h));
	memset(&line, 0, sizeof(line));
	if (n < 0)
		return parse_options_status(n);
	if (n != 1)
		return usage_error(test_usage, opts,
				   n ? "too many arguments" : "ID is missing");
	if (parse_id(&id, argv[0]) < 0)
		return usage_error(test_usage, opts,
				   "ID is a hypothesis number");
	if (!probe)
		return usage_error(test_usage, opts, "--probe CMD is missing");
	if (runs < 1)
		return usage_error(test_usage, opts,
				   "-n wants a number greater than 0");
	if (ab_metric_parse(&m, spec, &ctx->err) < 0)
		return cmd_fail(ctx);
	if (cmd_need_campaign(ctx) < 0 || hypo_get(&h, ctx, id) < 0)
		goto fail;
	if (strcmp(h.state, "open")) {
		error_set(&ctx->err, GCAMP_EREFUSED,
			  "hypothesis %lld is %s already", id, h.state);
		goto fail;
	}
	/* a number without a unit is as unknown as one in another unit */
	if (h.unit && *h.unit && (!m.unit || !*m.unit)) {
		error_set(&ctx->err, GCAMP_EUSAGE,
			  "the probe's metric has no unit but hypothesis "
			  "%lld predicts '%s'",
			  id, h.unit);
		error_hint(&ctx->err,
			   "read the number in its unit: --metric "
			   "'re:REGEX;unit=%s'",
			   h.unit);
		goto fail;
	}
	if (h.unit && m.unit && *m.unit && strcmp(h.unit, m.unit)) {
		error_set(&ctx->err, GCAMP_EUSAGE,
			  "the probe measures '%s' but hypothesis %lld "
			  "predicts '%s'",
			  m.unit, id, h.unit);
		error_hint(&ctx->err,
			   "read the number in its unit: --metric "
			   "'re:REGEX;unit=%s'",
			   h.unit);
		goto fail;
	}
	if (ctx_scratch_dir(&dir, ctx) < 0)
		goto fail;
	scratch = xasprintf("GIT_CAMPAIGN_SCRATCH=%s", dir);
	env[0] = scratch;
	probed = ab_probe(
		&v, ctx, probe, runs, &m, env,
		isatty(2) && !options_quiet() ? ab_progress_show : NULL, &line);
	/* the verdict, or the message after Ctrl-C, on a line of its own */
	ab_progress_end(&line);
	if (probed < 0)
		goto fail;
	med = stats_median(v, (size_t)runs);
	ok = hypo_within(h.predicted, h.tolerance, med);
	buf_addf(&evidence, "probe: %s (median of %ld, %s)", probe, runs, spec);
	if (hypo_decide(ctx, id, ok, med, evidence.ptr) < 0)
		goto fail;
	printf("hypothesis %lld %s: predicted %g ±%g%%, measured %g (median "
	       "of %ld)\n",
	       id, ok ? "confirmed" : "falsified", h.predicted, h.tolerance,
	       med, runs);
	goto out;
fail:
	rc = cmd_fail(ctx);
out:
	free(v);
	free(scratch);
	free(dir);
	buf_release(&evidence);
	hypo_release(&h);
	ab_metric_release(&m);
	return rc;
}

int cmd_hypo(int argc, const char **argv, struct ctx *ctx)
{
	static const struct subcommand subs[] = {
		{"add", hypo_add_cmd, add_usage, 0},
		{"list", hypo_list_cmd, list_usage, 0},
		{"falsify", hypo_falsify_cmd, falsify_usage, 0},
		{"confirm", hypo_confirm_cmd, confirm_usage, 0},
		{"next", hypo_next_cmd, next_usage, 0},
		{"test", hypo_test_cmd, test_usage, 0},
		{NULL},
	};

	return cmd_subcommand(argc, argv, ctx, subs, NULL, "list");
}

int cmd_scratch(int argc, const char **argv, struct ctx *ctx)
{
	char *dir;
	int n = parse_options(argc, argv, NULL, scratch_usage);

	if (n < 0)
		return parse_options_status(n);
	if (n)
		return usage_error(scratch_usage, NULL, "too many arguments");
	if (cmd_need_campaign(ctx) < 0 || ctx_scratch_dir(&dir, ctx) < 0)
		return cmd_fail(ctx);
	printf("%s\n", dir);
	free(dir);
	return 0;
}
