/* The machine fingerprint: what a number was measured on. Identity keys
 * (GPU models and PCI device ids, GPU count, NVIDIA driver, CUDA driver API,
 * JDK vendor and version, backend, CPU model, OS, kernel MAJOR.MINOR) are
 * hashed into the environment id; info keys (hostname, CPU count, kernel
 * release, libc, each GPU's UUID, memory, bus id...) are kept but not
 * hashed. Stored in the database (table env) and once per repository as
 * refs/campaign/env/<id>, a blob of the fingerprint's JSON. */
#ifndef GCAMP_FINGERPRINT_H
#define GCAMP_FINGERPRINT_H

#include <cjson/cJSON.h>

#include "core/base/ctx.h"
#include "util/buf.h"
#include "util/strvec.h"

#define FINGERPRINT_ID_LEN 16
#define FINGERPRINT_REF_PREFIX "refs/campaign/env/"

/* The facts the probes found; NULL/0 where unknown. */
struct fingerprint_facts {
	char *cpu_model;
	long cpu_count;
	char *os;
	char *kernel_release; /* "6.1.0-28-amd64" */
	char *machine;	      /* "x86_64" */
	char *hostname;
	char *libc; /* "glibc 2.36" */
	char *jdk_vendor, *jdk_version, *jdk_runtime, *jdk_home;
	char *jdk_source; /* "JAVA_HOME", "PATH release", "java -version" */
	char *backend;
	char *driver_version;	   /* "580.159.04" from /proc/driver/nvidia */
	char *driver_version_text; /* that file's first line */
	int cuda_driver_api;	   /* cuDriverGetVersion, 0 when unknown */
	char *libcuda;		   /* the library loaded */
	cJSON *gpus;		   /* array of GPU objects (see env's JSON) */
	char *gpu_error;	   /* why there are no GPUs, or NULL */
};

struct fingerprint {
	char id[FINGERPRINT_ID_LEN + 1];
	cJSON *identity; /* owned */
	cJSON *info;	 /* owned */
};

/* Frees every string and gpus, and clears f. Accepts NULL. */
void fingerprint_facts_release(struct fingerprint_facts *f);
/* Frees identity and info and clears fp. Accepts NULL. */
void fingerprint_release(struct fingerprint *fp);

/* Sorts facts into identity and info keys and computes the id. Pure: the
 * unit tests build facts by hand. */
void fingerprint_build(struct fingerprint *out,
		       const struct fingerprint_facts *f);

/* JSON with every object's keys sorted (byte order), no spaces, integers
 * without a fraction: the form that is hashed. Caller frees. */
char *fingerprint_canonical_json(const cJSON *j);
/* The first FINGERPRINT_ID_LEN hex digits of SHA-256 of the canonical
 * JSON of identity. */
void fingerprint_hash(char out[FINGERPRINT_ID_LEN + 1], const cJSON *identity);

/* Records fp: the env row (inserted, or its info and seen_at updated) and
 * refs/campaign/env/<id> (created only when absent). Needs a repository
 * (GCAMP_ENOREPO otherwise); creates the database when missing. */
int fingerprint_store(struct ctx *ctx, const struct fingerprint *fp);

/* {"v":1,"id":...,"identity":{...},"info":{...}}, a new object. */
cJSON *fingerprint_to_json(const struct fingerprint *fp);

/* The fingerprint JSON of environment id (as fingerprint_to_json), from
 * the database, else from refs/campaign/env/<id>. GCAMP_ENOTFOUND when
 * neither has it. The caller frees *out with cJSON_Delete. */
int fingerprint_load_json(cJSON **out, struct ctx *ctx, const char *id);

/* fingerprint_load_json of each of ids[0..n) into out[i], NULL where it
 * is not known or cannot be read (ctx->err is left clear): one statement
 * for them all, and the env refs listed once. The caller frees each with
 * cJSON_Delete. */
void fingerprint_load_jsons(cJSON **out, struct ctx *ctx,
			    const char *const *ids, size_t n);

/* Appends to out, sorted, the identity keys whose values differ between a
 * and b (fingerprint JSON objects, or bare identity objects); a key
 * present in one only counts as differing. */
void fingerprint_diff_keys(struct strvec *out, const cJSON *a, const cJSON *b);

/* Every known environment, from the database and the refs under
 * refs/campaign/env/, sorted by id: an array of {"id", "seen_at" (or null),
 * "in_db", "in_ref", "identity"}. Needs a repository. Caller frees *out. */
int fingerprint_list(cJSON **out, struct ctx *ctx);

/* 0 when value is a valid backend name (letters, digits, '.', '_', '-';
 * 1 to 64 of them), else GCAMP_EUSAGE with the message in err. */
int fingerprint_check_backend(const char *value, struct error *err);

#endif
