/* The umbrella issue, the campaign's shared memory on GitHub: its section
 * rendered from the campaign and spliced between markers into the issue
 * body (the rest kept byte for byte). core/forge/umbrella_sync.h sends
 * it. */
#ifndef GCAMP_UMBRELLA_H
#define GCAMP_UMBRELLA_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "core/campaign/campaign.h"
#include "core/base/ctx.h"
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

#endif
