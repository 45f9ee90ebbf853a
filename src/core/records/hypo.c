/* Hypotheses in the database (table hypothesis). */
#include "core/records/hypo.h"

#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/db.h"
#include "util/clock.h"
#include "util/xalloc.h"

#define HYPO_COLS                                                              \
	"id, text, metric, predicted, unit, tolerance, state, measured, "      \
	"evidence, is_next, created_at, decided_at"

static void hypo_row(struct hypo *h, sqlite3_stmt *st)
{
	memset(h, 0, sizeof(*h));
	h->id = sqlite3_column_int64(st, 0);
	h->text = db_col_dup(st, 1);
	h->metric = db_col_dup(st, 2);
	h->predicted = sqlite3_column_double(st, 3);
	h->unit = db_col_dup(st, 4);
	h->tolerance = sqlite3_column_double(st, 5);
	h->state = db_col_dup(st, 6);
	h->has_measured = sqlite3_column_type(st, 7) != SQLITE_NULL;
	h->measured = sqlite3_column_double(st, 7);
	h->evidence = db_col_dup(st, 8);
	h->is_next = sqlite3_column_int(st, 9);
	h->created_at = db_col_dup(st, 10);
	h->decided_at = db_col_dup(st, 11);
}

void hypo_release(struct hypo *h)
{
	if (!h)
		return;
	free(h->text);
	free(h->metric);
	free(h->unit);
	free(h->state);
	free(h->evidence);
	free(h->created_at);
	free(h->decided_at);
	memset(h, 0, sizeof(*h));
}

void hypo_free(struct hypo *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		hypo_release(&v[i]);
	free(v);
}

int hypo_within(double predicted, double tolerance, double measured)
{
	/* a hair of slack, so that 2.2 is within 10% of 2 in binary too */
	return fabs(measured - predicted) <=
	       (tolerance / 100.0 + 1e-9) * fabs(predicted);
}

int hypo_add(long long *out, struct ctx *ctx, const char *text,
	     const char *metric, double predicted, const char *unit,
	     double tolerance)
{
	sqlite3_stmt *st = NULL;
	struct db *db;
	char now[21];
	int rc;

	*out = 0;
	if (!text || !*text)
		return error_set(&ctx->err, GCAMP_EUSAGE,
				 "a hypothesis needs its text");
	if (!metric || !*metric)
		return error_set(&ctx->err, GCAMP_EUSAGE,
				 "a hypothesis needs the metric it predicts");
	if (!isfinite(predicted))
		return error_set(&ctx->err, GCAMP_EUSAGE,
				 "a hypothesis needs a finite prediction");
	if (!isfinite(tolerance) || tolerance < 0)
		return error_set(&ctx->err, GCAMP_EUSAGE,
				 "the tolerance must be a percentage >= 0");
	if ((rc = ctx_db(&db, ctx, DB_CREATE)) < 0 ||
	    (rc = db_prepare(&st, db,
			     "INSERT INTO hypothesis (text, metric, predicted,"
			     " unit, tolerance, state, created_at) VALUES "
			     "(?, ?, ?, ?, ?, 'open', ?)",
			     &ctx->err)) < 0)
		return rc;
	clock_now_iso(now);
	sqlite3_bind_text(st, 1, text, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 2, metric, -1, SQLITE_TRANSIENT);
	sqlite3_bind_double(st, 3, predicted);
	db_bind_text_or_null(st, 4, unit && *unit ? unit : NULL);
	sqlite3_bind_double(st, 5, tolerance);
	sqlite3_bind_text(st, 6, now, -1, SQLITE_TRANSIENT);
	if ((rc = db_step_done(st, db, "cannot record the hypothesis",
			       &ctx->err)) < 0)
		return rc;
	*out = sqlite3_last_insert_rowid(db_handle(db));
	return 0;
}

/* every row of sql (with ?1 bound to id when id > 0) into *out */
static void hypo_row_of(void *elem, sqlite3_stmt *st)
{
	hypo_row(elem, st);
}

static void hypo_free_rows(void *v, size_t n)
{
	hypo_free(v, n);
}

static int hypo_query(struct hypo **out, size_t *n, struct ctx *ctx,
		      const char *sql, long long id)
{
	struct db *db;
	void *v;
	int rc;

	*out = NULL;
	*n = 0;
	if ((rc = ctx_db_if_any(&db, ctx)) < 0 || !db)
		return rc;
	rc = db_rows(&v, n, sizeof(**out), db, sql, id, hypo_row_of,
		     hypo_free_rows, "the hypotheses", &ctx->err);
	*out = v;
	return rc;
}

int hypo_list(struct hypo **out, size_t *n, struct ctx *ctx)
{
	return hypo_query(out, n, ctx,
			  "SELECT " HYPO_COLS " FROM hypothesis ORDER BY id",
			  0);
}

int hypo_get(struct hypo *out, struct ctx *ctx, long long id)
{
	struct hypo *v = NULL;
	size_t n = 0;
	int rc =
		hypo_query(&v, &n, ctx,
			   "SELECT " HYPO_COLS " FROM hypothesis WHERE id = ?1",
			   id > 0 ? id : -1);

	memset(out, 0, sizeof(*out));
	if (rc < 0)
		return rc;
	if (!n || id <= 0) {
		hypo_free(v, n);
		return error_set(&ctx->err, GCAMP_ENOTFOUND,
				 "no hypothesis %lld", id);
	}
	*out = v[0];
	free(v);
	return 0;
}

int hypo_next(struct hypo *out, int *found, size_t *open, struct ctx *ctx)
{
	struct hypo *v = NULL;
	size_t n = 0, i, pick = 0;
	int rc = hypo_query(&v, &n, ctx,
			    "SELECT " HYPO_COLS " FROM hypothesis WHERE state "
			    "= 'open' OR is_next = 1 ORDER BY id",
			    0);

	memset(out, 0, sizeof(*out));
	*found = 0;
	*open = 0;
	for (i = 0; rc == 0 && i < n; i++) {
		*open += !strcmp(v[i].state, "open");
		if (v[i].is_next && *found != 1) {
			*found = 1;
			pick = i;
		} else if (!*found && !strcmp(v[i].state, "open")) {
			*found = 2;
			pick = i;
		}
	}
	if (*found) {
		*out = v[pick];
		memset(&v[pick], 0, sizeof(v[pick]));
	}
	hypo_free(v, n);
	return rc;
}

/* id, open, in *h; GCAMP_EREFUSED when decided */
static int hypo_open(struct hypo *h, struct ctx *ctx, long long id)
{
	int rc = hypo_get(h, ctx, id);

	if (rc < 0)
		return rc;
	if (strcmp(h->state, "open")) {
		rc = error_set(&ctx->err, GCAMP_EREFUSED,
			       "hypothesis %lld is %s already", id, h->state);
		hypo_release(h);
	}
	return rc;
}

int hypo_decide(struct ctx *ctx, long long id, int confirmed, double measured,
		const char *evidence)
{
	sqlite3_stmt *st = NULL;
	struct hypo h;
	struct db *db;
	char now[21];
	int rc;

	if (!isfinite(measured))
		return error_set(&ctx->err, GCAMP_EUSAGE,
				 "the measured value must be finite");
	if ((rc = hypo_open(&h, ctx, id)) < 0)
		return rc;
	hypo_release(&h);
	if ((rc = ctx_db(&db, ctx, 0)) < 0 ||
	    (rc = db_prepare(&st, db,
			     "UPDATE hypothesis SET state = ?, measured = ?, "
			     "evidence = ?, is_next = 0, decided_at = ? "
			     "WHERE id = ?",
			     &ctx->err)) < 0)
		return rc;
	clock_now_iso(now);
	sqlite3_bind_text(st, 1, confirmed ? "confirmed" : "falsified", -1,
			  SQLITE_STATIC);
	sqlite3_bind_double(st, 2, measured);
	db_bind_text_or_null(st, 3, evidence);
	sqlite3_bind_text(st, 4, now, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(st, 5, id);
	return db_step_done(st, db, "cannot record the verdict", &ctx->err);
}

int hypo_set_next(struct ctx *ctx, long long id)
{
	sqlite3_stmt *st = NULL;
	struct hypo h;
	struct db *db;
	int rc;

	if ((rc = hypo_open(&h, ctx, id)) < 0)
		return rc;
	hypo_release(&h);
	if ((rc = ctx_db(&db, ctx, 0)) < 0 ||
	    (rc = db_begin(db, &ctx->err)) < 0)
		return rc;
	if ((rc = db_exec(db,
			  "UPDATE hypothesis SET is_next = 0 WHERE is_next = 1",
			  &ctx->err)) < 0 ||
	    (rc = db_prepare(&st, db,
			     "UPDATE hypothesis SET is_next = 1 WHERE id = ?",
			     &ctx->err)) < 0)
		goto out;
	sqlite3_bind_int64(st, 1, id);
	if ((rc = db_step_done(st, db, "cannot mark the next hypothesis",
			       &ctx->err)) < 0)
		goto out;
	rc = db_commit(db, &ctx->err);
out:
	if (rc < 0)
		db_rollback(db);
	return rc;
}
