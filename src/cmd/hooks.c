/* git campaign hooks install|uninstall|status: put the hooks in place,
 * take them away, say what is where. */
#include <stdio.h>
#include <string.h>

#include "cmd/cmd.h"
#include "core/hooks/hooks.h"
#include "util/options.h"

static const char *const hooks_usage[] = {
	"git campaign hooks install [--force] [--chain-pre-commit]",
	"git campaign hooks uninstall",
	"git campaign hooks status",
	NULL,
};

static const char *state_text(enum hook_state s)
{
	switch (s) {
	case HOOK_OURS:
		return "installed";
	case HOOK_OURS_CHAINED:
		return "installed, after the hook that was there";
	case HOOK_FOREIGN:
		return "not installed (another hook is there)";
	default:
		return "not installed";
	}
}

static int status(const struct hooks_where *w)
{
	size_t i;

	printf("directory  %s%s\n", w->dir,
	       w->from_hookspath ? " (core.hooksPath)" : "");
	for (i = 0; hooks_names[i]; i++)
		printf("%-12s %s\n", hooks_names[i],
		       state_text(hooks_state(w, hooks_names[i])));
	if (w->framework)
		printf("framework  %s (the pre-commit framework)\n",
		       w->framework);
	printf("runs       %s\n", w->hook_bin);
	return 0;
}

static int install(struct ctx *ctx, const struct hooks_where *w, int force,
		   int chain)
{
	struct buf snippet = BUF_INIT;

	if (w->framework && !chain) {
		if (hooks_framework_check(w->framework, &ctx->err) < 0)
			return cmd_fail(ctx);
		hooks_framework_snippet(&snippet, w);
		fputs(snippet.ptr, stdout);
		buf_release(&snippet);
		fprintf(stderr,
			"note: the pre-commit framework runs the hooks here "
			"('%s'): nothing installed\n"
			"hint: add the block above to its 'repos:', or run "
			"'git campaign hooks install --chain-pre-commit'\n",
			w->framework);
		return 0;
	}
	if (w->outside && !force) {
		error_set(&ctx->err, GCAMP_EREFUSED,
			  "core.hooksPath '%s' is outside this repository: "
			  "other repositories use those hooks too",
			  w->dir);
		error_hint(&ctx->err, "install there anyway with 'hooks "
				      "install --force'");
		return cmd_fail(ctx);
	}
	if (hooks_install(w, &ctx->err) < 0)
		return cmd_fail(ctx);
	printf("installed the hooks in %s\n", w->dir);
	return 0;
}

int cmd_hooks(int argc, const char **argv, struct ctx *ctx)
{
	struct hooks_where w;
	int force = 0, chain = 0, n, rc;
	const struct option opts[] = {
		OPT_BOOL('f', "force", &force,
			 "install into a core.hooksPath outside the "
			 "repository"),
		OPT_BOOL(0, "chain-pre-commit", &chain,
			 "install beside the pre-commit framework, chaining "
			 "its hooks"),
		OPT_END(),
	};

	n = parse_options(argc, argv, opts, hooks_usage);
	if (n < 0)
		return parse_options_status(n);
	if (n != 1)
		return usage_error(hooks_usage, opts,
				   n ? "too many arguments"
				     : "install, uninstall or status?");
	if (strcmp(argv[0], "install") && (force || chain))
		return usage_error(hooks_usage, opts,
				   "--force and --chain-pre-commit go with "
				   "install");
	if (strcmp(argv[0], "install") && strcmp(argv[0], "uninstall") &&
	    strcmp(argv[0], "status"))
		return usage_error(hooks_usage, opts, "unknown subcommand '%s'",
				   argv[0]);
	if (hooks_locate(&w, ctx) < 0)
		return cmd_fail(ctx);
	if (!strcmp(argv[0], "install")) {
		rc = install(ctx, &w, force, chain);
	} else if (!strcmp(argv[0], "uninstall")) {
		rc = hooks_uninstall(&w, &ctx->err) < 0 ? cmd_fail(ctx) : 0;
		if (!rc)
			printf("removed the hooks from %s\n", w.dir);
	} else {
		rc = status(&w);
	}
	hooks_where_release(&w);
	return rc;
}
