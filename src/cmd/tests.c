/* git campaign tests: test-suite results per class, commit and machine; the
 * baseline failure counts per machine, and per-class diffs on one machine.
 * Counts of different machines are never added into one number. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "core/campaign/campaign.h"
#include "core/machine/collect.h"
#include "core/machine/fingerprint.h"
#include "core/machine/label.h"
#include "core/measure/convert.h"
#include "core/records/testrun.h"
#include "core/views/testdiff.h"
#include "util/buf.h"
#include "util/csv.h"
#include "util/options.h"

SUB_USAGE(import_usage, "git campaign tests import FILE|DIR "
			"[--format junit|tornado-test] [--commit REV] "
			"[--env ID]");
SUB_USAGE(baseline_usage, "git campaign tests baseline [--env ID] "
			  "[--json | --format FMT]");
SUB_USAGE(diff_usage, "git campaign tests diff REV_A REV_B [--env ID]");

/* --env ID: a machine this repository knows (its fingerprint is in the
 * database or under refs/campaign/env/), so that its results are filed
 * under it and compared only with its own. */
static int known_env(char out[FINGERPRINT_ID_LEN + 1], struct ctx *ctx,
		     const char *id)
{
	cJSON *fp = NULL;
	size_t len = strlen(id);

	if (len != FINGERPRINT_ID_LEN ||
	    strspn(id, "0123456789abcdef") != len) {
		error_set(&ctx->err, GCAMP_EUSAGE,
			  "--env wants an environment id of %d hex digits, "
			  "not '%s'",
			  FINGERPRINT_ID_LEN, id);
		error_hint(&ctx->err, "'git campaign env list' lists them");
		return GCAMP_EUSAGE;
	}
	if (fingerprint_load_json(&fp, ctx, id) < 0) {
		if (ctx->err.code != GCAMP_ENOTFOUND)
			return ctx->err.code;
		error_clear(&ctx->err);
		error_set(&ctx->err, GCAMP_EFATAL, "unknown environment '%s'",
			  id);
		error_hint(&ctx->err,
			   "run 'git campaign env' on that machine and fetch "
			   "its refs/campaign/env/%s",
			   id);
		return GCAMP_EFATAL;
	}
	cJSON_Delete(fp);
	memcpy(out, id, len + 1);
	return 0;
}

/* When path is of no test format, but of a measurement format, the
 * message says which: "'x.json' is hyperfine output, not test results". */
static void name_other_format(struct ctx *ctx, const char *path)
{
	struct import_set other = IMPORT_SET_INIT;
	struct error e = ERROR_INIT;

	if (strncmp(ctx->err.msg, "cannot tell the format", 22))
		return;
	if (import_path(&other, NULL, path, &e) == 0 && other.format) {
		error_clear(&ctx->err);
		error_set(&ctx->err, GCAMP_EFATAL,
			  "'%s' is %s output, not test results", path,
			  other.format);
		error_hint(&ctx->err, "measurements go in with 'git campaign "
				      "measure import'");
	}
	import_set_release(&other);
}

/* What tests import reads; a directory is junit's */
static const char *const test_formats[] = {"junit", "tornado-test", NULL};

static int tests_import_cmd(int argc, const char **argv, struct ctx *ctx)
{
	const char *format = NULL, *rev = NULL, *env_id = NULL;
	struct import_set set = IMPORT_SET_INIT;
	const struct import_format *fmt = NULL;
	char env[FINGERPRINT_ID_LEN + 1], hex[GIT_OID_HEXSZ + 1];
	struct buf label = BUF_INIT;
	size_t n;
	git_oid oid;
	int rc = 0;
	const struct option opts[] = {
		OPT_STRING(0, "format", &format, "FORMAT",
			   "junit or tornado-test (default: detected)"),
		OPT_STRING(0, "commit", &rev, "REV",
			   "the commit tested (default: HEAD)"),
		OPT_STRING(0, "env", &env_id, "ID",
			   "the machine that ran the tests (default: this "
			   "one)"),
		OPT_END(),
	};
	int k = parse_options(argc, argv, opts, import_usage);

	if (k < 0)
		return parse_options_status(k);
	if (k != 1)
		return usage_error(import_usage, opts,
				   k ? "too many arguments"
				     : "FILE|DIR is missing");
	if (format && strcmp(format, "junit") && strcmp(format, "tornado-test"))
		return usage_error(import_usage, opts,
				   "unknown test format '%s' (junit or "
				   "tornado-test)",
				   format);
	if (format)
		fmt = import_format_find(format);
	if (cmd_need_campaign(ctx) < 0 || cmd_commit_arg(&oid, ctx, rev) < 0 ||
	    convert_import_path_among(&set, fmt, test_formats, argv[0],
				      &ctx->err) < 0) {
		if (!fmt)
			name_other_format(ctx, argv[0]);
		goto fail;
	}
	if (strcmp(set.format, "junit") && strcmp(set.format, "tornado-test")) {
		error_set(&ctx->err, GCAMP_EFATAL,
			  "'%s' is %s output, not test results", argv[0],
			  set.format);
		error_hint(&ctx->err, "measurements go in with 'git campaign "
				      "measure import'");
		goto fail;
	}
	git_oid_tostr(hex, sizeof(hex), &oid);
	if (env_id ? known_env(env, ctx, env_id) < 0
		   : fingerprint_current_id(env, ctx, NULL) < 0)
		goto fail;
	if (testrun_store(&n, ctx, &set, hex, env) < 0)
		goto fail;
	machine_label_of_env(&label, ctx, env);
	cmd_say("imported %zu test class%s (%s) for %.12s on %s (env %s)\n", n,
		n == 1 ? "" : "es", set.format, hex, label.ptr, env);
	goto out;
fail:
	rc = cmd_fail(ctx);
out:
	buf_release(&label);
	import_set_release(&set);
	return rc;
}

static long total_of(const struct testrun_total *t)
{
	return t->passed + t->failed + t->skipped + t->unsupported;
}

static void add_counts(cJSON *o, const struct testrun_total *t)
{
	cJSON_AddStringToObject(o, "commit", t->commit);
	cJSON_AddNumberToObject(o, "failed", t->failed);
	cJSON_AddNumberToObject(o, "passed", t->passed);
	cJSON_AddNumberToObject(o, "skipped", t->skipped);
	cJSON_AddNumberToObject(o, "unsupported", t->unsupported);
	cJSON_AddNumberToObject(o, "total", total_of(t));
	cJSON_AddNumberToObject(o, "classes", t->classes);
	cJSON_AddStringToObject(o, "at", t->at);
}

/* "F failed of N" */
static void add_failed_of(struct buf *out, const struct testrun_total *t)
{
	buf_addcount(out, t->failed);
	buf_puts(out, " failed of ");
	buf_addcount(out, total_of(t));
}

/* One machine: the base's result (the baseline), else the latest import
 * said to be one; then the latest import when it is another commit,
 * named with its branch. */
/* The columns of tests baseline --format csv, one row per machine */
static const char *const baseline_csv_head[] = {
	"env",		 "label",	  "commit",	   "branch",
	"on_base",	 "failed",	  "passed",	   "skipped",
	"unsupported",	 "total",	  "classes",	   "at",
	"latest_commit", "latest_branch", "latest_failed", "latest_total"};

static void baseline_csv(struct buf *csv, const struct testrun_total *shown,
			 const struct testrun_total *latest, int on_base,
			 const char *base, const char *label,
			 const char *branch)
{
	csv_field(csv, shown->env);
	csv_field(csv, label);
	csv_field(csv, shown->commit);
	csv_field(csv, on_base ? base : branch);
	csv_field(csv, on_base ? "true" : "false");
	csv_count(csv, shown->failed);
	csv_count(csv, shown->passed);
	csv_count(csv, shown->skipped);
	csv_count(csv, shown->unsupported);
	csv_count(csv, total_of(shown));
	csv_count(csv, shown->classes);
	csv_field(csv, shown->at);
	csv_field(csv, latest->commit);
	csv_field(csv, branch);
	csv_count(csv, latest->failed);
	csv_count(csv, total_of(latest));
	csv_end(csv);
}

static void print_baseline(struct ctx *ctx, const struct testrun_total *shown,
			   const struct testrun_total *latest, int on_base,
			   const char *base, cJSON *arr, struct buf *csv)
{
	struct buf line = BUF_INIT;
	char *branch = NULL;
	int other = strcmp(shown->commit, latest->commit) != 0;

	if (!on_base || other)
		testrun_branch_of(&branch, ctx, latest->commit);
	machine_label_of_env(&line, ctx, shown->env);
	if (csv) {
		baseline_csv(csv, shown, latest, on_base, base, line.ptr,
			     branch);
		goto out;
	}
	if (arr) {
		cJSON *o = cJSON_CreateObject(), *l;

		cJSON_AddStringToObject(o, "env", shown->env);
		cJSON_AddStringToObject(o, "label", line.ptr);
		add_counts(o, shown);
		cJSON_AddStringToObject(o, "base", base);
		cJSON_AddBoolToObject(o, "on_base", on_base);
		l = cJSON_AddObjectToObject(o, "latest");
		add_counts(l, latest);
		if (branch)
			cJSON_AddStringToObject(l, "branch", branch);
		else
			cJSON_AddNullToObject(l, "branch");
		cJSON_AddItemToArray(arr, o);
		goto out;
	}
	buf_puts(&line, ": ");
	add_failed_of(&line, shown);
	if (!on_base)
		buf_addf(&line, " at the latest import, none on %s", base);
	printf("%s\n", line.ptr);
	buf_reset(&line);
	buf_addcount(&line, shown->passed);
	buf_puts(&line, " passed, ");
	buf_addcount(&line, shown->skipped);
	buf_puts(&line, " skipped, ");
	buf_addcount(&line, shown->unsupported);
	printf("    env %s, commit %.12s on %s: %s unsupported, %ld "
	       "class%s\n",
	       shown->env, shown->commit,
	       on_base	? base
	       : branch ? branch
			: "no branch",
	       line.ptr, shown->classes, shown->classes == 1 ? "" : "es");
	if (other) {
		buf_reset(&line);
		add_failed_of(&line, latest);
		printf("    latest import: %s at %.12s on %s\n", line.ptr,
		       latest->commit, branch ? branch : "no branch");
	}
out:
	free(branch);
	buf_release(&line);
}

static int tests_baseline_cmd(int argc, const char **argv, struct ctx *ctx)
{
	const char *env = NULL;
	struct testrun_total *v = NULL, base;
	struct campaign c = {0};
	cJSON *arr = NULL;
	struct buf csv = BUF_INIT;
	size_t n = 0, i;
	int json = 0, format = -1, found, rc = 0;
	const struct option opts[] = {
		OPT_STRING(0, "env", &env, "ID", "one environment only"),
		OPT_BOOL(0, "json", &json, "print JSON"),
		OPT_CHOICE(0, "format", &format, cmd_format_names, "FMT",
			   CMD_FORMAT_HELP),
		OPT_END(),
	};
	int k = parse_options(argc, argv, opts, baseline_usage);

	if (k < 0)
		return parse_options_status(k);
	if (k)
		return usage_error(baseline_usage, opts, "too many arguments");
	if (cmd_format_resolve(&format, json, baseline_usage, opts))
		return 129;
	json = format == CMD_FORMAT_JSON;
	if (cmd_need_campaign(ctx) < 0 || campaign_load(&c, ctx) < 0 ||
	    testrun_baseline(&v, &n, ctx, env, 0) < 0)
		goto fail;
	if (json)
		arr = cJSON_CreateArray();
	if (format == CMD_FORMAT_CSV)
		csv_row(&csv, baseline_csv_head,
			sizeof(baseline_csv_head) / sizeof(*baseline_csv_head));
	for (i = 0; i < n; i++) {
		if (testrun_base_total(&base, &found, ctx, v[i].env, c.base,
				       c.remote) < 0) {
			cJSON_Delete(arr);
			goto fail;
		}
		print_baseline(ctx, found ? &base : &v[i], &v[i], found, c.base,
			       arr, format == CMD_FORMAT_CSV ? &csv : NULL);
		free(base.at);
	}
	if (json)
		cmd_print_json(arr);
	else if (format == CMD_FORMAT_CSV)
		fwrite(csv.ptr, 1, csv.len, stdout);
	else if (!n)
		fprintf(stderr,
			env ? "no test results for env %s\n"
			    : "no test results\n",
			env);
	goto out;
fail:
	rc = cmd_fail(ctx);
out:
	buf_release(&csv);
	campaign_release(&c);
	testrun_totals_free(v, n);
	return rc;
}

static int has(const struct strvec *sv, const char *s)
{
	size_t i;

	for (i = 0; i < sv->nr; i++)
		if (!strcmp(sv->v[i], s))
			return 1;
	return 0;
}

/* the one env both commits were tested on (this machine's when there are
 * several), else a refusal that says why */
static int pick_env(char out[FINGERPRINT_ID_LEN + 1], struct ctx *ctx,
		    const char *want, const char *const rev[2],
		    const struct strvec env[2])
{
	struct strvec common = STRVEC_INIT, keys = STRVEC_INIT;
	cJSON *ja = NULL, *jb = NULL;
	struct buf list = BUF_INIT;
	char here[FINGERPRINT_ID_LEN + 1];
	size_t i;
	int rc = 0;

	for (i = 0; i < 2; i++)
		if (!env[i].nr)
			return error_set(&ctx->err, GCAMP_ENOTFOUND,
					 "no test results for '%s'", rev[i]);
	for (i = 0; i < env[0].nr; i++)
		if (has(&env[1], env[0].v[i]))
			strvec_push(&common, env[0].v[i]);
	if (want && has(&common, want)) {
		snprintf(out, FINGERPRINT_ID_LEN + 1, "%s", want);
	} else if (want) {
		rc = error_set(&ctx->err, GCAMP_ENOTFOUND,
			       "env %s has no test results for both '%s' and "
			       "'%s'",
			       want, rev[0], rev[1]);
	} else if (common.nr == 1) {
		snprintf(out, FINGERPRINT_ID_LEN + 1, "%s", common.v[0]);
	} else if (common.nr > 1 &&
		   fingerprint_current_id(here, ctx, NULL) == 0 &&
		   has(&common, here)) {
		/* tested here too: compare on this machine */
		snprintf(out, FINGERPRINT_ID_LEN + 1, "%s", here);
	} else if (common.nr > 1) {
		error_clear(&ctx->err);
		for (i = 0; i < common.nr; i++)
			buf_addf(&list, "%s%s", i ? ", " : "", common.v[i]);
		rc = error_set(&ctx->err, GCAMP_EUSAGE,
			       "both were tested on several machines: %s",
			       list.ptr);
		error_hint(&ctx->err, "name one with --env ID");
	} else {
		if (fingerprint_load_json(&ja, ctx, env[0].v[0]) == 0 &&
		    fingerprint_load_json(&jb, ctx, env[1].v[0]) == 0)
			fingerprint_diff_keys(&keys, ja, jb);
		error_clear(&ctx->err);
		for (i = 0; i < keys.nr; i++)
			buf_addf(&list, "%s%s", i ? ", " : "", keys.v[i]);
		rc = error_set(&ctx->err, GCAMP_EREFUSED,
			       "'%s' and '%s' were tested on different "
			       "machines (env %s, env %s); their counts do "
			       "not compare",
			       rev[0], rev[1], env[0].v[0], env[1].v[0]);
		if (keys.nr)
			error_hint(&ctx->err, "they differ in %s", list.ptr);
	}
	cJSON_Delete(ja);
	cJSON_Delete(jb);
	buf_release(&list);
	strvec_clear(&keys);
	strvec_clear(&common);
	return rc;
}

static void side(struct buf *out, const struct testrun_class *c)
{
	if (c)
		buf_addf(out, "%ld failed, %ld passed", c->failed, c->passed);
	else
		buf_puts(out, "not run");
}

/* "CLASS: 1 failed, 2 passed -> 0 failed, 3 passed" */
static void diff_line(const char *name, const struct testrun_class *a,
		      const struct testrun_class *b)
{
	struct buf l = BUF_INIT;

	side(&l, a);
	buf_puts(&l, " -> ");
	side(&l, b);
	printf("  %s: %s\n", name, l.ptr);
	buf_release(&l);
}

static void rerun_hint(const struct testrun_class *c, const char *name)
{
	if (c && !strcmp(c->format, "junit"))
		printf("    re-run alone: mvn test -Dtest=%s\n", name);
	else
		printf("    re-run alone: tornado-test -V %s\n", name);
}

static int tests_diff_cmd(int argc, const char **argv, struct ctx *ctx)
{
	const char *want = NULL, *rev[2];
	struct strvec env[2] = {STRVEC_INIT, STRVEC_INIT};
	struct strvec flaky = STRVEC_INIT;
	struct testdiff d = {0};
	char hex[2][GIT_OID_HEXSZ + 1], id[FINGERPRINT_ID_LEN + 1];
	struct buf label = BUF_INIT;
	struct gitcfg *cfg;
	size_t i;
	int rc = 0;
	git_oid oid;
	const struct option opts[] = {
		OPT_STRING(0, "env", &want, "ID", "the machine to compare on"),
		OPT_END(),
	};
	int k = parse_options(argc, argv, opts, diff_usage);

	if (k < 0)
		return parse_options_status(k);
	if (k != 2)
		return usage_error(diff_usage, opts,
				   k > 2 ? "too many arguments"
					 : "REV_A and REV_B are needed");
	rev[0] = argv[0];
	rev[1] = argv[1];
	if (cmd_need_campaign(ctx) < 0 || ctx_config(&cfg, ctx) < 0 ||
	    gitcfg_get_all(&flaky, cfg, "campaign.flaky", &ctx->err) < 0)
		goto fail;
	for (i = 0; i < 2; i++) {
		if (cmd_commit_arg(&oid, ctx, rev[i]) < 0)
			goto fail;
		git_oid_tostr(hex[i], sizeof(hex[i]), &oid);
		if (testrun_envs(&env[i], ctx, hex[i]) < 0)
			goto fail;
	}
	if (pick_env(id, ctx, want, rev, env) < 0 ||
	    testdiff_load(&d, ctx, hex[0], hex[1], id, &flaky) < 0)
		goto fail;
	machine_label_of_env(&label, ctx, id);
	printf("tests %.12s -> %.12s on %s (env %s)\n", hex[0], hex[1],
	       label.ptr, id);
	printf("failed %ld of %ld -> %ld of %ld\n", d.sum[0].failed,
	       d.sum[0].total, d.sum[1].failed, d.sum[1].total);
	/* first the classes that count, then the known-flaky ones apart */
	if (d.nchanged)
		printf("changed:\n");
	else
		printf("no changes outside known-flaky classes\n");
	for (i = 0; i < d.nchanged; i++)
		diff_line(d.changed[i].name, d.changed[i].a, d.changed[i].b);
	if (d.nflaky)
		printf("known flaky (campaign.flaky), not counted as "
		       "changes:\n");
	for (i = 0; i < d.nflaky; i++) {
		const struct testdiff_entry *e = &d.flaky[i];

		diff_line(e->name, e->a, e->b);
		rerun_hint(e->b ? e->b : e->a, e->name);
	}
	rc = d.worse;
	goto out;
fail:
	rc = cmd_fail(ctx);
out:
	buf_release(&label);
	for (i = 0; i < 2; i++)
		strvec_clear(&env[i]);
	testdiff_release(&d);
	strvec_clear(&flaky);
	return rc;
}

int cmd_tests(int argc, const char **argv, struct ctx *ctx)
{
	static const struct subcommand subs[] = {
		{"import", tests_import_cmd, import_usage, 0},
		{"baseline", tests_baseline_cmd, baseline_usage, 0},
		{"diff", tests_diff_cmd, diff_usage, 0},
		{NULL},
	};

	return cmd_subcommand(argc, argv, ctx, subs, NULL, "baseline");
}
