/* git-campaign-hook: what installed hook scripts run. A program of its
 * own, linked without libgit2 or libcurl, so that a hook starts in about a
 * millisecond instead of the ten that loading those libraries costs. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cmd/cmd.h"

int main(int argc, char **argv)
{
	static char name[] = "hook";
	int status;

	argv[0] = name; /* the usage reads "git campaign hook" */
	status = cmd_hook_exec(argc, (const char **)argv);
	if (fflush(stdout) && errno != EPIPE)
		return 128;
	return status;
}
