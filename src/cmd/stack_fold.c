/* git campaign stack fold and stack split: a branch into its parent, or
 * in two at one of its commits. */
#include <stdio.h>

#include "cmd/cmd.h"
#include "cmd/stack_verbs.h"
#include "core/stack/fold.h"

const char *const stack_fold_usage[] = {
	"git campaign stack fold [BRANCH]",
	NULL,
};
const char *const stack_split_usage[] = {
	"git campaign stack split [BRANCH] --at COMMIT --name NEW",
	NULL,
};

static int done(struct ctx *ctx, int rc, struct restack_result *r)
{
	size_t i;

	if (rc < 0) {
		restack_result_release(r);
		return cmd_fail(ctx);
	}
	for (i = 0; i < r->notes.nr; i++)
		printf("%s\n", r->notes.v[i]);
	restack_result_release(r);
	return 0;
}

int stack_fold_cmd(int argc, const char **argv, struct ctx *ctx)
{
	struct restack_result r;
	int n, rc;

	if ((n = stack_verb_args(&rc, argc, argv, NULL, stack_fold_usage, 0,
				 1)) < 0)
		return rc;
	rc = stack_fold(&r, ctx, n ? argv[0] : NULL);
	return done(ctx, rc, &r);
}

int stack_split_cmd(int argc, const char **argv, struct ctx *ctx)
{
	struct restack_result r;
	const char *at = NULL, *name = NULL;
	const struct option opts[] = {
		OPT_STRING(0, "at", &at, "COMMIT",
			   "the last commit of the lower branch"),
		OPT_STRING(0, "name", &name, "NEW", "the lower branch's name"),
		OPT_END(),
	};
	int n, rc;

	if ((n = stack_verb_args(&rc, argc, argv, opts, stack_split_usage, 0,
				 1)) < 0)
		return rc;
	if (!at || !name)
		return usage_error(stack_split_usage, opts,
				   "split needs --at COMMIT and --name NEW");
	rc = stack_split(&r, ctx, n ? argv[0] : NULL, at, name);
	return done(ctx, rc, &r);
}
