/* The resume pointer: where the campaign stands, in one screen, for whoever
 * carries on (another day, another machine). One cJSON object holds every
 * fact; `resume` prints it as JSON or renders templates/resume.md from it,
 * and `resume --save` keeps the rendered text in the database. */
#ifndef GCAMP_RESUME_H
#define GCAMP_RESUME_H

#include <cjson/cJSON.h>

#include "core/base/ctx.h"
#include "core/records/resume_pointer.h"
#include "core/views/status.h"
#include "util/buf.h"

/* The most of each list one screen shows; the data says how many more. */
#define RESUME_STACK 12
#define RESUME_ENVS 8
#define RESUME_STASHES 10

/*
 * Gathers the pointer of the campaign in ctx into *out, a new object the
 * caller frees with cJSON_Delete: what the status_collect_* read (campaign,
 * branch, stack with the cached PR states, named stashes, unfinished
 * operations with the commands that finish or undo them, the next
 * hypothesis, the open findings by rank), the test baseline of each
 * environment, the table of the last A/B run (ab_render_table), each
 * shown environment's stored dispatch floor, and which of these facts
 * are local to this clone. Every list is bounded (RESUME_*,
 * STATUS_FINDINGS) and every query indexed. The fields are documented in
 * git-campaign-resume(1). Reads only (the measurement index may be brought
 * up to date). GCAMP_ENOTINIT without a campaign.
 */
int resume_build(cJSON **out, struct ctx *ctx);
/* resume_build on st, whose repository part status_collect_repo has read:
 * adds the database's part to it (the caller releases st either way). */
int resume_build_from(cJSON **out, struct ctx *ctx, struct status *st);
/* Appends what a rendering of resume depends on besides the database:
 * status_facts, the notes and fingerprint refs, and the repository's
 * override of the template. */
void resume_facts(struct buf *out, struct ctx *ctx, const struct status *st);

/* Renders data with the template resume.md (the repository's override in
 * .campaign/templates/ when there is one), appending to out. */
int resume_render(struct buf *out, struct ctx *ctx, const cJSON *data);

/*
 * Saves the pointer: sets data's "saved" to {"at", "author"} (the author
 * identity and time git would put on a commit now, GIT_AUTHOR_* included),
 * renders it as resume_render does and stores the text and the data in
 * the database (created when missing, resume_pointer_add). *out gets the
 * saved row (release with resume_saved_release). A missing identity is an
 * error, with git's hint.
 */
int resume_save(struct resume_saved *out, struct ctx *ctx, cJSON *data);

#endif
