/* The identity and time git would put on a commit made now. libgit2's
 * git_signature_default reads only user.name and user.email; git also
 * honours GIT_AUTHOR_* and GIT_COMMITTER_*, which tests and scripts set. */
#ifndef GCAMP_SIGNATURE_H
#define GCAMP_SIGNATURE_H

#include <git2.h>

#include "io/gitcfg.h"
#include "util/error.h"

enum {
	SIG_AUTHOR,
	SIG_COMMITTER,
	SIG_TOOL, /* the committer, else "git-campaign
		   * <git-campaign@localhost>": for what the tool writes for
		   * itself (notes, reflogs) */
};

/* The author or committer signature: GIT_<WHO>_NAME, _EMAIL and _DATE
 * from the environment, else user.name and user.email from cfg and the
 * current time. A missing identity is an error with git's hint, except
 * with SIG_TOOL, which falls back to the tool's own. The caller frees *out
 * with git_signature_free(). */
int signature_now(git_signature **out, struct gitcfg *cfg, int who,
		  struct error *err);

/* Parses a date as git's GIT_*_DATE accepts it: "@EPOCH [+-ZZZZ]",
 * "EPOCH +-ZZZZ" or ISO 8601 ("2026-11-29T12:00:00Z", "... +01:00").
 * Returns 0, or -1 when s is none of these. */
int signature_parse_date(git_time_t *out_time, int *out_offset, const char *s);

#endif
