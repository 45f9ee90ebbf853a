/* The saved resume pointers, table resume_pointer: the only place its SQL
 * is written. */
#include "core/records/resume_pointer.h"

#include <stdlib.h>
#include <string.h>

#include "io/db.h"

void resume_saved_release(struct resume_saved *s)
{
	if (!s)
		return;
	free(s->at);
	free(s->author);
	free(s->branch);
	free(s->head);
	free(s->text);
	free(s->data);
	memset(s, 0, sizeof(*s));
}

int resume_pointer_add(struct resume_saved *s, struct ctx *ctx)
{
	sqlite3_stmt *st = NULL;
	struct db *db;
	int rc;

	if ((rc = ctx_db(&db, ctx, DB_CREATE)) < 0 ||
	    (rc = db_prepare(&st, db,
			     "INSERT INTO resume_pointer (at, author, branch,"
			     " head, text, data) VALUES (?, ?, ?, ?, ?, ?)",
			     &ctx->err)) < 0)
		return rc;
	db_bind_text_or_null(st, 1, s->at);
	db_bind_text_or_null(st, 2, s->author);
	db_bind_text_or_null(st, 3, s->branch);
	db_bind_text_or_null(st, 4, s->head);
	db_bind_text_or_null(st, 5, s->text);
	db_bind_text_or_null(st, 6, s->data);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return error_sqlite(&ctx->err, db, rc,
				    "cannot save the resume pointer");
	s->id = sqlite3_last_insert_rowid(db_handle(db));
	return 0;
}

int resume_pointer_last(struct resume_saved *out, int *found, struct ctx *ctx)
{
	sqlite3_stmt *st = NULL;
	struct db *db;
	int rc;

	memset(out, 0, sizeof(*out));
	*found = 0;
	if ((rc = ctx_db_if_any(&db, ctx)) < 0 || !db)
		return rc;
	if ((rc = db_prepare(&st, db,
			     "SELECT id, at, author, branch, head, text, data"
			     " FROM resume_pointer ORDER BY id DESC LIMIT 1",
			     &ctx->err)) < 0)
		return rc;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		out->id = sqlite3_column_int64(st, 0);
		out->at = db_col_dup(st, 1);
		out->author = db_col_dup(st, 2);
		out->branch = db_col_dup(st, 3);
		out->head = db_col_dup(st, 4);
		out->text = db_col_dup(st, 5);
		out->data = db_col_dup(st, 6);
		*found = 1;
		rc = 0;
	} else if (rc == SQLITE_DONE) {
		rc = 0;
	} else {
		rc = error_sqlite(&ctx->err, db, rc,
				  "cannot read the saved resume pointer");
	}
	sqlite3_finalize(st);
	return rc;
}
