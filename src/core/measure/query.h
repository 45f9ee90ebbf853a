/* Reading measurements: the series of one metric along first-parent
 * history (from the index) and the comparison of two commits (from the
 * notes), with the refusals that keep numbers of different machines or
 * configurations apart. */
#ifndef GCAMP_MEASURE_QUERY_H
#define GCAMP_MEASURE_QUERY_H

#include <cjson/cJSON.h>
#include <git2.h>

#include "core/base/ctx.h"
#include "core/stats/stats.h"
#include "util/strvec.h"

/* One commit's value in a series (measure log). */
struct measure_point {
	git_oid commit;
	size_t group; /* index into measure_series.groups */
	double value; /* median of the values of the commit's records */
	size_t nrec;  /* how many records */
};

/* An (env, config) pair; "*" stands for any when crossing. The config is
 * the grouping one: the record's config without b_tree, with its
 * iteration count as the key "iters". */
struct measure_group {
	char *env;
	char *config; /* canonical config JSON */
};

struct measure_series {
	char *unit;   /* of the first record, or NULL */
	char *better; /* likewise */
	struct measure_group *groups;
	size_t ngroups;
	struct measure_point *pts; /* first-parent order, newest first */
	size_t npts;
};

struct measure_log_opts {
	const char *metric;
	const char *range;	     /* "A..B", a revision, or NULL: HEAD */
	const char *env;	     /* only this env; NULL: all (crossing) */
	const cJSON *env_json;	     /* env's fingerprint JSON, or NULL */
	const struct strvec *config; /* "k=v" every record must have */
	int cross_config;	     /* allow several configs */
};

/*
 * The series of metric along the first-parent history of o->range: one
 * point per commit and group that has records. An A/B's B record counts
 * only at a commit whose tree is its b_tree. Only records of o->env
 * (unless NULL) and of configs holding every o->config pair count. Refused
 * with GCAMP_EREFUSED, naming the differing keys: records of several
 * configs without o->cross_config; records of metric only on other
 * machines. GCAMP_ENOTFOUND when metric has no records at all. Release
 * *out with measure_series_release.
 */
int measure_log(struct measure_series *out, struct ctx *ctx,
		const struct measure_log_opts *o);
void measure_series_release(struct measure_series *s);

/* A first-parent walk of range ("A..B", a revision, or NULL: HEAD), newest
 * first, as measure_log walks it. On failure (a bad range, with err set)
 * *out is NULL; else the caller frees it. */
int measure_walk_range(git_revwalk **out, git_repository *repo,
		       const char *range, struct error *err);

/* One row of a comparison. */
struct measure_cmp {
	char *metric, *unit, *better; /* unit, better: NULL when unknown */
	char *env;		      /* "*" when crossing environments */
	char *config;		      /* canonical JSON, or "*" */
	double *a, *b;		      /* pooled samples (a record without
				       * samples counts as its value) */
	size_t na, nb;
	struct stats_compare st;
};

struct measure_compare_opts {
	git_oid a, b;		      /* baseline, candidate */
	const char *name_a, *name_b;  /* as the user wrote them */
	const struct strvec *metrics; /* NULL or empty: every metric */
	const struct strvec *config;  /* "k=v" every record must have */
	int cross_env, cross_config;
};

/*
 * Compares the records of each metric at o->a and o->b, read from the
 * notes, grouped by env and config (unless crossed; the config as
 * measure_group says): one row per metric and group present at both. An
 * A/B's B record counts only at a commit whose tree is its b_tree; a
 * record at o->b with the run and arm of one at o->a in its group is a
 * copy and left out (GCAMP_EREFUSED when only copies are left). A metric
 * present at both only in different groups is refused (GCAMP_EREFUSED) naming
 * the env keys (fingerprint_diff_keys) and config keys that differ; a metric
 * named in o->metrics and absent on one side is GCAMP_ENOTFOUND. Free *out with
 * measure_cmp_free.
 */
int measure_compare(struct measure_cmp **out, size_t *nout, struct ctx *ctx,
		    const struct measure_compare_opts *o);
void measure_cmp_free(struct measure_cmp *c, size_t n);

#endif
