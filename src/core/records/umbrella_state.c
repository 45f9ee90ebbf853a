/* The umbrella issue's automatic updates, table umbrella_state: the only
 * place its SQL is written. */
#include "core/records/umbrella_state.h"

#include <stdio.h>
#include <string.h>

#include "io/db.h"

/* runs sql, ?1 bound to issue and ?2 to text, on the campaign database */
static int write_state(struct ctx *ctx, const char *sql, long issue,
		       const char *text, const char *what)
{
	sqlite3_stmt *st = NULL;
	struct db *db;
	int rc;

	if ((rc = ctx_db(&db, ctx, 0)) < 0 ||
	    (rc = db_prepare(&st, db, sql, &ctx->err)) < 0)
		return rc;
	sqlite3_bind_int64(st, 1, issue);
	sqlite3_bind_text(st, 2, text, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return error_sqlite(&ctx->err, db, rc, "%s #%ld", what, issue);
	return 0;
}

int umbrella_state_sent(struct ctx *ctx, long issue, const char *section)
{
	return write_state(ctx,
			   "INSERT INTO umbrella_state (issue, section) "
			   "VALUES (?1, ?2) ON CONFLICT (issue) DO UPDATE "
			   "SET section = excluded.section, "
			   "pending_since = NULL, tries = 0, error = NULL",
			   issue, section, "cannot record umbrella");
}

int umbrella_state_queue(struct ctx *ctx, long issue, const char *why)
{
	return write_state(ctx,
			   "INSERT INTO umbrella_state (issue, pending_since,"
			   " tries, error, last_try) VALUES (?1, "
			   "strftime('%Y-%m-%dT%H:%M:%SZ'), 1, ?2, "
			   "strftime('%Y-%m-%dT%H:%M:%SZ')) "
			   "ON CONFLICT (issue) DO UPDATE SET pending_since "
			   "= coalesce(pending_since, "
			   "excluded.pending_since), tries = tries + 1, "
			   "error = excluded.error, last_try = "
			   "excluded.last_try",
			   issue, why, "cannot queue the update of umbrella");
}

int umbrella_state_pending(struct umbrella_pending *out, struct ctx *ctx)
{
	sqlite3_stmt *st = NULL;
	struct db *db;
	int rc;

	memset(out, 0, sizeof(*out));
	if ((rc = ctx_db(&db, ctx, 0)) < 0 ||
	    (rc = db_prepare(&st, db,
			     "SELECT issue, pending_since, tries, "
			     "coalesce(error, '') FROM umbrella_state WHERE "
			     "pending_since IS NOT NULL ORDER BY issue LIMIT 1",
			     &ctx->err)) < 0)
		return rc;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		out->number = (long)sqlite3_column_int64(st, 0);
		snprintf(out->since, sizeof(out->since), "%s",
			 (const char *)sqlite3_column_text(st, 1));
		out->tries = sqlite3_column_int(st, 2);
		snprintf(out->error, sizeof(out->error), "%s",
			 (const char *)sqlite3_column_text(st, 3));
		rc = 1;
	} else if (rc == SQLITE_DONE) {
		rc = 0;
	} else {
		rc = error_sqlite(&ctx->err, db, rc,
				  "cannot read the umbrella's state");
	}
	sqlite3_finalize(st);
	return rc;
}

void umbrella_state_of(int *same, int *pending, int *wait, struct ctx *ctx,
		       long issue, const char *section)
{
	sqlite3_stmt *st = NULL;
	struct db *db;

	*same = *pending = *wait = 0;
	if (ctx_db(&db, ctx, 0) < 0 ||
	    db_prepare(&st, db,
		       "SELECT section = ?2 AND pending_since IS NULL, "
		       "pending_since IS NOT NULL, "
		       "unixepoch('now') - unixepoch(last_try) < "
		       "min(3600, 15 << min(tries, 8)) "
		       "FROM umbrella_state WHERE issue = ?1",
		       &ctx->err) < 0) {
		error_clear(&ctx->err);
		return;
	}
	sqlite3_bind_int64(st, 1, issue);
	sqlite3_bind_text(st, 2, section, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW) {
		*same = sqlite3_column_int(st, 0) == 1;
		*pending = sqlite3_column_int(st, 1) == 1;
		*wait = *pending && sqlite3_column_int(st, 2) == 1;
	}
	sqlite3_finalize(st);
}
