/* The A/B results, table ab_run: the only place its SQL is written. */
#include "core/records/ab_run.h"

#include <string.h>

int ab_run_insert(struct db *db, const struct ab_run_new *r, struct error *err)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if ((rc = db_prepare(&st, db,
			     "INSERT INTO ab_run (id, at, mode, workload,"
			     " verdict, invalid, result, markdown)"
			     " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
			     err)) < 0)
		return rc;
	sqlite3_bind_int64(st, 1, r->id);
	sqlite3_bind_text(st, 2, r->at, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, r->mode, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, r->workload, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 5, r->verdict, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 6, r->invalid);
	sqlite3_bind_text(st, 7, r->result, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 8, r->markdown, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return error_sqlite(err, db, rc, "cannot store the A/B result");
	return 0;
}

int ab_run_get(char **at, char **result, struct db *db, long long id,
	       struct error *err)
{
	sqlite3_stmt *st = NULL;
	int rc;

	*at = *result = NULL;
	if ((rc = db_prepare(&st, db,
			     "SELECT at, result FROM ab_run WHERE id = ?1",
			     err)) < 0)
		return rc;
	sqlite3_bind_int64(st, 1, id);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		*at = db_col_dup(st, 0);
		*result = db_col_dup(st, 1);
		rc = 0;
	} else if (rc == SQLITE_DONE) {
		rc = GCAMP_ENOTFOUND;
	} else {
		rc = error_sqlite(err, db, rc, "cannot read A/B run #%lld", id);
	}
	sqlite3_finalize(st);
	return rc;
}

int ab_run_for_each(struct db *db, int newest_first, ab_run_each_fn fn,
		    void *data, struct error *err)
{
	sqlite3_stmt *st = NULL;
	struct ab_run_row row;
	int rc, stop = 0;

	if ((rc = db_prepare(&st, db,
			     newest_first ? "SELECT id, at, verdict, result"
					    " FROM ab_run ORDER BY id DESC"
					  : "SELECT id, at, verdict, result"
					    " FROM ab_run ORDER BY id",
			     err)) < 0)
		return rc;
	while (!stop && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		row.id = sqlite3_column_int64(st, 0);
		row.at = (const char *)sqlite3_column_text(st, 1);
		row.verdict = (const char *)sqlite3_column_text(st, 2);
		row.result = (const char *)sqlite3_column_text(st, 3);
		stop = fn(&row, data);
	}
	sqlite3_finalize(st);
	if (stop)
		return stop;
	if (rc != SQLITE_DONE)
		return error_sqlite(err, db, rc, "cannot read the A/B runs");
	return 0;
}

int ab_run_last(struct ab_run_last *out, struct db *db, struct error *err)
{
	sqlite3_stmt *st = NULL;
	int rc;

	memset(out, 0, sizeof(*out));
	if ((rc = db_prepare(&st, db,
			     "SELECT id, at, workload, verdict FROM ab_run"
			     " ORDER BY id DESC LIMIT 1",
			     err)) < 0)
		return rc;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		out->id = sqlite3_column_int64(st, 0);
		out->at = db_col_dup(st, 1);
		out->workload = db_col_dup(st, 2);
		out->verdict = db_col_dup(st, 3);
		rc = 0;
	} else if (rc == SQLITE_DONE) {
		rc = 0;
	} else {
		rc = error_sqlite(err, db, rc, "cannot read the last A/B");
	}
	sqlite3_finalize(st);
	return rc;
}

int ab_run_exists(struct ctx *ctx, long long id)
{
	sqlite3_stmt *st = NULL;
	struct db *db;
	int rc;

	if ((rc = ctx_db_if_any(&db, ctx)) < 0)
		return rc;
	if (db && (rc = db_prepare(&st, db, "SELECT 1 FROM ab_run WHERE id = ?",
				   &ctx->err)) < 0)
		return rc;
	if (db) {
		sqlite3_bind_int64(st, 1, id);
		rc = sqlite3_step(st);
		sqlite3_finalize(st);
		if (rc == SQLITE_ROW)
			return 0;
		if (rc != SQLITE_DONE)
			return error_sqlite(&ctx->err, db, rc,
					    "cannot read the A/B runs");
	}
	error_set(&ctx->err, GCAMP_ENOTFOUND, "no A/B run #%lld", id);
	error_hint(&ctx->err, "'git campaign ab' records them; the run ids "
			      "are in its output");
	return GCAMP_ENOTFOUND;
}
