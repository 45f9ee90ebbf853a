/* A recorded A/B run read back from table ab_run (ab_result_from_json),
 * so that what shows an old run (resume, PR bodies) draws it with the same
 * code as `git campaign ab` did. */
#include <sqlite3.h>
#include <string.h>

#include "core/ab/ab.h"
#include "io/db.h"
#include "util/xalloc.h"

int ab_load(struct ab_result *out, char **at, struct ctx *ctx, long long id)
{
	sqlite3_stmt *st = NULL;
	cJSON *j = NULL;
	struct db *db;
	int rc;

	memset(out, 0, sizeof(*out));
	if (at)
		*at = NULL;
	if ((rc = ctx_db_if_any(&db, ctx)) < 0)
		goto out;
	if (!db)
		goto none;
	if ((rc = db_prepare(&st, db,
			     "SELECT at, result FROM ab_run WHERE id = ?1",
			     &ctx->err)) < 0)
		goto out;
	sqlite3_bind_int64(st, 1, id);
	rc = sqlite3_step(st);
	if (rc == SQLITE_DONE)
		goto none;
	if (rc != SQLITE_ROW) {
		rc = error_sqlite(&ctx->err, db, rc,
				  "cannot read A/B run #%lld", id);
		goto out;
	}
	j = cJSON_Parse((const char *)sqlite3_column_text(st, 1));
	if (ab_result_from_json(out, j) < 0) {
		rc = error_set(&ctx->err, GCAMP_EFATAL,
			       "A/B run #%lld: its record is not an A/B result",
			       id);
		goto out;
	}
	if (at)
		*at = xstrdup((const char *)sqlite3_column_text(st, 0));
	rc = 0;
	goto out;
none:
	rc = error_set(&ctx->err, GCAMP_ENOTFOUND, "no A/B run #%lld", id);
out:
	sqlite3_finalize(st);
	cJSON_Delete(j);
	return rc;
}
