/* Automatic updates of the umbrella issue: the section it was last given is
 * kept in the database (umbrella_state), so that a command that changed
 * nothing the umbrella shows costs no request; an update GitHub did not
 * take is queued there, and sent by the next command or umbrella sync. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/forge/open.h"
#include "core/records/umbrella_state.h"
#include "core/views/umbrella.h"
#include "io/db.h"
#include "io/github/client.h"
#include "util/trace.h"
#include "util/xalloc.h"

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
	umbrella_state_of(&same, &pending, &wait, ctx, c.umbrella, section.ptr);
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
	if (umbrella_state_queue(ctx, c.umbrella, out->why) < 0) {
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
