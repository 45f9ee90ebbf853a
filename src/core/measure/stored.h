/* The figures the measurement index keeps for a machine and for the
 * campaign as a whole: the stored floor of an env (what `env`, `resume` and
 * A/B tables show beside their own figures), and the index's size, its
 * metrics and newest rows (the umbrella section, the report). */
#ifndef GCAMP_MEASURE_STORED_H
#define GCAMP_MEASURE_STORED_H

#include <stddef.h>

#include "core/base/ctx.h"
#include "io/db.h"
#include "util/error.h"
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

/* Every metric of the index, sorted, into out (after updating the index
 * from the notes). 0, or GCAMP_EDB. */
int measure_metrics(struct strvec *out, struct ctx *ctx);

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

#endif
