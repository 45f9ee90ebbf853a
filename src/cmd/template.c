/* git campaign template: list the templates the tool renders its texts from,
 * and print one, so a repository can copy it into .campaign/templates/. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "util/template.h"
#include "util/options.h"

SUB_USAGE(list_usage, "git campaign template [list]");
SUB_USAGE(show_usage, "git campaign template show [--builtin] NAME");

/* The repository's working tree, or NULL outside one (built-ins only). */
static const char *workdir(struct ctx *ctx)
{
	git_repository *repo;

	if (ctx_repo(&repo, ctx, 0) < 0) {
		error_clear(&ctx->err);
		return NULL;
	}
	return git_repository_workdir(repo);
}

static int template_list_cmd(int argc, const char **argv, struct ctx *ctx)
{
	const char *wd;
	int n = parse_options(argc, argv, NULL, list_usage);

	if (n < 0)
		return parse_options_status(n);
	if (n)
		return usage_error(list_usage, NULL, "too many arguments");
	wd = workdir(ctx);
	for (const struct template_builtin *b = template_builtins; b->name;
	     b++) {
		struct buf text = BUF_INIT;
		char *from = NULL;

		if (template_load(wd, b->name, &text, &from, &ctx->err) < 0)
			return cmd_fail(ctx);
		printf("%-16s %s\n", b->name, from ? from : "built-in");
		free(from);
		buf_release(&text);
	}
	return 0;
}

static int template_show_cmd(int argc, const char **argv, struct ctx *ctx)
{
	struct buf text = BUF_INIT;
	int builtin = 0, rc = 0;
	struct option opts[] = {
		OPT_BOOL(0, "builtin", &builtin,
			 "the built-in text, not the repository's override"),
		OPT_END(),
	};
	int n = parse_options(argc, argv, opts, show_usage);

	if (n < 0)
		return parse_options_status(n);
	if (n != 1)
		return usage_error(show_usage, NULL,
				   n ? "too many arguments"
				     : "which template? ('template list' "
				       "names them)");
	if (template_load(builtin ? NULL : workdir(ctx), argv[0], &text, NULL,
			  &ctx->err) < 0)
		rc = cmd_fail(ctx);
	else
		fputs(text.ptr, stdout);
	buf_release(&text);
	return rc;
}

int cmd_template(int argc, const char **argv, struct ctx *ctx)
{
	static const struct subcommand subs[] = {
		{"list", template_list_cmd, list_usage, 0},
		{"show", template_show_cmd, show_usage, 0},
		{NULL},
	};

	return cmd_subcommand(argc, argv, ctx, subs, NULL, "list");
}
