/* The sqlite store: one database per repository, shared by its worktrees,
 * in WAL mode with a busy timeout, its schema moved forward by numbered
 * migration steps keyed on PRAGMA user_version. */
#ifndef GCAMP_DB_H
#define GCAMP_DB_H

#include <sqlite3.h>
#include <stddef.h>

#include "util/error.h"

struct db;

enum {
	DB_CREATE = 1, /* create the file (and its folder) when missing */
	DB_TRY = 2,    /* db_meta_set: do not wait for another writer */
};

/* The schema version this build writes; newer databases are refused. */
int db_schema_version(void);

/*
 * Opens (with DB_CREATE, creates) the database at path and migrates it to
 * db_schema_version(). A file that is not a sqlite database, a corrupt one
 * and one from a newer git-campaign are refused with GCAMP_EDB and left
 * untouched. ":memory:" opens a private in-memory database (tests). A
 * missing file without DB_CREATE is GCAMP_ENOTFOUND. The caller closes *out
 * with db_close().
 */
int db_open(struct db **out, const char *path, int flags, struct error *err);
/* Closes the database. Accepts NULL. */
void db_close(struct db *db);
/* The underlying handle, borrowed, for prepared statements. */
sqlite3 *db_handle(struct db *db);
/* The path given to db_open, borrowed. */
const char *db_path(struct db *db);
/* The copy db_open kept before it upgraded the database's schema
 * (PATH.vN.bak, N the old version, in *version), borrowed; NULL when it
 * upgraded nothing. */
const char *db_backup(struct db *db, int *version);

/*
 * The database's path, a new string the caller frees: GIT_CAMPAIGN_DB when
 * it is set and not empty, else COMMON_DIR/campaign/campaign.db, one
 * database for all the worktrees of a repository. common_dir is the git
 * common directory, as a string (the hook has no libgit2); it may be NULL,
 * and then the result is NULL unless GIT_CAMPAIGN_DB is set, so that a
 * caller looks for the repository only when it must.
 */
char *db_default_path(const char *common_dir);

/* Records a sqlite failure as "WHAT: sqlite message", naming a corrupt
 * database as such. Returns GCAMP_EDB. */
int error_sqlite(struct error *err, struct db *db, int rc, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Runs SQL without results (several statements allowed). */
int db_exec(struct db *db, const char *sql, struct error *err);
/* BEGIN IMMEDIATE (waits up to the busy timeout for other writers), COMMIT,
 * ROLLBACK. db_rollback never fails and may be called after a failed
 * commit. */
int db_begin(struct db *db, struct error *err);
int db_commit(struct db *db, struct error *err);
void db_rollback(struct db *db);

/* Prepares one statement; *out is finalised by the caller. */
int db_prepare(sqlite3_stmt **out, struct db *db, const char *sql,
	       struct error *err);
/* A copy of column i of st's current row as text (xstrdup: the caller
 * frees it), or NULL when the column is NULL. */
char *db_col_dup(sqlite3_stmt *st, int i);
/* Binds s (copied) as text to parameter i of st, or NULL when s is NULL. */
void db_bind_text_or_null(sqlite3_stmt *st, int i, const char *s);
/* Every row of SQL (with ?1 bound to ID when ID > 0) read into an array of
 * elements of SIZE bytes by ROW, in *out (realloc'd, caller frees with
 * FREE_ROWS, which also frees it), *n of them. On a sqlite failure the rows
 * read are freed, *out is NULL, and the error is "cannot read WHAT". */
int db_rows(void **out, size_t *n, size_t size, struct db *db, const char *sql,
	    long long id, void (*row)(void *elem, sqlite3_stmt *st),
	    void (*free_rows)(void *v, size_t n), const char *what,
	    struct error *err);

/* Runs st, a prepared statement that returns no rows, to its end and
 * finalises it in every case. Returns 0, or the sqlite error with msg
 * ("cannot record the finding") in err. */
int db_step_done(sqlite3_stmt *st, struct db *db, const char *msg,
		 struct error *err);

/* Migrates the database step by step up to version `to` (at most
 * db_schema_version()), each step in its own transaction with its version
 * bump; a database already at `to` or past it is left alone (past the
 * newest version this build knows: refused). db_open calls it. */
int db_migrate(struct db *db, int to, struct error *err);

/* The value of key in the meta table in *out (the caller frees it), or
 * GCAMP_ENOTFOUND (recorded in err) with *out NULL. */
int db_meta_get(char **out, struct db *db, const char *key, struct error *err);
/* Sets key to value in the meta table; a NULL value removes it. With
 * DB_TRY, a database another process is writing is not waited for (the
 * write fails at once): for what is only a cache. */
int db_meta_set(struct db *db, const char *key, const char *value, int flags,
		struct error *err);
/* The database's PRAGMA user_version. */
int db_user_version(struct db *db, int *out, struct error *err);

#endif
