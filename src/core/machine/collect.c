/* Probing this machine for its fingerprint, with the expensive probes
 * (`java -version`, cuInit) cached in the database's meta table under a
 * stamp of what would change their answer. */
#include "core/machine/collect.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "core/machine/fingerprint.h"
#include "io/cuda.h"
#include "io/hostinfo.h"
#include "util/buf.h"
#include "util/json.h"
#include "util/trace.h"
#include "util/xalloc.h"

#define CACHE_JDK "fingerprint.cache.jdk"
#define CACHE_CUDA "fingerprint.cache.cuda"

/* The cached value under key when its stamp is stamp, else NULL. A cache
 * that cannot be read is a miss, never an error. */
static cJSON *cache_get(struct db *db, const char *key, const char *stamp)
{
	struct error ignored = ERROR_INIT;
	char *text = NULL;
	cJSON *j = NULL;
	const cJSON *s;

	if (!db || db_meta_get(&text, db, key, &ignored) < 0)
		return NULL;
	j = cJSON_Parse(text);
	free(text);
	s = cJSON_GetObjectItemCaseSensitive(j, "stamp");
	if (!cJSON_IsString(s) || strcmp(s->valuestring, stamp)) {
		cJSON_Delete(j);
		return NULL;
	}
	trace_printf("fingerprint: %s from the cache", key);
	return j;
}

/* Stores value (gains a "stamp" member) under key; failures are traced
 * only: the cache is an optimisation. */
static void cache_put(struct db *db, const char *key, const char *stamp,
		      cJSON *value)
{
	struct error err = ERROR_INIT;
	char *text;

	if (!db)
		return;
	cJSON_AddStringToObject(value, "stamp", stamp);
	text = cJSON_PrintUnformatted(value);
	if (db_meta_set(db, key, text, 0, &err) < 0)
		trace_printf("fingerprint: cannot cache %s: %s", key, err.msg);
	cJSON_free(text);
}

/* Forgets the cached value under key: a probe that failed must not leave
 * an older answer to be found by the next run. */
static void cache_drop(struct db *db, const char *key)
{
	struct error err = ERROR_INIT;

	if (db)
		db_meta_set(db, key, NULL, 0, &err);
}

/* "PATH mtime size" of a file, or "PATH missing" */
static void stamp_file(struct buf *b, const char *path)
{
	struct stat st;

	if (stat(path, &st) < 0)
		buf_addf(b, "%s missing\n", path);
	else
		buf_addf(b, "%s %lld.%09ld %lld\n", path,
			 (long long)st.st_mtim.tv_sec, (long)st.st_mtim.tv_nsec,
			 (long long)st.st_size);
}

static void jdk_to_facts(struct fingerprint_facts *f, struct host_jdk *j,
			 const char *source)
{
	f->jdk_vendor = j->vendor;
	f->jdk_version = j->version;
	f->jdk_runtime = j->runtime;
	f->jdk_home = j->home;
	f->jdk_source = xstrdup(source);
	memset(j, 0, sizeof(*j));
}

/*
 * $JAVA_HOME/release; else the java on PATH: its JDK's release file
 * (read, no process), else `java -XshowSettings:properties -version`
 * (about 100 ms, so cached by the binary's path, mtime and size).
 */
static void probe_jdk(struct fingerprint_facts *f, struct db *db, int refresh)
{
	const char *jh = getenv("JAVA_HOME");
	struct error why = ERROR_INIT;
	struct host_jdk j = {0};
	struct buf stamp = BUF_INIT;
	char *java = NULL, *home = NULL, *slash;
	cJSON *c = NULL;

	if (jh && *jh && host_jdk_from_release(&j, jh) == 0) {
		jdk_to_facts(f, &j, "JAVA_HOME");
		goto out;
	}
	if (!(java = host_java_on_path()))
		goto out;
	/* JDK/bin/java -> JDK */
	home = xstrdup(java);
	if ((slash = strrchr(home, '/')))
		*slash = '\0';
	if ((slash = strrchr(home, '/'))) {
		*slash = '\0';
		if (host_jdk_from_release(&j, *home ? home : "/") == 0) {
			jdk_to_facts(f, &j, "PATH");
			goto out;
		}
	}
	stamp_file(&stamp, java);
	if (!refresh && (c = cache_get(db, CACHE_JDK, stamp.ptr))) {
		f->jdk_vendor = json_dup_str(c, "vendor");
		f->jdk_version = json_dup_str(c, "version");
		f->jdk_runtime = json_dup_str(c, "runtime");
		f->jdk_home = json_dup_str(c, "home");
		f->jdk_source = xstrdup("java -version");
		goto out;
	}
	if (host_jdk_from_java(&j, java, &why) < 0) {
		trace_printf("fingerprint: no JDK: %s", why.msg);
		cache_drop(db, CACHE_JDK);
		goto out;
	}
	c = cJSON_CreateObject();
	if (j.vendor)
		cJSON_AddStringToObject(c, "vendor", j.vendor);
	cJSON_AddStringToObject(c, "version", j.version);
	if (j.runtime)
		cJSON_AddStringToObject(c, "runtime", j.runtime);
	if (j.home)
		cJSON_AddStringToObject(c, "home", j.home);
	cache_put(db, CACHE_JDK, stamp.ptr, c);
	jdk_to_facts(f, &j, "java -version");
out:
	cJSON_Delete(c);
	host_jdk_release(&j);
	buf_release(&stamp);
	free(home);
	free(java);
}

static cJSON *gpu_json(const struct cuda_device_info *d)
{
	cJSON *g = cJSON_CreateObject();
	char cc[32], *pci;

	snprintf(cc, sizeof(cc), "%d.%d", d->cc_major, d->cc_minor);
	cJSON_AddStringToObject(g, "compute_capability", cc);
	cJSON_AddNumberToObject(g, "index", d->ordinal);
	cJSON_AddNumberToObject(g, "memory_bytes", (double)d->memory);
	if (d->mig_uuid[0])
		cJSON_AddStringToObject(g, "mig_uuid", d->mig_uuid);
	cJSON_AddStringToObject(g, "name", d->name);
	cJSON_AddStringToObject(g, "pci_bus_id", d->pci_bus_id);
	if ((pci = host_pci_device_id(d->pci_bus_id)))
		cJSON_AddStringToObject(g, "pci_device_id", pci);
	free(pci);
	cJSON_AddNumberToObject(g, "sm_count", d->sm_count);
	cJSON_AddStringToObject(g, "uuid", d->uuid);
	return g;
}

/* cuInit and the device queries; the answer in f, or f->gpu_error. */
static int query_gpus(struct fingerprint_facts *f, struct cuda *cu)
{
	struct error why = ERROR_INIT;
	struct cuda_device_info d;
	int n = 0, i;

	cuda_driver_version(&f->cuda_driver_api, cu, &why);
	error_clear(&why);
	if (cuda_init(cu, &why) < 0 || cuda_device_count(&n, cu, &why) < 0)
		goto fail;
	if (n <= 0) {
		error_set(&why, GCAMP_ENOTFOUND,
			  "the driver reports no device");
		goto fail;
	}
	for (i = 0; i < n; i++) {
		if (cuda_device_info(&d, cu, i, &why) < 0)
			goto fail;
		cJSON_AddItemToArray(f->gpus, gpu_json(&d));
	}
	return 0;
fail:
	cJSON_Delete(f->gpus);
	f->gpus = cJSON_CreateArray();
	f->gpu_error = xstrdup(why.msg);
	return -1;
}

/*
 * The GPUs through the Driver API. Loading the library is cheap and tells
 * which file it is; cuInit (about 200 ms) is not, so the answer is cached
 * by that file's path, mtime and size, the NVIDIA driver's version file
 * and CUDA_VISIBLE_DEVICES. Only complete answers are cached: a failure
 * is probed again next time.
 */
static void probe_cuda(struct fingerprint_facts *f, struct db *db, int refresh,
		       const char *driver_file)
{
	const char *visible = getenv("CUDA_VISIBLE_DEVICES");
	struct error why = ERROR_INIT;
	struct buf stamp = BUF_INIT;
	struct cuda *cu = NULL;
	cJSON *c = NULL;
	const cJSON *v;

	f->gpus = cJSON_CreateArray();
	if (cuda_open(&cu, &why) < 0) {
		f->gpu_error = xstrdup(why.msg);
		goto out;
	}
	f->libcuda = xstrdup(cuda_path(cu));
	stamp_file(&stamp, f->libcuda);
	buf_addf(&stamp, "CUDA_VISIBLE_DEVICES=%s\n",
		 visible ? visible : "(unset)");
	buf_puts(&stamp, driver_file ? driver_file : "(no NVIDIA driver)");
	if (!refresh && (c = cache_get(db, CACHE_CUDA, stamp.ptr))) {
		v = cJSON_GetObjectItemCaseSensitive(c, "driver_api");
		f->cuda_driver_api = cJSON_IsNumber(v) ? v->valueint : 0;
		v = cJSON_GetObjectItemCaseSensitive(c, "gpus");
		if (cJSON_IsArray(v)) {
			cJSON_Delete(f->gpus);
			f->gpus = cJSON_Duplicate(v, 1);
		}
		goto out;
	}
	if (query_gpus(f, cu) < 0) {
		cache_drop(db, CACHE_CUDA);
		goto out;
	}
	c = cJSON_CreateObject();
	cJSON_AddNumberToObject(c, "driver_api", f->cuda_driver_api);
	cJSON_AddItemToObject(c, "gpus", cJSON_Duplicate(f->gpus, 1));
	cache_put(db, CACHE_CUDA, stamp.ptr, c);
out:
	cJSON_Delete(c);
	cuda_close(cu);
	buf_release(&stamp);
}

/* --backend, else campaign.backend (checked as config checks it) */
static int resolve_backend(struct fingerprint_facts *f, struct ctx *ctx,
			   const char *given, int in_repo)
{
	struct error why = ERROR_INIT;
	struct gitcfg *cfg;
	const char *v;
	int rc;

	if (given) {
		if ((rc = fingerprint_check_backend(given, &ctx->err)) < 0)
			return rc;
		f->backend = xstrdup(given);
		return 0;
	}
	if (!in_repo)
		return 0;
	if ((rc = ctx_config(&cfg, ctx)) < 0)
		return rc;
	if (gitcfg_get(&v, cfg, "campaign.backend") < 0)
		return 0;
	if (fingerprint_check_backend(v, &why) < 0) {
		error_set(&ctx->err, GCAMP_EFATAL,
			  "bad campaign.backend in git config: %s", why.msg);
		error_hint(&ctx->err,
			   "fix it with 'git campaign config backend VALUE'");
		return GCAMP_EFATAL;
	}
	f->backend = xstrdup(v);
	return 0;
}

/* The cheap facts; *driver_file is the NVIDIA driver's version file (the
 * caller frees it), or NULL. */
static void probe_host(struct fingerprint_facts *f, char **driver_file)
{
	struct utsname u;
	char host[256];

	f->cpu_model = host_cpu_model();
	f->cpu_count = host_cpu_count();
	f->os = host_os();
	if (uname(&u) == 0) {
		f->kernel_release = xstrdup(u.release);
		f->machine = xstrdup(u.machine);
	}
	if (gethostname(host, sizeof(host)) == 0) {
		host[sizeof(host) - 1] = '\0';
		f->hostname = xstrdup(host);
	}
	f->libc = host_libc();
	host_nvidia_driver(driver_file, &f->driver_version);
	if (*driver_file) {
		struct buf first = BUF_INIT;

		buf_add(&first, *driver_file, strcspn(*driver_file, "\n"));
		buf_rtrim(&first);
		f->driver_version_text = buf_detach(&first);
	}
}

int fingerprint_collect(struct fingerprint *out, struct ctx *ctx,
			const struct fingerprint_opts *o)
{
	struct fingerprint_facts f = {0};
	git_repository *repo;
	struct db *db = NULL;
	char *driver_file = NULL;
	int rc, in_repo;

	memset(out, 0, sizeof(*out));
	rc = ctx_repo(&repo, ctx, 0);
	if (rc == GCAMP_ENOREPO)
		error_clear(&ctx->err);
	else if (rc < 0)
		return rc;
	in_repo = rc == 0;
	if ((rc = resolve_backend(&f, ctx, o->backend, in_repo)) < 0)
		goto out;
	if (in_repo && (rc = ctx_db(&db, ctx, DB_CREATE)) < 0)
		goto out;
	probe_host(&f, &driver_file);
	probe_jdk(&f, db, o->refresh);
	probe_cuda(&f, db, o->refresh, driver_file);
	fingerprint_build(out, &f);
	rc = 0;
out:
	free(driver_file);
	fingerprint_facts_release(&f);
	return rc;
}

int fingerprint_current_id(char out[FINGERPRINT_ID_LEN + 1], struct ctx *ctx,
			   const char *backend)
{
	struct fingerprint_opts o = {backend, 0};
	struct fingerprint fp = {0};
	int rc;

	out[0] = '\0';
	if ((rc = fingerprint_collect(&fp, ctx, &o)) < 0 ||
	    (rc = fingerprint_store(ctx, &fp)) < 0)
		goto out;
	memcpy(out, fp.id, FINGERPRINT_ID_LEN + 1);
out:
	fingerprint_release(&fp);
	return rc;
}
