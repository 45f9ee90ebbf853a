/* The error context: library code returns a negative GCAMP_E code and leaves
 * one message (and an optional hint) here; only main.c and src/cmd print it. */
#ifndef GCAMP_ERROR_H
#define GCAMP_ERROR_H

#include <stdarg.h>

enum {
	GCAMP_OK = 0,
	GCAMP_EFATAL = -1,    /* I/O, git, database: exit 128 */
	GCAMP_EUSAGE = -2,    /* bad arguments: exit 129 */
	GCAMP_ENOTFOUND = -3, /* a named thing does not exist: exit 128 */
	GCAMP_EEXISTS = -4,   /* refusing to overwrite: exit 128 */
	GCAMP_ENOREPO = -5,   /* not in a repository: exit 128 */
	GCAMP_EDB = -6,	      /* database unusable: exit 128 */
	GCAMP_EREFUSED = -7,  /* a "no" answer (hook, lint, gate): exit 1 */
	GCAMP_ENOTINIT = -8,  /* no campaign in this repository: exit 128 */
};

struct error {
	int code;	/* 0 while no error is recorded */
	char msg[1024]; /* "what failed: why", no prefix, no final stop */
	char hint[512]; /* optional; "" when none */
	int ignored;	/* the last error_set lost to an earlier message */
};

#define ERROR_INIT                                                             \
	{                                                                      \
		0, "", "", 0                                                   \
	}

/* Records an error unless one is already recorded (the first, most specific
 * message wins; callers up the stack cannot overwrite it). Returns code, so
 * `return error_set(err, GCAMP_ENOTFOUND, "no stash named '%s'", n);` works.
 * code must be negative. */
int error_set(struct error *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Adds a hint to the error the last error_set recorded (replacing an
 * earlier hint); when that error_set was ignored, so is its hint. */
void error_hint(struct error *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Forgets the recorded error. */
void error_clear(struct error *err);
/* The process exit status for an error code (see EXIT STATUS in
 * git-campaign(1)): 0, 1, 128 or 129. */
int error_exit_code(int code);
/* Prints "fatal: msg" ("error: msg" for refusals and usage errors) and
 * "hint: ..." to stderr. */
void error_print(const struct error *err);

#endif
