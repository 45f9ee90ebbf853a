/* The figures the measurement index keeps: the stored floor of an env,
 * and the index's size and newest rows. */
#include "core/measure/stored.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/measure/measure.h"
#include "util/xalloc.h"

/* the values of a metric for an env, ?1 and ?2; the newest is picked in C,
 * as an ORDER BY here would need a temporary b-tree (the index has no at) */
static const char stored_sql[] =
	"SELECT value, commit_id, at, id FROM measurement"
	" WHERE metric = ?1 AND env = ?2"
	"  AND json_extract(config, '$.kind') = 'floor'"
	"  AND json_extract(config, '$.device') = '0'";

/* the newest value (latest at, then highest id) of metric for env with st
 * (stored_sql): 1 found, 0 none, or an error */
static int stored_value(double *v, char *commit, char *at, sqlite3_stmt *st,
			struct db *db, const char *metric, const char *env,
			struct error *err)
{
	struct buf best_at = BUF_INIT;
	sqlite3_int64 best_id = 0;
	int rc, found = 0;

	sqlite3_reset(st);
	sqlite3_bind_text(st, 1, metric, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, env, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *c = (const char *)sqlite3_column_text(st, 1);
		const char *a = (const char *)sqlite3_column_text(st, 2);
		sqlite3_int64 id = sqlite3_column_int64(st, 3);
		int cmp;

		a = a ? a : "";
		cmp = strcmp(a, best_at.ptr);
		if (found && (cmp < 0 || (cmp == 0 && id < best_id)))
			continue;
		found = 1;
		best_id = id;
		buf_reset(&best_at);
		buf_puts(&best_at, a);
		*v = sqlite3_column_double(st, 0);
		if (commit)
			snprintf(commit, 41, "%s", c ? c : "");
		if (at)
			snprintf(at, 32, "%s", a);
	}
	buf_release(&best_at);
	if (rc != SQLITE_DONE)
		return error_sqlite(err, db, rc,
				    "cannot read the stored floor");
	return found;
}

int floor_stored_envs(struct floor_ref *out, struct ctx *ctx,
		      const char *const *envs, size_t n)
{
	sqlite3_stmt *st = NULL;
	struct db *db;
	size_t i;
	int found = 0, rc;

	for (i = 0; i < n; i++) {
		memset(&out[i], 0, sizeof(out[i]));
		out[i].launch_us = out[i].htod_us = -1;
	}
	if ((rc = ctx_db_if_any(&db, ctx)) < 0 || !db)
		return rc;
	if ((rc = db_prepare(&st, db, stored_sql, &ctx->err)) < 0)
		return rc;
	for (i = 0; i < n; i++) {
		struct floor_ref *f = &out[i];

		if ((rc = stored_value(&f->launch_us, f->commit, f->at, st, db,
				       "floor.launch_sync", envs[i],
				       &ctx->err)) < 0)
			goto out;
		if (!rc)
			continue;
		found++;
		if ((rc = stored_value(&f->htod_us, NULL, NULL, st, db,
				       "floor.htod_24B", envs[i], &ctx->err)) <
		    0)
			goto out;
	}
	rc = found;
out:
	sqlite3_finalize(st);
	return rc;
}

int floor_stored(struct floor_ref *out, struct ctx *ctx, const char *env)
{
	struct db *db;
	int rc;

	memset(out, 0, sizeof(*out));
	out->launch_us = out->htod_us = -1;
	if ((rc = ctx_db_if_any(&db, ctx)) < 0 || !db ||
	    (rc = measure_index_update(ctx)) < 0)
		return rc;
	return floor_stored_envs(out, ctx, &env, 1);
}

int measure_index_count(long long *out, struct db *db, struct error *err)
{
	sqlite3_stmt *st = NULL;
	int rc;

	*out = 0;
	if ((rc = db_prepare(&st, db, "SELECT count(*) FROM measurement",
			     err)) < 0)
		return rc;
	if (sqlite3_step(st) == SQLITE_ROW)
		*out = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return 0;
}

int measure_index_recent(struct db *db, int max_rows, measure_row_fn fn,
			 void *data, struct error *err)
{
	sqlite3_stmt *st = NULL;
	struct measure_row r;
	int rc, stop = 0;

	if ((rc = db_prepare(&st, db,
			     "SELECT substr(commit_id, 1, 10), metric, value,"
			     " coalesce(unit, ''), coalesce(arm, ''), env,"
			     " config FROM measurement"
			     " ORDER BY at DESC, commit_id, line LIMIT ?1",
			     err)) < 0)
		return rc;
	sqlite3_bind_int(st, 1, max_rows);
	while (!stop && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		r.commit = (const char *)sqlite3_column_text(st, 0);
		r.metric = (const char *)sqlite3_column_text(st, 1);
		r.value = sqlite3_column_double(st, 2);
		r.unit = (const char *)sqlite3_column_text(st, 3);
		r.arm = (const char *)sqlite3_column_text(st, 4);
		r.env = (const char *)sqlite3_column_text(st, 5);
		r.config = (const char *)sqlite3_column_text(st, 6);
		stop = fn(&r, data);
	}
	sqlite3_finalize(st);
	if (stop)
		return stop;
	if (rc != SQLITE_DONE)
		return error_sqlite(err, db, rc, "cannot read measurements");
	return 0;
}

int measure_metrics(struct strvec *out, struct ctx *ctx)
{
	sqlite3_stmt *st = NULL;
	struct db *db;
	int rc;

	if ((rc = ctx_db_if_any(&db, ctx)) < 0 || !db ||
	    (rc = measure_index_update(ctx)) < 0)
		return rc;
	if ((rc = db_prepare(&st, db,
			     "SELECT DISTINCT metric FROM measurement "
			     "ORDER BY metric",
			     &ctx->err)) < 0)
		return rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		strvec_push(out, (const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return error_sqlite(&ctx->err, db, rc,
				    "cannot read the measurement index");
	return 0;
}
