/* git campaign init: start a campaign in this repository. */
#include <stdio.h>

#include "cmd/cmd.h"
#include "core/campaign.h"
#include "util/options.h"

static const char *const init_usage[] = {
	"git campaign init [NAME] [--base BRANCH] [--remote REMOTE] "
	"[--forge OWNER/REPO] [--umbrella N] [--force]",
	NULL,
};

int cmd_init(int argc, const char **argv, struct ctx *ctx)
{
	struct init_opts o = {0};
	struct campaign c;
	const struct option opts[] = {
		OPT_STRING(0, "base", &o.base, "BRANCH",
			   "the base branch (default: develop, else the "
			   "remote's default, else main or master)"),
		OPT_STRING(0, "remote", &o.remote, "REMOTE",
			   "the forge's remote (default: origin)"),
		OPT_STRING(0, "forge", &o.forge, "OWNER/REPO",
			   "the forge repository (default: from the remote's "
			   "URL)"),
		OPT_STRING(0, "umbrella", &o.umbrella, "N",
			   "the umbrella issue's number"),
		OPT_BOOL(0, "force", &o.force,
			 "set up again over an existing campaign"),
		OPT_END(),
	};
	int n = parse_options(argc, argv, opts, init_usage);

	if (n < 0)
		return parse_options_status(n);
	if (n > 1)
		return usage_error(init_usage, opts, "too many arguments");
	if (n == 1)
		o.name = argv[0];
	if (campaign_init(&c, ctx, &o) < 0)
		return cmd_fail(ctx);
	printf("Started campaign '%s'\n", c.name);
	printf("  database  %s\n", db_path(ctx->db));
	printf("  base      %s\n", c.base);
	if (c.forge)
		printf("  forge     %s on %s%s%s\n", c.forge, c.forge_host,
		       o.forge ? "" : ", from ", o.forge ? "" : c.remote);
	else
		printf("  forge     none (set it with 'git campaign config "
		       "forge OWNER/REPO')\n");
	if (c.umbrella)
		printf("  umbrella  #%ld\n", c.umbrella);
	printf("  notes     refs/notes/campaign, carried by amend and "
	       "rebase\n");
	campaign_release(&c);
	return 0;
}
