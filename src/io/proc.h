/* Running another program: spawn with an argument vector (no shell), capture
 * its standard output and error, wait for it, and report its exit status,
 * time and resource use. */
#ifndef GCAMP_PROC_H
#define GCAMP_PROC_H

#include <stddef.h>
#include <sys/resource.h>

#include "util/buf.h"
#include "util/error.h"

struct proc_opts {
	const char *dir;	/* working directory of the child; NULL: ours */
	int stdin_null;		/* 1: stdin from /dev/null; 0: inherited */
	int tee_stderr;		/* 1: also copy the child's stderr to ours */
	size_t cap;		/* bytes kept of each stream; 0: 4 MiB */
	long timeout_ms;	/* > 0: SIGKILL the child after this long */
	const char *const *env; /* NULL-terminated; NULL: inherit ours */
};

struct proc_result {
	int status;	   /* exit code 0-255, or 128 + signal number */
	int signaled;	   /* 1 when a signal ended it (timeout included) */
	int timed_out;	   /* 1 when timeout_ms expired and it was killed */
	struct buf out;	   /* its stdout: the last `cap` bytes */
	struct buf err;	   /* its stderr: the last `cap` bytes */
	int out_truncated; /* 1 when bytes were dropped from the front */
	int err_truncated;
	double wall_s;	  /* from spawn to exit */
	struct rusage ru; /* the child's resource use, from wait4() */
};

#define PROC_RESULT_INIT                                                       \
	{                                                                      \
		.out = BUF_INIT, .err = BUF_INIT                               \
	}

/*
 * Runs argv[0], looked up on PATH as execvp does, with argv (NULL-terminated)
 * and waits for it. opts may be NULL (all defaults). Both output streams are
 * read as the child writes them, so neither can fill up and block it. Returns
 * 0 once the child ran and ended, whatever its exit status (look at
 * out->status), or GCAMP_EFATAL when it could not be started ("cannot run
 * 'git': No such file or directory") or the pipes failed. out must be
 * initialised with PROC_RESULT_INIT (or released); release it with
 * proc_result_release() in every case.
 */
int proc_run(struct proc_result *out, const char *const *argv,
	     const struct proc_opts *opts, struct error *err);

/* Frees the captured output and resets out to PROC_RESULT_INIT. Accepts
 * NULL. */
void proc_result_release(struct proc_result *out);

/* The last non-empty line of text (after the last '\r' within that line, so
 * that progress meters read as their final state), copied into out without
 * its end of line; "" when there is none. */
void proc_last_line(struct buf *out, const char *text);

#endif
