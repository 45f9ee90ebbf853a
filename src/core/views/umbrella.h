/* The umbrella issue, the campaign's shared memory on GitHub: its section
 * rendered from the campaign, spliced between markers into the issue body
 * (the rest kept byte for byte), and one marked comment per result. */
#ifndef GCAMP_UMBRELLA_H
#define GCAMP_UMBRELLA_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "core/campaign/campaign.h"
#include "core/base/ctx.h"
#include "io/github/client.h"
#include "util/buf.h"

#define UMBRELLA_BEGIN "<!-- git-campaign:begin -->"
#define UMBRELLA_END "<!-- git-campaign:end -->"

/*
 * Writes body with the text between UMBRELLA_BEGIN and UMBRELLA_END replaced
 * by section (LF line ends; written in body's own style, CRLF when body has
 * CRLF). Bytes outside the markers are kept as they are. Without markers the
 * block is appended after a blank line. Returns 0 (replaced), 1 (appended),
 * or -1 when body has a begin marker without an end marker after it (out is
 * then left empty).
 */
int umbrella_splice(struct buf *out, const char *body, const char *section);

/* The data of the campaign's section, a new object (caller frees): what
 * `git campaign resume --format json` prints (resume_build: baselines per
 * machine, the last A/B table, the next hypothesis, open findings by
 * rank, ...) and prs (the PR cache as a task list: number, branch, state,
 * done, title, claim; see prbody_claim), measurements (the newest
 * max_rows: rows of commit, metric, value, unit, arm, env, config, and
 * folded, how many older ones are left out; null when none) and pointer
 * (the resume pointer saved last: at, author, text; or null). */
int umbrella_data(cJSON **out, struct ctx *ctx, int max_rows);

/* Renders the campaign's section (LF line ends) from umbrella_data with
 * template umbrella.md (the repository's override in .campaign/templates/
 * when there is one). */
int umbrella_render(struct buf *out, struct ctx *ctx, const struct campaign *c,
		    int max_rows);

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
