/* The A/B results, table ab_run: one row per `git campaign ab` run, keyed
 * by its journal operation's id, with every sample in the result JSON and
 * the Markdown it printed. */
#ifndef GCAMP_RECORDS_AB_RUN_H
#define GCAMP_RECORDS_AB_RUN_H

#include "core/base/ctx.h"
#include "io/db.h"
#include "util/error.h"

/* A row to store: the strings are borrowed for the call. */
struct ab_run_new {
	long long id;	      /* the journal operation's id */
	const char *at;	      /* ISO 8601 UTC */
	const char *mode;     /* ab_mode_name */
	const char *workload; /* the first point's, "" when none */
	const char *verdict;  /* "faster 0.912", "INVALID", "" */
	int invalid;
	const char *result;   /* ab_result_json, unformatted */
	const char *markdown; /* ab_render_markdown */
};

/* A row read: the strings are borrowed for the call of ab_run_each_fn. */
struct ab_run_row {
	long long id;
	const char *at;
	const char *verdict;
	const char *result; /* the result JSON */
};

/* The last A/B run, owned strings (the reader frees them). */
struct ab_run_last {
	long long id; /* 0: none */
	char *at;
	char *workload;
	char *verdict; /* "faster 0.912", "~ 1.003", "INVALID" */
};

/* Stores r. GCAMP_EDB "cannot store the A/B result" when it cannot. */
int ab_run_insert(struct db *db, const struct ab_run_new *r, struct error *err);

/* The time and the result JSON of run id, into *at and *result (the
 * caller frees both): 0; GCAMP_ENOTFOUND when there is no such run
 * (nothing in err); GCAMP_EDB when the read fails. */
int ab_run_get(char **at, char **result, struct db *db, long long id,
	       struct error *err);

/* Called by ab_run_for_each with each row; nonzero stops the walk, and
 * ab_run_for_each returns it. */
typedef int (*ab_run_each_fn)(const struct ab_run_row *row, void *data);

/* Every run to fn, by id, the newest first when newest_first. 0, fn's
 * nonzero return, or GCAMP_EDB "cannot read the A/B runs". */
int ab_run_for_each(struct db *db, int newest_first, ab_run_each_fn fn,
		    void *data, struct error *err);

/* The newest run into *out (out->id 0 when there is none). */
int ab_run_last(struct ab_run_last *out, struct db *db, struct error *err);

/* 0 when the A/B run id is recorded in the campaign database of ctx,
 * else GCAMP_ENOTFOUND "no A/B run #ID" (with a hint). */
int ab_run_exists(struct ctx *ctx, long long id);

#endif
