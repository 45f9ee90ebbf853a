/* A text the tool writes from a template: the repository's override or the
 * built-in one, rendered, with what a user would not see for himself said
 * as warnings. */
#ifndef GCAMP_VIEWS_RENDER_H
#define GCAMP_VIEWS_RENDER_H

#include <cjson/cJSON.h>

#include "core/base/ctx.h"
#include "util/buf.h"

/* Renders template NAME (see template_load) of the work tree WORKDIR (may
 * be NULL: the built-in) with DATA, appending to OUT. For an override, an
 * empty file and each tag whose key the data lack (a misspelt key renders
 * as nothing) are warned of through ctx_warn, with the command whose
 * --json output lists the keys, KEYS_CMD. *from (may be NULL) is set as
 * template_load sets it. Errors are template_load's and template_render's. */
int views_render(struct ctx *ctx, const char *workdir, const char *name,
		 const char *keys_cmd, const cJSON *data, struct buf *out,
		 char **from);

#endif
