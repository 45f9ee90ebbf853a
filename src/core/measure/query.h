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

/* The number of rows of the measurement index (as it stands) into *out;
 * 0 when it cannot be read. */
int measure_index_count(long long *out, struct db *db, struct error *err);

/* A row of the index, for measure_index_recent; borrowed for the call. */
struct measure_row {
	const char *commit; /* its first 10 hex digits */
	const char *metric;
	double value;
	const char *unit; /* "" when none */
	const char *arm;  /* "" when none */
	const char *env;
	const char *config;
};

/* Called with each row; nonzero stops the walk, and is returned. */
typedef int (*measure_row_fn)(const struct measure_row *row, void *data);

/* The newest max_rows rows of the index (by at, newest first, then
 * commit and line), to fn. 0, fn's nonzero return, or GCAMP_EDB. */
int measure_index_recent(struct db *db, int max_rows, measure_row_fn fn,
			 void *data, struct error *err);

/* The floor stored for one env: what `env`, `resume` and A/B tables show
 * beside their own figures. */
struct floor_ref {
	double launch_us; /* floor.launch_sync, median; < 0: none stored */
	double htod_us;	  /* floor.htod_24B; < 0: none stored */
	char commit[41];  /* where launch_us was stored */
	char at[32];	  /* when it was measured */
};

/*
 * The newest floor of device 0 stored for env (records floor.launch_sync
 * and floor.htod_24B whose config holds kind=floor and device=0), from the
 * measurement index brought up to date first (measure_index_update): a
 * floor belongs to the machine, whichever commit it was measured on.
 * Indexed on (metric, env). 1 when there is one, 0 when not (no database
 * is no error), or a negative error.
 */
int floor_stored(struct floor_ref *out, struct ctx *ctx, const char *env);

/*
 * floor_stored for each of envs[0..n) into out[0..n) (launch_us < 0 where
 * none is stored), with one statement, from the measurement index as it
 * stands: the caller brings it up to date first (measure_index_update), so
 * that the check is made once, and outside any read transaction the
 * caller holds. The number of envs with a floor, or a negative error.
 */
int floor_stored_envs(struct floor_ref *out, struct ctx *ctx,
		      const char *const *envs, size_t n);

/* One commit's value in a series (measure log). */
struct measure_point {
	git_oid commit;
	size_t group; /* index into measure_series.groups */
	double value; /* median of the values of the commit's records */
	size_t nrec;  /* how many records */
};

/* An (env, config) pair; "*" stands for any when crossing. */
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
 * point per commit and group that has records. Only records of o->env
 * (unless NULL) and of configs holding every o->config pair count. Refused
 * with GCAMP_EREFUSED, naming the differing keys: records of several
 * configs without o->cross_config; records of metric only on other
 * machines. GCAMP_ENOTFOUND when metric has no records at all. Release
 * *out with measure_series_release.
 */
int measure_log(struct measure_series *out, struct ctx *ctx,
		const struct measure_log_opts *o);
void measure_series_release(struct measure_series *s);

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
 * notes, grouped by env and config (unless crossed): one row per metric
 * and group present at both. A metric present at both only in different
 * groups is refused (GCAMP_EREFUSED) naming the env keys
 * (fingerprint_diff_keys) and config keys that differ; a metric named in
 * o->metrics and absent on one side is GCAMP_ENOTFOUND. Free *out with
 * measure_cmp_free.
 */
int measure_compare(struct measure_cmp **out, size_t *nout, struct ctx *ctx,
		    const struct measure_compare_opts *o);
void measure_cmp_free(struct measure_cmp *c, size_t n);

#endif
