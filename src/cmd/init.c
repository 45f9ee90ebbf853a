/* git campaign init: start a campaign in this repository. */
#include <stdio.h>
#include <string.h>

#include "cmd/cmd.h"
#include "core/campaign/campaign.h"
#include "core/forge/open.h"
#include "core/forge/umbrella_sync.h"
#include "io/github/client.h"
#include "util/options.h"

static const char *const init_usage[] = {
	"git campaign init [NAME] [--base BRANCH] [--remote REMOTE] "
	"[--forge OWNER/REPO] [--umbrella N | --umbrella create] [--force]",
	NULL,
};

/* --umbrella create: after the campaign is written, so that a GitHub
 * failure leaves a started campaign without an umbrella, and says so */
/* opens the umbrella issue; its line ("Opened umbrella issue #N: URL")
 * into opened, printed after the campaign's */
static int open_umbrella(struct ctx *ctx, struct campaign *c,
			 struct buf *opened)
{
	struct umbrella_result r = {0};
	struct github *gh = NULL;
	int rc;

	if ((rc = forge_open(&gh, ctx, c)) < 0 ||
	    (rc = umbrella_create(&r, ctx, c, gh)) < 0) {
		char old[sizeof(ctx->err.hint)];

		snprintf(old, sizeof(old), "%s", ctx->err.hint);
		error_hint(&ctx->err,
			   "%s%sthe campaign was started without an umbrella "
			   "issue; 'git campaign config umbrella N' sets one",
			   old, *old ? "; " : "");
	} else if (r.url) {
		buf_addf(opened, "Opened umbrella issue #%ld: %s\n", r.number,
			 r.url);
	}
	umbrella_result_release(&r);
	github_close(gh);
	return rc;
}

int cmd_init(int argc, const char **argv, struct ctx *ctx)
{
	struct init_opts o = {0};
	struct buf opened = BUF_INIT;
	int create = 0;
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
			   "the umbrella issue's number, or 'create' to open "
			   "one on GitHub"),
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
	if (o.umbrella && !strcmp(o.umbrella, "create")) {
		create = 1;
		o.umbrella = NULL;
	}
	if (campaign_init(&c, ctx, &o) < 0)
		return cmd_fail(ctx);
	if (create && open_umbrella(ctx, &c, &opened) < 0) {
		campaign_release(&c);
		buf_release(&opened);
		return cmd_fail(ctx);
	}
	cmd_say("Started campaign '%s'\n", c.name);
	cmd_say("  database  %s\n", db_path(ctx->db));
	cmd_say("  base      %s\n", c.base);
	if (c.forge)
		cmd_say("  forge     %s on %s%s%s\n", c.forge, c.forge_host,
			o.forge ? "" : ", from ", o.forge ? "" : c.remote);
	else
		cmd_say("  forge     none (set it with 'git campaign config "
			"forge OWNER/REPO')\n");
	if (c.umbrella)
		cmd_say("  umbrella  #%ld\n", c.umbrella);
	cmd_say("  notes     refs/notes/campaign, carried by amend and "
		"rebase\n");
	if (opened.len)
		cmd_say("%s", opened.ptr);
	campaign_release(&c);
	buf_release(&opened);
	return 0;
}
