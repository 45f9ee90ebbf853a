/* Same-build A/B runs: build a baseline (A) and the change (B), run both
 * with interleaved order, controls in the same schedule, and judge the
 * difference with the statistics of src/core/stats/stats.c. Nothing is
 * lost: the change is kept under a named stash or never moved at all, and
 * every step is journalled so that --abort puts everything back after a
 * crash. This header is the harness's: its metric, its options, its
 * progress and the run itself; judge.h has the result. */
#ifndef GCAMP_AB_H
#define GCAMP_AB_H

#include <stddef.h>

#include "core/ab/judge.h"
#include "core/base/ctx.h"
#include "import/formats.h"
#include "util/error.h"

/* What a run's number is: its wall time, CPU time or peak memory, or a
 * number printed in its output. */
struct ab_metric {
	enum {
		AB_METRIC_WALL,
		AB_METRIC_USER,
		AB_METRIC_SYS,
		AB_METRIC_RSS,
		AB_METRIC_REGEX,
		AB_METRIC_JSON,
		AB_METRIC_IMPORT,
	} kind;
	char *regex; /* AB_METRIC_REGEX: POSIX extended, one group;
		      * AB_METRIC_JSON: the path, "a.b.0.c";
		      * AB_METRIC_IMPORT: the record's metric */
	const struct import_format *format; /* AB_METRIC_IMPORT */
	char *name; /* "wall", or the name given with name= */
	char *unit; /* "s", "KiB", or the unit given with unit= */
	int higher_is_better;
};

/* Parses --metric: "wall" (default), "user", "sys", "maxrss",
 * "re:REGEX", "json:PATH" (a number in the JSON the run prints, by dotted
 * path, array indexes as numbers) or "import:FORMAT:METRIC" (the first
 * record called METRIC that importer FORMAT reads from the output), each
 * optionally followed by ";unit=U", ";better=higher" or ";name=N". Returns 0,
 * or GCAMP_EUSAGE with err set. Release with ab_metric_release. */
int ab_metric_parse(struct ab_metric *out, const char *spec, struct error *err);
void ab_metric_release(struct ab_metric *m);

struct ab_opts {
	const char *build; /* run in each arm's tree before its runs */
	const char *run;   /* the workload; {iters} is substituted */
	const char *const *controls; /* workloads that must not move */
	size_t ncontrols;
	/* NULL, or ncontrols entries: how each control's number is read
	 * (its own figure, e.g. the GPU control's timed work); a NULL entry
	 * reads it with metric */
	const struct ab_metric *const *control_metrics;
	long n;	     /* measured runs per arm, workload and iteration count */
	long warmup; /* runs discarded per arm before measuring */
	const long *iters; /* the sweep; niters == 0: no sweep */
	size_t niters;
	struct ab_metric metric;
	enum ab_mode mode;
	enum ab_order order;
	double min_effect;	   /* fraction: 0.02 is 2% */
	double control_tol;	   /* fraction */
	const char *base;	   /* A's revision; NULL: HEAD */
	const char *artifact;	   /* artifact mode: the build's output */
	unsigned seed;		   /* for AB_ORDER_RANDOM */
	const char *const *config; /* "key=value" labels of the records */
	size_t nconfig;
	const char *argv_json; /* the command's arguments, journalled so
				* that --continue can run it again */
};

/* What the harness is about to do, so that a terminal can show it. */
struct ab_progress {
	enum {
		AB_PROGRESS_RUN,   /* a measured run starts */
		AB_PROGRESS_BUILD, /* an arm's build starts */
		AB_PROGRESS_BUILT, /* A's worktree holds its build already */
	} what;
	char arm;	      /* 'A' or 'B'; 0 for a probe's run */
	long i, n;	      /* RUN: the run's number and count */
	const char *workload; /* RUN: the workload; BUILD: what is built
			       * ("HEAD", "base worktree", "working tree");
			       * BUILT: the id of the tree built */
	double median;	      /* RUN: the arm's running median, NaN before
			       * its first run */
	/* RUN: the point's iteration count (0: none; {iters} in workload
	 * stands for it), whether the run is a warm-up, the run's number
	 * among all the A/B's runs (warm-ups included, both arms, every
	 * point) and their count, and the unit of median ("" when none) */
	long iters;
	int warmup;
	long k, total;
	const char *unit;
};

/* Called with each step of struct ab_progress: before each measured run,
 * and before each build or when A's build is current. p is borrowed for
 * the call. */
typedef void (*ab_progress_fn)(void *data, const struct ab_progress *p);

/* Runs the A/B o describes and fills *out. In worktree mode A is HEAD (or
 * o->base) built in a worktree under $GIT_COMMON_DIR/campaign/worktrees,
 * rebuilt only when its tree or the build command changed; B is this
 * working tree, never touched. In stash mode the working tree's changes
 * are saved as stash ab/<op>, A is HEAD built and measured in place, then
 * the stash is applied and dropped, B built and measured (tracked changes
 * only, as `git stash`: new files must be added first). SIGINT, SIGTERM,
 * SIGHUP and SIGQUIT stop after the current command and put the working
 * tree and the index back.
 * Returns 0 (the verdicts are in *out, also when a control moved), or a
 * negative code with ctx->err set (a failed build names its arm). */
int ab_run(struct ab_result *out, struct ctx *ctx, const struct ab_opts *o,
	   ab_progress_fn progress, void *data);

/* Finishes an A/B a crash left: puts the working tree back (applies and
 * drops its stash when the working tree does not hold the change yet) and
 * marks it aborted. *out_id gets its id. GCAMP_ENOTFOUND when none. */
int ab_abort(long long *out_id, struct ctx *ctx);

#endif
