/* The operation journal in the database. */
#include "core/records/journal.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "io/db.h"
#include "util/buf.h"
#include "util/clock.h"
#include "util/xalloc.h"

int journal_begin(long long *out_id, struct db *db, const char *kind,
		  const char *worktree, const char *summary,
		  const char *continue_cmd, const char *abort_cmd,
		  struct error *err)
{
	sqlite3_stmt *st = NULL;
	char now[21];
	int rc;

	*out_id = 0;
	clock_now_iso(now);
	rc = db_prepare(&st, db,
			"INSERT INTO operation (kind, state, worktree, summary,"
			" continue_cmd, abort_cmd, pid, started_at, updated_at)"
			" VALUES (?, 'running', ?, ?, ?, ?, ?, ?, ?)",
			err);
	if (rc < 0)
		return rc;
	sqlite3_bind_text(st, 1, kind, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, worktree, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, summary, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, continue_cmd, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 5, abort_cmd, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 6, (sqlite3_int64)getpid());
	sqlite3_bind_text(st, 7, now, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 8, now, -1, SQLITE_STATIC);
	if ((rc = db_step_done(st, db, "cannot start the journal", err)) < 0)
		return rc;
	*out_id = (long long)sqlite3_last_insert_rowid(db_handle(db));
	return 0;
}

/* GIT_CAMPAIGN_TEST_KILL_AT=STEP (a step's name) or =N (the Nth step this
 * process journals) kills the process with SIGKILL right after that step
 * is written: the tests stop multi-step operations at every step this way
 * and check that --continue and --abort put everything right. */
static void test_kill_point(const char *step)
{
	static int count;
	const char *at = getenv("GIT_CAMPAIGN_TEST_KILL_AT");

	count++;
	if (at && (!strcmp(at, step) || atoi(at) == count))
		raise(SIGKILL);
}

int journal_step(struct db *db, long long id, const char *step,
		 const char *data, struct error *err)
{
	sqlite3_stmt *st = NULL;
	char now[21];
	int rc;

	clock_now_iso(now);
	if ((rc = db_begin(db, err)) < 0)
		return rc;
	rc = db_prepare(&st, db,
			"INSERT INTO journal (op_id, seq, step, data, at)"
			" SELECT ?1, coalesce(max(seq), 0) + 1, ?2, ?3, ?4"
			" FROM journal WHERE op_id = ?1",
			err);
	if (rc < 0)
		goto fail;
	sqlite3_bind_int64(st, 1, id);
	sqlite3_bind_text(st, 2, step, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, data ? data : "{}", -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, now, -1, SQLITE_STATIC);
	if ((rc = db_step_done(st, db, "cannot write the journal", err)) < 0)
		goto fail;
	rc = db_prepare(&st, db,
			"UPDATE operation SET updated_at = ? WHERE id = ?",
			err);
	if (rc < 0)
		goto fail;
	sqlite3_bind_text(st, 1, now, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, id);
	if ((rc = db_step_done(st, db, "cannot write the journal", err)) < 0 ||
	    (rc = db_commit(db, err)) < 0)
		goto fail;
	test_kill_point(step);
	return 0;
fail:
	db_rollback(db);
	return rc;
}

int journal_finish(struct db *db, long long id, int ok, struct error *err)
{
	sqlite3_stmt *st = NULL;
	char now[21];
	int rc;

	clock_now_iso(now);
	rc = db_prepare(&st, db,
			"UPDATE operation SET state = ?, updated_at = ?"
			" WHERE id = ? AND state = 'running'",
			err);
	if (rc < 0)
		return rc;
	sqlite3_bind_text(st, 1, ok ? "done" : "aborted", -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, now, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 3, id);
	if ((rc = db_step_done(st, db, "cannot close the journal", err)) < 0)
		return rc;
	if (sqlite3_changes(db_handle(db)) != 1)
		return error_set(err, GCAMP_ENOTFOUND,
				 "no running operation %lld", id);
	return 0;
}

int journal_unfinished(struct journal_op **out, size_t *out_n, struct db *db,
		       struct error *err)
{
	sqlite3_stmt *st = NULL;
	struct journal_op *ops = NULL;
	size_t n = 0, alloc = 0;
	int rc;

	*out = NULL;
	*out_n = 0;
	rc = db_prepare(&st, db,
			"SELECT id, kind, worktree, summary, continue_cmd,"
			" abort_cmd, pid, started_at, updated_at,"
			" (SELECT step FROM journal j WHERE j.op_id = o.id"
			"  ORDER BY seq DESC LIMIT 1)"
			" FROM operation o WHERE state = 'running' ORDER BY id",
			err);
	if (rc < 0)
		return rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct journal_op *op;

		if (n == alloc) {
			alloc = alloc ? 2 * alloc : 4;
			ops = xrealloc(ops, alloc * sizeof(*ops));
		}
		op = &ops[n++];
		op->id = sqlite3_column_int64(st, 0);
		op->kind = db_col_dup(st, 1);
		op->worktree = db_col_dup(st, 2);
		op->summary = db_col_dup(st, 3);
		op->continue_cmd = db_col_dup(st, 4);
		op->abort_cmd = db_col_dup(st, 5);
		op->pid = sqlite3_column_int64(st, 6);
		op->started_at = db_col_dup(st, 7);
		op->updated_at = db_col_dup(st, 8);
		op->last_step = db_col_dup(st, 9);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		journal_ops_free(ops, n);
		return error_sqlite(err, db, rc, "cannot read the journal");
	}
	*out = ops;
	*out_n = n;
	return 0;
}

void journal_ops_free(struct journal_op *ops, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(ops[i].kind);
		free(ops[i].worktree);
		free(ops[i].summary);
		free(ops[i].continue_cmd);
		free(ops[i].abort_cmd);
		free(ops[i].started_at);
		free(ops[i].updated_at);
		free(ops[i].last_step);
	}
	free(ops);
}

int journal_read(struct journal_step **out, size_t *out_n, struct db *db,
		 long long id, struct error *err)
{
	sqlite3_stmt *st = NULL;
	struct journal_step *steps = NULL;
	size_t n = 0, alloc = 0;
	int rc;

	*out = NULL;
	*out_n = 0;
	rc = db_prepare(&st, db,
			"SELECT step, data FROM journal WHERE op_id = ?"
			" ORDER BY seq",
			err);
	if (rc < 0)
		return rc;
	sqlite3_bind_int64(st, 1, id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (n == alloc) {
			alloc = alloc ? 2 * alloc : 8;
			steps = xrealloc(steps, alloc * sizeof(*steps));
		}
		steps[n].step = db_col_dup(st, 0);
		steps[n].data = db_col_dup(st, 1);
		n++;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		journal_steps_free(steps, n);
		return error_sqlite(err, db, rc, "cannot read the journal");
	}
	*out = steps;
	*out_n = n;
	return 0;
}

void journal_steps_free(struct journal_step *steps, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(steps[i].step);
		free(steps[i].data);
	}
	free(steps);
}

int journal_last_done(long long *id, char **kind, struct db *db,
		      const char *const *kinds, struct error *err)
{
	return journal_done_before(id, kind, db, kinds, 0, err);
}

int journal_done_before(long long *id, char **kind, struct db *db,
			const char *const *kinds, long long before,
			struct error *err)
{
	struct buf sql = BUF_INIT;
	sqlite3_stmt *st = NULL;
	int rc, i;

	*id = 0;
	*kind = NULL;
	buf_puts(&sql, "SELECT id, kind FROM operation WHERE state = 'done'"
		       " AND kind IN (");
	for (i = 0; i < 8 && kinds[i]; i++)
		buf_puts(&sql, i ? ", ?" : "?");
	buf_puts(&sql, before > 0 ? ") AND id < ? ORDER BY id DESC LIMIT 1"
				  : ") ORDER BY id DESC LIMIT 1");
	rc = db_prepare(&st, db, sql.ptr, err);
	buf_release(&sql);
	if (rc < 0)
		return rc;
	for (i = 0; i < 8 && kinds[i]; i++)
		sqlite3_bind_text(st, i + 1, kinds[i], -1, SQLITE_STATIC);
	if (before > 0)
		sqlite3_bind_int64(st, i + 1, before);
	if (sqlite3_step(st) == SQLITE_ROW) {
		*id = sqlite3_column_int64(st, 0);
		*kind = xstrdup((const char *)sqlite3_column_text(st, 1));
	}
	sqlite3_finalize(st);
	return 0;
}

int journal_count_finished_before(int *out, struct db *db, const char *cutoff,
				  struct error *err)
{
	sqlite3_stmt *st = NULL;
	int rc;

	*out = 0;
	if ((rc = db_prepare(&st, db,
			     "SELECT count(*) FROM operation WHERE state <>"
			     " 'running' AND updated_at < ?",
			     err)) < 0)
		return rc;
	sqlite3_bind_text(st, 1, cutoff, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW)
		*out = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return 0;
}

int journal_prune_finished_before(struct db *db, const char *cutoff,
				  struct error *err)
{
	static const char *const sql[] = {
		"DELETE FROM journal WHERE op_id IN (SELECT id FROM operation"
		" WHERE state <> 'running' AND updated_at < ?)",
		"DELETE FROM operation WHERE state <> 'running'"
		" AND updated_at < ?",
	};
	sqlite3_stmt *st = NULL;
	size_t i;
	int rc;

	if ((rc = db_begin(db, err)) < 0)
		return rc;
	for (i = 0; i < 2; i++) {
		if ((rc = db_prepare(&st, db, sql[i], err)) < 0)
			break;
		sqlite3_bind_text(st, 1, cutoff, -1, SQLITE_STATIC);
		rc = sqlite3_step(st);
		sqlite3_finalize(st);
		if (rc != SQLITE_DONE) {
			rc = error_sqlite(err, db, rc,
					  "cannot prune the journal");
			break;
		}
		rc = 0;
	}
	if (rc < 0) {
		db_rollback(db);
		return rc;
	}
	return db_commit(db, err);
}
