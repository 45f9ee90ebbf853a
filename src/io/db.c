/* The sqlite store and its migrations. */
#include "io/db.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/buf.h"
#include "util/trace.h"
#include "util/xalloc.h"

struct db {
	sqlite3 *h;
	char *path;
	char *backup; /* the copy kept before a migration, or NULL */
	int backup_version;
	int readonly; /* opened read-only: its folder or file is not writable */
};

/* how long a statement waits for another process's write to finish */
#define DB_BUSY_MS 5000

/* PRAGMA application_id of our databases: "GCMP" */
#define DB_APPLICATION_ID 0x47434d50

/*
 * The schema, one step per version, append-only: a released step is never
 * edited, a change is a new step. Each step runs in its own transaction with
 * the version bump, so a database is always at exactly one version.
 */
static const char *const migrations[] = {
	/* 1: campaign metadata and the operation journal */
	"CREATE TABLE meta ("
	"  key TEXT PRIMARY KEY,"
	"  value TEXT NOT NULL"
	") STRICT;"
	"CREATE TABLE operation ("
	"  id INTEGER PRIMARY KEY,"
	"  kind TEXT NOT NULL,"
	"  state TEXT NOT NULL"
	"    CHECK (state IN ('running', 'done', 'aborted')),"
	"  worktree TEXT NOT NULL,"
	"  summary TEXT NOT NULL,"
	"  continue_cmd TEXT NOT NULL,"
	"  abort_cmd TEXT NOT NULL,"
	"  pid INTEGER NOT NULL,"
	"  started_at TEXT NOT NULL,"
	"  updated_at TEXT NOT NULL"
	") STRICT;"
	"CREATE INDEX operation_running ON operation(state)"
	"  WHERE state = 'running';"
	"CREATE TABLE journal ("
	"  op_id INTEGER NOT NULL REFERENCES operation(id) ON DELETE CASCADE,"
	"  seq INTEGER NOT NULL,"
	"  step TEXT NOT NULL,"
	"  data TEXT NOT NULL,"
	"  at TEXT NOT NULL,"
	"  PRIMARY KEY (op_id, seq)"
	") STRICT;",
	/* 2: machine fingerprints, the measurement index, the PR cache */
	"CREATE TABLE env ("
	"  id TEXT PRIMARY KEY,"
	"  identity TEXT NOT NULL,"
	"  info TEXT NOT NULL,"
	"  seen_at TEXT NOT NULL"
	") STRICT;"
	/* the index of refs/notes/campaign: one row per line of a note,
	 * rebuilt from the notes at will (meta 'measurement.notes' names the
	 * notes commit it reflects) */
	"CREATE TABLE measurement ("
	"  id INTEGER PRIMARY KEY,"
	"  commit_id TEXT NOT NULL,"
	"  run TEXT NOT NULL,"
	"  metric TEXT NOT NULL,"
	"  value REAL NOT NULL,"
	"  unit TEXT,"
	"  better TEXT,"
	"  stat TEXT,"
	"  n INTEGER,"
	"  arm TEXT,"
	"  ctl INTEGER,"
	"  iters INTEGER,"
	"  env TEXT NOT NULL,"
	"  config TEXT NOT NULL,"
	"  source TEXT,"
	"  at TEXT NOT NULL,"
	"  line TEXT NOT NULL"
	") STRICT;"
	"CREATE INDEX measurement_commit ON measurement(commit_id);"
	/* covers `measure log`: no table lookup per row */
	"CREATE INDEX measurement_metric"
	"  ON measurement(metric, env, config, commit_id, value);"
	"CREATE TABLE pr ("
	"  branch TEXT PRIMARY KEY,"
	"  number INTEGER NOT NULL,"
	"  state TEXT NOT NULL"
	"    CHECK (state IN ('open', 'closed', 'merged', 'draft')),"
	"  base TEXT,"
	"  url TEXT,"
	"  updated_at TEXT NOT NULL"
	") STRICT;",
	/* 3: A/B results, every sample in the JSON */
	"CREATE TABLE ab_run ("
	"  id INTEGER PRIMARY KEY,"
	"  at TEXT NOT NULL,"
	"  mode TEXT NOT NULL,"
	"  workload TEXT NOT NULL,"
	"  verdict TEXT NOT NULL,"
	"  invalid INTEGER NOT NULL,"
	"  result TEXT NOT NULL,"
	"  markdown TEXT NOT NULL"
	") STRICT;",
	/* 4: GitHub's ETags per URL (never a token), for conditional GETs */
	"CREATE TABLE http_cache ("
	"  url TEXT PRIMARY KEY,"
	"  etag TEXT NOT NULL,"
	"  body TEXT NOT NULL,"
	"  link TEXT,"
	"  at TEXT NOT NULL"
	") STRICT;",
	/* 5: the campaign's records: hypotheses (each a number), findings
	 * ranked by failure mode, test counts per class, commit and env */
	"CREATE TABLE hypothesis ("
	"  id INTEGER PRIMARY KEY,"
	"  text TEXT NOT NULL,"
	"  metric TEXT NOT NULL,"
	"  predicted REAL NOT NULL,"
	"  unit TEXT,"
	"  tolerance REAL NOT NULL,"
	"  state TEXT NOT NULL"
	"    CHECK (state IN ('open', 'confirmed', 'falsified')),"
	"  measured REAL,"
	"  evidence TEXT,"
	"  is_next INTEGER NOT NULL DEFAULT 0,"
	"  created_at TEXT NOT NULL,"
	"  decided_at TEXT"
	") STRICT;"
	"CREATE UNIQUE INDEX hypothesis_next ON hypothesis(is_next)"
	"  WHERE is_next = 1;"
	"CREATE TABLE finding ("
	"  id INTEGER PRIMARY KEY,"
	"  kind TEXT NOT NULL"
	"    CHECK (kind IN ('wrong-answer', 'crash', 'slow')),"
	"  title TEXT NOT NULL,"
	"  issue TEXT,"
	"  pr INTEGER,"
	"  commit_id TEXT,"
	"  state TEXT NOT NULL CHECK (state IN ('open', 'closed')),"
	"  closed_pr INTEGER,"
	"  created_at TEXT NOT NULL,"
	"  closed_at TEXT"
	") STRICT;"
	"CREATE INDEX finding_open ON finding(state, kind, created_at, id);"
	"CREATE TABLE test_result ("
	"  commit_id TEXT NOT NULL,"
	"  env TEXT NOT NULL,"
	"  class TEXT NOT NULL,"
	"  passed INTEGER NOT NULL,"
	"  failed INTEGER NOT NULL,"
	"  skipped INTEGER NOT NULL,"
	"  unsupported INTEGER NOT NULL,"
	"  format TEXT NOT NULL,"
	"  at TEXT NOT NULL,"
	"  PRIMARY KEY (commit_id, env, class)"
	") STRICT;"
	"CREATE INDEX test_result_env ON test_result(env, at);",
	/* 6: the umbrella issue's automatic updates: the section it was last
	 * given, and an update queued while GitHub could not be reached (when
	 * it was last tried, for the back-off) */
	"CREATE TABLE umbrella_state ("
	"  issue INTEGER PRIMARY KEY,"
	"  section TEXT,"
	"  pending_since TEXT,"
	"  tries INTEGER NOT NULL DEFAULT 0,"
	"  error TEXT,"
	"  last_try TEXT"
	") STRICT;",
	/* 7: saved resume pointers (`resume --save`): the rendered text and
	 * the data it was rendered from, with who saved it and when; the
	 * last saved is the one with the highest id. And the test totals per
	 * commit and env, kept by `tests import` beside the per-class rows,
	 * so that a baseline reads one row per env (filled here from the
	 * rows there are, in the order they were imported). (Step 6 belongs
	 * to another branch; the merge puts this one after it.) */
	"CREATE TABLE resume_pointer ("
	"  id INTEGER PRIMARY KEY,"
	"  at TEXT NOT NULL,"
	"  author TEXT NOT NULL,"
	"  branch TEXT,"
	"  head TEXT,"
	"  text TEXT NOT NULL,"
	"  data TEXT NOT NULL"
	") STRICT;"
	"CREATE TABLE test_total ("
	"  commit_id TEXT NOT NULL,"
	"  env TEXT NOT NULL,"
	"  passed INTEGER NOT NULL,"
	"  failed INTEGER NOT NULL,"
	"  skipped INTEGER NOT NULL,"
	"  unsupported INTEGER NOT NULL,"
	"  classes INTEGER NOT NULL,"
	"  at TEXT NOT NULL,"
	"  PRIMARY KEY (commit_id, env)"
	") STRICT;"
	"CREATE INDEX test_total_env ON test_total(env, at);"
	"INSERT INTO test_total SELECT commit_id, env, sum(passed),"
	"  sum(failed), sum(skipped), sum(unsupported), count(*), max(at)"
	"  FROM test_result GROUP BY commit_id, env ORDER BY max(rowid);",
};

int db_schema_version(void)
{
	return (int)(sizeof(migrations) / sizeof(*migrations));
}

sqlite3 *db_handle(struct db *db)
{
	return db->h;
}

const char *db_path(struct db *db)
{
	return db->path;
}

char *db_default_path(const char *common_dir)
{
	const char *env = getenv("GIT_CAMPAIGN_DB");

	if (env && *env)
		return xstrdup(env);
	if (!common_dir)
		return NULL;
	return xasprintf("%s/campaign/campaign.db", common_dir);
}

char *db_col_dup(sqlite3_stmt *st, int i)
{
	const unsigned char *t = sqlite3_column_text(st, i);

	return t ? xstrdup((const char *)t) : NULL;
}

void db_bind_text_or_null(sqlite3_stmt *st, int i, const char *s)
{
	if (s)
		sqlite3_bind_text(st, i, s, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(st, i);
}

int db_step_done(sqlite3_stmt *st, struct db *db, const char *msg,
		 struct error *err)
{
	int rc = sqlite3_step(st);

	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return error_sqlite(err, db, rc, "%s", msg);
	return 0;
}

int error_sqlite(struct error *err, struct db *db, int rc, const char *fmt, ...)
{
	const char *msg =
		db && db->h ? sqlite3_errmsg(db->h) : sqlite3_errstr(rc);
	const char *path = db ? db->path : "?";
	char what[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if ((rc & 0xff) == SQLITE_FULL ||
	    (db && db->h && sqlite3_system_errno(db->h) == ENOSPC)) {
		error_set(err, GCAMP_EDB, "%s: no space left on device", what);
		error_hint(err,
			   "free some space on the disk that holds '%s' "
			   "and run the command again",
			   path);
		return GCAMP_EDB;
	}
	switch (rc & 0xff) {
	case SQLITE_CORRUPT:
	case SQLITE_NOTADB:
		error_set(err, GCAMP_EDB, "database '%s' is corrupt: %s", path,
			  msg);
		error_hint(err, "it was left as it is; move it aside to start "
				"a new one (measurements stay in "
				"refs/notes/campaign)");
		return GCAMP_EDB;
	case SQLITE_BUSY:
	case SQLITE_LOCKED:
		error_set(err, GCAMP_EDB, "database '%s' is busy: %s", path,
			  msg);
		error_hint(err, "another git-campaign holds it; try again "
				"when it has finished");
		return GCAMP_EDB;
	case SQLITE_READONLY:
	case SQLITE_CANTOPEN:
	case SQLITE_PERM:
		error_set(err, GCAMP_EDB, "cannot write database '%s': %s",
			  path, msg);
		if (db && db->readonly)
			error_hint(err, "its folder is read-only here: reading "
					"commands work, writing ones need it "
					"writable; nothing was changed");
		return GCAMP_EDB;
	default:
		return error_set(err, GCAMP_EDB, "%s: %s", what, msg);
	}
}

int db_exec(struct db *db, const char *sql, struct error *err)
{
	int rc = sqlite3_exec(db->h, sql, NULL, NULL, NULL);

	if (rc != SQLITE_OK)
		return error_sqlite(err, db, rc, "database statement failed");
	return 0;
}

int db_prepare(sqlite3_stmt **out, struct db *db, const char *sql,
	       struct error *err)
{
	int rc = sqlite3_prepare_v2(db->h, sql, -1, out, NULL);

	if (rc != SQLITE_OK) {
		*out = NULL;
		return error_sqlite(err, db, rc, "cannot prepare a query");
	}
	return 0;
}

int db_begin(struct db *db, struct error *err)
{
	return db_exec(db, "BEGIN IMMEDIATE", err);
}

int db_commit(struct db *db, struct error *err)
{
	return db_exec(db, "COMMIT", err);
}

void db_rollback(struct db *db)
{
	if (!sqlite3_get_autocommit(db->h))
		sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);
}

/* Runs a query that yields one integer. */
static int query_int(struct db *db, const char *sql, int *out,
		     struct error *err)
{
	sqlite3_stmt *st = NULL;
	int rc;

	*out = 0;
	if ((rc = db_prepare(&st, db, sql, err)) < 0)
		return rc;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*out = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW)
		return error_sqlite(err, db, rc, "cannot read database '%s'",
				    db->path);
	return 0;
}

int db_user_version(struct db *db, int *out, struct error *err)
{
	return query_int(db, "PRAGMA user_version", out, err);
}

static int refuse_newer(struct db *db, int version, struct error *err)
{
	error_set(err, GCAMP_EDB,
		  "database '%s' has schema version %d, newer than this "
		  "git-campaign knows (%d)",
		  db->path, version, db_schema_version());
	error_hint(err, "upgrade git-campaign; the database was left as it "
			"is");
	return GCAMP_EDB;
}

int db_migrate(struct db *db, int to, struct error *err)
{
	int version, rc;
	char bump[96];

	if (to > db_schema_version())
		return error_set(err, GCAMP_EDB,
				 "no schema version %d in this git-campaign",
				 to);
	for (;;) {
		if ((rc = db_begin(db, err)) < 0)
			return rc;
		/* read inside the write lock: another process may have
		 * migrated while we waited for it */
		if ((rc = db_user_version(db, &version, err)) < 0)
			goto fail;
		if (version > db_schema_version()) {
			rc = refuse_newer(db, version, err);
			goto fail;
		}
		if (version >= to) {
			db_rollback(db);
			return 0;
		}
		trace_printf("db: migrating %s to version %d", db->path,
			     version + 1);
		if ((rc = db_exec(db, migrations[version], err)) < 0)
			goto fail;
		snprintf(bump, sizeof(bump),
			 "PRAGMA user_version = %d;"
			 "PRAGMA application_id = %d",
			 version + 1, DB_APPLICATION_ID);
		if ((rc = db_exec(db, bump, err)) < 0)
			goto fail;
		if ((rc = db_commit(db, err)) < 0)
			goto fail;
	}
fail:
	db_rollback(db);
	return rc;
}

int db_meta_get(char **out, struct db *db, const char *key, struct error *err)
{
	sqlite3_stmt *st = NULL;
	int rc;

	*out = NULL;
	if ((rc = db_prepare(&st, db, "SELECT value FROM meta WHERE key = ?1",
			     err)) < 0)
		return rc;
	sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		*out = xstrdup((const char *)sqlite3_column_text(st, 0));
		rc = 0;
	} else if (rc == SQLITE_DONE) {
		rc = error_set(err, GCAMP_ENOTFOUND, "no '%s' in '%s'", key,
			       db->path);
	} else {
		rc = error_sqlite(err, db, rc, "cannot read '%s'", key);
	}
	sqlite3_finalize(st);
	return rc;
}

int db_meta_set(struct db *db, const char *key, const char *value, int flags,
		struct error *err)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if ((rc = db_prepare(&st, db,
			     value ? "INSERT INTO meta (key, value)"
				     " VALUES (?1, ?2) ON CONFLICT (key)"
				     " DO UPDATE SET value = excluded.value"
				   : "DELETE FROM meta WHERE key = ?1",
			     err)) < 0)
		return rc;
	sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
	if (value)
		sqlite3_bind_text(st, 2, value, -1, SQLITE_STATIC);
	if (flags & DB_TRY)
		sqlite3_busy_timeout(db->h, 0);
	rc = sqlite3_step(st);
	if (flags & DB_TRY)
		sqlite3_busy_timeout(db->h, DB_BUSY_MS);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return error_sqlite(err, db, rc, "cannot record '%s'", key);
	return 0;
}

/* What db_open checks, in one statement (one read transaction): how many
 * objects the schema has, PRAGMA application_id and user_version. */
static int read_header(struct db *db, int *tables, int *app, int *version,
		       struct error *err)
{
	sqlite3_stmt *st = NULL;
	int rc;

	*tables = *app = *version = 0;
	if ((rc = db_prepare(&st, db,
			     "SELECT (SELECT count(*) FROM sqlite_schema),"
			     " application_id, user_version"
			     " FROM pragma_application_id, pragma_user_version",
			     err)) < 0)
		return rc;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		*tables = sqlite3_column_int(st, 0);
		*app = sqlite3_column_int(st, 1);
		*version = sqlite3_column_int(st, 2);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW)
		return error_sqlite(err, db, rc, "cannot read database '%s'",
				    db->path);
	return 0;
}

/* Refuses a file that is there but is not a sqlite database, before sqlite
 * sees it: sqlite would treat some such files as empty and write. */
static int check_header(const char *path, int *exists, int *empty,
			struct error *err)
{
	static const char magic[16] = "SQLite format 3";
	char head[16];
	struct stat st;
	ssize_t n;
	int fd;

	*exists = 0;
	*empty = 0;
	if (stat(path, &st) < 0) {
		if (errno == ENOENT)
			return 0;
		return error_set(err, GCAMP_EDB,
				 "cannot stat database '%s': %s", path,
				 strerror(errno));
	}
	*exists = 1;
	if (!S_ISREG(st.st_mode))
		return error_set(err, GCAMP_EDB,
				 "database '%s' is not a regular file", path);
	if (st.st_size == 0) {
		*empty = 1;
		return 0;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return error_set(err, GCAMP_EDB,
				 "cannot open database '%s': %s", path,
				 strerror(errno));
	n = read(fd, head, sizeof(head));
	close(fd);
	if (n != (ssize_t)sizeof(head) || memcmp(head, magic, sizeof(magic))) {
		error_set(err, GCAMP_EDB,
			  "database '%s' is not a sqlite database", path);
		error_hint(err, "it was left as it is; move it aside, or point "
				"GIT_CAMPAIGN_DB elsewhere");
		return GCAMP_EDB;
	}
	return 0;
}

/* mkdir -p of the folder that will hold path */
static int make_parent_dir(const char *path, struct error *err)
{
	char *dir = xstrdup(path), *end = strrchr(dir, '/'), *p;
	int rc = 0;

	if (end)
		*end = '\0';
	/* each prefix ending before a slash, then the whole folder */
	for (p = dir; end && p; p = strchr(p + 1, '/')) {
		if (p == dir)
			continue;
		*p = '\0';
		if (mkdir(dir, 0777) < 0 && errno != EEXIST)
			rc = -1;
		*p = '/';
		if (rc)
			break;
	}
	if (!rc && end && *dir && mkdir(dir, 0777) < 0 && errno != EEXIST)
		rc = -1;
	if (rc)
		error_set(err, GCAMP_EDB, "cannot create '%s': %s", dir,
			  strerror(errno));
	free(dir);
	return rc ? GCAMP_EDB : 0;
}

/* Before sqlite starts, once: one thread uses it and nobody reads its
 * memory statistics, so its mutexes and its accounting of every
 * allocation are left out (a cost every status pays). */
static void configure_sqlite(void)
{
	static int done;

	if (done)
		return;
	done = 1;
	sqlite3_config(SQLITE_CONFIG_SINGLETHREAD);
	sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
	/* no 20-page block per page cache up front: sqlite writes into all
	 * of it, and each page first touched costs a fault (a temporary
	 * b-tree has a page cache of its own); pages come one by one */
	sqlite3_config(SQLITE_CONFIG_PAGECACHE, NULL, 0, 0);
}

/* Before the first migration step, a copy of the database as it is, at
 * PATH.vN.bak: a newer build's upgrade must not leave the older build
 * locked out with nothing to go back to. VACUUM INTO writes a consistent
 * copy (the WAL folded in) and refuses a file that exists: one there
 * already is an earlier copy of the same schema and is kept. */
static int keep_copy(struct db *db, int version, struct error *err)
{
	sqlite3_stmt *st = NULL;
	char *bak = xasprintf("%s.v%d.bak", db->path, version);
	struct stat sb;
	int rc;

	if (lstat(bak, &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_size > 0)
		goto done;
	if ((rc = db_prepare(&st, db, "VACUUM INTO ?1", err)) < 0)
		goto fail;
	sqlite3_bind_text(st, 1, bak, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	/* another process may have made the same copy meanwhile */
	if (rc != SQLITE_DONE &&
	    !(lstat(bak, &sb) == 0 && S_ISREG(sb.st_mode))) {
		rc = error_sqlite(err, db, rc,
				  "cannot keep a copy of database '%s' "
				  "before upgrading it",
				  db->path);
		error_hint(
			err,
			"the upgrade keeps a copy at '%s' first: "
			"nothing was changed; make room for it and try again",
			bak);
		goto fail;
	}
done:
	db->backup = bak;
	db->backup_version = version;
	return 0;
fail:
	free(bak);
	return rc;
}

const char *db_backup(struct db *db, int *version)
{
	*version = db->backup_version;
	return db->backup;
}

/* 1 when the database at path (which exists) cannot be written here: the
 * file or its folder (where the -wal and -shm files go) is read-only */
static int not_writable(const char *path)
{
	char *dir = xstrdup(path), *slash = strrchr(dir, '/');
	int ro;

	if (slash)
		*(slash == dir ? slash + 1 : slash) = '\0';
	ro = access(path, W_OK) < 0 ||
	     access(slash ? dir : ".", W_OK | X_OK) < 0;
	free(dir);
	return ro;
}

/* "file:PATH?QUERY" with PATH %-escaped as an sqlite URI wants it */
static char *file_uri(const char *path, const char *query)
{
	struct buf uri = BUF_INIT;
	const char *p;

	buf_puts(&uri, "file:");
	for (p = path; *p; p++) {
		unsigned char c = (unsigned char)*p;

		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || strchr("/._-~", c))
			buf_putc(&uri, (char)c);
		else
			buf_addf(&uri, "%%%02X", c);
	}
	buf_addf(&uri, "?%s", query);
	return buf_detach(&uri);
}

/*
 * Opens a database that cannot be written here read-only, for the readers
 * (status, resume, measure log, hypo list) on a read-only .git/campaign:
 * mode=ro reads the -wal when its -shm is there; without them (the last
 * writer checkpointed and removed them) immutable=1 reads the file alone.
 */
static int open_readonly(struct db *db, const char *path)
{
	static const char *const queries[] = {"mode=ro", "mode=ro&immutable=1"};
	int tables, app, version, rc = SQLITE_CANTOPEN;
	struct error probe = ERROR_INIT;
	size_t i;

	for (i = 0; i < sizeof(queries) / sizeof(*queries); i++) {
		char *uri = file_uri(path, queries[i]);

		rc = sqlite3_open_v2(uri, &db->h,
				     SQLITE_OPEN_READONLY | SQLITE_OPEN_URI |
					     SQLITE_OPEN_NOMUTEX,
				     NULL);
		free(uri);
		if (rc == SQLITE_OK &&
		    read_header(db, &tables, &app, &version, &probe) == 0)
			return SQLITE_OK;
		error_clear(&probe);
		sqlite3_close_v2(db->h);
		db->h = NULL;
	}
	return rc == SQLITE_OK ? SQLITE_CANTOPEN : rc;
}

int db_open(struct db **out, const char *path, int flags, struct error *err)
{
	struct db *db = xcalloc(1, sizeof(*db));
	int memory = !strcmp(path, ":memory:");
	int exists = 0, empty = 0, version, tables, app, rc;
	int oflags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX;

	*out = NULL;
	db->path = xstrdup(path);
	if (!memory) {
		if ((rc = check_header(path, &exists, &empty, err)) < 0)
			goto fail;
		/* an empty file holds nothing: only a creator may fill it */
		if ((!exists || empty) && !(flags & DB_CREATE)) {
			rc = error_set(err, GCAMP_ENOTFOUND,
				       "no database at '%s'", path);
			goto fail;
		}
		if (!exists && (rc = make_parent_dir(path, err)) < 0)
			goto fail;
	}
	if (!exists)
		oflags |= SQLITE_OPEN_CREATE;
	configure_sqlite();
	db->readonly = !memory && exists && !empty && not_writable(path);
	rc = db->readonly ? open_readonly(db, path)
			  : sqlite3_open_v2(path, &db->h, oflags, NULL);
	if (rc != SQLITE_OK) {
		rc = error_sqlite(err, db, rc, "cannot open database '%s'",
				  path);
		goto fail;
	}
	sqlite3_extended_result_codes(db->h, 1);
	sqlite3_busy_timeout(db->h, DB_BUSY_MS);
	/* parsing the schema is where a damaged file first shows */
	if ((rc = read_header(db, &tables, &app, &version, err)) < 0)
		goto fail;
	/* ours carry our application_id; an unmarked file must be new */
	if (app != DB_APPLICATION_ID && (app != 0 || tables > 0 || version)) {
		rc = error_set(err, GCAMP_EDB,
			       "database '%s' is not a git-campaign database",
			       path);
		error_hint(err, "it was left as it is; move it aside, or point "
				"GIT_CAMPAIGN_DB elsewhere");
		goto fail;
	}
	if (version > db_schema_version()) {
		rc = refuse_newer(db, version, err);
		goto fail;
	}
	if (db->readonly && version < db_schema_version()) {
		rc = error_set(err, GCAMP_EDB,
			       "database '%s' needs an upgrade, but it is "
			       "read-only here",
			       path);
		error_hint(err, "run the command where its folder is writable "
				"first; nothing was changed");
		goto fail;
	}
	if ((rc = db_exec(
		     db,
		     "PRAGMA foreign_keys = ON; PRAGMA synchronous = NORMAL",
		     err)) < 0)
		goto fail;
	if (!memory && version < db_schema_version() &&
	    (rc = db_exec(db, "PRAGMA journal_mode = WAL", err)) < 0)
		goto fail;
	if (!memory && version > 0 && version < db_schema_version() &&
	    (rc = keep_copy(db, version, err)) < 0)
		goto fail;
	if (version < db_schema_version() &&
	    (rc = db_migrate(db, db_schema_version(), err)) < 0)
		goto fail;
	*out = db;
	return 0;
fail:
	db_close(db);
	return rc;
}

void db_close(struct db *db)
{
	if (!db)
		return;
	sqlite3_close_v2(db->h);
	free(db->path);
	free(db->backup);
	free(db);
}

int db_rows(void **out, size_t *n, size_t size, struct db *db, const char *sql,
	    long long id, void (*row)(void *elem, sqlite3_stmt *st),
	    void (*free_rows)(void *v, size_t n), const char *what,
	    struct error *err)
{
	sqlite3_stmt *st = NULL;
	size_t alloc = 0;
	int rc;

	*out = NULL;
	*n = 0;
	if ((rc = db_prepare(&st, db, sql, err)) < 0)
		return rc;
	if (id > 0)
		sqlite3_bind_int64(st, 1, id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (*n == alloc) {
			alloc = alloc ? 2 * alloc : 8;
			*out = xrealloc(*out, alloc * size);
		}
		memset((char *)*out + *n * size, 0, size);
		row((char *)*out + (*n)++ * size, st);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		free_rows(*out, *n);
		*out = NULL;
		*n = 0;
		return error_sqlite(err, db, rc, "cannot read %s", what);
	}
	return 0;
}
