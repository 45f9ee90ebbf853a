/* The A/B's schedule: the arms, one build or run of a workload in an arm,
 * the blocked and interleaved orders of the runs, and the stop that SIGINT
 * and SIGTERM ask for. For the harness's files (ab.c, modes.c) and the
 * probe's callers. */
#ifndef GCAMP_AB_SCHED_H
#define GCAMP_AB_SCHED_H

#include <signal.h>
#include <stddef.h>

#include "core/ab/ab.h"
#include "core/base/ctx.h"

struct arm {
	char name;	      /* 'A' or 'B' */
	const char *dir;      /* where its commands run; NULL: here */
	const char *artifact; /* its copy of the build, or NULL */
};

struct schedule {
	struct ctx *ctx;
	const struct ab_opts *o;
	struct ab_result *res;
	ab_progress_fn progress;
	void *data;
	long done, total; /* runs started and to run, warm-ups included */
};

/* The dispositions of the signals ab_sched_trap traps, before it */
struct ab_trap {
	struct sigaction sigint, sigterm, sighup, sigquit;
};

/* From here until ab_sched_untrap(old), SIGINT, SIGTERM, SIGHUP and
 * SIGQUIT stop the schedule after the current command: the runs, builds
 * and probes then return GCAMP_EFATAL "interrupted by signal N" (a
 * handler, not SIG_IGN: the children get the default dispositions). *old
 * gets what was there. */
void ab_sched_trap(struct ab_trap *old);
/* Puts back the dispositions *old holds. */
void ab_sched_untrap(const struct ab_trap *old);

/* The arms' runs: warm-ups, then n runs of the points [from, to) of one
 * arm, or of both arms in the schedule's order. Each run sees
 * GIT_CAMPAIGN_ARM and, when its arm has a copy, GIT_CAMPAIGN_ARTIFACT in
 * its environment; ours is left as it is. */
int ab_run_block(struct schedule *s, size_t from, size_t to,
		 const struct arm *arm);
int ab_run_interleaved(struct schedule *s, size_t from, size_t to,
		       const struct arm *a, const struct arm *b,
		       unsigned *seed);
/* Runs the build command s->o->build in arm's tree, with GIT_CAMPAIGN_ARM
 * in its environment, announced to s->progress (AB_PROGRESS_BUILD, desc);
 * a failure names the arm (desc). */
int ab_build(struct schedule *s, const struct arm *arm, const char *desc);

/* Runs cmd (a command line as an A/B workload: split at blanks, or given to
 * /bin/sh -c when it holds shell syntax) n times in the current folder,
 * stdin from /dev/null, with env's changes to its environment (as
 * proc_opts.env: NULL-terminated "NAME=VALUE" or "NAME", the child's only;
 * NULL: none), and reads each run's number as an A/B does with metric m.
 * *out gets the n samples (caller frees). A run that exits non-zero, or
 * whose output lacks the number, is GCAMP_EFATAL naming it; n < 1 is
 * GCAMP_EUSAGE. progress (may be NULL) is called before each run, as for
 * an A/B's run but with arm 0: i and k of n, the running median, m's
 * unit. */
int ab_probe(double **out, struct ctx *ctx, const char *cmd, long n,
	     const struct ab_metric *m, const char *const *env,
	     ab_progress_fn progress, void *data);

#endif
