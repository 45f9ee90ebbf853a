/* The umbrella issue, the campaign's shared memory on GitHub: its section
 * rendered from the campaign, spliced between markers into the issue body
 * (the rest kept byte for byte), and one marked comment per result. */
#ifndef GCAMP_UMBRELLA_H
#define GCAMP_UMBRELLA_H

#include <stddef.h>

#include "core/campaign.h"
#include "core/ctx.h"
#include "io/github.h"
#include "util/buf.h"

#define UMBRELLA_BEGIN "<!-- git-campaign:begin -->"
#define UMBRELLA_END "<!-- git-campaign:end -->"
/* GitHub's limits on an issue body: characters, and bytes it stores */
#define UMBRELLA_MAX_CHARS 65536
#define UMBRELLA_MAX_BYTES 262144

/*
 * Writes body with the text between UMBRELLA_BEGIN and UMBRELLA_END replaced
 * by section (LF line ends; written in body's own style, CRLF when body has
 * CRLF). Bytes outside the markers are kept as they are. Without markers the
 * block is appended after a blank line. Returns 0 (replaced), 1 (appended),
 * or -1 when body has a begin marker without an end marker after it (out is
 * then left empty).
 */
int umbrella_splice(struct buf *out, const char *body, const char *section);
/* The same with other markers (the stack section of a PR body, say); begin
 * and end may be the same text, the second occurrence then ending the
 * block. */
int splice_markers(struct buf *out, const char *body, const char *begin,
		   const char *end, const char *section);

/* The number of Unicode code points in the UTF-8 string s (bytes that are
 * not valid UTF-8 count one each). */
size_t utf8_length(const char *s);

/* Renders the campaign's section (LF line ends) from the database: the PR
 * task list and the newest max_rows measurements; older ones are folded
 * into one line. */
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

#endif
