/* git campaign stack up, down, top and bottom: check out the next branch
 * along the stack. */
#include <stdio.h>
#include <stdlib.h>

#include "cmd/cmd.h"
#include "cmd/stack_verbs.h"
#include "core/stack/nav.h"

const char *const stack_up_usage[] = {
	"git campaign stack up [CHILD] [--steps N]",
	NULL,
};
const char *const stack_down_usage[] = {
	"git campaign stack down [--steps N]",
	NULL,
};
const char *const stack_top_usage[] = {
	"git campaign stack top [CHILD]",
	NULL,
};
const char *const stack_bottom_usage[] = {
	"git campaign stack bottom",
	NULL,
};

static int nav(struct ctx *ctx, enum stack_nav_dir dir, long steps,
	       const char *pick)
{
	struct strvec choices = STRVEC_INIT;
	char *to = NULL;
	int rc = stack_nav(&to, &choices, ctx, dir, steps, pick);

	strvec_clear(&choices);
	if (rc < 0)
		return cmd_fail(ctx);
	printf("on '%s'\n", to);
	free(to);
	return 0;
}

#define OPT_STEPS(v) OPT_INT(0, "steps", (v), "N", "go N branches (default 1)")

static int steps_ok(long steps, const char *const *usage,
		    const struct option *opts)
{
	if (steps >= 1)
		return 0;
	return usage_error(usage, opts, "--steps must be 1 or more");
}

int stack_up_cmd(int argc, const char **argv, struct ctx *ctx)
{
	long steps = 1;
	const struct option opts[] = {
		OPT_STEPS(&steps),
		OPT_END(),
	};
	int n, rc;

	if ((n = stack_verb_args(&rc, argc, argv, opts, stack_up_usage, 0, 1)) <
	    0)
		return rc;
	if ((rc = steps_ok(steps, stack_up_usage, opts)) != 0)
		return rc;
	return nav(ctx, STACK_NAV_UP, steps, n ? argv[0] : NULL);
}

int stack_down_cmd(int argc, const char **argv, struct ctx *ctx)
{
	long steps = 1;
	const struct option opts[] = {
		OPT_STEPS(&steps),
		OPT_END(),
	};
	int rc;

	if (stack_verb_args(&rc, argc, argv, opts, stack_down_usage, 0, 0) < 0)
		return rc;
	if ((rc = steps_ok(steps, stack_down_usage, opts)) != 0)
		return rc;
	return nav(ctx, STACK_NAV_DOWN, steps, NULL);
}

int stack_top_cmd(int argc, const char **argv, struct ctx *ctx)
{
	int n, rc;

	if ((n = stack_verb_args(&rc, argc, argv, NULL, stack_top_usage, 0,
				 1)) < 0)
		return rc;
	return nav(ctx, STACK_NAV_TOP, 1, n ? argv[0] : NULL);
}

int stack_bottom_cmd(int argc, const char **argv, struct ctx *ctx)
{
	int rc;

	if (stack_verb_args(&rc, argc, argv, NULL, stack_bottom_usage, 0, 0) <
	    0)
		return rc;
	return nav(ctx, STACK_NAV_BOTTOM, 1, NULL);
}
