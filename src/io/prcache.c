/* The PR cache, read-only. */
#include "io/prcache.h"

#include <errno.h>
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* 1 when the database has the pr table, 0 when it is from before the PR
 * cache, or GCAMP_EDB; path names it in messages */
static int has_table(sqlite3 *db, const char *path, struct error *err)
{
	sqlite3_stmt *st = NULL;
	int rc;

	rc = sqlite3_prepare_v2(db,
				"SELECT 1 FROM sqlite_schema"
				" WHERE type = 'table' AND name = 'pr'",
				-1, &st, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc == SQLITE_ROW || rc == SQLITE_DONE)
		return rc == SQLITE_ROW;
	return error_set(err, GCAMP_EDB, "cannot read the PR cache in '%s': %s",
			 path, sqlite3_errmsg(db));
}

/* path names the database in messages */
static int lookup(struct pr_cached *out, sqlite3 *db, const char *path,
		  const char *branch, struct error *err)
{
	sqlite3_stmt *st = NULL;
	const char *v;
	int rc;

	memset(out, 0, sizeof(*out));
	if ((rc = has_table(db, path, err)) <= 0)
		return rc < 0 ? rc : GCAMP_ENOTFOUND;
	rc = sqlite3_prepare_v2(db,
				"SELECT number, state, url FROM pr"
				" WHERE branch = ?1",
				-1, &st, NULL);
	if (rc != SQLITE_OK) {
		rc = error_set(err, GCAMP_EDB,
			       "cannot read the PR cache in '%s': %s", path,
			       sqlite3_errmsg(db));
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
			       sqlite3_errmsg(db));
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

int prcache_lookup(struct pr_cached *out, sqlite3 *h, const char *branch,
		   struct error *err)
{
	const char *path = sqlite3_db_filename(h, "main");

	return lookup(out, h, path ? path : "?", branch, err);
}

int prcache_get(struct pr_cached *out, const char *path, const char *branch,
		struct error *err)
{
	sqlite3 *db = NULL;
	int rc;

	memset(out, 0, sizeof(*out));
	if (access(path, F_OK) < 0 && errno == ENOENT)
		return GCAMP_ENOTFOUND;
	rc = sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL);
	if (rc != SQLITE_OK) {
		rc = error_set(err, GCAMP_EDB,
			       "cannot read the PR cache in '%s': %s", path,
			       db ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
		goto out;
	}
	sqlite3_busy_timeout(db, 2000);
	rc = lookup(out, db, path, branch, err);
out:
	sqlite3_close(db);
	return rc;
}
