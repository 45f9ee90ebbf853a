/* Unit tests for src/io/db.c and src/core/records/journal.c: migrations,
 * refusals, the path rule, column copies and the operation journal, on
 * ":memory:" and on files the tests make. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/records/journal.h"
#include "io/db.h"

static char dir[] = "/tmp/gcamp-test-db-XXXXXX";

static int make_dir(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

static int remove_dir(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static char *path_in_dir(const char *name)
{
	static char p[256];

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	return p;
}

static void write_file(const char *path, const void *data, size_t n)
{
	FILE *fp = fopen(path, "wb");

	assert_non_null(fp);
	assert_int_equal(fwrite(data, 1, n, fp), n);
	fclose(fp);
}

static void memory_database_is_current(void **state)
{
	struct error err = ERROR_INIT;
	struct db *db = NULL;
	int v;

	(void)state;
	assert_int_equal(db_open(&db, ":memory:", DB_CREATE, &err), 0);
	assert_int_equal(db_user_version(db, &v, &err), 0);
	assert_int_equal(v, db_schema_version());
	db_close(db);
	db_close(NULL);
}

/* one test per past schema version: 0 is an empty file */
static void migrates_from_version_0(void **state)
{
	struct error err = ERROR_INIT;
	struct db *db = NULL;
	char *p = path_in_dir("v0.db");
	int v;

	(void)state;
	write_file(p, "", 0);
	/* a reader leaves an empty file empty */
	assert_int_equal(db_open(&db, p, 0, &err), GCAMP_ENOTFOUND);
	assert_int_equal(access(p, F_OK), 0);
	error_clear(&err);
	assert_int_equal(db_open(&db, p, DB_CREATE, &err), 0);
	assert_int_equal(db_user_version(db, &v, &err), 0);
	assert_int_equal(v, db_schema_version());
	/* the tables of version 1 are there */
	assert_int_equal(db_exec(db,
				 "INSERT INTO meta VALUES ('k', 'v');"
				 "SELECT id FROM operation;"
				 "SELECT op_id FROM journal;",
				 &err),
			 0);
	db_close(db);
	/* and opening again is a no-op */
	assert_int_equal(db_open(&db, p, 0, &err), 0);
	db_close(db);
}

/* A database in file name taken back to an older schema by down (which
 * ends with its PRAGMA user_version), holding PR b1 #7; opened again, it
 * is migrated to the current schema, then gets up, and the PR is still
 * there. */
static void migrate_from(const char *name, const char *down, const char *up)
{
	struct error err = ERROR_INIT;
	struct db *db = NULL;
	char *p = path_in_dir(name);
	int v;

	assert_int_equal(db_open(&db, p, DB_CREATE, &err), 0);
	assert_int_equal(db_exec(db,
				 "INSERT INTO pr VALUES ('b1', 7, 'open', "
				 "'develop', NULL, 'now');",
				 &err),
			 0);
	assert_int_equal(db_exec(db, down, &err), 0);
	db_close(db);
	assert_int_equal(db_open(&db, p, 0, &err), 0);
	assert_int_equal(db_user_version(db, &v, &err), 0);
	assert_int_equal(v, db_schema_version());
	assert_int_equal(db_exec(db, up, &err), 0);
	assert_int_equal(db_exec(db,
				 "DELETE FROM pr WHERE branch = 'b1' AND "
				 "number = 7;",
				 &err),
			 0);
	assert_int_equal(sqlite3_changes(db_handle(db)), 1);
	db_close(db);
}

/* schemas 3 to 7 add ab_run (A/B results), http_cache (GitHub's ETags),
 * the records (hypothesis, finding, test_result), umbrella_state and the
 * saved resume pointers with the test totals, and keep what 2 held */
static void migrates_from_version_2(void **state)
{
	(void)state;
	migrate_from("v2.db",
		     "DROP TABLE resume_pointer; DROP TABLE test_total;"
		     " DROP TABLE umbrella_state;"
		     " DROP TABLE test_result; DROP TABLE finding;"
		     " DROP TABLE hypothesis;"
		     " DROP TABLE http_cache; DROP TABLE ab_run;"
		     " PRAGMA user_version = 2;",
		     "INSERT INTO hypothesis (text, metric, predicted, "
		     "tolerance, state, created_at) VALUES ('t', 'm', 2, "
		     "10, 'open', 'now');"
		     "INSERT INTO finding (kind, title, state, created_at)"
		     " VALUES ('crash', 't', 'open', 'now');"
		     "INSERT INTO test_result VALUES ('c', 'e', 'k', 1, 0, "
		     "0, 0, 'junit', 'now');"
		     "INSERT INTO http_cache VALUES ('u', 'W/\"e\"', "
		     "'{}', NULL, 'now');"
		     "INSERT INTO ab_run VALUES (1, 'now', 'stash', 'w', "
		     "'~ 1.000', 0, '{}', '');");
}

/* schema 6 adds umbrella_state (the automatic updates of the umbrella)
 * and keeps what 5 held */
static void migrates_from_version_5(void **state)
{
	(void)state;
	migrate_from("v5.db",
		     "DROP TABLE resume_pointer; DROP TABLE test_total;"
		     " DROP TABLE umbrella_state; PRAGMA user_version = 5;",
		     "INSERT INTO umbrella_state (issue, section, "
		     "pending_since) VALUES (1, 's', 'now');");
}

/* the last step adds resume_pointer (saved resume pointers) and the test
 * totals, filled from the test results, and keeps the records */
static void migrates_to_resume_pointers(void **state)
{
	struct error err = ERROR_INIT;
	struct db *db = NULL;
	char *p = path_in_dir("vlast.db");
	char bump[64];
	int v;

	(void)state;
	assert_int_equal(db_open(&db, p, DB_CREATE, &err), 0);
	snprintf(bump, sizeof(bump), "PRAGMA user_version = %d",
		 db_schema_version() - 1);
	assert_int_equal(
		db_exec(db,
			"DROP TABLE resume_pointer; DROP TABLE test_total;"
			"INSERT INTO finding (kind, title, state, created_at)"
			" VALUES ('crash', 't', 'open', 'now');"
			"INSERT INTO test_result VALUES ('c1', 'e', 'k', 1, 2,"
			" 0, 0, 'junit', 't1'), ('c1', 'e', 'l', 3, 0, 0, 1,"
			" 'junit', 't2'), ('c2', 'e', 'k', 5, 0, 0, 0,"
			" 'junit', 't0');",
			&err),
		0);
	assert_int_equal(db_exec(db, bump, &err), 0);
	db_close(db);
	assert_int_equal(db_open(&db, p, 0, &err), 0);
	assert_int_equal(db_user_version(db, &v, &err), 0);
	assert_int_equal(v, db_schema_version());
	assert_int_equal(
		db_exec(db,
			"INSERT INTO resume_pointer (at, author, branch, head,"
			" text, data) VALUES ('now', 'a <a@b>', NULL, NULL,"
			" 'text', '{}');"
			"DELETE FROM finding WHERE title = 't';",
			&err),
		0);
	assert_int_equal(sqlite3_changes(db_handle(db)), 1);
	/* the totals of the rows there were, in the order of their import */
	assert_int_equal(
		db_exec(db,
			"DELETE FROM test_total WHERE rowid = 1 AND"
			" commit_id = 'c1' AND passed = 4 AND failed = 2 AND"
			" unsupported = 1 AND classes = 2 AND at = 't2';"
			"DELETE FROM test_total WHERE rowid = 2 AND"
			" commit_id = 'c2' AND passed = 5;",
			&err),
		0);
	assert_int_equal(sqlite3_changes(db_handle(db)), 1);
	assert_int_equal(
		db_exec(db, "DELETE FROM test_total WHERE commit_id = 'c1'",
			&err),
		0);
	assert_int_equal(sqlite3_changes(db_handle(db)), 0);
	db_close(db);
}

static void missing_file_without_create(void **state)
{
	struct error err = ERROR_INIT;
	struct db *db = NULL;

	(void)state;
	assert_int_equal(db_open(&db, path_in_dir("nope/x.db"), 0, &err),
			 GCAMP_ENOTFOUND);
	assert_null(db);
	assert_int_equal(access(path_in_dir("nope"), F_OK), -1);
	error_clear(&err);
	assert_int_equal(db_open(&db, path_in_dir("new/x.db"), DB_CREATE, &err),
			 0);
	db_close(db);
}

static void refuses_newer_schema(void **state)
{
	struct error err = ERROR_INIT;
	struct db *db = NULL;
	char *p = path_in_dir("newer.db");

	(void)state;
	assert_int_equal(db_open(&db, p, DB_CREATE, &err), 0);
	assert_int_equal(db_exec(db, "PRAGMA user_version = 1000", &err), 0);
	db_close(db);
	assert_int_equal(db_open(&db, p, 0, &err), GCAMP_EDB);
	assert_null(db);
	assert_non_null(strstr(err.msg, "schema version 1000, newer"));
	assert_non_null(strstr(err.hint, "upgrade"));
}

static void refuses_non_sqlite_and_foreign(void **state)
{
	struct error err = ERROR_INIT;
	struct db *db = NULL;
	char *p = path_in_dir("text.db");
	sqlite3 *h;

	(void)state;
	write_file(p, "hello, this is not a database\n", 30);
	assert_int_equal(db_open(&db, p, DB_CREATE, &err), GCAMP_EDB);
	assert_non_null(strstr(err.msg, "is not a sqlite database"));
	error_clear(&err);

	p = path_in_dir("foreign.db");
	assert_int_equal(sqlite3_open(p, &h), SQLITE_OK);
	assert_int_equal(
		sqlite3_exec(h, "CREATE TABLE t (x)", NULL, NULL, NULL),
		SQLITE_OK);
	sqlite3_close(h);
	assert_int_equal(db_open(&db, p, DB_CREATE, &err), GCAMP_EDB);
	assert_non_null(strstr(err.msg, "not a git-campaign database"));
}

static void journal_lifecycle(void **state)
{
	struct error err = ERROR_INIT;
	struct db *db = NULL;
	struct journal_op *ops;
	size_t n;
	long long a, b;

	(void)state;
	assert_int_equal(db_open(&db, ":memory:", DB_CREATE, &err), 0);
	assert_int_equal(journal_begin(&a, db, "ab", "/w", "A/B of x",
				       "git campaign ab --continue",
				       "git campaign ab --abort", &err),
			 0);
	assert_int_equal(journal_begin(&b, db, "restack", "/w", "restack",
				       "git campaign stack continue",
				       "git campaign stack abort", &err),
			 0);
	assert_int_equal(journal_step(db, a, "stash", NULL, &err), 0);
	assert_int_equal(
		journal_step(db, a, "build-a", "{\"arm\":\"A\"}", &err), 0);
	assert_int_equal(journal_unfinished(&ops, &n, db, &err), 0);
	assert_int_equal(n, 2);
	assert_string_equal(ops[0].kind, "ab");
	assert_string_equal(ops[0].last_step, "build-a");
	assert_null(ops[1].last_step);
	assert_string_equal(ops[1].abort_cmd, "git campaign stack abort");
	journal_ops_free(ops, n);

	assert_int_equal(journal_finish(db, a, 1, &err), 0);
	assert_int_equal(journal_finish(db, a, 1, &err), GCAMP_ENOTFOUND);
	error_clear(&err);
	assert_int_equal(journal_finish(db, b, 0, &err), 0);
	assert_int_equal(journal_unfinished(&ops, &n, db, &err), 0);
	assert_int_equal(n, 0);
	journal_ops_free(ops, n);
	db_close(db);
}

static void default_path_is_the_common_dirs_unless_overridden(void **state)
{
	const char *old = getenv("GIT_CAMPAIGN_DB");
	char *saved = old ? strdup(old) : NULL;
	char *p;

	(void)state;
	unsetenv("GIT_CAMPAIGN_DB");
	p = db_default_path("/r/.git");
	assert_string_equal(p, "/r/.git/campaign/campaign.db");
	free(p);
	assert_null(db_default_path(NULL));
	/* an empty override is no override */
	setenv("GIT_CAMPAIGN_DB", "", 1);
	p = db_default_path("/r/.git");
	assert_string_equal(p, "/r/.git/campaign/campaign.db");
	free(p);
	assert_null(db_default_path(NULL));
	/* the override needs no repository */
	setenv("GIT_CAMPAIGN_DB", "/elsewhere/c.db", 1);
	p = db_default_path("/r/.git");
	assert_string_equal(p, "/elsewhere/c.db");
	free(p);
	p = db_default_path(NULL);
	assert_string_equal(p, "/elsewhere/c.db");
	free(p);
	if (saved)
		setenv("GIT_CAMPAIGN_DB", saved, 1);
	else
		unsetenv("GIT_CAMPAIGN_DB");
	free(saved);
}

static void col_dup_copies_text_and_keeps_null(void **state)
{
	struct error err = ERROR_INIT;
	struct db *db = NULL;
	sqlite3_stmt *st = NULL;
	char *a, *b, *c;

	(void)state;
	assert_int_equal(db_open(&db, ":memory:", DB_CREATE, &err), 0);
	assert_int_equal(db_prepare(&st, db, "SELECT 'x y', NULL, 42", &err),
			 0);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	a = db_col_dup(st, 0);
	b = db_col_dup(st, 1);
	c = db_col_dup(st, 2);
	sqlite3_finalize(st);
	db_close(db);
	/* the copies outlive the statement */
	assert_string_equal(a, "x y");
	assert_null(b);
	assert_string_equal(c, "42");
	free(a);
	free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(memory_database_is_current),
		cmocka_unit_test(migrates_from_version_0),
		cmocka_unit_test(migrates_from_version_2),
		cmocka_unit_test(migrates_from_version_5),
		cmocka_unit_test(migrates_to_resume_pointers),
		cmocka_unit_test(missing_file_without_create),
		cmocka_unit_test(refuses_newer_schema),
		cmocka_unit_test(refuses_non_sqlite_and_foreign),
		cmocka_unit_test(journal_lifecycle),
		cmocka_unit_test(
			default_path_is_the_common_dirs_unless_overridden),
		cmocka_unit_test(col_dup_copies_text_and_keeps_null),
	};

	return cmocka_run_group_tests(tests, make_dir, remove_dir);
}
