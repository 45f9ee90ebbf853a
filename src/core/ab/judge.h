/* Judging an A/B: the result's shape (points, the sweep), verdicts by
 * benchstat's rules plus a minimum effect and a drift check; the controls
 * are control.h's, the sweep's fit sweep.h's. */
#ifndef GCAMP_AB_JUDGE_H
#define GCAMP_AB_JUDGE_H

#include <git2.h>
#include <stddef.h>

#include "core/ab/enums.h"
#include "core/measure/stored.h"
#include "core/probe/floor.h"
#include "core/stats/fit.h"
#include "core/stats/stats.h"
#include "util/strvec.h"

struct ab_metric;

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
	char why[160]; /* why there is no verdict, or why "~" or
			* "inconclusive"; "" otherwise */
	long n_needed; /* runs per arm a verdict would need; 0: - */
	double p_holm; /* a control's p after Holm's adjustment over the
			* run's control tests (control.h); NaN otherwise */
};

/* The line fit of an iteration sweep of the main workload: Theil-Sen per
 * arm, time = fixed + per_iter * iters, with bootstrap CIs of the
 * differences (stats_sweep_compare); sweep.h fits and words it. */
struct ab_sweep {
	int ok;
	struct stats_sweep fit;
	const char *words;	    /* "removed per-iteration work", ... */
	int reciprocal;		    /* a higher-is-better metric: the fit is of
				     * 1 / value, the cost of one unit */
	double p_fixed, p_per_iter; /* the fit's p, Holm over its 2 tests */
	char why[320];		    /* what "cannot tell" lacks, or why
				     * there is no fit (ok == 0); "" */
	long n_needed;		    /* runs per arm that would tell; 0: - */
};

struct ab_result {
	struct ab_point *points;
	size_t npoints;
	int invalid;		/* a control moved */
	enum ab_vouch vouch;	/* what the controls say of the run */
	size_t control_tests;	/* the family Holm corrects over */
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

/* What a sweep says, in words: the literals ab_result.sweep.words points
 * to, NULL-terminated (ab_result_from_json maps stored words back) */
extern const char *const ab_sweep_words[];

/* Frees what r holds (points, samples, labels, warnings, strings) and
 * zeroes it. Accepts NULL. */
void ab_result_release(struct ab_result *r);

/* Judges every point, then the controls together (ab_controls_judge:
 * r->vouch, and r->invalid when one moved), adds the drift and order
 * warnings and, with sweep, fits the iteration sweep (ab_sweep_fit).
 * ab_run calls it; exposed for the tests. */
void ab_finish(struct ab_result *r, double min_effect, double control_tol,
	       int sweep, unsigned seed);

/* Judges one point from its samples (exposed for the tests). A control
 * that ran gets AB_VERDICT_NONE here: ab_controls_judge judges it with
 * the run's other control tests. */
void ab_judge(struct ab_point *p, double min_effect, int higher_is_better);

#endif
