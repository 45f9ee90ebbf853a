/* What the commands share. */
#include <stdio.h>
#include <stdlib.h>

#include "cmd/cmd.h"

int cmd_fail(struct ctx *ctx)
{
	if (!ctx->err.code)
		error_set(&ctx->err, GCAMP_EFATAL,
			  "failed for an unknown reason");
	error_print(&ctx->err);
	return error_exit_code(ctx->err.code);
}

void cmd_print_json(cJSON *j)
{
	char *s = cJSON_Print(j);

	if (s) {
		fputs(s, stdout);
		fputc('\n', stdout);
	}
	free(s);
	cJSON_Delete(j);
}
