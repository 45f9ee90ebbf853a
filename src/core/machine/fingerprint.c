/* The fingerprint's shape (identity and info keys), its canonical JSON and
 * id, and where it is kept: the env table and refs/campaign/env/<id>. The
 * probes are in collect.c. */
#include "core/machine/fingerprint.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/records/testrun.h"
#include "io/hostinfo.h"
#include "io/gitlite.h"
#include "io/ownlock.h"
#include "io/repo.h"
#include "util/buf.h"
#include "util/clock.h"
#include "util/json.h"
#include "util/sha256.h"
#include "util/xalloc.h"

_Static_assert(TESTRUN_ENV_SIZE == FINGERPRINT_ID_LEN + 1,
	       "an env id is FINGERPRINT_ID_LEN digits wherever it is kept");

void fingerprint_facts_release(struct fingerprint_facts *f)
{
	if (!f)
		return;
	free(f->cpu_model);
	free(f->os);
	free(f->kernel_release);
	free(f->machine);
	free(f->hostname);
	free(f->libc);
	free(f->jdk_vendor);
	free(f->jdk_version);
	free(f->jdk_runtime);
	free(f->jdk_home);
	free(f->jdk_source);
	free(f->backend);
	free(f->driver_version);
	free(f->driver_version_text);
	free(f->libcuda);
	cJSON_Delete(f->gpus);
	free(f->gpu_error);
	memset(f, 0, sizeof(*f));
}

void fingerprint_release(struct fingerprint *fp)
{
	if (!fp)
		return;
	cJSON_Delete(fp->identity);
	cJSON_Delete(fp->info);
	memset(fp, 0, sizeof(*fp));
}

/* --- canonical JSON --- */

static int cmp_items(const void *a, const void *b)
{
	const cJSON *x = *(const cJSON *const *)a;
	const cJSON *y = *(const cJSON *const *)b;

	return strcmp(x->string ? x->string : "", y->string ? y->string : "");
}

static void canon_string(struct buf *b, const char *s)
{
	buf_putc(b, '"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\') {
			buf_putc(b, '\\');
			buf_putc(b, (char)c);
		} else if (c == '\n') {
			buf_puts(b, "\\n");
		} else if (c == '\t') {
			buf_puts(b, "\\t");
		} else if (c < 0x20) {
			buf_addf(b, "\\u%04x", c);
		} else {
			buf_putc(b, (char)c);
		}
	}
	buf_putc(b, '"');
}

static void canon(struct buf *b, const cJSON *j)
{
	const cJSON *c;

	if (cJSON_IsObject(j)) {
		const cJSON **items;
		size_t n = 0, i;

		for (c = j->child; c; c = c->next)
			n++;
		items = xcalloc(n ? n : 1, sizeof(*items));
		for (c = j->child, i = 0; c; c = c->next)
			items[i++] = c;
		qsort(items, n, sizeof(*items), cmp_items);
		buf_putc(b, '{');
		for (i = 0; i < n; i++) {
			if (i)
				buf_putc(b, ',');
			canon_string(b,
				     items[i]->string ? items[i]->string : "");
			buf_putc(b, ':');
			canon(b, items[i]);
		}
		buf_putc(b, '}');
		free(items);
	} else if (cJSON_IsArray(j)) {
		buf_putc(b, '[');
		for (c = j->child; c; c = c->next) {
			if (c != j->child)
				buf_putc(b, ',');
			canon(b, c);
		}
		buf_putc(b, ']');
	} else if (cJSON_IsString(j)) {
		canon_string(b, j->valuestring ? j->valuestring : "");
	} else if (cJSON_IsNumber(j)) {
		double d = j->valuedouble;

		/* integers (the only numbers identity holds) exactly */
		if (d > -9007199254740992.0 && d < 9007199254740992.0 &&
		    (double)(long long)d == d)
			buf_addf(b, "%lld", (long long)d);
		else
			buf_addf(b, "%.17g", d);
	} else if (cJSON_IsTrue(j)) {
		buf_puts(b, "true");
	} else if (cJSON_IsFalse(j)) {
		buf_puts(b, "false");
	} else {
		buf_puts(b, "null");
	}
}

char *fingerprint_canonical_json(const cJSON *j)
{
	struct buf b = BUF_INIT;

	canon(&b, j);
	return buf_detach(&b);
}

void fingerprint_hash(char out[FINGERPRINT_ID_LEN + 1], const cJSON *identity)
{
	char *s = fingerprint_canonical_json(identity);
	char hex[2 * SHA256_DIGEST_LEN + 1];

	sha256_hex(hex, s, strlen(s));
	memcpy(out, hex, FINGERPRINT_ID_LEN);
	out[FINGERPRINT_ID_LEN] = '\0';
	free(s);
}

/* --- identity and info --- */

void fingerprint_build(struct fingerprint *out,
		       const struct fingerprint_facts *f)
{
	cJSON *id = cJSON_CreateObject(), *info = cJSON_CreateObject();
	cJSON *models = NULL, *pci = NULL;
	const cJSON *g;
	int ngpus = cJSON_GetArraySize(f->gpus), all_pci = ngpus > 0;
	char *kernel = NULL;

	memset(out, 0, sizeof(*out));
	/* identity: what makes numbers comparable; keys in sorted order */
	json_add_str_if_set(id, "backend", f->backend);
	json_add_str_if_set(id, "cpu_model", f->cpu_model);
	if (f->cuda_driver_api > 0)
		cJSON_AddNumberToObject(id, "cuda_driver_api",
					f->cuda_driver_api);
	json_add_str_if_set(id, "driver_version", f->driver_version);
	cJSON_AddNumberToObject(id, "gpu_count", ngpus);
	if (ngpus) {
		models = cJSON_AddArrayToObject(id, "gpu_models");
		pci = cJSON_CreateArray();
		cJSON_ArrayForEach(g, f->gpus) {
			const cJSON *n =
				cJSON_GetObjectItemCaseSensitive(g, "name");
			const cJSON *p = cJSON_GetObjectItemCaseSensitive(
				g, "pci_device_id");

			cJSON_AddItemToArray(
				models,
				cJSON_CreateString(cJSON_IsString(n)
							   ? n->valuestring
							   : ""));
			if (cJSON_IsString(p))
				cJSON_AddItemToArray(
					pci,
					cJSON_CreateString(p->valuestring));
			else
				all_pci = 0;
		}
		/* a device id read for some GPUs only would make the id
		 * depend on sysfs permissions */
		if (all_pci)
			cJSON_AddItemToObject(id, "gpu_pci_device_ids", pci);
		else
			cJSON_Delete(pci);
	}
	json_add_str_if_set(id, "jdk_vendor", f->jdk_vendor);
	json_add_str_if_set(id, "jdk_version", f->jdk_version);
	if (f->kernel_release) {
		kernel = host_kernel_major(f->kernel_release);
		json_add_str_if_set(id, "kernel", kernel);
	}
	json_add_str_if_set(id, "os", f->os);

	/* info: kept for people, not hashed */
	if (f->cpu_count > 0)
		cJSON_AddNumberToObject(info, "cpu_count",
					(double)f->cpu_count);
	json_add_str_if_set(info, "driver_version_text",
			    f->driver_version_text);
	json_add_str_if_set(info, "gpu_error", f->gpu_error);
	cJSON_AddItemToObject(info, "gpus",
			      f->gpus ? cJSON_Duplicate(f->gpus, 1)
				      : cJSON_CreateArray());
	json_add_str_if_set(info, "hostname", f->hostname);
	json_add_str_if_set(info, "jdk_home", f->jdk_home);
	json_add_str_if_set(info, "jdk_runtime_version", f->jdk_runtime);
	json_add_str_if_set(info, "jdk_source", f->jdk_source);
	json_add_str_if_set(info, "kernel_release", f->kernel_release);
	json_add_str_if_set(info, "libc", f->libc);
	json_add_str_if_set(info, "libcuda", f->libcuda);
	json_add_str_if_set(info, "machine", f->machine);
	free(kernel);
	out->identity = id;
	out->info = info;
	fingerprint_hash(out->id, id);
}

cJSON *fingerprint_to_json(const struct fingerprint *fp)
{
	cJSON *j = cJSON_CreateObject();

	cJSON_AddNumberToObject(j, "v", 1);
	cJSON_AddStringToObject(j, "id", fp->id);
	cJSON_AddItemToObject(j, "identity", cJSON_Duplicate(fp->identity, 1));
	cJSON_AddItemToObject(j, "info", cJSON_Duplicate(fp->info, 1));
	return j;
}

int fingerprint_check_backend(const char *value, struct error *err)
{
	size_t n = strlen(value);

	if (!n || n > 64 ||
	    strspn(value, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			  "0123456789._-") != n)
		return error_set(err, GCAMP_EUSAGE,
				 "'%s' is not a backend name (letters, digits, "
				 "'.', '_', '-')",
				 value);
	return 0;
}

static int valid_id(const char *id)
{
	return strlen(id) == FINGERPRINT_ID_LEN &&
	       strspn(id, "0123456789abcdef") == FINGERPRINT_ID_LEN;
}

/* --- storage --- */

static int store_ref(git_repository *repo, const struct fingerprint *fp,
		     struct error *err)
{
	char *name = xasprintf(FINGERPRINT_REF_PREFIX "%s", fp->id);
	char *msg = xasprintf("campaign env: record fingerprint %s", fp->id);
	cJSON *j = fingerprint_to_json(fp);
	char *text = cJSON_Print(j);
	git_reference *ref = NULL;
	struct ownlock *guard = NULL;
	char *dir = NULL, *lock = NULL;
	const char *guarded[2] = {NULL, NULL};
	git_oid oid, seen;
	int rc, tries;

	if (git_reference_name_to_id(&oid, repo, name) == 0) {
		rc = 0; /* recorded before: the first record stays */
		goto out;
	}
	if ((rc = git_blob_create_from_buffer(&oid, repo, text, strlen(text))) <
	    0) {
		rc = error_git(err, rc, "cannot write fingerprint %s", fp->id);
		goto out;
	}
	/* under a guard, the .lock a killed run of ours left is removed */
	dir = xasprintf("%scampaign", git_repository_commondir(repo));
	guarded[0] = lock =
		xasprintf("%s%s.lock", git_repository_commondir(repo), name);
	if ((rc = ownlock_acquire(&guard, NULL, dir, "env-ref", guarded, err)) <
	    0)
		goto out;
	/* Another process recording the same machine holds the ref's lock
	 * for a moment: wait for its record (the first stays) rather than
	 * fail the measurement. */
	for (tries = 0; tries < 200; tries++) {
		rc = git_reference_create(&ref, repo, name, &oid, 0, msg);
		if (rc != GIT_ELOCKED)
			break;
		if (git_reference_name_to_id(&seen, repo, name) == 0) {
			rc = 0;
			break;
		}
		nanosleep(&(struct timespec){.tv_nsec = 10 * 1000 * 1000},
			  NULL);
	}
	if (rc == GIT_EEXISTS) /* another process was first */
		rc = 0;
	else if (rc < 0)
		rc = error_git(err, rc, "cannot create '%s'", name);
out:
	ownlock_release(guard);
	free(dir);
	free(lock);
	git_reference_free(ref);
	cJSON_free(text);
	cJSON_Delete(j);
	free(msg);
	free(name);
	return rc;
}

static int store_row(struct db *db, const struct fingerprint *fp,
		     struct error *err)
{
	char *identity = fingerprint_canonical_json(fp->identity);
	char *info = fingerprint_canonical_json(fp->info);
	sqlite3_stmt *st = NULL;
	char now[32];
	int rc;

	clock_now_iso(now);
	if ((rc = db_prepare(&st, db,
			     "INSERT INTO env (id, identity, info, seen_at) "
			     "VALUES (?1, ?2, ?3, ?4) ON CONFLICT (id) DO "
			     "UPDATE SET info = excluded.info, seen_at = "
			     "excluded.seen_at",
			     err)) < 0)
		goto out;
	sqlite3_bind_text(st, 1, fp->id, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, identity, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, info, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, now, -1, SQLITE_STATIC);
	if ((rc = sqlite3_step(st)) != SQLITE_DONE)
		rc = error_sqlite(err, db, rc, "cannot record environment %s",
				  fp->id);
	else
		rc = 0;
out:
	sqlite3_finalize(st);
	free(identity);
	free(info);
	return rc;
}

int fingerprint_store(struct ctx *ctx, const struct fingerprint *fp)
{
	git_repository *repo;
	struct db *db;
	int rc;

	if ((rc = ctx_repo(&repo, ctx, 0)) < 0 ||
	    (rc = ctx_db(&db, ctx, DB_CREATE)) < 0)
		return rc;
	if ((rc = store_ref(repo, fp, &ctx->err)) < 0)
		return rc;
	return store_row(db, fp, &ctx->err);
}

/* --- reading --- */

/* The fingerprint JSON in refs/campaign/env/<id>; GCAMP_ENOTFOUND without
 * an error message when there is no such ref. */
static int load_ref(cJSON **out, git_repository *repo, const char *id,
		    struct error *err)
{
	char *name = xasprintf(FINGERPRINT_REF_PREFIX "%s", id);
	git_blob *blob = NULL;
	git_oid oid;
	int rc = 0;

	*out = NULL;
	if (git_reference_name_to_id(&oid, repo, name) < 0) {
		rc = GCAMP_ENOTFOUND;
		goto out;
	}
	if ((rc = git_blob_lookup(&blob, repo, &oid)) < 0) {
		rc = error_git(err, rc, "'%s' is not a fingerprint", name);
		goto out;
	}
	*out = cJSON_ParseWithLength(git_blob_rawcontent(blob),
				     (size_t)git_blob_rawsize(blob));
	if (!cJSON_IsObject(
		    cJSON_GetObjectItemCaseSensitive(*out, "identity"))) {
		cJSON_Delete(*out);
		*out = NULL;
		rc = error_set(err, GCAMP_EFATAL,
			       "'%s' does not hold a fingerprint", name);
	}
out:
	git_blob_free(blob);
	free(name);
	return rc;
}

static const char env_row_sql[] =
	"SELECT identity, info FROM env WHERE id = ?1";

/* The fingerprint of id from its env row, with st (env_row_sql): 1 found,
 * 0 none, or an error. */
static int load_row(cJSON **out, sqlite3_stmt *st, struct db *db,
		    const char *id, struct error *err)
{
	cJSON *j;
	int rc;

	*out = NULL;
	sqlite3_reset(st);
	sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
	if ((rc = sqlite3_step(st)) == SQLITE_DONE)
		return 0;
	if (rc != SQLITE_ROW)
		return error_sqlite(err, db, rc, "cannot read environment %s",
				    id);
	j = cJSON_CreateObject();
	cJSON_AddNumberToObject(j, "v", 1);
	cJSON_AddStringToObject(j, "id", id);
	cJSON_AddItemToObject(
		j, "identity",
		cJSON_Parse((const char *)sqlite3_column_text(st, 0)));
	cJSON_AddItemToObject(
		j, "info",
		cJSON_Parse((const char *)sqlite3_column_text(st, 1)));
	*out = j;
	return 1;
}

int fingerprint_load_json(cJSON **out, struct ctx *ctx, const char *id)
{
	git_repository *repo;
	struct gitlite *lite;
	struct refs refs;
	sqlite3_stmt *st = NULL;
	struct db *db;
	char *ref, oid[REFS_HEX_SIZE];
	int rc;

	*out = NULL;
	if (!valid_id(id))
		return error_set(&ctx->err, GCAMP_ENOTFOUND,
				 "'%s' is not an environment id", id);
	if ((rc = ctx_db_if_any(&db, ctx)) < 0)
		return rc;
	if (db) {
		if ((rc = db_prepare(&st, db, env_row_sql, &ctx->err)) < 0)
			return rc;
		rc = load_row(out, st, db, id, &ctx->err);
		sqlite3_finalize(st);
		if (rc)
			return rc < 0 ? rc : 0;
	}
	/* the object database only for a fingerprint that is there */
	if ((rc = ctx_lite(&lite, ctx)) < 0)
		return rc;
	ref = xasprintf(FINGERPRINT_REF_PREFIX "%s", id);
	gitlite_refs(&refs, lite);
	rc = refs_resolve(oid, &refs, ref);
	free(ref);
	if (rc == 0 && (rc = ctx_repo(&repo, ctx, 0)) == 0)
		rc = load_ref(out, repo, id, &ctx->err);
	if (rc == GCAMP_ENOTFOUND)
		return error_set(&ctx->err, GCAMP_ENOTFOUND,
				 "no environment '%s'", id);
	return rc;
}

static const cJSON *identity_of(const cJSON *j)
{
	const cJSON *id = cJSON_GetObjectItemCaseSensitive(j, "identity");

	return cJSON_IsObject(id) ? id : j;
}

/* 1 when key (of object a) is missing from b or has another value */
static int differs(const cJSON *item, const cJSON *b)
{
	const cJSON *other = cJSON_GetObjectItemCaseSensitive(b, item->string);
	char *x, *y;
	int d;

	if (!other)
		return 1;
	x = fingerprint_canonical_json(item);
	y = fingerprint_canonical_json(other);
	d = strcmp(x, y) != 0;
	free(x);
	free(y);
	return d;
}

void fingerprint_diff_keys(struct strvec *out, const cJSON *a, const cJSON *b)
{
	const cJSON *ia = identity_of(a), *ib = identity_of(b), *c;
	struct strvec keys = STRVEC_INIT;
	size_t i;

	cJSON_ArrayForEach(c, ia)
		if (c->string && differs(c, ib))
			strvec_push(&keys, c->string);
	cJSON_ArrayForEach(c, ib)
		if (c->string &&
		    !cJSON_GetObjectItemCaseSensitive(ia, c->string))
			strvec_push(&keys, c->string);
	strvec_sort(&keys);
	for (i = 0; i < keys.nr; i++)
		strvec_push(out, keys.v[i]);
	strvec_clear(&keys);
}

static int collect_ref(const char *name, const char *oid, void *data)
{
	(void)oid;
	strvec_push(data, name + strlen(FINGERPRINT_REF_PREFIX));
	return 0;
}

static cJSON *find_entry(cJSON *arr, const char *id)
{
	cJSON *e;

	cJSON_ArrayForEach(e, arr) {
		const cJSON *i = cJSON_GetObjectItemCaseSensitive(e, "id");

		if (cJSON_IsString(i) && !strcmp(i->valuestring, id))
			return e;
	}
	return NULL;
}

static int cmp_entries(const void *a, const void *b)
{
	const cJSON *x = *(const cJSON *const *)a;
	const cJSON *y = *(const cJSON *const *)b;

	return strcmp(cJSON_GetObjectItemCaseSensitive(x, "id")->valuestring,
		      cJSON_GetObjectItemCaseSensitive(y, "id")->valuestring);
}

int fingerprint_list(cJSON **out, struct ctx *ctx)
{
	struct strvec refs = STRVEC_INIT;
	cJSON *arr = cJSON_CreateArray(), **items = NULL, *e;
	git_repository *repo;
	struct refs lg;
	sqlite3_stmt *st = NULL;
	struct db *db;
	size_t i, n = 0;
	int rc;

	*out = NULL;
	if ((rc = ctx_repo(&repo, ctx, 0)) < 0 ||
	    (rc = ctx_db_if_any(&db, ctx)) < 0)
		goto out;
	if (db) {
		if ((rc = db_prepare(&st, db,
				     "SELECT id, identity, seen_at FROM env",
				     &ctx->err)) < 0)
			goto out;
		while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
			e = cJSON_CreateObject();
			cJSON_AddStringToObject(
				e, "id",
				(const char *)sqlite3_column_text(st, 0));
			cJSON_AddStringToObject(
				e, "seen_at",
				(const char *)sqlite3_column_text(st, 2));
			cJSON_AddTrueToObject(e, "in_db");
			cJSON_AddFalseToObject(e, "in_ref");
			cJSON_AddItemToObject(
				e, "identity",
				cJSON_Parse((const char *)sqlite3_column_text(
					st, 1)));
			cJSON_AddItemToArray(arr, e);
		}
		if (rc != SQLITE_DONE) {
			rc = error_sqlite(&ctx->err, db, rc,
					  "cannot read the environments");
			goto out;
		}
	}
	repo_refs(&lg, repo);
	if ((rc = refs_for_each_prefix(&lg, FINGERPRINT_REF_PREFIX, collect_ref,
				       &refs)) < 0) {
		rc = error_set(&ctx->err, rc, "cannot list %s*",
			       FINGERPRINT_REF_PREFIX);
		goto out;
	}
	for (i = 0; i < refs.nr; i++) {
		cJSON *j = NULL;

		if (!valid_id(refs.v[i]))
			continue; /* not one of ours */
		if ((e = find_entry(arr, refs.v[i]))) {
			cJSON_ReplaceItemInObjectCaseSensitive(
				e, "in_ref", cJSON_CreateTrue());
			continue;
		}
		if ((rc = load_ref(&j, repo, refs.v[i], &ctx->err)) < 0)
			goto out;
		e = cJSON_CreateObject();
		cJSON_AddStringToObject(e, "id", refs.v[i]);
		cJSON_AddNullToObject(e, "seen_at");
		cJSON_AddFalseToObject(e, "in_db");
		cJSON_AddTrueToObject(e, "in_ref");
		cJSON_AddItemToObject(
			e, "identity",
			cJSON_DetachItemFromObjectCaseSensitive(j, "identity"));
		cJSON_AddItemToArray(arr, e);
		cJSON_Delete(j);
	}
	/* sorted by id: detach all, sort, put back */
	n = (size_t)cJSON_GetArraySize(arr);
	items = xcalloc(n ? n : 1, sizeof(*items));
	for (i = 0; i < n; i++)
		items[i] = cJSON_DetachItemFromArray(arr, 0);
	qsort(items, n, sizeof(*items), cmp_entries);
	for (i = 0; i < n; i++)
		cJSON_AddItemToArray(arr, items[i]);
	*out = arr;
	arr = NULL;
	rc = 0;
out:
	free(items);
	sqlite3_finalize(st);
	strvec_clear(&refs);
	cJSON_Delete(arr);
	return rc;
}

static int listed(const struct strvec *v, const char *s)
{
	size_t i;

	for (i = 0; i < v->nr; i++)
		if (!strcmp(v->v[i], s))
			return 1;
	return 0;
}

/* The refs are listed once (through gitlite: a lookup of each ref missing
 * from a packed repository would read the packed refs again), and
 * libgit2 opens the repository only to read a fingerprint that is there. */
void fingerprint_load_jsons(cJSON **out, struct ctx *ctx,
			    const char *const *ids, size_t n)
{
	struct strvec refs = STRVEC_INIT;
	git_repository *repo = NULL;
	struct gitlite *lite = NULL;
	struct refs files;
	sqlite3_stmt *st = NULL;
	struct db *db = NULL;
	int have_refs = 0;
	size_t i;

	if (ctx_lite(&lite, ctx) < 0 || ctx_db_if_any(&db, ctx) < 0 ||
	    (db && db_prepare(&st, db, env_row_sql, &ctx->err) < 0))
		error_clear(&ctx->err);
	for (i = 0; i < n; i++) {
		int rc = 0;

		out[i] = NULL;
		if (lite && valid_id(ids[i]) && st)
			rc = load_row(&out[i], st, db, ids[i], &ctx->err);
		if (lite && valid_id(ids[i]) && !rc) {
			if (!have_refs++) {
				gitlite_refs(&files, lite);
				refs_for_each_prefix(&files,
						     FINGERPRINT_REF_PREFIX,
						     collect_ref, &refs);
			}
			if (listed(&refs, ids[i]) &&
			    (repo || ctx_repo(&repo, ctx, 0) == 0))
				load_ref(&out[i], repo, ids[i], &ctx->err);
		}
		error_clear(&ctx->err);
	}
	sqlite3_finalize(st);
	strvec_clear(&refs);
}
