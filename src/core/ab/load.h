/* A recorded A/B read back: from table ab_run, or from its JSON. */
#ifndef GCAMP_AB_LOAD_H
#define GCAMP_AB_LOAD_H

#include <cjson/cJSON.h>

#include "core/ab/judge.h"
#include "core/base/ctx.h"

/* A/B run id as recorded in the database (table ab_run) into *out, as
 * ab_result_from_json restores it; *at (may be NULL) gets when it ran
 * (caller frees). GCAMP_ENOTFOUND "no A/B run #ID" when there is none. */
int ab_load(struct ab_result *out, char **at, struct ctx *ctx, long long id);

/* The inverse of ab_result_json: fills *out (release with
 * ab_result_release) so that a stored run renders again with
 * ab_render_markdown or ab_render_table: every workload with its samples
 * (summaries recomputed from them, without the CI of each arm's median,
 * which nothing draws), metric and unit, ratio, CI, p, verdict
 * and reasons as stored; the sweep fit, labels, warnings, unit, metric,
 * env, mode, order, n and warm-up. env_line is left NULL (see
 * ab_describe_stored_env), a_commit and b_tree zero when the JSON predates
 * them. -1 when j is not such an object. */
int ab_result_from_json(struct ab_result *out, const cJSON *j);

#endif
