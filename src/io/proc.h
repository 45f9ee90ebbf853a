/* Running another program, the one spawner: an argument vector (no shell),
 * stdin data, standard output and error captured or inherited, a child-only
 * environment; its exit status, time and resource use. */
#ifndef GCAMP_PROC_H
#define GCAMP_PROC_H

#include <stddef.h>
#include <sys/resource.h>

#include "util/buf.h"
#include "util/error.h"
#include "util/strvec.h"

struct proc_opts {
	const char *dir; /* working directory of the child; NULL: ours */
	int stdin_null;	 /* 1: stdin from /dev/null; 0: inherited */
	int tee_stderr;	 /* 1: also copy the child's stderr to ours */
	size_t cap;	 /* bytes kept of each stream; 0: 4 MiB */
	long timeout_ms; /* > 0: SIGKILL the child after this long */
	/* Changes to the child's environment, NULL-terminated; NULL: ours
	 * as it is. "NAME=VALUE" sets NAME, "NAME" removes it. They apply
	 * to the child's envp only: our own environment never changes. */
	const char *const *env;
	/* stdin data: the child reads these in_len bytes, then end of file
	 * (stdin_null is then ignored); NULL: stdin as stdin_null says. A
	 * child that exits or closes its stdin before reading them all is
	 * not an error, and costs us no SIGPIPE. */
	const char *in;
	size_t in_len;
	/* 1: the child uses our stdin, stdout and stderr (a pager, `man`):
	 * nothing is captured, and stdin_null, in, tee_stderr, cap and
	 * timeout_ms are ignored */
	int inherit_stdio;
	/* 1: a command run for the user (a build, a workload, a control, a
	 * probe, ncu): PROC_TOKEN_VARS are removed from its environment,
	 * after env's changes, so that no recording of its environment (a
	 * JFR file) holds the GitHub token. git and gh keep them. */
	int no_tokens;
};

/* The variables that may hold a GitHub token, NULL-terminated. */
extern const char *const proc_token_vars[];

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
 * read as the child writes them, and opts->in is written as it reads, so no
 * pipe can fill up and block either side. It is the only place that spawns
 * a program: no other file forks, or changes our environment or our signal
 * dispositions for a child. Returns 0 once the child ran and ended, whatever
 * its exit status (look at out->status), or GCAMP_EFATAL when it could not
 * be started ("cannot run 'git': No such file or directory") or the pipes
 * failed. out must be initialised with PROC_RESULT_INIT (or released);
 * release it with proc_result_release() in every case.
 */
int proc_run(struct proc_result *out, const char *const *argv,
	     const struct proc_opts *opts, struct error *err);

/*
 * Runs `git ARGS...` (args NULL-terminated, without "git") as proc_run
 * does; opts NULL means stdin from /dev/null and the other defaults. The
 * one rule for git's environment: git runs where we run (or in opts->dir),
 * with our environment and opts->env only. It is never given GIT_DIR,
 * GIT_WORK_TREE or --git-dir: it finds the repository by git's own
 * discovery from the same directory and environment, as we found it
 * (io/repo.h, io/gitlite.h), and the hooks it runs (fetch, push) see only
 * what git itself gives them. Returns as proc_run.
 */
int proc_git(struct proc_result *out, const char *const *args,
	     const struct proc_opts *opts, struct error *err);

/* 1 when prog (a name without '/') is an executable file in a folder of
 * PATH, as execvp would find it; 0 when not. */
int proc_on_path(const char *prog);

/* The command line of the nearest git that is our ancestor (parent, or a
 * few levels up: the pre-commit framework's Python sits between), from its
 * subcommand on, git's global options skipped: "cherry-pick", "-x", ...
 * for a hook that `git cherry-pick -x` runs. Appended to out; nothing when
 * no git is found (or /proc is not there). Linux only, as the hooks' other
 * reads are. */
void proc_git_ancestor(struct strvec *out);

/* Starts the pager command (a shell command line, as git's core.pager)
 * with our standard output (and standard error, when it is the same
 * terminal) going into it, and LESS=FRX and LV=-c in its environment
 * unless set, as git starts its pager. 0, or GCAMP_EFATAL when it could
 * not be started (our output is then left as it was). Call
 * proc_pager_finish() before exiting. */
int proc_pager_start(const char *pager, struct error *err);
/* Flushes and closes our end of the pager and waits for it to exit (the
 * user may read on). Does nothing when no pager was started. */
void proc_pager_finish(void);

/* Frees the captured output and resets out to PROC_RESULT_INIT. Accepts
 * NULL. */
void proc_result_release(struct proc_result *out);

/* 1 when process pid exists and has not exited: a zombie (killed, not yet
 * reaped, as where nothing reaps orphans) counts as gone; 0 for pid <= 0
 * and for this process. */
int proc_alive(long long pid);

/* The last non-empty line of text (after the last '\r' within that line, so
 * that progress meters read as their final state), copied into out without
 * its end of line; "" when there is none. */
void proc_last_line(struct buf *out, const char *text);

#endif
