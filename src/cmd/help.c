/* git campaign help and every --help: `man PAGE` on our terminal, run
 * through the one spawner (io/proc.h). */
#include <stdio.h>

#include "cmd/cmd.h"
#include "io/proc.h"

int cmd_show_man(const char *page)
{
	const char *argv[] = {"man", page, NULL};
	struct proc_opts po = {.inherit_stdio = 1};
	struct proc_result r = PROC_RESULT_INIT;
	struct error err = ERROR_INIT;
	int rc;

	/* what we printed comes before man's page */
	fflush(stdout);
	rc = proc_run(&r, argv, &po, &err);
	if (rc < 0)
		fprintf(stderr, "warning: %s\n", err.msg);
	rc = rc == 0 && r.status == 0 ? 0 : -1;
	proc_result_release(&r);
	return rc;
}
