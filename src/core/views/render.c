/* Templates rendered for the views, with an override's mistakes said. */
#include "core/views/render.h"

#include <stdlib.h>
#include <string.h>

#include "util/template.h"

int views_render(struct ctx *ctx, const char *workdir, const char *name,
		 const char *keys_cmd, const cJSON *data, struct buf *out,
		 char **from)
{
	struct buf text = BUF_INIT, unknown = BUF_INIT;
	char *path = NULL;
	int rc;

	if ((rc = template_load(workdir, name, &text, &path, &ctx->err)) < 0)
		goto out;
	if (path && !text.len) {
		ctx_warn(ctx,
			 "the override '%s' is empty, so it renders nothing: "
			 "remove it to use the built-in %s",
			 path, name);
		goto out;
	}
	rc = template_render_checked(name, text.ptr, data, out,
				     path ? &unknown : NULL, &ctx->err);
	if (rc == 0 && unknown.len) {
		char *line, *save = NULL;

		for (line = strtok_r(unknown.ptr, "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save))
			ctx_warn(ctx,
				 "%s %s names a key the data do not have, and "
				 "renders as nothing ('%s' lists the keys)",
				 path, line, keys_cmd);
	}
out:
	if (from)
		*from = path;
	else
		free(path);
	buf_release(&text);
	buf_release(&unknown);
	return rc;
}
