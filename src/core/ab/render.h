/* Showing an A/B: the Markdown table ready for a PR, with the sweep,
 * reasons and warnings, and the JSON that table ab_run keeps. */
#ifndef GCAMP_AB_RENDER_H
#define GCAMP_AB_RENDER_H

#include <cjson/cJSON.h>

#include "core/ab/judge.h"
#include "util/buf.h"

/* The result as a Markdown table ready for a PR: an INVALID line first
 * when a control moved, the table, the sweep, warnings, n and order. */
void ab_render_markdown(struct buf *out, const struct ab_result *r);
/* ab_render_markdown for a terminal: with paint, the verdicts, the
 * control states, the INVALID, UNVOUCHED and "No control" lines and the
 * warnings coloured (util/color's escapes); without, the same bytes as
 * ab_render_markdown. */
void ab_render_painted(struct buf *out, const struct ab_result *r, int paint);
/* The first part of ab_render_markdown alone: the INVALID line when a
 * control moved, the table (one row per workload, controls included) and
 * its configuration (metric, n, warm-up, order, mode, the env line when
 * set, the labels), without the sweep, the reasons and the warnings. */
void ab_render_table(struct buf *out, const struct ab_result *r);

/* The table as CSV (util/csv): a header row, then one row per workload,
 * controls included: workload, control, iters, metric, unit, each arm's
 * median and n, B/A with its 95% CI, B - A with its CI where a value is
 * <= 0, p (empty where it tests nothing), verdict and the run's vouch. */
void ab_render_csv(struct buf *out, const struct ab_result *r);

/* The result as JSON (also what table ab_run keeps, column result); the
 * caller owns it. */
cJSON *ab_result_json(const struct ab_result *r);

/* Appends v in unit as the tables print it: plain digits, seconds below
 * 1 as ms or us, "-" for NaN. */
void ab_render_value(struct buf *out, double v, const char *unit);

#endif
