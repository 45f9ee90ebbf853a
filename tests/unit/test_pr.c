/* Unit tests for src/core/records/pr.c: the read of the PR cache, on a
 * database with the pr table and on one from before it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <sqlite3.h>

#include "core/records/pr.h"

static void exec_sql(sqlite3 *db, const char *sql)
{
	assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
}

/* The table is looked for in the schema, not in an error's wording: a
 * database from before the cache has no row, and says nothing. */
static void no_pr_table_is_not_found_without_an_error(void **state)
{
	struct pr_cached pr;
	struct error err = ERROR_INIT;
	sqlite3 *db = NULL;

	(void)state;
	assert_int_equal(sqlite3_open(":memory:", &db), SQLITE_OK);
	exec_sql(db, "CREATE TABLE meta (k TEXT, v TEXT)");
	assert_int_equal(pr_get(&pr, db, "b", &err), GCAMP_ENOTFOUND);
	assert_int_equal(err.code, 0);
	/* a view of that name is not the table */
	exec_sql(db, "CREATE VIEW pr AS SELECT 1 AS number");
	assert_int_equal(pr_get(&pr, db, "b", &err), GCAMP_ENOTFOUND);
	assert_int_equal(err.code, 0);
	sqlite3_close(db);
}

static void cached_pr_is_read(void **state)
{
	struct pr_cached pr;
	struct error err = ERROR_INIT;
	sqlite3 *db = NULL;

	(void)state;
	assert_int_equal(sqlite3_open(":memory:", &db), SQLITE_OK);
	exec_sql(db, "CREATE TABLE pr (branch TEXT PRIMARY KEY, number "
		     "INTEGER, state TEXT, url TEXT);"
		     "INSERT INTO pr VALUES ('b', 7, 'open', 'https://x/7')");
	assert_int_equal(pr_get(&pr, db, "b", &err), 0);
	assert_int_equal(pr.number, 7);
	assert_string_equal(pr.state, "open");
	assert_string_equal(pr.url, "https://x/7");
	assert_int_equal(pr_get(&pr, db, "other", &err), GCAMP_ENOTFOUND);
	assert_int_equal(err.code, 0);
	sqlite3_close(db);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(no_pr_table_is_not_found_without_an_error),
		cmocka_unit_test(cached_pr_is_read),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
