/* The umbrella issue's automatic updates, table umbrella_state: the
 * section the issue was last given, and an update queued while GitHub
 * could not be reached (when it was last tried, for the back-off). */
#ifndef GCAMP_RECORDS_UMBRELLA_STATE_H
#define GCAMP_RECORDS_UMBRELLA_STATE_H

#include "core/base/ctx.h"

struct umbrella_pending {
	long number;
	char since[32]; /* UTC, ISO 8601 */
	int tries;
	char error[1024];
};

/* Records that issue now shows section (umbrella_render's, 20 rows) and
 * that nothing is queued for it; umbrella_sync calls it. */
int umbrella_state_sent(struct ctx *ctx, long issue, const char *section);

/* Queues the update of issue, why it could not be sent now: the first
 * failure's time is kept, the tries counted. */
int umbrella_state_queue(struct ctx *ctx, long issue, const char *why);

/* The queued update, for status: 1 (out filled) when one is pending, 0
 * when none, < 0 on a database error. */
int umbrella_state_pending(struct umbrella_pending *out, struct ctx *ctx);

/* What the state of issue says before a try: *same when it was last given
 * section and nothing is queued; *pending when an update is queued; *wait
 * when that update was tried too recently to try again now (30 s after the
 * first failure, doubling up to an hour). All 0 when the state cannot be
 * read (ctx->err is left clear). */
void umbrella_state_of(int *same, int *pending, int *wait, struct ctx *ctx,
		       long issue, const char *section);

#endif
