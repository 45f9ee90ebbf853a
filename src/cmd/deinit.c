/* git campaign deinit: undo init here: the hooks and the settings, and
 * with --all the campaign's local data. */
#include <stdio.h>

#include "cmd/cmd.h"
#include "core/campaign/deinit.h"
#include "core/hooks/install.h"
#include "util/options.h"

static const char *const deinit_usage[] = {
	"git campaign deinit [--all]",
	NULL,
};

int cmd_deinit(int argc, const char **argv, struct ctx *ctx)
{
	struct deinit_result r;
	struct hooks_where w;
	int all = 0, n, rc;
	size_t i;
	const struct option opts[] = {
		OPT_BOOL(0, "all", &all,
			 "also remove the campaign folder (database, caches, "
			 "scratch) and its local notes and refs"),
		OPT_END(),
	};

	n = parse_options(argc, argv, opts, deinit_usage);
	if (n < 0)
		return parse_options_status(n);
	if (n)
		return usage_error(deinit_usage, opts, "too many arguments");
	if (campaign_deinit(&r, ctx, all) < 0) {
		deinit_result_release(&r);
		return cmd_fail(ctx);
	}
	/* without a campaign the hooks refuse nothing, but they are ours to
	 * take back */
	if (hooks_locate(&w, ctx) < 0) {
		deinit_result_release(&r);
		return cmd_fail(ctx);
	}
	rc = hooks_uninstall(&w, &ctx->err);
	if (rc == 0 && !options_quiet())
		printf("removed the hooks from %s\n", w.dir);
	hooks_where_release(&w);
	if (rc < 0) {
		deinit_result_release(&r);
		return cmd_fail(ctx);
	}
	if (!options_quiet()) {
		printf("removed %zu setting%s from the repository's config\n",
		       r.keys.nr, r.keys.nr == 1 ? "" : "s");
		if (all) {
			if (r.folder_exists)
				printf("removed %s\n", r.folder);
			for (i = 0; i < r.refs.nr; i++)
				printf("removed %s\n", r.refs.v[i]);
		}
	}
	if (!all && (r.folder_exists || r.refs.nr)) {
		if (r.folder_exists)
			printf("kept    %s\n", r.folder);
		for (i = 0; i < r.refs.nr; i++)
			printf("kept    %s\n", r.refs.v[i]);
		cmd_hint("'git campaign deinit --all' removes them here too "
			 "(never on a remote)");
	}
	deinit_result_release(&r);
	return 0;
}
