/* The honest-number rules on an A/B's commands: required and forbidden
 * flags, read the way the JVM reads its -D system properties. */
#ifndef GCAMP_AB_FLAGS_H
#define GCAMP_AB_FLAGS_H

#include "util/error.h"
#include "util/strvec.h"

/* How command line cmd sets flag: 1 when it does, 0 when it does not, -1
 * when it names the flag's property last with another value (*out_last,
 * may be NULL, then gets that word; the caller frees it). A flag
 * -Dname=value is matched as the JVM reads system properties: by name, the
 * last -Dname= word of cmd wins, and true/false match in any case, as
 * Boolean.parseBoolean reads them. Any other flag must be one whole word
 * of cmd. Words are split at blanks and quotes. */
int ab_flag_state(char **out_last, const char *cmd, const char *flag);

/* GCAMP_EREFUSED (the message in err, naming cmd and the flag) when cmd
 * lacks a flag of required or, unless profiler_on, sets one of forbidden;
 * else 0. */
int ab_flags_check(struct error *err, const char *cmd,
		   const struct strvec *required,
		   const struct strvec *forbidden, int profiler_on);

#endif
