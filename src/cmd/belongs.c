/* git campaign belongs PR: allow the next commit on this branch into its
 * open PR. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "cmd/cmd.h"
#include "core/hooks/check.h"
#include "util/options.h"

static const char *const belongs_usage[] = {
	"git campaign belongs PR",
	NULL,
};

int cmd_belongs(int argc, const char **argv, struct ctx *ctx)
{
	const struct option opts[] = {OPT_END()};
	int n = parse_options(argc, argv, opts, belongs_usage), cached = 0;
	const char *arg;
	char *branch = NULL, *end;
	long number;

	if (n < 0)
		return parse_options_status(n);
	if (n != 1)
		return usage_error(belongs_usage, opts, "give the PR's number");
	arg = argv[0][0] == '#' ? argv[0] + 1 : argv[0];
	errno = 0;
	number = strtol(arg, &end, 10);
	if (!isdigit((unsigned char)*arg) || *end || errno || number <= 0)
		return usage_error(belongs_usage, opts,
				   "'%s' is not a PR number", argv[0]);
	if (hooks_belongs(&branch, &cached, number, &ctx->err) < 0)
		return cmd_fail(ctx);
	if (!cached)
		fprintf(stderr,
			"warning: the PR cache holds no open PR #%ld for "
			"'%s'; allowing it anyway\n",
			number, branch);
	cmd_say("the next commit on '%s' may go into PR #%ld\n", branch,
		number);
	free(branch);
	return 0;
}
