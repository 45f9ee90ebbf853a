/* git campaign measure show, log and compare: reading measurements, with
 * every line marked when numbers of different environments or configs are
 * shown together. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "cmd/measure_read.h"
#include "core/machine/collect.h"
#include "core/machine/fingerprint.h"
#include "core/measure/measure.h"
#include "core/measure/query.h"
#include "util/buf.h"
#include "util/color.h"
#include "util/csv.h"
#include "util/options.h"
#include "util/xalloc.h"

const char *const measure_show_usage[] = {
	"git campaign measure show [REV] [--json | --format FMT]",
	NULL,
};
const char *const measure_log_usage[] = {
	"git campaign measure log METRIC [RANGE] [--config K=V]... "
	"[--cross-env] [--cross-config] [--backend B] "
	"[--json | --format FMT]",
	NULL,
};
const char *const measure_compare_usage[] = {
	"git campaign measure compare REV_A REV_B [METRIC...] "
	"[--config K=V]... [--cross-env] [--cross-config] "
	"[--json | --format FMT]",
	NULL,
};

/* "k=v,k=v" of a canonical config JSON ("-" when empty, "*" stays) */
static void config_text(struct buf *out, const char *json)
{
	cJSON *j, *e;
	int first = 1;

	if (!strcmp(json, "*")) {
		buf_puts(out, "*");
		return;
	}
	j = cJSON_Parse(json);
	cJSON_ArrayForEach(e, j) {
		buf_addf(out, "%s%s=%s", first ? "" : ",", e->string,
			 cJSON_IsString(e) ? e->valuestring : "?");
		first = 0;
	}
	if (first)
		buf_puts(out, "-");
	cJSON_Delete(j);
}

/* "[cross env=e3b0c442 profiler=off] " when crossing, else "" */
static void cross_mark(struct buf *out, int cross_env, int cross_config,
		       const char *env, const char *config)
{
	if (!cross_env && !cross_config)
		return;
	buf_addf(out, "[cross env=%.8s ", env);
	config_text(out, config);
	buf_puts(out, "] ");
}

static void value_text(struct buf *out, double v, const char *unit)
{
	buf_addf(out, "%.6g%s%s", v, unit ? " " : "", unit ? unit : "");
}

static cJSON *config_json(const char *json)
{
	cJSON *j = strcmp(json, "*") ? cJSON_Parse(json) : NULL;

	return j ? j : cJSON_CreateString(json);
}

static void csv_config_head(struct buf *out, const struct strvec *keys);

/* The config keys of the records' configs, sorted, for csv columns */
static void record_config_keys(struct strvec *keys, const struct record *recs,
			       size_t n)
{
	size_t i, k, j;

	for (i = 0; i < n; i++)
		for (k = 0; k < recs[i].config.nr; k++) {
			const char *kv = recs[i].config.v[k];
			size_t klen = strcspn(kv, "=");

			for (j = 0; j < keys->nr; j++)
				if (strlen(keys->v[j]) == klen &&
				    !strncmp(keys->v[j], kv, klen))
					break;
			if (j == keys->nr)
				strvec_pushf(keys, "%.*s", (int)klen, kv);
		}
	strvec_sort(keys);
}

/* A row per sample (one, with the sample empty, for a record without
 * samples), as hyperfine's --export-csv gives a row per run: the record's
 * fields beside it, a config.KEY column per key. */
static void print_show_csv(const char *commit, const struct record *recs,
			   size_t n)
{
	static const char *const head[] = {
		"commit", "metric", "unit",  "value",  "stat",
		"n",	  "sample", "index", "arm",    "ctl",
		"iters",  "env",    "run",   "source", "at"};
	struct strvec keys = STRVEC_INIT;
	struct buf out = BUF_INIT;
	size_t i, k, j;

	record_config_keys(&keys, recs, n);
	for (i = 0; i < sizeof(head) / sizeof(*head); i++)
		csv_field(&out, head[i]);
	csv_config_head(&out, &keys);
	csv_end(&out);
	for (i = 0; i < n; i++) {
		const struct record *r = &recs[i];

		for (k = 0; k < (r->nsamples ? r->nsamples : 1); k++) {
			csv_field(&out, commit);
			csv_field(&out, r->metric);
			csv_field(&out, r->unit);
			csv_number(&out, r->value);
			csv_field(&out, r->stat);
			csv_count(&out, r->n ? r->n : 1);
			csv_number(&out, r->nsamples ? r->samples[k] : NAN);
			if (r->nsamples)
				csv_count(&out, (long long)k);
			else
				csv_field(&out, NULL);
			csv_field(&out, r->arm);
			csv_field(&out, r->ctl < 0 ? NULL
					: r->ctl   ? "true"
						   : "false");
			if (r->iters >= 0)
				csv_count(&out, r->iters);
			else
				csv_field(&out, NULL);
			csv_field(&out, r->env);
			csv_field(&out, r->run);
			csv_field(&out, r->source);
			csv_field(&out, r->at);
			for (j = 0; j < keys.nr; j++) {
				const char *v = NULL;
				size_t c, len = strlen(keys.v[j]);

				for (c = 0; c < r->config.nr; c++)
					if (!strncmp(r->config.v[c], keys.v[j],
						     len) &&
					    r->config.v[c][len] == '=')
						v = r->config.v[c] + len + 1;
				csv_field(&out, v);
			}
			csv_end(&out);
		}
	}
	fwrite(out.ptr, 1, out.len, stdout);
	buf_release(&out);
	strvec_clear(&keys);
}

int cmd_measure_show(int argc, const char **argv, struct ctx *ctx)
{
	struct record *recs = NULL;
	size_t n = 0, bad = 0, i;
	struct buf line = BUF_INIT;
	char hex[GIT_OID_HEXSZ + 1];
	git_oid commit;
	int json = 0, format = -1, status = 0;
	const struct option opts[] = {
		OPT_BOOL(0, "json", &json, "print the records as JSON"),
		OPT_CHOICE(0, "format", &format, cmd_format_names, "FMT",
			   "text, json or csv (a row per sample)"),
		OPT_END(),
	};
	int argn = parse_options(argc, argv, opts, measure_show_usage);

	if (argn < 0)
		return parse_options_status(argn);
	if (argn > 1)
		return usage_error(measure_show_usage, opts,
				   "wrong number of arguments");
	if (cmd_format_resolve(&format, json, measure_show_usage, opts))
		return 129;
	if (cmd_need_campaign(ctx) < 0 ||
	    cmd_commit_arg(&commit, ctx, argn ? argv[0] : NULL) < 0 ||
	    measure_read_note(&recs, &n, &bad, ctx, &commit) < 0)
		return cmd_fail(ctx);
	git_oid_tostr(hex, sizeof(hex), &commit);
	if (format == CMD_FORMAT_JSON) {
		cJSON *o = cJSON_CreateObject(), *a = cJSON_CreateArray();

		cJSON_AddStringToObject(o, "commit", hex);
		for (i = 0; i < n; i++)
			cJSON_AddItemToArray(a, record_to_json(&recs[i]));
		cJSON_AddItemToObject(o, "records", a);
		cJSON_AddNumberToObject(o, "unreadable", (double)bad);
		cmd_print_json(o);
	} else if (format == CMD_FORMAT_CSV) {
		print_show_csv(hex, recs, n);
	}
	for (i = 0; format == CMD_FORMAT_TEXT && i < n; i++) {
		const struct record *r = &recs[i];
		struct buf cfg = BUF_INIT;

		buf_reset(&line);
		record_config_json(&cfg, r);
		buf_addf(&line, "%-24s ", r->metric);
		value_text(&line, r->value, r->unit);
		buf_addf(&line, "  n=%ld  ", r->n ? r->n : 1);
		config_text(&line, cfg.ptr);
		buf_addf(&line, "  env=%s run=%s %s %s", r->env, r->run,
			 r->source ? r->source : "-", r->at);
		if (r->vouch)
			buf_addf(&line, " controls=%s", r->vouch);
		puts(line.ptr);
		buf_release(&cfg);
	}
	if (bad)
		fprintf(stderr,
			"warning: %zu line%s of the note on %.10s %s not "
			"measurement records\n",
			bad, bad == 1 ? "" : "s", hex, bad == 1 ? "is" : "are");
	if (!n) {
		if (format == CMD_FORMAT_TEXT)
			fprintf(stderr, "error: no measurements on '%s'\n",
				argn ? argv[0] : "HEAD");
		status = 1;
	}
	measure_records_free(recs, n);
	buf_release(&line);
	return status;
}

/* ▁▂▃▄▅▆▇█ over the last 60 points of group g, oldest first */
static void sparkline(struct buf *out, const struct measure_series *s, size_t g)
{
	static const char *const bars[] = {"▁", "▂", "▃", "▄",
					   "▅", "▆", "▇", "█"};
	double lo = INFINITY, hi = -INFINITY, *v = NULL;
	size_t i, n = 0, alloc = 0, from;

	for (i = s->npts; i-- > 0;) {
		if (s->pts[i].group != g)
			continue;
		if (n == alloc) {
			alloc = alloc ? 2 * alloc : 64;
			v = xrealloc(v, alloc * sizeof(*v));
		}
		v[n++] = s->pts[i].value;
	}
	from = n > 60 ? n - 60 : 0;
	for (i = from; i < n; i++) {
		lo = v[i] < lo ? v[i] : lo;
		hi = v[i] > hi ? v[i] : hi;
	}
	for (i = from; i < n; i++) {
		int k = hi > lo ? (int)((v[i] - lo) / (hi - lo) * 7 + 0.5) : 3;

		buf_puts(out, bars[k]);
	}
	free(v);
}

static void print_log_text(struct ctx *ctx, const struct measure_series *s,
			   const struct measure_log_opts *o, int cross_env)
{
	struct buf line = BUF_INIT, *marks;
	git_repository *repo = NULL;
	size_t i, g;

	ctx_repo(&repo, ctx, 0);
	marks = xcalloc(s->ngroups, sizeof(*marks));
	for (g = 0; g < s->ngroups; g++) {
		buf_init(&marks[g]);
		cross_mark(&marks[g], cross_env, o->cross_config,
			   s->groups[g].env, s->groups[g].config);
	}
	for (g = 0; cmd_stdout_is_terminal() && g < s->ngroups; g++) {
		buf_reset(&line);
		buf_addf(&line, "%s%s", marks[g].ptr, o->metric);
		if (s->unit)
			buf_addf(&line, " (%s)", s->unit);
		buf_puts(&line, "  ");
		sparkline(&line, s, g);
		puts(line.ptr);
	}
	for (i = 0; i < s->npts; i++) {
		const struct measure_point *p = &s->pts[i];
		git_commit *c = NULL;
		char hex[GIT_OID_HEXSZ + 1];

		git_oid_tostr(hex, sizeof(hex), &p->commit);
		buf_reset(&line);
		buf_addf(&line, "%s%.10s  ", marks[p->group].ptr, hex);
		value_text(&line, p->value, s->unit);
		if (p->nrec > 1)
			buf_addf(&line, " (median of %zu)", p->nrec);
		if (repo && !git_commit_lookup(&c, repo, &p->commit))
			buf_addf(&line, "  %s", git_commit_summary(c));
		git_commit_free(c);
		puts(line.ptr);
	}
	for (g = 0; g < s->ngroups; g++)
		buf_release(&marks[g]);
	free(marks);
	buf_release(&line);
}

static void print_log_json(const struct measure_series *s,
			   const struct measure_log_opts *o, int cross_env)
{
	cJSON *j = cJSON_CreateObject(), *pts = cJSON_CreateArray();
	size_t i;

	cJSON_AddStringToObject(j, "metric", o->metric);
	if (s->unit)
		cJSON_AddStringToObject(j, "unit", s->unit);
	else
		cJSON_AddNullToObject(j, "unit");
	if (s->better)
		cJSON_AddStringToObject(j, "better", s->better);
	else
		cJSON_AddNullToObject(j, "better");
	cJSON_AddBoolToObject(j, "cross_env", cross_env);
	cJSON_AddBoolToObject(j, "cross_config", o->cross_config);
	for (i = 0; i < s->npts; i++) {
		const struct measure_point *p = &s->pts[i];
		cJSON *e = cJSON_CreateObject();
		char hex[GIT_OID_HEXSZ + 1];

		git_oid_tostr(hex, sizeof(hex), &p->commit);
		cJSON_AddStringToObject(e, "commit", hex);
		cJSON_AddNumberToObject(e, "value", p->value);
		cJSON_AddNumberToObject(e, "records", (double)p->nrec);
		cJSON_AddStringToObject(e, "env", s->groups[p->group].env);
		cJSON_AddItemToObject(e, "config",
				      config_json(s->groups[p->group].config));
		cJSON_AddItemToArray(pts, e);
	}
	cJSON_AddItemToObject(j, "points", pts);
	cmd_print_json(j);
}

/* The keys of config (a canonical config JSON) that keys lacks, added:
 * the config.KEY columns of the CSV exports, a column per key. */
static void csv_config_keys(struct strvec *keys, const char *config)
{
	cJSON *j = cJSON_Parse(config), *e;
	const cJSON *obj = cJSON_IsObject(j) ? j : NULL;
	size_t i;

	cJSON_ArrayForEach(e, obj) {
		for (i = 0; i < keys->nr && strcmp(keys->v[i], e->string); i++)
			;
		if (i == keys->nr)
			strvec_push(keys, e->string);
	}
	cJSON_Delete(j);
}

static void csv_config_head(struct buf *out, const struct strvec *keys)
{
	struct buf name = BUF_INIT;
	size_t i;

	for (i = 0; i < keys->nr; i++) {
		buf_reset(&name);
		buf_addf(&name, "config.%s", keys->v[i]);
		csv_field(out, name.ptr);
	}
	buf_release(&name);
}

/* config's value of each key, empty where it has none */
static void csv_config_cells(struct buf *out, const struct strvec *keys,
			     const char *config)
{
	cJSON *j = cJSON_Parse(config), *e;
	size_t i;

	for (i = 0; i < keys->nr; i++) {
		e = cJSON_IsObject(j)
			    ? cJSON_GetObjectItemCaseSensitive(j, keys->v[i])
			    : NULL;
		if (cJSON_IsString(e))
			csv_field(out, e->valuestring);
		else if (cJSON_IsNumber(e))
			csv_number(out, e->valuedouble);
		else if (cJSON_IsBool(e))
			csv_field(out, cJSON_IsTrue(e) ? "true" : "false");
		else
			csv_field(out, NULL);
	}
	cJSON_Delete(j);
}

/* One row per point: what the JSON says, with the commit's subject */
static void print_log_csv(struct ctx *ctx, const struct measure_series *s,
			  const struct measure_log_opts *o)
{
	static const char *const head[] = {"commit", "subject", "metric",
					   "unit",   "value",	"records",
					   "env"};
	struct strvec keys = STRVEC_INIT;
	struct buf out = BUF_INIT;
	git_repository *repo = NULL;
	size_t i;

	ctx_repo(&repo, ctx, 0);
	error_clear(&ctx->err);
	for (i = 0; i < s->ngroups; i++)
		csv_config_keys(&keys, s->groups[i].config);
	strvec_sort(&keys);
	for (i = 0; i < sizeof(head) / sizeof(*head); i++)
		csv_field(&out, head[i]);
	csv_config_head(&out, &keys);
	csv_end(&out);
	for (i = 0; i < s->npts; i++) {
		const struct measure_point *p = &s->pts[i];
		git_commit *c = NULL;
		char hex[GIT_OID_HEXSZ + 1];

		git_oid_tostr(hex, sizeof(hex), &p->commit);
		csv_field(&out, hex);
		csv_field(&out, repo && !git_commit_lookup(&c, repo, &p->commit)
					? git_commit_summary(c)
					: NULL);
		git_commit_free(c);
		csv_field(&out, o->metric);
		csv_field(&out, s->unit);
		csv_number(&out, p->value);
		csv_count(&out, (long long)p->nrec);
		csv_field(&out, s->groups[p->group].env);
		csv_config_cells(&out, &keys, s->groups[p->group].config);
		csv_end(&out);
	}
	fwrite(out.ptr, 1, out.len, stdout);
	buf_release(&out);
	strvec_clear(&keys);
}

/* This machine's env id, without storing the fingerprint: reading writes
 * nothing it need not (the index aside). */
static int current_env(char out[FINGERPRINT_ID_LEN + 1], cJSON **json,
		       struct ctx *ctx, const char *backend)
{
	struct fingerprint_opts fo = {backend, 0};
	struct fingerprint fp;
	int rc;

	memset(&fp, 0, sizeof(fp));
	if ((rc = fingerprint_collect(&fp, ctx, &fo)) == 0) {
		memcpy(out, fp.id, FINGERPRINT_ID_LEN + 1);
		*json = fingerprint_to_json(&fp);
	}
	fingerprint_release(&fp);
	return rc;
}

int cmd_measure_log(int argc, const char **argv, struct ctx *ctx)
{
	struct strvec config = STRVEC_INIT;
	struct measure_series s;
	struct measure_log_opts o;
	const char *backend = NULL;
	char env[FINGERPRINT_ID_LEN + 1];
	cJSON *env_json = NULL;
	int json = 0, format = -1, cross_env = 0, cross_config = 0, status = 0;
	const struct option opts[] = {
		OPT_LIST(0, "config", &config, "K=V",
			 "only records with this config; repeatable"),
		OPT_BOOL(0, "cross-env", &cross_env,
			 "show every machine's numbers (lines marked)"),
		OPT_BOOL(0, "cross-config", &cross_config,
			 "show every config's numbers (lines marked)"),
		OPT_STRING(0, "backend", &backend, "B",
			   "the backend of this machine's environment"),
		OPT_BOOL(0, "json", &json, "print the series as JSON"),
		OPT_CHOICE(0, "format", &format, cmd_format_names, "FMT",
			   CMD_FORMAT_HELP),
		OPT_END(),
	};
	int argn = parse_options(argc, argv, opts, measure_log_usage);

	memset(&s, 0, sizeof(s));
	if (argn < 0)
		return parse_options_status(argn);
	if (cmd_format_resolve(&format, json, measure_log_usage, opts)) {
		status = 129;
		goto out;
	}
	if (argn < 1 || argn > 2) {
		status = usage_error(measure_log_usage, opts,
				     "wrong number of arguments");
		goto out;
	}
	memset(&o, 0, sizeof(o));
	o.metric = argv[0];
	o.range = argn > 1 ? argv[1] : NULL;
	o.config = &config;
	o.cross_config = cross_config;
	if (cmd_need_campaign(ctx) < 0 ||
	    (!cross_env && current_env(env, &env_json, ctx, backend) < 0))
		goto fail;
	o.env = cross_env ? NULL : env;
	o.env_json = env_json;
	if (measure_log(&s, ctx, &o) < 0)
		goto fail;
	if (format == CMD_FORMAT_JSON)
		print_log_json(&s, &o, cross_env);
	else if (format == CMD_FORMAT_CSV)
		print_log_csv(ctx, &s, &o);
	else
		print_log_text(ctx, &s, &o, cross_env);
	goto out;
fail:
	status = cmd_fail(ctx);
out:
	cJSON_Delete(env_json);
	measure_series_release(&s);
	strvec_clear(&config);
	return status;
}

static cJSON *arm_json(double median, size_t n)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddNumberToObject(o, "median", median);
	cJSON_AddNumberToObject(o, "n", (double)n);
	return o;
}

static void print_compare_json(const struct measure_cmp *rows, size_t n,
			       const struct measure_compare_opts *o)
{
	cJSON *j = cJSON_CreateObject(), *a = cJSON_CreateArray();
	char hex[GIT_OID_HEXSZ + 1];
	size_t i;

	git_oid_tostr(hex, sizeof(hex), &o->a);
	cJSON_AddStringToObject(j, "a", hex);
	git_oid_tostr(hex, sizeof(hex), &o->b);
	cJSON_AddStringToObject(j, "b", hex);
	cJSON_AddBoolToObject(j, "cross_env", o->cross_env);
	cJSON_AddBoolToObject(j, "cross_config", o->cross_config);
	for (i = 0; i < n; i++) {
		const struct measure_cmp *c = &rows[i];
		cJSON *e = cJSON_CreateObject();

		cJSON_AddStringToObject(e, "metric", c->metric);
		if (c->unit)
			cJSON_AddStringToObject(e, "unit", c->unit);
		else
			cJSON_AddNullToObject(e, "unit");
		cJSON_AddStringToObject(e, "env", c->env);
		cJSON_AddItemToObject(e, "config", config_json(c->config));
		cJSON_AddItemToObject(e, "a", arm_json(c->st.median_a, c->na));
		cJSON_AddItemToObject(e, "b", arm_json(c->st.median_b, c->nb));
		cJSON_AddNumberToObject(e, "ratio", c->st.ratio);
		cJSON_AddNumberToObject(e, "p", c->st.p);
		if (isnan(c->st.ci_lo) || isnan(c->st.ci_hi)) {
			cJSON_AddNullToObject(e, "ci");
		} else {
			double ci[2] = {c->st.ci_lo, c->st.ci_hi};

			cJSON_AddItemToObject(e, "ci",
					      cJSON_CreateDoubleArray(ci, 2));
		}
		cJSON_AddBoolToObject(e, "significant", c->st.significant);
		cJSON_AddItemToArray(a, e);
	}
	cJSON_AddItemToObject(j, "rows", a);
	cmd_print_json(j);
}

static void print_compare_csv(const struct measure_cmp *rows, size_t n)
{
	static const char *const head[] = {
		"metric", "unit",  "env",    "a_median", "a_n", "b_median",
		"b_n",	  "ratio", "ci_low", "ci_high",	 "p",	"significant"};
	struct strvec keys = STRVEC_INIT;
	struct buf out = BUF_INIT;
	size_t i;

	for (i = 0; i < n; i++)
		csv_config_keys(&keys, rows[i].config);
	strvec_sort(&keys);
	for (i = 0; i < 3; i++)
		csv_field(&out, head[i]);
	csv_config_head(&out, &keys);
	for (; i < sizeof(head) / sizeof(*head); i++)
		csv_field(&out, head[i]);
	csv_end(&out);
	for (i = 0; i < n; i++) {
		const struct measure_cmp *c = &rows[i];

		csv_field(&out, c->metric);
		csv_field(&out, c->unit);
		csv_field(&out, c->env);
		csv_config_cells(&out, &keys, c->config);
		csv_number(&out, c->st.median_a);
		csv_count(&out, (long long)c->na);
		csv_number(&out, c->st.median_b);
		csv_count(&out, (long long)c->nb);
		csv_number(&out, c->st.ratio);
		csv_number(&out, c->st.ci_lo);
		csv_number(&out, c->st.ci_hi);
		csv_number(&out, c->st.p);
		csv_field(&out, c->st.significant ? "true" : "false");
		csv_end(&out);
	}
	fwrite(out.ptr, 1, out.len, stdout);
	buf_release(&out);
	strvec_clear(&keys);
}

/* A significant change coloured as git colours a diff: green when it
 * goes the metric's better way, red when not; plain when "~" or when the
 * better way is unknown */
static const char *delta_color(const struct measure_cmp *c)
{
	int up = c->st.ratio > 1;

	if (!c->st.significant || !c->better)
		return "";
	if (!strcmp(c->better, "lower"))
		return up ? COLOR_RED : COLOR_GREEN;
	if (!strcmp(c->better, "higher"))
		return up ? COLOR_GREEN : COLOR_RED;
	return "";
}

static void print_compare_text(const struct measure_cmp *rows, size_t n,
			       const struct measure_compare_opts *o)
{
	struct buf line = BUF_INIT, cell = BUF_INIT;
	size_t i;

	for (i = 0; i <= n; i++) {
		const struct measure_cmp *c = i ? &rows[i - 1] : NULL;

		buf_reset(&line);
		cross_mark(&line, o->cross_env, o->cross_config,
			   c ? c->env : "*", c ? c->config : "*");
		if (!c) {
			buf_addf(&line, "%-24s %14s %14s %9s %-14s %s",
				 "metric", o->name_a, o->name_b, "delta", "p",
				 "95% CI of B/A");
			puts(line.ptr);
			continue;
		}
		buf_addf(&line, "%-24s ", c->metric);
		buf_reset(&cell);
		value_text(&cell, c->st.median_a, c->unit);
		buf_addf(&line, "%14s ", cell.ptr);
		buf_reset(&cell);
		value_text(&cell, c->st.median_b, c->unit);
		buf_addf(&line, "%14s ", cell.ptr);
		buf_reset(&cell);
		/* benchstat: "~" when the difference is not significant */
		if (c->st.significant)
			buf_addf(&cell, "%+.2f%%", (c->st.ratio - 1) * 100);
		else
			buf_puts(&cell, "~");
		/* padded first: the escapes take no column */
		buf_addf(&line, "%*s", cell.len < 9 ? (int)(9 - cell.len) : 0,
			 "");
		color_add(&line, 1, delta_color(c), cell.ptr);
		buf_putc(&line, ' ');
		buf_reset(&cell);
		buf_addf(&cell, "p=%.3f n=%zu+%zu", c->st.p, c->na, c->nb);
		buf_addf(&line, "%-14s ", cell.ptr);
		if (isnan(c->st.ci_lo) || isnan(c->st.ci_hi))
			buf_puts(&line, "-");
		else
			buf_addf(&line, "[%.4g, %.4g]", c->st.ci_lo,
				 c->st.ci_hi);
		if (strcmp(c->config, "*") && strcmp(c->config, "{}")) {
			buf_puts(&line, "  ");
			config_text(&line, c->config);
		}
		puts(line.ptr);
	}
	buf_release(&line);
	buf_release(&cell);
}

int cmd_measure_compare(int argc, const char **argv, struct ctx *ctx)
{
	struct strvec config = STRVEC_INIT, metrics = STRVEC_INIT;
	struct measure_compare_opts o;
	struct measure_cmp *rows = NULL;
	size_t n = 0;
	int json = 0, format = -1, i, status = 0;
	const struct option opts[] = {
		OPT_LIST(0, "config", &config, "K=V",
			 "only records with this config; repeatable"),
		OPT_BOOL(0, "cross-env", &o.cross_env,
			 "compare numbers of different machines (lines "
			 "marked)"),
		OPT_BOOL(0, "cross-config", &o.cross_config,
			 "compare numbers of different configs (lines "
			 "marked)"),
		OPT_BOOL(0, "json", &json, "print the comparison as JSON"),
		OPT_CHOICE(0, "format", &format, cmd_format_names, "FMT",
			   CMD_FORMAT_HELP),
		OPT_END(),
	};
	int argn;

	memset(&o, 0, sizeof(o));
	argn = parse_options(argc, argv, opts, measure_compare_usage);
	if (argn < 0)
		return parse_options_status(argn);
	if (cmd_format_resolve(&format, json, measure_compare_usage, opts)) {
		status = 129;
		goto out;
	}
	if (argn < 2) {
		status = usage_error(measure_compare_usage, opts,
				     "wrong number of arguments");
		goto out;
	}
	for (i = 2; i < argn; i++)
		strvec_push(&metrics, argv[i]);
	o.name_a = argv[0];
	o.name_b = argv[1];
	o.metrics = &metrics;
	o.config = &config;
	if (cmd_need_campaign(ctx) < 0 ||
	    cmd_commit_arg(&o.a, ctx, argv[0]) < 0 ||
	    cmd_commit_arg(&o.b, ctx, argv[1]) < 0 ||
	    measure_compare(&rows, &n, ctx, &o) < 0) {
		status = cmd_fail(ctx);
		goto out;
	}
	if (format == CMD_FORMAT_JSON)
		print_compare_json(rows, n, &o);
	else if (format == CMD_FORMAT_CSV)
		print_compare_csv(rows, n);
	else
		print_compare_text(rows, n, &o);
out:
	measure_cmp_free(rows, n);
	strvec_clear(&config);
	strvec_clear(&metrics);
	return status;
}
