/* git campaign measure: numbers attached to commits (add, import, show, log,
 * compare), kept in refs/notes/campaign and indexed in the database. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "cmd/measure_read.h"
#include "core/campaign/campaign.h"
#include "core/machine/collect.h"
#include "core/machine/fingerprint.h"
#include "core/measure/convert.h"
#include "core/measure/measure.h"
#include "core/stats/stats.h"
#include "import/formats.h"
#include "io/repo.h"
#include "util/buf.h"
#include "util/clock.h"
#include "util/options.h"
#include "util/xalloc.h"

#define ADD_USAGE                                                              \
	"git campaign measure add METRIC VALUE [--unit U] "                    \
	"[--better lower|higher] [--samples V,V,...] [--commit REV] "          \
	"[--config K=V]... [--backend B] [--json]"
#define BATCH_USAGE                                                            \
	"git campaign measure add --batch FILE [--commit REV] "                \
	"[--config K=V]... [--backend B] [--json]"
#define IMPORT_USAGE                                                           \
	"git campaign measure import FILE|DIR|- [--format F] [--commit REV] "  \
	"[--config K=V]... [--backend B] [--json]"

static const char *const add_usage[] = {ADD_USAGE, BATCH_USAGE, NULL};
static const char *const import_usage[] = {IMPORT_USAGE, NULL};

/* Profilers whose numbers are never mixed with unprofiled ones: an
 * import in these formats gets profiler=FORMAT unless told otherwise. */
static const char *const profilers[] = {"ncu", "nsys", "jfr", NULL};

/* strict: the whole string, finite */
static int parse_number(double *out, const char *s)
{
	char *end;

	errno = 0;
	*out = strtod(s, &end);
	return *s && !*end && !errno && isfinite(*out) ? 0 : -1;
}

static int parse_samples(double **out, size_t *n, const char *list,
			 struct error *err)
{
	const char *p = list;
	size_t alloc = 0;

	*out = NULL;
	*n = 0;
	for (;;) {
		size_t len = strcspn(p, ",");
		char *item = xstrndup(p, len);
		double v;

		if (parse_number(&v, item) < 0) {
			error_set(err, GCAMP_EUSAGE,
				  "--samples: '%s' is not a number", item);
			free(item);
			free(*out);
			*out = NULL;
			*n = 0;
			return GCAMP_EUSAGE;
		}
		free(item);
		if (*n == alloc) {
			alloc = alloc ? 2 * alloc : 8;
			*out = xrealloc(*out, alloc * sizeof(**out));
		}
		(*out)[(*n)++] = v;
		if (!p[len])
			return 0;
		p += len + 1;
	}
}

/* What every new record of one invocation shares. */
struct stamp {
	char run[RECORD_RUN_LEN + 1];
	char env[FINGERPRINT_ID_LEN + 1];
	char at[21];
	const struct strvec *config; /* the user's --config */
	const char *source;
	const char *profiler; /* default of config key profiler */
};

static int stamp_init(struct stamp *s, struct ctx *ctx, const char *backend,
		      const struct strvec *config, const char *source)
{
	struct record probe;
	size_t i;
	int rc = 0;

	memset(s, 0, sizeof(*s));
	s->config = config;
	s->source = source;
	s->profiler = "off";
	record_init(&probe);
	for (i = 0; !rc && i < config->nr; i++)
		rc = record_config_parse(&probe, config->v[i], &ctx->err);
	record_release(&probe);
	if (rc < 0)
		return rc;
	clock_now_iso(s->at);
	if ((rc = record_new_run(s->run, &ctx->err)) < 0)
		return rc;
	return fingerprint_current_id(s->env, ctx, backend);
}

static void stamp_apply(struct record *r, const struct stamp *s)
{
	struct error ignored = ERROR_INIT;
	size_t i;

	memcpy(r->run, s->run, sizeof(r->run));
	free(r->env);
	r->env = xstrdup(s->env);
	free(r->at);
	r->at = xstrdup(s->at);
	if (!r->source)
		r->source = xstrdup(s->source);
	/* checked by stamp_init */
	for (i = 0; i < s->config->nr; i++)
		record_config_parse(r, s->config->v[i], &ignored);
	if (!record_config_get(r, "profiler"))
		record_config_put(r, "profiler", s->profiler);
}

static void print_written(const git_oid *commit, size_t n, const char *what,
			  const struct stamp *s, int json)
{
	char hex[GIT_OID_HEXSZ + 1];

	git_oid_tostr(hex, sizeof(hex), commit);
	if (json) {
		cJSON *o = cJSON_CreateObject();

		cJSON_AddStringToObject(o, "commit", hex);
		cJSON_AddStringToObject(o, "run", s->run);
		cJSON_AddStringToObject(o, "env", s->env);
		cJSON_AddNumberToObject(o, "records", (double)n);
		cmd_print_json(o);
		return;
	}
	cmd_say("recorded %zu measurement%s %son %.10s (run %s, env %s)\n", n,
		n == 1 ? "" : "s", what, hex, s->run, s->env);
}

static int write_records(struct ctx *ctx, const char *rev, struct record *recs,
			 size_t n, const struct stamp *s, const char *why,
			 const char *what, int json)
{
	git_oid commit;
	size_t i, written;

	if (cmd_commit_arg(&commit, ctx, rev) < 0)
		return cmd_fail(ctx);
	for (i = 0; i < n; i++)
		stamp_apply(&recs[i], s);
	if (measure_append_counted(ctx, &commit, recs, n, why, &written) < 0)
		return cmd_fail(ctx);
	print_written(&commit, written, what, s, json);
	return 0;
}

/*
 * Rows that name the commit they measured (a perf-history file) go onto
 * that commit, each commit's rows in one notes commit, so that rows of
 * several commits never pool into one median on the commit imported into.
 * Every named commit must be in the repository, or nothing is written;
 * --commit cannot move them. Rows naming no commit go to HEAD.
 */
static int write_routed(struct ctx *ctx, const char *rev, const char *path,
			const struct import_set *set, struct record *recs,
			const struct stamp *s, const char *what, int json)
{
	struct strvec names = STRVEC_INIT, unknown = STRVEC_INIT;
	struct buf list = BUF_INIT;
	struct record *group = NULL;
	git_oid *ids = NULL;
	size_t i, j, n, written;
	int rc = 0;

	for (i = 0; i < set->nr; i++) {
		const char *c =
			set->recs[i].commit ? set->recs[i].commit : "HEAD";

		for (j = 0; j < names.nr && strcmp(names.v[j], c); j++)
			;
		if (j == names.nr)
			strvec_push(&names, c);
	}
	if (rev) {
		rc = error_set(&ctx->err, GCAMP_EUSAGE,
			       "the rows of '%s' name the commits they "
			       "measured: --commit cannot move them",
			       strcmp(path, "-") ? path : "stdin");
		error_hint(&ctx->err, "import without --commit: each row goes "
				      "onto its own commit");
		goto out;
	}
	ids = xcalloc(names.nr, sizeof(*ids));
	for (i = 0; i < names.nr; i++)
		if (cmd_commit_arg(&ids[i], ctx, names.v[i]) < 0) {
			if (ctx->err.code != GCAMP_ENOTFOUND) {
				rc = ctx->err.code;
				goto out;
			}
			error_clear(&ctx->err);
			strvec_push(&unknown, names.v[i]);
		}
	if (unknown.nr) {
		for (i = 0; i < unknown.nr; i++)
			buf_addf(&list, "%s%.8s", i ? ", " : "", unknown.v[i]);
		rc = error_set(&ctx->err, GCAMP_EFATAL,
			       "rows name commit%s not in this repository: %s",
			       unknown.nr == 1 ? "" : "s", list.ptr);
		error_hint(&ctx->err,
			   "import the rows of this repository's commits "
			   "only; nothing was recorded");
		goto out;
	}
	for (i = 0; i < set->nr; i++)
		stamp_apply(&recs[i], s);
	group = xcalloc(set->nr, sizeof(*group));
	for (j = 0; j < names.nr; j++) {
		/* shallow copies: the records stay recs' to release */
		for (i = n = 0; i < set->nr; i++)
			if (!strcmp(set->recs[i].commit ? set->recs[i].commit
							: "HEAD",
				    names.v[j]))
				group[n++] = recs[i];
		if ((rc = measure_append_counted(ctx, &ids[j], group, n,
						 "measure import", &written)) <
		    0)
			goto out;
		print_written(&ids[j], written, what, s, json);
	}
out:
	free(group);
	free(ids);
	buf_release(&list);
	strvec_clear(&unknown);
	strvec_clear(&names);
	return rc < 0 ? cmd_fail(ctx) : 0;
}

static int read_batch(struct record **out, size_t *n, struct ctx *ctx,
		      const char *path)
{
	FILE *fp = strcmp(path, "-") ? fopen(path, "r") : stdin;
	char *line = NULL;
	size_t cap = 0, alloc = 0, lineno = 0;
	ssize_t len;
	int rc = 0;

	*out = NULL;
	*n = 0;
	if (!fp)
		return error_set(&ctx->err, GCAMP_EFATAL,
				 "cannot open '%s': %s", path, strerror(errno));
	while ((len = getline(&line, &cap, fp)) >= 0) {
		struct error e = ERROR_INIT;

		lineno++;
		while (len && strchr("\r\n \t", line[len - 1]))
			line[--len] = '\0';
		if (!len)
			continue;
		if (*n == alloc) {
			alloc = alloc ? 2 * alloc : 64;
			*out = xrealloc(*out, alloc * sizeof(**out));
		}
		record_init(&(*out)[*n]);
		if (record_decode_partial(&(*out)[*n], line, (size_t)len, &e) <
		    0) {
			rc = error_set(&ctx->err, GCAMP_EFATAL, "%s:%zu: %s",
				       strcmp(path, "-") ? path : "stdin",
				       lineno, e.msg);
			break;
		}
		(*n)++;
	}
	if (!rc && ferror(fp))
		rc = error_set(&ctx->err, GCAMP_EFATAL, "cannot read '%s': %s",
			       path, strerror(errno));
	if (!rc && !*n)
		rc = error_set(&ctx->err, GCAMP_EFATAL,
			       "no measurements in '%s'", path);
	free(line);
	if (fp != stdin)
		fclose(fp);
	return rc;
}

static int cmd_measure_add(int argc, const char **argv, struct ctx *ctx)
{
	const char *unit = NULL, *better = NULL, *rev = NULL, *samples = NULL,
		   *backend = NULL, *batch = NULL;
	struct strvec config = STRVEC_INIT;
	struct record *recs = NULL;
	struct stamp s;
	size_t n = 0, i;
	int json = 0, status = 0;
	const struct option opts[] = {
		OPT_STRING(0, "unit", &unit, "U", "the unit of VALUE"),
		OPT_STRING(0, "better", &better, "lower|higher",
			   "which way is an improvement"),
		OPT_STRING(0, "samples", &samples, "V,V,...",
			   "the samples behind VALUE ('-': their median)"),
		OPT_STRING(0, "commit", &rev, "REV",
			   "attach to REV (default HEAD)"),
		OPT_LIST(0, "config", &config, "K=V",
			 "what was measured; repeatable"),
		OPT_STRING(0, "backend", &backend, "B",
			   "the backend of the environment"),
		OPT_STRING(0, "batch", &batch, "FILE",
			   "add every JSON line of FILE in one notes commit"),
		OPT_BOOL(0, "json", &json, "print what was written as JSON"),
		OPT_END(),
	};
	int argn = parse_options(argc, argv, opts, add_usage);

	if (argn < 0)
		return parse_options_status(argn);
	if (batch ? argn != 0 : argn != 2) {
		status = usage_error(add_usage, opts,
				     "wrong number of arguments");
		goto out;
	}
	if (batch && (unit || better || samples)) {
		status = usage_error(add_usage, opts,
				     "--batch takes units and samples from "
				     "its lines");
		goto out;
	}
	if (better && strcmp(better, "lower") && strcmp(better, "higher")) {
		status = usage_error(add_usage, opts,
				     "--better is 'lower' or 'higher', not "
				     "'%s'",
				     better);
		goto out;
	}
	if (cmd_need_campaign(ctx) < 0 ||
	    stamp_init(&s, ctx, backend, &config, batch ? "batch" : "add") < 0)
		goto fail;
	if (batch) {
		if (read_batch(&recs, &n, ctx, batch) < 0)
			goto fail;
		status = write_records(ctx, rev, recs, n, &s,
				       "measure add --batch", "", json);
		goto out;
	}
	recs = xcalloc(1, sizeof(*recs));
	n = 1;
	record_init(recs);
	recs->metric = xstrdup(argv[0]);
	recs->unit = unit ? xstrdup(unit) : NULL;
	recs->better = better ? xstrdup(better) : NULL;
	if (samples && parse_samples(&recs->samples, &recs->nsamples, samples,
				     &ctx->err) < 0)
		goto fail;
	if (!strcmp(argv[1], "-")) {
		if (!samples) {
			status = usage_error(add_usage, opts,
					     "VALUE '-' needs --samples");
			goto out;
		}
		recs->value = stats_median(recs->samples, recs->nsamples);
		recs->stat = xstrdup("median");
	} else if (parse_number(&recs->value, argv[1]) < 0) {
		status = usage_error(add_usage, opts,
				     "VALUE '%s' is not a number", argv[1]);
		goto out;
	} else {
		recs->stat = xstrdup("value");
	}
	recs->n = samples ? (long)recs->nsamples : 1;
	status = write_records(ctx, rev, recs, n, &s, "measure add", "", json);
	goto out;
fail:
	status = cmd_fail(ctx);
out:
	for (i = 0; i < n; i++)
		record_release(&recs[i]);
	free(recs);
	strvec_clear(&config);
	return status;
}

static void print_formats(void)
{
	const struct import_format *f;

	fprintf(stderr, "formats:");
	for (f = import_formats; f->name; f++)
		fprintf(stderr, " %s", f->name);
	fprintf(stderr, "%s\n", import_formats[0].name ? "" : " (none)");
}

static int cmd_measure_import(int argc, const char **argv, struct ctx *ctx)
{
	const char *rev = NULL, *format = NULL, *backend = NULL;
	const struct import_format *fmt = NULL;
	struct import_set set = IMPORT_SET_INIT;
	struct strvec config = STRVEC_INIT;
	struct convert_raw raw = {0};
	struct record *recs = NULL;
	char *scratch = NULL;
	struct stamp s;
	size_t i, n = 0;
	int json = 0, status = 0;
	const struct option opts[] = {
		OPT_STRING(0, "format", &format, "F",
			   "the input's format (default: detected)"),
		OPT_STRING(0, "commit", &rev, "REV",
			   "attach to REV (default HEAD)"),
		OPT_LIST(0, "config", &config, "K=V",
			 "added to every record; repeatable"),
		OPT_STRING(0, "backend", &backend, "B",
			   "the backend of the environment"),
		OPT_BOOL(0, "json", &json, "print what was written as JSON"),
		OPT_END(),
	};
	int argn = parse_options(argc, argv, opts, import_usage);

	if (argn < 0)
		return parse_options_status(argn);
	if (argn != 1) {
		status = usage_error(import_usage, opts,
				     "wrong number of arguments");
		goto out;
	}
	if (format && !(fmt = import_format_find(format))) {
		status = usage_error(import_usage, opts, "unknown format '%s'",
				     format);
		print_formats();
		goto out;
	}
	if (cmd_need_campaign(ctx) < 0 || ctx_scratch_dir(&scratch, ctx) < 0 ||
	    convert_import_summarised(&set, fmt, argv[0], scratch, &raw,
				      &ctx->err) < 0)
		goto fail;
	if (!set.nr) {
		error_set(&ctx->err, GCAMP_EFATAL, "no measurements in '%s'",
			  strcmp(argv[0], "-") ? argv[0] : "stdin");
		goto fail;
	}
	if (stamp_init(&s, ctx, backend, &config, set.format) < 0)
		goto fail;
	for (i = 0; profilers[i]; i++)
		if (!strcmp(profilers[i], set.format))
			s.profiler = profilers[i];
	recs = xcalloc(set.nr, sizeof(*recs));
	for (n = 0; n < set.nr; n++) {
		measure_record_from_import(&recs[n], &set.recs[n], set.format);
		/* a summary names the input it summarises */
		if (set.recs[n].count && raw.path) {
			recs[n].raw_path = xstrdup(raw.path);
			recs[n].raw_sha256 = xstrdup(raw.sha256);
		}
	}
	{
		char what[64];

		snprintf(what, sizeof(what), "from %s ", set.format);
		for (i = 0; i < set.nr && !set.recs[i].commit; i++)
			;
		if (i < set.nr) {
			status = write_routed(ctx, rev, argv[0], &set, recs, &s,
					      what, json);
			goto out;
		}
		/* the records are copied: what the importer made is not
		 * held while they are written */
		import_set_release(&set);
		status = write_records(ctx, rev, recs, n, &s, "measure import",
				       what, json);
	}
	goto out;
fail:
	status = cmd_fail(ctx);
out:
	for (i = 0; i < n; i++)
		record_release(&recs[i]);
	free(recs);
	import_set_release(&set);
	convert_raw_release(&raw);
	free(scratch);
	strvec_clear(&config);
	return status;
}

int cmd_measure(int argc, const char **argv, struct ctx *ctx)
{
	/* add and import change what the umbrella shows */
	static const struct subcommand subs[] = {
		{"add", cmd_measure_add, add_usage, CMD_UMBRELLA_AUTO},
		{"import", cmd_measure_import, import_usage, CMD_UMBRELLA_AUTO},
		{"show", cmd_measure_show, measure_show_usage, 0},
		{"log", cmd_measure_log, measure_log_usage, 0},
		{"compare", cmd_measure_compare, measure_compare_usage, 0},
		{NULL},
	};

	return cmd_subcommand(argc, argv, ctx, subs, NULL, NULL);
}
