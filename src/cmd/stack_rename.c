/* git campaign stack rename: rename a stacked branch inside its stack, or
 * let its children follow a `git branch -m`. */
#include <stdio.h>

#include "cmd/cmd.h"
#include "cmd/stack_verbs.h"
#include "core/stack/rename.h"

const char *const stack_rename_usage[] = {
	"git campaign stack rename [OLD] NEW",
	NULL,
};

int stack_rename_cmd(int argc, const char **argv, struct ctx *ctx)
{
	struct restack_result r;
	size_t i;
	int n, rc;

	if ((n = stack_verb_args(&rc, argc, argv, NULL, stack_rename_usage, 1,
				 2)) < 0)
		return rc;
	rc = stack_rename(&r, ctx, n == 2 ? argv[0] : NULL, argv[n - 1]);
	if (rc < 0) {
		restack_result_release(&r);
		return cmd_fail(ctx);
	}
	for (i = 0; i < r.notes.nr; i++)
		printf("%s\n", r.notes.v[i]);
	restack_result_release(&r);
	return 0;
}
