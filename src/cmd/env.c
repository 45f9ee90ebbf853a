/* git campaign env: the machine fingerprint, and the environments this
 * repository knows. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "core/machine/collect.h"
#include "core/machine/fingerprint.h"
#include "core/measure/measure.h"
#include "core/measure/stored.h"
#include "core/probe/counters.h"
#include "core/probe/floor.h"
#include "util/clock.h"
#include "util/json.h"
#include "util/options.h"

SUB_USAGE(env_usage, "git campaign env [--json] [--backend B] [--refresh]",
	  "git campaign env --floor [--device N] [--json] [--backend B]",
	  "git campaign env --check-profiling [--json]",
	  "git campaign env list [--json]",
	  "git campaign env gpu-control [--device N]");
SUB_USAGE(list_usage, "git campaign env list [--json]");
SUB_USAGE(gpu_control_usage, "git campaign env gpu-control [--device N]");

#define W 22 /* width of the key column */

static void line(const char *key, const char *value)
{
	char k[64];

	snprintf(k, sizeof(k), "%s:", key);
	printf("%-*s %s\n", W, k, value);
}

static void linef(const char *key, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void linef(const char *key, const char *fmt, ...)
{
	char v[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(v, sizeof(v), fmt, ap);
	va_end(ap);
	line(key, v);
}

static void print_gpus(const cJSON *info)
{
	const cJSON *gpus = cJSON_GetObjectItemCaseSensitive(info, "gpus"), *g;
	const char *why = json_get_str(info, "gpu_error");

	if (!cJSON_GetArraySize(gpus)) {
		printf("gpu: none (%s)\n", why ? why : "no device");
		return;
	}
	cJSON_ArrayForEach(g, gpus) {
		const cJSON *mem =
			cJSON_GetObjectItemCaseSensitive(g, "memory_bytes");
		const cJSON *sms =
			cJSON_GetObjectItemCaseSensitive(g, "sm_count");
		const cJSON *idx = cJSON_GetObjectItemCaseSensitive(g, "index");
		double bytes = cJSON_IsNumber(mem) ? mem->valuedouble : 0;
		char key[32];

		snprintf(key, sizeof(key), "gpu %d",
			 cJSON_IsNumber(idx) ? idx->valueint : 0);
		line(key, json_get_str_or(g, "name", "?"));
		line("  uuid", json_get_str_or(g, "uuid", "?"));
		if (json_get_str(g, "mig_uuid"))
			line("  mig uuid", json_get_str(g, "mig_uuid"));
		line("  compute capability",
		     json_get_str_or(g, "compute_capability", "?"));
		linef("  sm count", "%d",
		      cJSON_IsNumber(sms) ? sms->valueint : 0);
		linef("  memory", "%.0f bytes (%.1f GiB)", bytes,
		      bytes / (1024.0 * 1024 * 1024));
		line("  pci bus id", json_get_str_or(g, "pci_bus_id", "?"));
		if (json_get_str(g, "pci_device_id"))
			line("  pci device id",
			     json_get_str(g, "pci_device_id"));
	}
}

static void print_text(const cJSON *j, const char *stored)
{
	const cJSON *id = cJSON_GetObjectItemCaseSensitive(j, "identity");
	const cJSON *info = cJSON_GetObjectItemCaseSensitive(j, "info");
	const cJSON *n = cJSON_GetObjectItemCaseSensitive(info, "cpu_count");
	const cJSON *api =
		cJSON_GetObjectItemCaseSensitive(id, "cuda_driver_api");
	const char *v;

	line("id", json_get_str(j, "id"));
	line("cpu", json_get_str_or(id, "cpu_model", "unknown"));
	if (cJSON_IsNumber(n))
		linef("cpu count", "%d", n->valueint);
	line("os", json_get_str_or(id, "os", "unknown"));
	if ((v = json_get_str(info, "kernel_release")))
		linef("kernel", "%s (%s)", v, json_get_str(id, "kernel"));
	if ((v = json_get_str(info, "libc")))
		line("libc", v);
	if ((v = json_get_str(info, "hostname")))
		line("hostname", v);
	if ((v = json_get_str(id, "jdk_version")))
		linef("jdk", "%s %s (from %s)",
		      json_get_str_or(id, "jdk_vendor", "unknown"), v,
		      json_get_str(info, "jdk_source"));
	else
		line("jdk", "none");
	line("backend", json_get_str_or(id, "backend", "none"));
	line("nvidia driver", json_get_str_or(id, "driver_version", "none"));
	if (cJSON_IsNumber(api))
		linef("cuda driver api", "%d", api->valueint);
	if ((v = json_get_str(info, "libcuda")))
		line("libcuda", v);
	print_gpus(info);
	line("stored", stored);
}

struct floor_state {
	int want;
	long device; /* OPT_INT stores a long */
	struct floor_result res;
	int rc;		  /* of floor_measure or of storing */
	struct error err; /* why it failed */
	char commit[48];  /* where it was stored, or "" */
	char why_not[64]; /* why it was not stored */
};

/* Stores the floor as measurements on HEAD (config kind=floor), tagged
 * with this env: the floor then travels with the notes like any figure. */
static void floor_store(struct floor_state *f, struct ctx *ctx, const char *env)
{
	struct record *recs = NULL;
	char run[RECORD_RUN_LEN + 1], at[21];
	git_oid head;
	size_t n = 0, i;

	if (cmd_commit_arg(&head, ctx, "HEAD") < 0) {
		error_clear(&ctx->err);
		snprintf(f->why_not, sizeof(f->why_not), "no commit");
		return;
	}
	if ((f->rc = record_new_run(run, &f->err)) < 0)
		return;
	clock_now_iso(at);
	floor_records(&recs, &n, &f->res, env, run, at);
	if ((f->rc = measure_append(ctx, &head, recs, n, "env --floor")) < 0) {
		f->err = ctx->err;
		error_clear(&ctx->err);
	} else {
		git_oid_tostr(f->commit, sizeof(f->commit), &head);
	}
	for (i = 0; i < n; i++)
		record_release(&recs[i]);
	free(recs);
}

/* env without --floor: the floor stored for this env, when there is one */
static void add_stored_floor(cJSON *j, struct ctx *ctx, const char *env)
{
	struct floor_ref f;
	cJSON *o;

	if (floor_stored(&f, ctx, env) <= 0) {
		error_clear(&ctx->err);
		return;
	}
	o = cJSON_AddObjectToObject(j, "stored_floor");
	cJSON_AddNumberToObject(o, "launch_sync_us", f.launch_us);
	if (f.htod_us >= 0)
		cJSON_AddNumberToObject(o, "htod_24B_us", f.htod_us);
	cJSON_AddStringToObject(o, "commit", f.commit);
}

static void print_stored_floor(const cJSON *j)
{
	const cJSON *o = cJSON_GetObjectItemCaseSensitive(j, "stored_floor");
	const cJSON *h = cJSON_GetObjectItemCaseSensitive(o, "htod_24B_us");
	char hb[64] = "";

	if (!o)
		return;
	if (cJSON_IsNumber(h))
		snprintf(hb, sizeof(hb), ", htod 24 B %.2f us", h->valuedouble);
	linef("floor", "launch %.2f us%s (stored on %.10s)",
	      cJSON_GetObjectItemCaseSensitive(o, "launch_sync_us")
		      ->valuedouble,
	      hb, json_get_str(o, "commit"));
}

static void print_floor(const struct floor_state *f)
{
	const struct floor_result *r = &f->res;
	size_t i;

	printf("floor (device %d):\n", r->device);
	linef("  launch + sync", "%.2f us median (p10 %.2f, p90 %.2f; n %ld)",
	      r->launch_median_us, r->launch_p10_us, r->launch_p90_us,
	      r->launches);
	linef("  launch enqueue", "%.2f us", r->enqueue_us);
	for (i = 0; i < FLOOR_NCOPY; i++) {
		char k[32];

		snprintf(k, sizeof(k), "  htod %zu B", floor_copy_bytes[i]);
		linef(k, "%.2f us median", r->htod_us[i]);
	}
	linef("  dtod 1 GiB", "%.0f GB/s (read + write)", r->dtod_gbps);
	linef("  module load", "%.0f us", r->module_load_us);
	if (*f->commit)
		linef("  stored", "on %.10s (kind=floor)", f->commit);
	else
		linef("  stored", "no (%s)", f->why_not);
}

static int show(struct ctx *ctx, int json, const char *backend, int refresh,
		struct floor_state *f)
{
	struct fingerprint_opts o = {backend, refresh};
	struct fingerprint fp = {0};
	git_repository *repo;
	char stored[128];
	cJSON *j = NULL;
	int rc, in_repo;

	if ((rc = fingerprint_collect(&fp, ctx, &o)) < 0)
		goto out;
	/* outside a repository there is nowhere to store it: print only */
	in_repo = ctx_repo(&repo, ctx, 0) == 0;
	error_clear(&ctx->err);
	if (in_repo && (rc = fingerprint_store(ctx, &fp)) < 0)
		goto out;
	if (in_repo)
		snprintf(stored, sizeof(stored), FINGERPRINT_REF_PREFIX "%s",
			 fp.id);
	else
		snprintf(stored, sizeof(stored), "no (not in a repository)");
	if (f->want) {
		struct floor_opts fo = {.device = (int)f->device};

		snprintf(f->why_not, sizeof(f->why_not), "not in a repository");
		f->rc = floor_measure(&f->res, &fo, &f->err);
		if (f->rc == 0 && in_repo)
			floor_store(f, ctx, fp.id);
	}
	j = fingerprint_to_json(&fp);
	if (in_repo && !f->want)
		add_stored_floor(j, ctx, fp.id);
	if (json) {
		if (in_repo)
			cJSON_AddStringToObject(j, "ref", stored);
		else
			cJSON_AddNullToObject(j, "ref");
		if (f->want && f->rc == 0) {
			cJSON *fl = floor_to_json(&f->res);

			if (*f->commit)
				cJSON_AddStringToObject(fl, "commit",
							f->commit);
			else
				cJSON_AddNullToObject(fl, "commit");
			cJSON_AddItemToObject(j, "floor", fl);
		} else if (f->want) {
			cJSON_AddStringToObject(j, "floor_error", f->err.msg);
		}
		cmd_print_json(j);
		j = NULL;
	} else {
		print_text(j, stored);
		print_stored_floor(j);
		if (f->want && f->rc == 0)
			print_floor(f);
	}
out:
	cJSON_Delete(j);
	fingerprint_release(&fp);
	if (rc < 0)
		return cmd_fail(ctx);
	if (f->want && f->rc < 0) {
		/* the fingerprint printed; the floor's one line */
		fflush(stdout);
		error_set(&ctx->err, f->err.code, "floor: %s", f->err.msg);
		return cmd_fail(ctx);
	}
	return 0;
}

/* "NVIDIA H200 x1, cuda, Debian 17.0.15, AMD EPYC 7B13, Debian 12" */
static void summary(const cJSON *id)
{
	const cJSON *models =
		cJSON_GetObjectItemCaseSensitive(id, "gpu_models");
	const cJSON *count = cJSON_GetObjectItemCaseSensitive(id, "gpu_count");
	const char *parts[4] = {json_get_str(id, "backend"), NULL,
				json_get_str(id, "cpu_model"),
				json_get_str(id, "os")};
	const char *sep = "";
	size_t i;

	if (cJSON_GetArraySize(models)) {
		printf("%s x%d", cJSON_GetArrayItem(models, 0)->valuestring,
		       cJSON_IsNumber(count) ? count->valueint : 1);
		sep = ", ";
	} else {
		printf("no gpu");
		sep = ", ";
	}
	for (i = 0; i < 4; i++) {
		if (i == 1) {
			if (json_get_str(id, "jdk_version"))
				printf("%s%s %s", sep,
				       json_get_str_or(id, "jdk_vendor", "jdk"),
				       json_get_str(id, "jdk_version"));
			continue;
		}
		if (parts[i])
			printf("%s%s", sep, parts[i]);
	}
	putchar('\n');
}

static int list(struct ctx *ctx, int json)
{
	cJSON *arr = NULL;
	const cJSON *e;

	if (fingerprint_list(&arr, ctx) < 0)
		return cmd_fail(ctx);
	if (json) {
		cmd_print_json(arr);
		return 0;
	}
	cJSON_ArrayForEach(e, arr) {
		int in_db = json_get_bool(e, "in_db");
		int in_ref = json_get_bool(e, "in_ref");

		printf("%s  %-20s  %-6s  ", json_get_str(e, "id"),
		       json_get_str_or(e, "seen_at", "-"),
		       in_db && in_ref ? "db,ref"
		       : in_db	       ? "db"
				       : "ref");
		summary(cJSON_GetObjectItemCaseSensitive(e, "identity"));
	}
	cJSON_Delete(arr);
	return 0;
}

/* The workload `ab --gpu-control` runs: the GPU control's fixed
 * work, its time printed as "gpu-control: T us". */
static int gpu_control_run(struct ctx *ctx, int device)
{
	double us;

	if (floor_control(&us, device, &ctx->err) < 0)
		return cmd_fail(ctx);
	printf("gpu-control: %.1f us\n", us);
	return 0;
}

/* Exit 0 when this user may read the hardware counters, 1 when not. */
static int check_profiling(int json)
{
	struct profiling_status st;

	profiling_check(&st);
	if (json) {
		cJSON *o = cJSON_CreateObject();

		cJSON_AddBoolToObject(o, "available", st.available);
		if (st.admin_only < 0)
			cJSON_AddNullToObject(o, "rm_profiling_admin_only");
		else
			cJSON_AddNumberToObject(o, "rm_profiling_admin_only",
						st.admin_only);
		cJSON_AddBoolToObject(o, "admin", st.admin);
		cJSON_AddStringToObject(o, "reason", st.reason);
		cmd_print_json(o);
	} else {
		printf("profiling: %s (%s)\n",
		       st.available ? "available" : "not available", st.reason);
	}
	return st.available ? 0 : 1;
}

static int list_cmd(int argc, const char **argv, struct ctx *ctx)
{
	int json = 0;
	const struct option opts[] = {
		OPT_BOOL(0, "json", &json, "print the environments as JSON"),
		OPT_END(),
	};
	int n = parse_options(argc, argv, opts, list_usage);

	if (n < 0)
		return parse_options_status(n);
	if (n)
		return usage_error(list_usage, opts, "unknown argument '%s'",
				   argv[0]);
	return list(ctx, json);
}

static int gpu_control_cmd(int argc, const char **argv, struct ctx *ctx)
{
	long device = 0;
	const struct option opts[] = {
		OPT_INT(0, "device", &device, "N",
			"the CUDA device the control runs on (0)"),
		OPT_END(),
	};
	int n = parse_options(argc, argv, opts, gpu_control_usage);

	if (n < 0)
		return parse_options_status(n);
	if (n)
		return usage_error(gpu_control_usage, opts,
				   "unknown argument '%s'", argv[0]);
	if (device < 0 || device > 1023)
		return usage_error(gpu_control_usage, opts,
				   "--device must be 0 to 1023");
	return gpu_control_run(ctx, (int)device);
}

static int env_cmd(int argc, const char **argv, struct ctx *ctx)
{
	int json = 0, refresh = 0, profiling = 0;
	const char *backend = NULL;
	struct floor_state f = {0};
	const struct option opts[] = {
		OPT_BOOL(0, "json", &json, "print the fingerprint as JSON"),
		OPT_BOOL(0, "floor", &f.want,
			 "measure the GPU's dispatch floor and store it"),
		OPT_INT(0, "device", &f.device, "N",
			"the CUDA device the floor is measured on (0)"),
		OPT_BOOL(0, "check-profiling", &profiling,
			 "say whether this user may read GPU counters"),
		OPT_STRING(0, "backend", &backend, "B",
			   "the backend measured (default: campaign.backend)"),
		OPT_BOOL(0, "refresh", &refresh,
			 "probe the JDK and GPUs again, ignoring the cache"),
		OPT_END(),
	};
	int n = parse_options(argc, argv, opts, env_usage);

	if (n < 0)
		return parse_options_status(n);
	if (n)
		return usage_error(env_usage, opts, "unknown argument '%s'",
				   argv[0]);
	if (backend && fingerprint_check_backend(backend, &ctx->err) < 0)
		return cmd_fail(ctx);
	if (profiling && (backend || refresh || f.want))
		return usage_error(env_usage, opts,
				   "--check-profiling takes only --json");
	if (profiling)
		return check_profiling(json);
	if (f.device < 0 || f.device > 1023)
		return usage_error(env_usage, opts,
				   "--device must be 0 to 1023");
	if (f.device && !f.want)
		return usage_error(env_usage, opts, "--device needs --floor");
	return show(ctx, json, backend, refresh, &f);
}

int cmd_env(int argc, const char **argv, struct ctx *ctx)
{
	static const struct subcommand subs[] = {
		{"", env_cmd, env_usage, 0},
		{"list", list_cmd, list_usage, 0},
		{"gpu-control", gpu_control_cmd, gpu_control_usage, 0},
		{NULL},
	};

	return cmd_subcommand(argc, argv, ctx, subs, env_usage, NULL);
}
