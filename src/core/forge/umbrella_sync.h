/* The umbrella issue on GitHub: its section sent (by umbrella sync, or
 * automatically at the end of commands), a marked comment per result,
 * and the issue opened. The section itself is core/views/umbrella.h. */
#ifndef GCAMP_UMBRELLA_SYNC_H
#define GCAMP_UMBRELLA_SYNC_H

#include "core/base/ctx.h"
#include "core/campaign/campaign.h"
#include "core/views/umbrella.h"
#include "io/github/client.h"

struct umbrella_result {
	long number;
	int changed;  /* a PATCH (or POST) was made */
	int appended; /* the markers were missing */
	int folded;   /* measurements were folded to fit GitHub's limit */
	char *url;    /* the or comment's html_url; caller frees */
};

/* Brings the umbrella issue's section up to date: one GET (a 304 when
 * nothing changed on GitHub), no PATCH when the body would not change, and
 * the body GitHub returns checked against what was sent. */
int umbrella_sync(struct umbrella_result *out, struct ctx *ctx,
		  const struct campaign *c, struct github *gh);

/* Adds, or updates in place, the comment marked for result name with
 * text; nothing is sent when it already says that. */
int umbrella_post(struct umbrella_result *out, struct ctx *ctx,
		  const struct campaign *c, struct github *gh, const char *name,
		  const char *text);

/* Opens the umbrella issue ("Campaign NAME", its body the rendered section
 * between the markers) and records its number in campaign.umbrella (and in
 * c->umbrella). */
int umbrella_create(struct umbrella_result *out, struct ctx *ctx,
		    struct campaign *c, struct github *gh);

/* Frees r->url and zeroes r. */
void umbrella_result_release(struct umbrella_result *r);

enum umbrella_auto_outcome {
	UMBRELLA_AUTO_OFF, /* campaign.umbrella.auto unset, or no umbrella */
	UMBRELLA_AUTO_UNCHANGED, /* it shows this already: no request */
	UMBRELLA_AUTO_SENT,	 /* synced (changed says whether PATCHed) */
	UMBRELLA_AUTO_QUEUED,	 /* GitHub did not take it: queued, why says */
	UMBRELLA_AUTO_STILL_QUEUED, /* the queued update failed once more */
	UMBRELLA_AUTO_WAITING, /* queued and tried too recently: no request */
};

struct umbrella_auto {
	enum umbrella_auto_outcome outcome;
	long number;
	int changed;
	char why[1024];
};

/*
 * The automatic update, for any command that may change what the umbrella
 * shows (a measurement, an A/B, a PR, a hypothesis, a finding, test
 * results, a saved resume) to call at its end: when campaign.umbrella.auto
 * is true, renders the section and, when it differs from the one the issue
 * was last given or an update is queued, runs umbrella_sync. Any failure
 * (GitHub unreachable, no token, a refusal) queues the update in the
 * database's umbrella_state for the next command or umbrella sync to send;
 * it never fails the command. A queued update is tried again only after a
 * back-off (30 s after the first failure, doubling up to an hour; until
 * then UMBRELLA_AUTO_WAITING, no request), so that commands stay fast
 * while GitHub is out of reach. Returns out->outcome (never < 0) and
 * leaves ctx->err clear; the caller tells the user about a new failure,
 * UMBRELLA_AUTO_QUEUED (cmd_umbrella_auto in src/cmd/cmd.h does); status
 * shows the queued one.
 */
int umbrella_auto_update(struct umbrella_auto *out, struct ctx *ctx);

#endif
