/* The option parsing that the verbs of git campaign stack share. */
#include "cmd/cmd.h"
#include "cmd/stack_verbs.h"

int stack_verb_args(int *status, int argc, const char **argv,
		    const struct option *opts, const char *const *usage, int lo,
		    int hi)
{
	const char *verb = argv[0];
	int n = parse_options(argc, argv, opts, usage);

	if (n < 0) {
		*status = parse_options_status(n);
		return -1;
	}
	if (n < lo || n > hi) {
		*status = usage_error(
			usage, opts, "wrong number of arguments to '%s'", verb);
		return -1;
	}
	return n;
}
