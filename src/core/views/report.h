/* The campaign report: every number of a campaign gathered into one
 * document (report_data), and that document drawn as one self-contained
 * HTML page with inline SVG (report_html): each metric's history per
 * machine and configuration, each A/B's samples, each sweep's fit, the
 * stack with its PRs, the hypotheses and the findings. */
#ifndef GCAMP_VIEWS_REPORT_H
#define GCAMP_VIEWS_REPORT_H

#include <cjson/cJSON.h>

#include "core/base/ctx.h"
#include "util/buf.h"
#include "util/strvec.h"

/* Points drawn per series at most: a longer one is cut into half as many
 * buckets of its commits, each drawn by its lowest and its highest point
 * (a step or an outlier stays visible), and the page says so. */
#define REPORT_MAX_POINTS 1200

struct report_opts {
	const char *range;	      /* "A..B", a revision, NULL: HEAD */
	const struct strvec *metrics; /* NULL or empty: every metric */
};

/*
 * Gathers the report's document into *out (cJSON_Delete frees it), as
 * `report --json` prints it and git-campaign-report(1) documents it:
 * "campaign", "base", "range", "commits" (the range's first-parent
 * commits, oldest first: "id", "subject"), "envs" (id to machine label),
 * "metrics" (per metric its "unit", "better" and "series": one per env and
 * config, "points" [[commit index, value, records], ...]), "ab_runs" (each
 * run's "id", "at", "a_index" (A's commit in "commits", or -1) and
 * "result", as `ab --json` prints it), "stack" (each stacked branch, its
 * parent, PR, state and claim), "hypotheses" and "findings". A campaign
 * without records gives a document with empty lists. GCAMP_ENOTINIT
 * outside a campaign; errors of the reads otherwise.
 */
int report_data(cJSON **out, struct ctx *ctx, const struct report_opts *o);

/*
 * Appends the page for document d (report_data's) to out: one HTML file
 * with its styles and drawings inline and no script, font or image from
 * anywhere else. Long series are downsampled (REPORT_MAX_POINTS).
 */
void report_html(struct buf *out, const cJSON *d);

#endif
