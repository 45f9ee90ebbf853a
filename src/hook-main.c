/* git-campaign-hook: what installed hooks run. A program of its own,
 * linked without libgit2 or libcurl, so that a hook starts in about a
 * millisecond instead of the ten that loading those libraries costs.
 * Installed hooks are scripts that run it with the hook's name; a link
 * named after the hook (also renamed NAME.legacy by the pre-commit
 * framework, or NAME.campaign-orig) works as well. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "core/hooks/check.h"
#include "util/options.h"
#include "util/xalloc.h"

#ifndef GCAMP_BUILD
#define GCAMP_BUILD GCAMP_VERSION
#endif

int main(int argc, char **argv)
{
	static char name[] = "hook";
	const char *base = strrchr(argv[0], '/');
	const char **args;
	size_t i;
	int status;

	if (argc == 2 && !strcmp(argv[1], "--version")) {
		printf("git-campaign-hook version %s\n", GCAMP_BUILD);
		return 0;
	}
	base = base ? base + 1 : argv[0];
	for (i = 0; hooks_names[i]; i++) {
		size_t n = strlen(hooks_names[i]);

		if (!strncmp(base, hooks_names[i], n) &&
		    (!base[n] || !strcmp(base + n, ".legacy") ||
		     !strcmp(base + n, ".campaign-orig")))
			break;
	}
	/* git-campaign-hook NAME ARGS, or called as NAME: "hook NAME ARGS" */
	args = xcalloc((size_t)argc + 2, sizeof(*args));
	args[0] = name;
	if (hooks_names[i]) {
		args[1] = hooks_names[i];
		for (i = 1; i < (size_t)argc; i++)
			args[i + 1] = argv[i];
		argc++;
	} else {
		for (i = 1; i < (size_t)argc; i++)
			args[i] = argv[i];
	}
	options_set_man(cmd_show_man);
	status = cmd_hook_exec(argc, args);
	free(args);
	if (fflush(stdout) && errno != EPIPE)
		return 128;
	return status;
}
