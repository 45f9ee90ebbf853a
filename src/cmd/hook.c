/* git campaign hook NAME: run one hook's checks. The same entry serves the
 * git-campaign-hook program that installed hooks run (src/hook-main.c),
 * so this file uses nothing that loads libgit2. */
#include <stdio.h>
#include <string.h>

#include "cmd/cmd.h"
#include "core/hooks/check.h"
#include "util/options.h"

static const char *const hook_usage[] = {
	"git campaign hook NAME [ARGS...]",
	NULL,
};

int cmd_hook_exec(int argc, const char **argv)
{
	struct buf report = BUF_INIT;
	const struct option opts[] = {OPT_END()};
	int status;

	/* the hook's own arguments (a file, a remote URL) are not options:
	 * only -h and --help before NAME are ours */
	if (argc >= 2 && argv[1][0] == '-')
		return parse_options_status(
			parse_options(argc, argv, opts, hook_usage));
	if (argc < 2)
		return usage_error(hook_usage, opts, "which hook?");
	status = hooks_run(&report, argv[1], argc - 2, argv + 2, stdin);
	fputs(report.ptr, stderr);
	buf_release(&report);
	return status;
}

int cmd_hook(int argc, const char **argv, struct ctx *ctx)
{
	(void)ctx;
	return cmd_hook_exec(argc, argv);
}
