/* git campaign ncu's core: the Speed-of-Light reading of one kernel, the
 * sections it calls for next, and the profiled run kept as records on HEAD
 * with its hand-back record. */
#include "core/probe/ncu.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/machine/collect.h"
#include "core/measure/line.h"
#include "core/measure/measure.h"
#include "core/stats/stats.h"
#include "io/proc.h"
#include "io/repo.h"
#include "util/clock.h"
#include "util/json.h"
#include "util/xalloc.h"

const char *const ncuprof_categories[] = {
	"variant", "launch-size", "layout", "unneeded-work", "codegen", NULL,
};

/* what each category means, for the hand-back's readers */
static const char *const category_words[] = {
	"wrong capability-gated variant",
	"grid or work-group size",
	"buffer layout",
	"unneeded work",
	"codegen limit for upstream",
};

int ncuprof_category_ok(const char *name)
{
	size_t i;

	for (i = 0; name && ncuprof_categories[i]; i++)
		if (!strcmp(name, ncuprof_categories[i]))
			return 1;
	return 0;
}

static const char *category_text(const char *name)
{
	size_t i;

	for (i = 0; name && ncuprof_categories[i]; i++)
		if (!strcmp(name, ncuprof_categories[i]))
			return category_words[i];
	return "";
}

enum field {
	F_MEM,
	F_SM,
	F_DUR,
	F_ACH,
	F_THEO,
	F_REG,
	F_SSMEM,
	F_DSMEM,
	F_N,
};

/* The details page's display names and the raw page's metric ids */
static const struct {
	const char *metric;
	enum field f;
} aliases[] = {
	{"Memory Throughput", F_MEM},
	{"gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed",
	 F_MEM},
	{"Compute (SM) Throughput", F_SM},
	{"sm__throughput.avg.pct_of_peak_sustained_elapsed", F_SM},
	{"Duration", F_DUR},
	{"gpu__time_duration.sum", F_DUR},
	{"Achieved Occupancy", F_ACH},
	{"sm__warps_active.avg.pct_of_peak_sustained_active", F_ACH},
	{"Theoretical Occupancy", F_THEO},
	{"sm__maximum_warps_per_active_cycle_pct", F_THEO},
	{"Registers Per Thread", F_REG},
	{"launch__registers_per_thread", F_REG},
	{"Static Shared Memory Per Block", F_SSMEM},
	{"launch__shared_mem_per_block_static", F_SSMEM},
	{"Dynamic Shared Memory Per Block", F_DSMEM},
	{"launch__shared_mem_per_block_dynamic", F_DSMEM},
};

static const char *config_get(const struct strvec *c, const char *key)
{
	size_t i, k = strlen(key);

	for (i = 0; i < c->nr; i++)
		if (!strncmp(c->v[i], key, k) && c->v[i][k] == '=')
			return c->v[i] + k + 1;
	return NULL;
}

void ncuprof_reading_from(struct ncuprof_reading *out,
			  const struct import_set *s)
{
	double *v[F_N] = {NULL};
	size_t n[F_N] = {0}, i, k;
	struct strvec ids = STRVEC_INIT;
	const char *kernel = NULL;
	double *dst[F_N];

	memset(out, 0, sizeof(*out));
	dst[F_MEM] = &out->memory_pct;
	dst[F_SM] = &out->compute_pct;
	dst[F_DUR] = &out->duration_ns;
	dst[F_ACH] = &out->achieved_occ_pct;
	dst[F_THEO] = &out->theoretical_occ_pct;
	dst[F_REG] = &out->registers;
	dst[F_SSMEM] = &out->static_smem;
	dst[F_DSMEM] = &out->dynamic_smem;
	for (i = 0; i < s->nr; i++) {
		const struct import_rec *r = &s->recs[i];
		const char *kn = config_get(&r->config, "kernel");
		const char *id = config_get(&r->config, "launch");

		if (!kn)
			continue;
		if (!kernel)
			kernel = kn;
		if (strcmp(kn, kernel))
			continue;
		for (k = 0; id && k < ids.nr && strcmp(ids.v[k], id); k++)
			;
		if (id && k == ids.nr)
			strvec_push(&ids, id);
		for (k = 0; k < sizeof(aliases) / sizeof(*aliases); k++)
			if (!strcmp(r->metric, aliases[k].metric)) {
				enum field f = aliases[k].f;

				v[f] = xrealloc(v[f], (n[f] + 1) * sizeof(**v));
				v[f][n[f]++] = r->value;
				break;
			}
	}
	for (k = 0; k < F_N; k++) {
		*dst[k] = n[k] ? stats_median(v[k], n[k]) : NAN;
		free(v[k]);
	}
	out->launches = ids.nr;
	if (kernel)
		snprintf(out->kernel, sizeof(out->kernel), "%s", kernel);
	strvec_clear(&ids);
}

void ncuprof_classify(struct ncuprof_verdict *v,
		      const struct ncuprof_reading *r)
{
	double occ = !isnan(r->achieved_occ_pct) ? r->achieved_occ_pct
						 : r->theoretical_occ_pct;
	int mem_hi, sm_hi, is_short, occ_low;

	memset(v, 0, sizeof(*v));
	if (isnan(r->memory_pct) || isnan(r->compute_pct)) {
		v->cls = NCUPROF_UNKNOWN;
		v->name = "unknown";
		snprintf(v->why, sizeof(v->why),
			 "no Speed-of-Light throughput in ncu's output");
		v->next[0] = "SpeedOfLight";
		return;
	}
	mem_hi = r->memory_pct >= NCUPROF_HIGH_PCT;
	sm_hi = r->compute_pct >= NCUPROF_HIGH_PCT;
	is_short = !isnan(r->duration_ns) && r->duration_ns < NCUPROF_SHORT_NS;
	occ_low = !isnan(occ) && occ < NCUPROF_LOW_OCC_PCT;
	if (mem_hi && !sm_hi) {
		v->cls = NCUPROF_MEMORY;
		v->name = "memory-bound";
		v->next[0] = "MemoryWorkloadAnalysis";
	} else if (sm_hi && !mem_hi) {
		v->cls = NCUPROF_COMPUTE;
		v->name = "compute-bound";
		v->next[0] = "ComputeWorkloadAnalysis";
	} else if (sm_hi) {
		v->cls = NCUPROF_BOTH;
		v->name = "compute- and memory-bound";
		v->next[0] = "ComputeWorkloadAnalysis";
		v->next[1] = "MemoryWorkloadAnalysis";
	} else if (is_short || occ_low || isnan(occ)) {
		v->cls = is_short || occ_low ? NCUPROF_LATENCY
					     : NCUPROF_LATENCY_OCC;
		v->name = "latency-bound";
		v->next[0] = "LaunchStats";
		v->next[1] = "Occupancy";
	} else {
		v->cls = NCUPROF_LATENCY_STALL;
		v->name = "latency-bound";
		v->next[0] = "WarpStateStats";
		v->next[1] = "SchedulerStats";
	}
	snprintf(v->why, sizeof(v->why),
		 "memory %.1f%%, compute %.1f%% of peak; high from %.0f%%",
		 r->memory_pct, r->compute_pct, NCUPROF_HIGH_PCT);
	if (v->cls == NCUPROF_LATENCY || v->cls == NCUPROF_LATENCY_OCC ||
	    v->cls == NCUPROF_LATENCY_STALL) {
		size_t len = strlen(v->why);

		if (is_short)
			snprintf(v->why + len, sizeof(v->why) - len,
				 "; launches of %.2f us, short",
				 r->duration_ns / 1e3);
		else if (occ_low)
			snprintf(v->why + len, sizeof(v->why) - len,
				 "; occupancy %.1f%%, low", occ);
		else if (isnan(occ))
			snprintf(v->why + len, sizeof(v->why) - len,
				 "; occupancy not measured yet");
		else
			snprintf(v->why + len, sizeof(v->why) - len,
				 "; occupancy %.1f%%, fine", occ);
	}
}

/* arg as the shell reads it back: bare when safe, else in single quotes */
static void shell_quote(struct buf *out, const char *arg)
{
	const char *p;

	if (*arg && strspn(arg, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRS"
				"TUVWXYZ0123456789_./:=,+-@%") == strlen(arg)) {
		buf_puts(out, arg);
		return;
	}
	buf_putc(out, '\'');
	for (p = arg; *p; p++)
		if (*p == '\'')
			buf_puts(out, "'\\''");
		else
			buf_putc(out, *p);
	buf_putc(out, '\'');
}

static char *join_argv(const char *const *argv)
{
	struct buf b = BUF_INIT;
	size_t i;

	for (i = 0; argv[i]; i++) {
		if (i)
			buf_putc(&b, ' ');
		shell_quote(&b, argv[i]);
	}
	return buf_detach(&b);
}

static int write_file(const char *path, const struct buf *a,
		      const struct buf *b, struct error *err)
{
	FILE *fp = fopen(path, "wx");
	int bad;

	if (!fp)
		return error_set(err, GCAMP_EFATAL, "cannot create '%s': %s",
				 path, strerror(errno));
	bad = fwrite(a->ptr, 1, a->len, fp) != a->len;
	if (!bad && a->len && a->ptr[a->len - 1] != '\n' && b->len)
		bad = fputc('\n', fp) == EOF;
	bad |= fwrite(b->ptr, 1, b->len, fp) != b->len;
	bad |= fclose(fp) != 0;
	if (bad)
		return error_set(err, GCAMP_EFATAL, "cannot write '%s'", path);
	return 0;
}

static void put_num(struct record *r, const char *key, double v)
{
	char s[64];

	if (isnan(v))
		return;
	snprintf(s, sizeof(s), "%g", v);
	record_config_put(r, key, s);
}

static char *join_list(const char *const *v, size_t n)
{
	struct buf b = BUF_INIT;
	size_t i;

	for (i = 0; i < n && v[i]; i++)
		buf_addf(&b, "%s%s", i ? "," : "", v[i]);
	return buf_detach(&b);
}

static void handback(struct record *h, const struct ncuprof_result *r,
		     const struct ncuprof_opts *o)
{
	const struct ncuprof_reading *rd = &r->reading;
	char num[32];
	char *s;

	record_init(h);
	h->metric = xstrdup("ncu.handback");
	if (!isnan(rd->duration_ns)) {
		h->value = rd->duration_ns;
		h->unit = xstrdup("ns");
		h->better = xstrdup("lower");
		h->stat = xstrdup("median");
	} else {
		h->value = (double)rd->launches;
		h->unit = xstrdup("launch");
		h->stat = xstrdup("count");
	}
	h->source = xstrdup("ncu");
	record_config_put(h, "kind", "ncu-handback");
	record_config_put(h, "regex", o->regex);
	if (*rd->kernel)
		record_config_put(h, "kernel", rd->kernel);
	snprintf(num, sizeof(num), "%ld", o->skip);
	record_config_put(h, "skip", num);
	snprintf(num, sizeof(num), "%ld", o->count);
	record_config_put(h, "count", num);
	s = join_list((const char *const *)r->sections.v, r->sections.nr);
	record_config_put(h, "sections", s);
	free(s);
	record_config_put(h, "ncu", r->ncu_cmd);
	record_config_put(h, "program", r->program_cmd);
	record_config_put(h, "raw", r->raw_path);
	record_config_put(h, "class", r->verdict.name);
	s = join_list(r->todo, 3);
	record_config_put(h, "next", *s ? s : "-");
	free(s);
	put_num(h, "memory_pct", rd->memory_pct);
	put_num(h, "compute_pct", rd->compute_pct);
	put_num(h, "occupancy_pct", rd->achieved_occ_pct);
	put_num(h, "theoretical_occupancy_pct", rd->theoretical_occ_pct);
	put_num(h, "registers", rd->registers);
	put_num(h, "smem_static", rd->static_smem);
	put_num(h, "smem_dynamic", rd->dynamic_smem);
	if (o->recommend) {
		record_config_put(h, "recommend", o->recommend);
		record_config_put(h, "category", o->category);
	}
}

static int head_commit(git_oid *out, char hex[41], struct ctx *ctx)
{
	git_repository *repo;
	git_object *obj = NULL, *c = NULL;
	int rc;

	if ((rc = ctx_repo(&repo, ctx, 0)) < 0)
		return rc;
	if (git_revparse_single(&obj, repo, "HEAD") < 0 ||
	    git_object_peel(&c, obj, GIT_OBJECT_COMMIT) < 0) {
		git_object_free(obj);
		return error_set(&ctx->err, GCAMP_ENOTFOUND,
				 "no commit at HEAD to record the profile on");
	}
	git_oid_cpy(out, git_object_id(c));
	git_oid_tostr(hex, 41, out);
	git_object_free(c);
	git_object_free(obj);
	return 0;
}

/* The records of set and the hand-back, in one notes commit on HEAD */
static int record_all(struct ncuprof_result *r, struct ctx *ctx,
		      const struct ncuprof_opts *o,
		      const struct import_set *set)
{
	struct record *recs = xcalloc(set->nr + 1, sizeof(*recs));
	char at[21];
	git_oid head;
	size_t n = 0, i;
	int rc;

	if ((rc = head_commit(&head, r->commit, ctx)) < 0 ||
	    (rc = fingerprint_current_id(r->env, ctx, NULL)) < 0)
		goto out;
	clock_now_iso(at);
	for (n = 0; n < set->nr; n++)
		measure_record_from_import(&recs[n], &set->recs[n], "ncu");
	handback(&recs[n++], r, o);
	for (i = 0; i < n; i++) {
		memcpy(recs[i].run, r->run, sizeof(recs[i].run));
		recs[i].env = xstrdup(r->env);
		recs[i].at = xstrdup(at);
		record_config_put(&recs[i], "profiler", "ncu");
	}
	if ((rc = measure_append(ctx, &head, recs, n, "ncu")) == 0)
		r->nrecords = n;
out:
	for (i = 0; i < n; i++)
		record_release(&recs[i]);
	free(recs);
	return rc;
}

static void unrun(struct ncuprof_result *r)
{
	size_t i, k, n = 0;

	for (i = 0; i < 3 && r->verdict.next[i]; i++) {
		for (k = 0; k < r->sections.nr; k++)
			if (!strcmp(r->sections.v[k], r->verdict.next[i]))
				break;
		if (k == r->sections.nr)
			r->todo[n++] = r->verdict.next[i];
	}
}

static void ncu_argv(struct strvec *out, const struct ncuprof_opts *o,
		     struct strvec *sections)
{
	size_t i;

	strvec_push(out, "ncu");
	strvec_push(out, "--kernel-name");
	strvec_push_owned(out, xasprintf("regex:%s", o->regex));
	strvec_push(out, "--launch-skip");
	strvec_push_owned(out, xasprintf("%ld", o->skip));
	strvec_push(out, "--launch-count");
	strvec_push_owned(out, xasprintf("%ld", o->count));
	strvec_push(out, "--clock-control");
	strvec_push(out, "none");
	strvec_push(sections, "SpeedOfLight");
	for (i = 0; o->sections && i < o->sections->nr; i++) {
		size_t k;

		for (k = 0; k < sections->nr; k++)
			if (!strcmp(sections->v[k], o->sections->v[i]))
				break;
		if (k == sections->nr)
			strvec_push(sections, o->sections->v[i]);
	}
	for (i = 0; i < sections->nr; i++) {
		strvec_push(out, "--section");
		strvec_push(out, sections->v[i]);
	}
	strvec_push(out, "--csv");
	strvec_push(out, "--page");
	strvec_push(out, "details");
	for (i = 0; o->program[i]; i++)
		strvec_push(out, o->program[i]);
}

int ncuprof_run(struct ncuprof_result *out, struct ctx *ctx,
		const struct ncuprof_opts *o)
{
	struct proc_result pr = PROC_RESULT_INIT;
	struct proc_opts po;
	struct import_set set = IMPORT_SET_INIT;
	struct strvec argv = STRVEC_INIT;
	struct buf data = BUF_INIT;
	char *dir = NULL;
	int rc;

	memset(out, 0, sizeof(*out));
	if (!proc_on_path("ncu")) {
		rc = error_set(&ctx->err, GCAMP_ENOTFOUND,
			       "ncu (Nsight Compute) is not on PATH");
		error_hint(&ctx->err, "install Nsight Compute (it comes with "
				      "the CUDA toolkit) and put its folder "
				      "on PATH");
		goto out;
	}
	if ((rc = ctx_scratch_dir(&dir, ctx)) < 0 ||
	    (rc = record_new_run(out->run, &ctx->err)) < 0)
		goto out;
	out->raw_path = xasprintf("%sncu-%s.csv", dir, out->run);
	ncu_argv(&argv, o, &out->sections);
	out->ncu_cmd = join_argv((const char *const *)argv.v);
	out->program_cmd = join_argv(o->program);
	memset(&po, 0, sizeof(po));
	po.cap = (size_t)64 << 20;
	po.no_tokens = 1;
	if ((rc = proc_run(&pr, (const char *const *)argv.v, &po, &ctx->err)) <
		    0 ||
	    (rc = write_file(out->raw_path, &pr.out, &pr.err, &ctx->err)) < 0)
		goto out;
	out->status = pr.status;
	if (strstr(pr.out.ptr, "ERR_NVGPUCTRPERM") ||
	    strstr(pr.err.ptr, "ERR_NVGPUCTRPERM")) {
		out->perm = 1;
		rc = error_set(&ctx->err, GCAMP_EREFUSED,
			       "ncu may not read the GPU's counters on this "
			       "machine (ERR_NVGPUCTRPERM): profiling is "
			       "restricted to administrators; nothing was "
			       "recorded");
		error_hint(&ctx->err,
			   "the program's output and ncu's are kept in %s; "
			   "'git campaign env --check-profiling' shows the "
			   "setting (NVreg_RestrictProfilingToAdminUsers)",
			   out->raw_path);
		goto out;
	}
	buf_add(&data, pr.out.ptr, pr.out.len);
	buf_putc(&data, '\n');
	buf_add(&data, pr.err.ptr, pr.err.len);
	if (import_data(&set, import_format_find("ncu"), data.ptr, data.len,
			out->raw_path, &ctx->err) < 0 ||
	    !set.nr) {
		if (!set.nr && !ctx->err.code)
			error_set(&ctx->err, GCAMP_EFATAL,
				  "ncu printed no results");
		if (pr.status) {
			error_clear(&ctx->err);
			error_set(&ctx->err, GCAMP_EFATAL,
				  "ncu exited with status %d; nothing was "
				  "recorded",
				  pr.status);
		}
		error_hint(&ctx->err,
			   "ncu's output and the program's are in %s",
			   out->raw_path);
		rc = ctx->err.code;
		goto out;
	}
	ncuprof_reading_from(&out->reading, &set);
	ncuprof_classify(&out->verdict, &out->reading);
	unrun(out);
	rc = record_all(out, ctx, o, &set);
out:
	free(dir);
	buf_release(&data);
	strvec_clear(&argv);
	import_set_release(&set);
	proc_result_release(&pr);
	return rc;
}

cJSON *ncuprof_to_json(const struct ncuprof_result *r,
		       const struct ncuprof_opts *o)
{
	const struct ncuprof_reading *rd = &r->reading;
	cJSON *j = cJSON_CreateObject(), *a, *s;
	size_t i;

	cJSON_AddStringToObject(j, "run", r->run);
	cJSON_AddStringToObject(j, "commit", r->commit);
	cJSON_AddStringToObject(j, "env", r->env);
	cJSON_AddStringToObject(j, "regex", o->regex);
	cJSON_AddStringToObject(j, "kernel", rd->kernel);
	cJSON_AddNumberToObject(j, "skip", (double)o->skip);
	cJSON_AddNumberToObject(j, "count", (double)o->count);
	cJSON_AddNumberToObject(j, "launches", (double)rd->launches);
	cJSON_AddStringToObject(j, "ncu_command", r->ncu_cmd);
	cJSON_AddStringToObject(j, "program_command", r->program_cmd);
	cJSON_AddStringToObject(j, "raw", r->raw_path);
	a = cJSON_AddArrayToObject(j, "sections");
	for (i = 0; i < r->sections.nr; i++)
		cJSON_AddItemToArray(a, cJSON_CreateString(r->sections.v[i]));
	s = cJSON_AddObjectToObject(j, "speed_of_light");
	json_add_num_or_null(s, "memory_pct", rd->memory_pct);
	json_add_num_or_null(s, "compute_pct", rd->compute_pct);
	json_add_num_or_null(s, "duration_ns", rd->duration_ns);
	cJSON_AddStringToObject(j, "class", r->verdict.name);
	cJSON_AddStringToObject(j, "why", r->verdict.why);
	a = cJSON_AddArrayToObject(j, "calls_for");
	for (i = 0; i < 3 && r->verdict.next[i]; i++)
		cJSON_AddItemToArray(a, cJSON_CreateString(r->verdict.next[i]));
	a = cJSON_AddArrayToObject(j, "next");
	for (i = 0; i < 3 && r->todo[i]; i++)
		cJSON_AddItemToArray(a, cJSON_CreateString(r->todo[i]));
	json_add_num_or_null(j, "occupancy_pct", rd->achieved_occ_pct);
	json_add_num_or_null(j, "theoretical_occupancy_pct",
			     rd->theoretical_occ_pct);
	json_add_num_or_null(j, "registers", rd->registers);
	s = cJSON_AddObjectToObject(j, "shared_memory_bytes");
	json_add_num_or_null(s, "static", rd->static_smem);
	json_add_num_or_null(s, "dynamic", rd->dynamic_smem);
	if (o->recommend) {
		s = cJSON_AddObjectToObject(j, "recommend");
		cJSON_AddStringToObject(s, "change", o->recommend);
		cJSON_AddStringToObject(s, "category", o->category);
	} else {
		cJSON_AddNullToObject(j, "recommend");
	}
	cJSON_AddNumberToObject(j, "records", (double)r->nrecords);
	return j;
}

static void fmt(struct buf *out, double v, int prec, const char *unit)
{
	if (isnan(v)) {
		buf_puts(out, "not measured");
		return;
	}
	buf_addf(out, "%.*f%s", prec, v, unit);
}

#define KEY(k) buf_addf(out, "%-17s ", k ":")

void ncuprof_render(struct buf *out, const struct ncuprof_result *r,
		    const struct ncuprof_opts *o)
{
	const struct ncuprof_reading *rd = &r->reading;
	size_t i;

	KEY("kernel");
	buf_addf(out, "%s (regex %s; launches %ld to %ld, %zu profiled)\n",
		 *rd->kernel ? rd->kernel : "?", o->regex, o->skip + 1,
		 o->skip + o->count, rd->launches);
	KEY("ncu command");
	buf_addf(out, "%s\n", r->ncu_cmd);
	KEY("program command");
	buf_addf(out, "%s\n", r->program_cmd);
	KEY("raw output");
	buf_addf(out, "%s\n", r->raw_path);
	KEY("speed of light");
	buf_puts(out, "memory ");
	fmt(out, rd->memory_pct, 1, "%");
	buf_puts(out, ", compute ");
	fmt(out, rd->compute_pct, 1, "%");
	buf_puts(out, ", duration ");
	fmt(out, rd->duration_ns / 1e3, 2, " us");
	buf_putc(out, '\n');
	KEY("class");
	buf_addf(out, "%s (%s)\n", r->verdict.name, r->verdict.why);
	KEY("next sections");
	for (i = 0; i < 3 && r->todo[i]; i++)
		buf_addf(out, "%s%s", i ? ", " : "", r->todo[i]);
	if (r->todo[0]) {
		buf_puts(out, " (--section S)\n");
	} else {
		buf_puts(out, "none: ");
		for (i = 0; i < 3 && r->verdict.next[i]; i++)
			buf_addf(out, "%s%s", i ? ", " : "",
				 r->verdict.next[i]);
		buf_puts(out, " ran here; state the change with --recommend\n");
	}
	KEY("occupancy");
	if (isnan(rd->achieved_occ_pct) && isnan(rd->theoretical_occ_pct)) {
		buf_puts(out, "not measured (--section Occupancy)\n");
	} else {
		fmt(out, rd->achieved_occ_pct, 1, "% achieved");
		buf_puts(out, ", ");
		fmt(out, rd->theoretical_occ_pct, 1, "% theoretical");
		buf_putc(out, '\n');
	}
	KEY("registers");
	if (isnan(rd->registers))
		buf_puts(out, "not measured (--section LaunchStats)");
	else
		fmt(out, rd->registers, 0, " per thread");
	buf_putc(out, '\n');
	KEY("shared memory");
	if (isnan(rd->static_smem) && isnan(rd->dynamic_smem)) {
		buf_puts(out, "not measured (--section LaunchStats)\n");
	} else {
		fmt(out, rd->static_smem, 0, " B static");
		buf_puts(out, ", ");
		fmt(out, rd->dynamic_smem, 0, " B dynamic per block");
		buf_putc(out, '\n');
	}
	KEY("recommend");
	if (o->recommend)
		buf_addf(out, "[%s: %s] %s\n", o->category,
			 category_text(o->category), o->recommend);
	else
		buf_puts(out, "none stated (--recommend \"...\" --category "
			      "C)\n");
	KEY("recorded");
	buf_addf(out, "%zu records on %.10s (run %s, env %s)\n", r->nrecords,
		 r->commit, r->run, r->env);
}

void ncuprof_result_release(struct ncuprof_result *r)
{
	if (!r)
		return;
	free(r->ncu_cmd);
	free(r->program_cmd);
	free(r->raw_path);
	strvec_clear(&r->sections);
	memset(r, 0, sizeof(*r));
}
