/* git campaign hooks install|uninstall|status: put the hooks in place,
 * take them away, say what is where. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "core/hooks/check.h"
#include "core/hooks/install.h"
#include "util/options.h"

SUB_USAGE(install_usage,
	  "git campaign hooks install [--force] [--chain-pre-commit]");
SUB_USAGE(uninstall_usage, "git campaign hooks uninstall");
SUB_USAGE(status_usage, "git campaign hooks status");

/* One hook's line: what runs it, and whether it can. */
static void print_state(const struct hooks_where *w, const char *name)
{
	enum hook_state s = hooks_state(w, name);
	int in_config = w->framework && hooks_framework_has(w->framework, name);
	char *prog = hooks_program(w, name);

	printf("%-12s ", name);
	if (prog && prog[0] == '/' && access(prog, X_OK) < 0) {
		printf("installed, but its program '%s' is missing: run 'git "
		       "campaign hooks install' again\n",
		       prog);
		free(prog);
		return;
	}
	free(prog);
	switch (s) {
	case HOOK_OURS:
		puts("installed");
		break;
	case HOOK_OURS_CHAINED:
		puts("installed, after the hook that was there");
		break;
	case HOOK_OURS_LEGACY:
		printf("installed, run by the pre-commit framework's "
		       "migration mode (as %s.legacy)\n",
		       name);
		break;
	case HOOK_FRAMEWORK:
		if (in_config)
			printf("run by the pre-commit framework "
			       "(git-campaign-%s "
			       "in its config)\n",
			       name);
		else
			printf("not installed (the pre-commit framework's hook "
			       "is there; its config has no git-campaign-%s)\n",
			       name);
		break;
	default:
		if (in_config)
			printf("not installed (git-campaign-%s is in the "
			       "framework's config: run 'pre-commit install "
			       "--hook-type %s')\n",
			       name, name);
		else if (s == HOOK_FOREIGN)
			puts("not installed (another hook is there)");
		else
			puts("not installed");
	}
}

static int show_status(const struct hooks_where *w)
{
	size_t i;
	char *prog = NULL;

	printf("directory  %s%s\n", w->dir,
	       w->from_hookspath ? " (core.hooksPath)" : "");
	for (i = 0; hooks_names[i]; i++)
		print_state(w, hooks_names[i]);
	if (w->framework)
		printf("framework  %s (the pre-commit framework)\n",
		       w->framework);
	/* what the installed hooks run, which another build may not be */
	for (i = 0; hooks_names[i]; i++)
		if ((prog = hooks_program(w, hooks_names[i])))
			break;
	printf("runs       %s\n", prog ? prog : w->hook_bin);
	if (prog && strcmp(prog, w->hook_bin))
		printf("this build %s\n", w->hook_bin);
	free(prog);
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
			"('%s'): nothing installed\n",
			w->framework);
		cmd_hint("add the block above to its 'repos:', or run 'git "
			 "campaign hooks install --chain-pre-commit'");
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
	if (!options_quiet())
		printf("installed the hooks in %s\n", w->dir);
	return 0;
}

/* Parses a subcommand that takes no operands (and opts, or none) and finds
 * the hooks: 0, or -1 with *status the exit status. */
static int locate(int *status, struct hooks_where *w, int argc,
		  const char **argv, const struct option *opts,
		  const char *const *usage, struct ctx *ctx)
{
	int n = parse_options(argc, argv, opts, usage);

	if (n < 0) {
		*status = parse_options_status(n);
		return -1;
	}
	if (n) {
		*status = usage_error(usage, opts, "too many arguments");
		return -1;
	}
	if (hooks_locate(w, ctx) < 0) {
		*status = cmd_fail(ctx);
		return -1;
	}
	return 0;
}

static int hooks_install_cmd(int argc, const char **argv, struct ctx *ctx)
{
	struct hooks_where w;
	int force = 0, chain = 0, rc;
	const struct option opts[] = {
		OPT_BOOL('f', "force", &force,
			 "install into a core.hooksPath outside the "
			 "repository"),
		OPT_BOOL(0, "chain-pre-commit", &chain,
			 "install beside the pre-commit framework, chaining "
			 "its hooks"),
		OPT_END(),
	};

	if (locate(&rc, &w, argc, argv, opts, install_usage, ctx) < 0)
		return rc;
	rc = install(ctx, &w, force, chain);
	hooks_where_release(&w);
	return rc;
}

static int hooks_uninstall_cmd(int argc, const char **argv, struct ctx *ctx)
{
	struct hooks_where w;
	int rc;

	if (locate(&rc, &w, argc, argv, NULL, uninstall_usage, ctx) < 0)
		return rc;
	rc = hooks_uninstall(&w, &ctx->err) < 0 ? cmd_fail(ctx) : 0;
	if (!rc && !options_quiet())
		printf("removed the hooks from %s\n", w.dir);
	hooks_where_release(&w);
	return rc;
}

static int hooks_status_cmd(int argc, const char **argv, struct ctx *ctx)
{
	struct hooks_where w;
	int rc;

	if (locate(&rc, &w, argc, argv, NULL, status_usage, ctx) < 0)
		return rc;
	rc = show_status(&w);
	hooks_where_release(&w);
	return rc;
}

int cmd_hooks(int argc, const char **argv, struct ctx *ctx)
{
	static const struct subcommand subs[] = {
		{"install", hooks_install_cmd, install_usage, 0},
		{"uninstall", hooks_uninstall_cmd, uninstall_usage, 0},
		{"status", hooks_status_cmd, status_usage, 0},
		{NULL},
	};

	return cmd_subcommand(argc, argv, ctx, subs, NULL, NULL);
}
