/* Findings in the database (table finding). */
#include "core/records/finding.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/db.h"
#include "util/clock.h"
#include "util/xalloc.h"

static const char *const finding_kinds[] = {"wrong-answer", "crash", "slow",
					    NULL};

int finding_check_kind(const char *kind, struct error *err)
{
	size_t i;

	for (i = 0; finding_kinds[i]; i++)
		if (kind && !strcmp(kind, finding_kinds[i]))
			return 0;
	return error_set(err, GCAMP_EUSAGE,
			 "unknown kind '%s' (wrong-answer, crash or slow)",
			 kind ? kind : "");
}

#define FINDING_COLS                                                           \
	"id, kind, title, issue, pr, commit_id, state, closed_pr, "            \
	"created_at, closed_at"
/* open first; a silent wrong answer, then a crash, then slowness; oldest
 * first */
#define FINDING_ORDER                                                          \
	" ORDER BY state = 'closed', CASE kind WHEN 'wrong-answer' THEN 0 "    \
	"WHEN 'crash' THEN 1 ELSE 2 END, created_at, id"

static void finding_row(struct finding *f, sqlite3_stmt *st)
{
	memset(f, 0, sizeof(*f));
	f->id = sqlite3_column_int64(st, 0);
	f->kind = db_col_dup(st, 1);
	f->title = db_col_dup(st, 2);
	f->issue = db_col_dup(st, 3);
	f->pr = (long)sqlite3_column_int64(st, 4);
	f->commit_id = db_col_dup(st, 5);
	f->state = db_col_dup(st, 6);
	f->closed_pr = (long)sqlite3_column_int64(st, 7);
	f->created_at = db_col_dup(st, 8);
	f->closed_at = db_col_dup(st, 9);
}

void finding_release(struct finding *f)
{
	if (!f)
		return;
	free(f->kind);
	free(f->title);
	free(f->issue);
	free(f->commit_id);
	free(f->state);
	free(f->created_at);
	free(f->closed_at);
	memset(f, 0, sizeof(*f));
}

void finding_free(struct finding *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		finding_release(&v[i]);
	free(v);
}

int finding_add(long long *out, struct ctx *ctx, const char *kind,
		const char *title, const char *issue, long pr,
		const char *commit_id)
{
	sqlite3_stmt *st = NULL;
	struct db *db;
	char now[21];
	int rc;

	*out = 0;
	if ((rc = finding_check_kind(kind, &ctx->err)) < 0)
		return rc;
	if (!title || !*title)
		return error_set(&ctx->err, GCAMP_EUSAGE,
				 "a finding needs a title");
	if (pr < 0)
		return error_set(&ctx->err, GCAMP_EUSAGE,
				 "a PR number is greater than 0");
	if ((rc = ctx_db(&db, ctx, DB_CREATE)) < 0 ||
	    (rc = db_prepare(&st, db,
			     "INSERT INTO finding (kind, title, issue, pr, "
			     "commit_id, state, created_at) VALUES "
			     "(?, ?, ?, ?, ?, 'open', ?)",
			     &ctx->err)) < 0)
		return rc;
	clock_now_iso(now);
	sqlite3_bind_text(st, 1, kind, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 2, title, -1, SQLITE_TRANSIENT);
	db_bind_text_or_null(st, 3, issue);
	if (pr > 0)
		sqlite3_bind_int64(st, 4, pr);
	else
		sqlite3_bind_null(st, 4);
	db_bind_text_or_null(st, 5, commit_id);
	sqlite3_bind_text(st, 6, now, -1, SQLITE_TRANSIENT);
	if ((rc = db_step_done(st, db, "cannot record the finding",
			       &ctx->err)) < 0)
		return rc;
	*out = sqlite3_last_insert_rowid(db_handle(db));
	return 0;
}

/* every row of sql (with ?1 bound to id when id > 0) into *out */
static void finding_row_of(void *elem, sqlite3_stmt *st)
{
	finding_row(elem, st);
}

static void finding_free_rows(void *v, size_t n)
{
	finding_free(v, n);
}

static int finding_query(struct finding **out, size_t *n, struct ctx *ctx,
			 const char *sql, long long id)
{
	struct db *db;
	void *v;
	int rc;

	*out = NULL;
	*n = 0;
	if ((rc = ctx_db_if_any(&db, ctx)) < 0 || !db)
		return rc;
	rc = db_rows(&v, n, sizeof(**out), db, sql, id, finding_row_of,
		     finding_free_rows, "the findings", &ctx->err);
	*out = v;
	return rc;
}

int finding_list(struct finding **out, size_t *n, struct ctx *ctx)
{
	return finding_query(
		out, n, ctx,
		"SELECT " FINDING_COLS " FROM finding" FINDING_ORDER, 0);
}

int finding_open_ranked(struct finding **out, size_t *n, size_t *open,
			struct ctx *ctx, size_t limit)
{
	static const char *const ranked[] = {"wrong-answer", "crash", "slow"};
	sqlite3_stmt *st = NULL;
	struct finding *more;
	struct db *db;
	size_t i, got;
	char sql[256];
	int rc;

	/* kind by kind in rank order, each read from the index finding_open
	 * (state, kind, created_at, id) up to what is left of the limit: the
	 * ORDER BY of FINDING_ORDER would sort every open finding first */
	*open = 0;
	*out = NULL;
	*n = 0;
	if (!limit)
		limit = 1;
	for (i = 0; i < sizeof(ranked) / sizeof(*ranked) && *n < limit; i++) {
		snprintf(sql, sizeof(sql),
			 "SELECT " FINDING_COLS " FROM finding WHERE state ="
			 " 'open' AND kind = '%s' ORDER BY created_at, id"
			 " LIMIT ?1",
			 ranked[i]);
		if ((rc = finding_query(&more, &got, ctx, sql,
					(long long)(limit - *n))) < 0)
			goto fail;
		if (got) {
			*out = xrealloc(*out, (*n + got) * sizeof(**out));
			memcpy(*out + *n, more, got * sizeof(*more));
			*n += got;
		}
		free(more);
	}
	if (!*n)
		return 0;
	/* the database is open: finding_query found rows in it */
	if ((rc = ctx_db(&db, ctx, 0)) < 0 ||
	    (rc = db_prepare(&st, db,
			     "SELECT count(*) FROM finding"
			     " WHERE state = 'open'",
			     &ctx->err)) < 0)
		goto fail;
	if ((rc = sqlite3_step(st)) != SQLITE_ROW) {
		rc = error_sqlite(&ctx->err, db, rc,
				  "cannot count the findings");
		goto fail;
	}
	*open = (size_t)sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return 0;
fail:
	sqlite3_finalize(st);
	finding_free(*out, *n);
	*out = NULL;
	*n = 0;
	return rc;
}

int finding_top(struct finding *out, int *found, struct ctx *ctx)
{
	struct finding *v = NULL;
	size_t n = 0, open;
	int rc = finding_open_ranked(&v, &n, &open, ctx, 1);

	memset(out, 0, sizeof(*out));
	*found = rc == 0 && n > 0;
	if (*found) {
		*out = v[0];
		free(v);
		return 0;
	}
	finding_free(v, n);
	return rc;
}

int finding_close(struct ctx *ctx, long long id, long pr)
{
	struct finding *v = NULL;
	sqlite3_stmt *st = NULL;
	struct db *db;
	char now[21];
	size_t n = 0;
	int rc;

	if (pr <= 0)
		return error_set(&ctx->err, GCAMP_EUSAGE,
				 "a PR number is greater than 0");
	if ((rc = finding_query(&v, &n, ctx,
				"SELECT " FINDING_COLS
				" FROM finding WHERE id = ?1",
				id > 0 ? id : -1)) < 0)
		return rc;
	if (!n || id <= 0)
		rc = error_set(&ctx->err, GCAMP_ENOTFOUND, "no finding %lld",
			       id);
	else if (!strcmp(v[0].state, "closed"))
		rc = error_set(&ctx->err, GCAMP_EREFUSED,
			       "finding %lld is closed already (by #%ld)", id,
			       v[0].closed_pr);
	finding_free(v, n);
	if (rc < 0)
		return rc;
	if ((rc = ctx_db(&db, ctx, 0)) < 0 ||
	    (rc = db_prepare(&st, db,
			     "UPDATE finding SET state = 'closed', "
			     "closed_pr = ?, closed_at = ? WHERE id = ?",
			     &ctx->err)) < 0)
		return rc;
	clock_now_iso(now);
	sqlite3_bind_int64(st, 1, pr);
	sqlite3_bind_text(st, 2, now, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(st, 3, id);
	return db_step_done(st, db, "cannot close the finding", &ctx->err);
}
