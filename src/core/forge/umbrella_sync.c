/* Automatic updates of the umbrella issue: the section it was last given is
 * kept in the database (umbrella_state), so that a command that changed
 * nothing the umbrella shows costs no request; an update GitHub did not
 * take is queued there, and sent by the next command or umbrella sync. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/forge/open.h"
#include "core/views/umbrella.h"
#include "io/db.h"
#include "util/trace.h"
#include "util/xalloc.h"

/* runs sql, ?1 bound to issue and ?2 to text, on the campaign database */
static int write_state(struct ctx *ctx, const char *sql, long issue,
		       const char *text, const char *what)
{
	sqlite3_stmt *st = NULL;
	struct db *db;
	int rc;

	if ((rc = ctx_db(&db, ctx, 0)) < 0 ||
	    (rc = db_prepare(&st, db, sql, &ctx->err)) < 0)
		return rc;
	sqlite3_bind_int64(st, 1, issue);
	sqlite3_bind_text(st, 2, text, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return error_sqlite(&ctx->err, db, rc, "%s #%ld", what, issue);
	return 0;
}

int umbrella_state_sent(struct ctx *ctx, long issue, const char *section)
{
	return write_state(ctx,
			   "INSERT INTO umbrella_state (issue, section) "
			   "VALUES (?1, ?2) ON CONFLICT (issue) DO UPDATE "
			   "SET section = excluded.section, "
			   "pending_since = NULL, tries = 0, error = NULL",
			   issue, section, "cannot record umbrella");
}

/* queues the update of issue, why it could not be sent now */
static int queue(struct ctx *ctx, long issue, const char *why)
{
	return write_state(ctx,
			   "INSERT INTO umbrella_state (issue, pending_since,"
			   " tries, error, last_try) VALUES (?1, "
			   "strftime('%Y-%m-%dT%H:%M:%SZ'), 1, ?2, "
			   "strftime('%Y-%m-%dT%H:%M:%SZ')) "
			   "ON CONFLICT (issue) DO UPDATE SET pending_since "
			   "= coalesce(pending_since, "
			   "excluded.pending_since), tries = tries + 1, "
			   "error = excluded.error, last_try = "
			   "excluded.last_try",
			   issue, why, "cannot queue the update of umbrella");
}

int umbrella_pending(struct umbrella_pending *out, struct ctx *ctx)
{
	sqlite3_stmt *st = NULL;
	struct db *db;
	int rc;

	memset(out, 0, sizeof(*out));
	if ((rc = ctx_db(&db, ctx, 0)) < 0 ||
	    (rc = db_prepare(&st, db,
			     "SELECT issue, pending_since, tries, "
			     "coalesce(error, '') FROM umbrella_state WHERE "
			     "pending_since IS NOT NULL ORDER BY issue LIMIT 1",
			     &ctx->err)) < 0)
		return rc;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		out->number = (long)sqlite3_column_int64(st, 0);
		snprintf(out->since, sizeof(out->since), "%s",
			 (const char *)sqlite3_column_text(st, 1));
		out->tries = sqlite3_column_int(st, 2);
		snprintf(out->error, sizeof(out->error), "%s",
			 (const char *)sqlite3_column_text(st, 3));
		rc = 1;
	} else if (rc == SQLITE_DONE) {
		rc = 0;
	} else {
		rc = error_sqlite(&ctx->err, db, rc,
				  "cannot read the umbrella's state");
	}
	sqlite3_finalize(st);
	return rc;
}

/* What the state of issue says before a try: *same when it was last given
 * section and nothing is queued; *pending when an update is queued; *wait
 * when that update was tried too recently to try again now (30 s after the
 * first failure, doubling up to an hour, so that commands stay fast while
 * GitHub is out of reach) */
static void state_of(int *same, int *pending, int *wait, struct ctx *ctx,
		     long issue, const char *section)
{
	sqlite3_stmt *st = NULL;
	struct db *db;

	*same = *pending = *wait = 0;
	if (ctx_db(&db, ctx, 0) < 0 ||
	    db_prepare(&st, db,
		       "SELECT section = ?2 AND pending_since IS NULL, "
		       "pending_since IS NOT NULL, "
		       "unixepoch('now') - unixepoch(last_try) < "
		       "min(3600, 15 << min(tries, 8)) "
		       "FROM umbrella_state WHERE issue = ?1",
		       &ctx->err) < 0) {
		error_clear(&ctx->err);
		return;
	}
	sqlite3_bind_int64(st, 1, issue);
	sqlite3_bind_text(st, 2, section, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW) {
		*same = sqlite3_column_int(st, 0) == 1;
		*pending = sqlite3_column_int(st, 1) == 1;
		*wait = *pending && sqlite3_column_int(st, 2) == 1;
	}
	sqlite3_finalize(st);
}

int umbrella_auto_update(struct umbrella_auto *out, struct ctx *ctx)
{
	struct campaign c = {0};
	struct umbrella_result r = {0};
	struct github *gh = NULL;
	struct buf section = BUF_INIT;
	int rc, same, pending = 0, wait;

	memset(out, 0, sizeof(*out));
	if (campaign_load(&c, ctx) < 0) {
		error_clear(&ctx->err); /* no campaign: nothing to show */
		return UMBRELLA_AUTO_OFF;
	}
	if (!c.umbrella_auto || c.umbrella <= 0)
		goto out;
	out->number = c.umbrella;
	out->outcome = UMBRELLA_AUTO_UNCHANGED;
	if ((rc = umbrella_render(&section, ctx, &c, 20)) < 0)
		goto queue;
	state_of(&same, &pending, &wait, ctx, c.umbrella, section.ptr);
	if (same) {
		trace_printf("umbrella: #%ld shows this already", c.umbrella);
		goto out;
	}
	if (wait) {
		trace_printf("umbrella: #%ld queued, tried too recently",
			     c.umbrella);
		out->outcome = UMBRELLA_AUTO_WAITING;
		goto out;
	}
	if ((rc = forge_open(&gh, ctx, &c)) < 0 ||
	    (rc = umbrella_sync(&r, ctx, &c, gh)) < 0)
		goto queue;
	out->outcome = UMBRELLA_AUTO_SENT;
	out->changed = r.changed;
	goto out;
queue:
	out->outcome =
		pending ? UMBRELLA_AUTO_STILL_QUEUED : UMBRELLA_AUTO_QUEUED;
	snprintf(out->why, sizeof(out->why), "%s", ctx->err.msg);
	error_clear(&ctx->err);
	if (queue(ctx, c.umbrella, out->why) < 0) {
		trace_printf("umbrella: %s", ctx->err.msg);
		error_clear(&ctx->err);
	}
out:
	umbrella_result_release(&r);
	github_close(gh);
	buf_release(&section);
	campaign_release(&c);
	return out->outcome;
}
