/* The PR cache, table pr: the only place its SQL is written. */
#include "core/records/pr.h"

#include <stdio.h>
#include <string.h>

#include "io/prcache.h"

/* 1 when the database has the pr table, 0 when it is from before the PR
 * cache, or GCAMP_EDB; path names it in messages */
static int has_table(sqlite3 *h, const char *path, struct error *err)
{
	sqlite3_stmt *st = NULL;
	int rc;

	rc = sqlite3_prepare_v2(h,
				"SELECT 1 FROM sqlite_schema"
				" WHERE type = 'table' AND name = 'pr'",
				-1, &st, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc == SQLITE_ROW || rc == SQLITE_DONE)
		return rc == SQLITE_ROW;
	return error_set(err, GCAMP_EDB, "cannot read the PR cache in '%s': %s",
			 path, sqlite3_errmsg(h));
}

int pr_get(struct pr_cached *out, sqlite3 *h, const char *branch,
	   struct error *err)
{
	const char *path = sqlite3_db_filename(h, "main");
	sqlite3_stmt *st = NULL;
	const char *v;
	int rc;

	memset(out, 0, sizeof(*out));
	path = path && *path ? path : "?";
	if ((rc = has_table(h, path, err)) <= 0)
		return rc < 0 ? rc : GCAMP_ENOTFOUND;
	rc = sqlite3_prepare_v2(h,
				"SELECT number, state, url FROM pr"
				" WHERE branch = ?1",
				-1, &st, NULL);
	if (rc != SQLITE_OK) {
		rc = error_set(err, GCAMP_EDB,
			       "cannot read the PR cache in '%s': %s", path,
			       sqlite3_errmsg(h));
		goto out;
	}
	sqlite3_bind_text(st, 1, branch, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_DONE) {
		rc = GCAMP_ENOTFOUND;
		goto out;
	}
	if (rc != SQLITE_ROW) {
		rc = error_set(err, GCAMP_EDB,
			       "cannot read the PR cache in '%s': %s", path,
			       sqlite3_errmsg(h));
		goto out;
	}
	out->number = (long)sqlite3_column_int64(st, 0);
	if ((v = (const char *)sqlite3_column_text(st, 1)))
		snprintf(out->state, sizeof(out->state), "%s", v);
	if ((v = (const char *)sqlite3_column_text(st, 2)))
		snprintf(out->url, sizeof(out->url), "%s", v);
	rc = 0;
out:
	sqlite3_finalize(st);
	return rc;
}

int pr_get_file(struct pr_cached *out, const char *path, const char *branch,
		struct error *err)
{
	sqlite3 *h = NULL;
	int rc;

	memset(out, 0, sizeof(*out));
	if ((rc = prcache_open(&h, path, err)) < 0)
		return rc;
	rc = pr_get(out, h, branch, err);
	sqlite3_close(h);
	return rc;
}

int pr_record(struct db *db, const struct pr_row *r, struct error *err)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if ((rc = db_prepare(&st, db,
			     "INSERT INTO pr (branch, number, state, base, url,"
			     " updated_at) VALUES (?1, ?2, ?3, ?4, ?5,"
			     " coalesce(?6, strftime('%Y-%m-%dT%H:%M:%SZ')))"
			     " ON CONFLICT (branch) DO UPDATE SET"
			     " number = excluded.number,"
			     " state = excluded.state, base = excluded.base,"
			     " url = excluded.url,"
			     " updated_at = excluded.updated_at",
			     err)) < 0)
		return rc;
	sqlite3_bind_text(st, 1, r->branch, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, r->number);
	sqlite3_bind_text(st, 3, r->state, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, r->base, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 5, r->url, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 6, r->updated_at, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return error_sqlite(err, db, rc, "cannot record the PR of '%s'",
				    r->branch);
	return 0;
}

int pr_for_each(struct db *db, pr_each_fn fn, void *data, struct error *err)
{
	sqlite3_stmt *st = NULL;
	int rc, stop = 0;

	if ((rc = db_prepare(&st, db,
			     "SELECT number, branch, state FROM pr "
			     "ORDER BY number",
			     err)) < 0)
		return rc;
	while (!stop && (rc = sqlite3_step(st)) == SQLITE_ROW)
		stop = fn((long)sqlite3_column_int64(st, 0),
			  (const char *)sqlite3_column_text(st, 1),
			  (const char *)sqlite3_column_text(st, 2), data);
	sqlite3_finalize(st);
	if (stop)
		return stop;
	if (rc != SQLITE_DONE)
		return error_sqlite(err, db, rc, "cannot read the PR cache");
	return 0;
}
