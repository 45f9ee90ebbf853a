/* git campaign env: the machine fingerprint, and the environments this
 * repository knows. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cmd/cmd.h"
#include "core/fingerprint.h"
#include "util/options.h"

static const char *const env_usage[] = {
	"git campaign env [--json] [--backend B] [--refresh]",
	"git campaign env list [--json]",
	NULL,
};

#define W 22 /* width of the key column */

static const char *str(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItem(o, key);

	return cJSON_IsString(v) ? v->valuestring : NULL;
}

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
	const cJSON *gpus = cJSON_GetObjectItem(info, "gpus"), *g;
	const char *why = str(info, "gpu_error");

	if (!cJSON_GetArraySize(gpus)) {
		printf("gpu: none (%s)\n", why ? why : "no device");
		return;
	}
	cJSON_ArrayForEach(g, gpus)
	{
		const cJSON *mem = cJSON_GetObjectItem(g, "memory_bytes");
		const cJSON *sms = cJSON_GetObjectItem(g, "sm_count");
		const cJSON *idx = cJSON_GetObjectItem(g, "index");
		double bytes = cJSON_IsNumber(mem) ? mem->valuedouble : 0;
		char key[32];

		snprintf(key, sizeof(key), "gpu %d",
			 cJSON_IsNumber(idx) ? idx->valueint : 0);
		line(key, str(g, "name") ? str(g, "name") : "?");
		line("  uuid", str(g, "uuid") ? str(g, "uuid") : "?");
		if (str(g, "mig_uuid"))
			line("  mig uuid", str(g, "mig_uuid"));
		line("  compute capability",
		     str(g, "compute_capability") ? str(g, "compute_capability")
						  : "?");
		linef("  sm count", "%d",
		      cJSON_IsNumber(sms) ? sms->valueint : 0);
		linef("  memory", "%.0f bytes (%.1f GiB)", bytes,
		      bytes / (1024.0 * 1024 * 1024));
		line("  pci bus id",
		     str(g, "pci_bus_id") ? str(g, "pci_bus_id") : "?");
		if (str(g, "pci_device_id"))
			line("  pci device id", str(g, "pci_device_id"));
	}
}

static void print_text(const cJSON *j, const char *stored)
{
	const cJSON *id = cJSON_GetObjectItem(j, "identity");
	const cJSON *info = cJSON_GetObjectItem(j, "info");
	const cJSON *n = cJSON_GetObjectItem(info, "cpu_count");
	const cJSON *api = cJSON_GetObjectItem(id, "cuda_driver_api");
	const char *v;

	line("id", str(j, "id"));
	line("cpu", str(id, "cpu_model") ? str(id, "cpu_model") : "unknown");
	if (cJSON_IsNumber(n))
		linef("cpu count", "%d", n->valueint);
	line("os", str(id, "os") ? str(id, "os") : "unknown");
	if ((v = str(info, "kernel_release")))
		linef("kernel", "%s (%s)", v, str(id, "kernel"));
	if ((v = str(info, "libc")))
		line("libc", v);
	if ((v = str(info, "hostname")))
		line("hostname", v);
	if ((v = str(id, "jdk_version")))
		linef("jdk", "%s %s (from %s)",
		      str(id, "jdk_vendor") ? str(id, "jdk_vendor") : "unknown",
		      v, str(info, "jdk_source"));
	else
		line("jdk", "none");
	line("backend", str(id, "backend") ? str(id, "backend") : "none");
	line("nvidia driver",
	     str(id, "driver_version") ? str(id, "driver_version") : "none");
	if (cJSON_IsNumber(api))
		linef("cuda driver api", "%d", api->valueint);
	if ((v = str(info, "libcuda")))
		line("libcuda", v);
	print_gpus(info);
	line("stored", stored);
}

static int show(struct ctx *ctx, int json, const char *backend, int refresh)
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
	j = fingerprint_to_json(&fp);
	if (json) {
		if (in_repo)
			cJSON_AddStringToObject(j, "ref", stored);
		else
			cJSON_AddNullToObject(j, "ref");
		cmd_print_json(j);
		j = NULL;
	} else {
		print_text(j, stored);
	}
out:
	cJSON_Delete(j);
	fingerprint_release(&fp);
	return rc < 0 ? cmd_fail(ctx) : 0;
}

/* "NVIDIA H200 x1, cuda, Debian 17.0.15, AMD EPYC 7B13, Debian 12" */
static void summary(const cJSON *id)
{
	const cJSON *models = cJSON_GetObjectItem(id, "gpu_models");
	const cJSON *count = cJSON_GetObjectItem(id, "gpu_count");
	const char *parts[4] = {str(id, "backend"), NULL, str(id, "cpu_model"),
				str(id, "os")};
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
			if (str(id, "jdk_version"))
				printf("%s%s %s", sep,
				       str(id, "jdk_vendor")
					       ? str(id, "jdk_vendor")
					       : "jdk",
				       str(id, "jdk_version"));
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
	cJSON_ArrayForEach(e, arr)
	{
		int in_db = cJSON_IsTrue(cJSON_GetObjectItem(e, "in_db"));
		int in_ref = cJSON_IsTrue(cJSON_GetObjectItem(e, "in_ref"));

		printf("%s  %-20s  %-6s  ", str(e, "id"),
		       str(e, "seen_at") ? str(e, "seen_at") : "-",
		       in_db && in_ref ? "db,ref"
		       : in_db	       ? "db"
				       : "ref");
		summary(cJSON_GetObjectItem(e, "identity"));
	}
	cJSON_Delete(arr);
	return 0;
}

int cmd_env(int argc, const char **argv, struct ctx *ctx)
{
	int json = 0, refresh = 0;
	const char *backend = NULL;
	const struct option opts[] = {
		OPT_BOOL(0, "json", &json, "print the fingerprint as JSON"),
		OPT_STRING(0, "backend", &backend, "B",
			   "the backend measured (default: campaign.backend)"),
		OPT_BOOL(0, "refresh", &refresh,
			 "probe the JDK and GPUs again, ignoring the cache"),
		OPT_END(),
	};
	int n = parse_options(argc, argv, opts, env_usage);

	if (n < 0)
		return parse_options_status(n);
	if (n == 1 && !strcmp(argv[0], "list")) {
		if (backend || refresh)
			return usage_error(env_usage, opts,
					   "'env list' takes only --json");
		return list(ctx, json);
	}
	if (n)
		return usage_error(env_usage, opts, "unknown argument '%s'",
				   argv[0]);
	if (backend && fingerprint_check_backend(backend, &ctx->err) < 0)
		return cmd_fail(ctx);
	return show(ctx, json, backend, refresh);
}
