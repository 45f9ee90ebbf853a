/* Same-build A/B runs: build a baseline (A) and the change (B), run both
 * with interleaved order, controls in the same schedule, and judge the
 * difference with the statistics of src/core/stats/stats.c. Nothing is lost:
 * the change is kept under a named stash or never moved at all, and every step
 * is journalled so that --abort puts everything back after a crash. */
#ifndef GCAMP_AB_H
#define GCAMP_AB_H

#include <cjson/cJSON.h>
#include <git2.h>
#include <stddef.h>

#include "core/ab/enums.h"
#include "core/base/ctx.h"
#include "core/probe/floor.h"
#include "core/stats/stats.h"
#include "import/formats.h"
#include "util/buf.h"
#include "util/strvec.h"

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

/* Runs cmd (a command line as an A/B workload: split at blanks, or given to
 * /bin/sh -c when it holds shell syntax) n times in the current folder,
 * stdin from /dev/null, and reads each run's number as an A/B does with
 * metric m. *out gets the n samples (caller frees). A run that exits
 * non-zero, or whose output lacks the number, is GCAMP_EFATAL naming it;
 * n < 1 is GCAMP_EUSAGE. */
int ab_probe(double **out, struct ctx *ctx, const char *cmd, long n,
	     const struct ab_metric *m);

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

/* One workload at one iteration count, both arms. */
struct ab_point {
	char *workload; /* the command as given */
	int control;
	const struct ab_metric *spec; /* borrowed from ab_opts; NULL: the
				       * run's metric */
	char *metric, *unit; /* spec's name and unit; NULL: the result's */
	long iters;	     /* 0 without a sweep */
	double *a, *b;
	size_t na, nb;
	size_t failed_a, failed_b; /* runs that exited non-zero */
	struct stats_summary sa, sb;
	struct stats_compare cmp;
	enum ab_verdict verdict;
	char why[160]; /* why there is no verdict, "" otherwise */
	long n_needed; /* runs per arm a verdict would need; 0: - */
};

/* The line fit of an iteration sweep of the main workload: Theil-Sen per
 * arm, time = fixed + per_iter * iters, with bootstrap CIs of the
 * differences (stats_sweep_compare). */
struct ab_sweep {
	int ok;
	struct stats_sweep fit;
	const char *words; /* "removed per-iteration work", ... */
};

struct ab_result {
	struct ab_point *points;
	size_t npoints;
	int invalid;		/* a control moved */
	struct strvec warnings; /* drift, noisy controls, blocked order */
	struct strvec labels;	/* the --config labels, "key=value" */
	struct ab_sweep sweep;
	char env[17];	/* this machine's fingerprint id */
	char *env_line; /* "env ID: CPU, OS, GPU, driver, JDK, backend" */
	int gpu;	/* the env has a GPU */
	int has_floor;	/* a GPU env with its floor stored: the tables
			 * show it as a reference */
	struct floor_ref floor;
	git_oid a_commit; /* A's commit: where the records go */
	git_oid b_tree;	  /* the tree B was built from */
	char a_desc[64];  /* "HEAD (1a2b3c4d5e6f)" */
	char b_desc[64];  /* "working tree" */
	enum ab_mode mode;
	enum ab_order order;
	long n, warmup;
	char *unit;
	char *metric;
	int higher_is_better;
	long long op_id; /* the journal operation */
};

/* Called before each run with the arm ('A' or 'B'), the run's number and
 * count, the workload and the arm's running median (NaN before the first
 * run), so that a terminal can show progress. */
typedef void (*ab_progress_fn)(void *data, char arm, long i, long n,
			       const char *workload, double median);

/* Runs the A/B o describes and fills *out. In worktree mode A is HEAD (or
 * o->base) built in a worktree under $GIT_COMMON_DIR/campaign/worktrees,
 * rebuilt only when its tree or the build command changed; B is this
 * working tree, never touched. In stash mode the working tree's changes
 * are saved as stash ab/<op>, A is HEAD built and measured in place, then
 * the stash is applied and dropped, B built and measured (tracked changes
 * only, as `git stash`: new files must be added first). SIGINT and
 * SIGTERM stop after the current command and put the working tree back.
 * Returns 0 (the verdicts are in *out, also when a control moved), or a
 * negative code with ctx->err set (a failed build names its arm). */
int ab_run(struct ab_result *out, struct ctx *ctx, const struct ab_opts *o,
	   ab_progress_fn progress, void *data);

/* Sets r->env (this machine's fingerprint, stored), r->env_line, the
 * line the table prints under it, r->gpu and, on a GPU env whose floor is
 * stored (env --floor), r->floor and r->has_floor. */
int ab_describe_env(struct ab_result *r, struct ctx *ctx);

/* The same for the env already in r->env (a stored run read back): the
 * line is "env ID: CPU, OS, GPU ..., driver ..., JDK ..., backend B", from
 * the env's stored fingerprint. GCAMP_ENOTFOUND when the env is not known
 * here (r->env_line is then NULL). */
int ab_describe_stored_env(struct ab_result *r, struct ctx *ctx);

/* The same from what the caller has read already: fp, the fingerprint of
 * r->env (NULL when not known: r is left without a line), and floor, its
 * stored floor (fingerprint_load_jsons and floor_stored_envs). */
void ab_describe_known_env(struct ab_result *r, const cJSON *fp,
			   const struct floor_ref *floor);

/* Writes the result as schema-1 records, in one notes commit on A's
 * commit: per workload, iteration count and arm, the median with every
 * sample, arm "A" or "B", ctl for controls, and config holding the user's
 * labels, workload=CMD and, for B, b_tree=TREE (so that `ab attach` can
 * find them once the change is committed). source "ab", one run id. */
int ab_record(struct ctx *ctx, const struct ab_result *r,
	      const struct ab_opts *o);

/* Copies the B records whose b_tree is rev's tree, from the notes of up to
 * 50 first-parent ancestors of rev, to rev: the numbers of a change follow
 * it into the commit that holds it. *out_n gets how many were copied;
 * none is not an error. */
int ab_attach(size_t *out_n, struct ctx *ctx, const char *rev);

/* Finishes an A/B a crash left: puts the working tree back (applies and
 * drops its stash when the working tree does not hold the change yet) and
 * marks it aborted. *out_id gets its id. GCAMP_ENOTFOUND when none. */
int ab_abort(long long *out_id, struct ctx *ctx);

/* The result as a Markdown table ready for a PR: an INVALID line first
 * when a control moved, the table, the sweep, warnings, n and order. */
void ab_render_markdown(struct buf *out, const struct ab_result *r);
/* The first part of ab_render_markdown alone: the INVALID line when a
 * control moved, the table (one row per workload, controls included) and
 * its configuration (metric, n, warm-up, order, mode, the env line when
 * set, the labels), without the sweep, the reasons and the warnings. */
void ab_render_table(struct buf *out, const struct ab_result *r);

/* A/B run id as recorded in the database (table ab_run) into *out, as
 * ab_result_from_json restores it; *at (may be NULL) gets when it ran
 * (caller frees). GCAMP_ENOTFOUND "no A/B run #ID" when there is none. */
int ab_load(struct ab_result *out, char **at, struct ctx *ctx, long long id);

/* The result as JSON (also what table ab_run keeps, column result); the
 * caller owns it. */
cJSON *ab_result_json(const struct ab_result *r);

/* The inverse of ab_result_json: fills *out (release with
 * ab_result_release) so that a stored run renders again with
 * ab_render_markdown or ab_render_table: every workload with its samples
 * (summaries recomputed from them, without the CI of each arm's median,
 * which nothing draws), metric and unit, ratio, CI, p, verdict
 * and reasons as stored; the sweep fit, labels, warnings, unit, metric,
 * env, mode, order, n and warm-up. env_line is left NULL (see
 * ab_describe_stored_env), a_commit and b_tree zero when the JSON predates
 * them. -1 when j is not such an object. */
int ab_result_from_json(struct ab_result *out, const cJSON *j);

void ab_result_release(struct ab_result *r);

/* Judges every point, marks the run invalid when a control moved, adds
 * the drift and order warnings and, with sweep, fits the iteration sweep.
 * ab_run calls it; exposed for the tests. */
void ab_finish(struct ab_result *r, double min_effect, double control_tol,
	       int sweep, unsigned seed);

/* Judges one point from its samples (exposed for the tests). */
void ab_judge(struct ab_point *p, double min_effect, double control_tol,
	      int higher_is_better);

#endif
