/* The PR cache, table pr: each stacked branch's pull request as the forge
 * last said, written by `stack submit` and read by status, stack show, PR
 * bodies, the umbrella issue and the hooks. Links sqlite only, never
 * libgit2: git-campaign-hook reads it. */
#ifndef GCAMP_RECORDS_PR_H
#define GCAMP_RECORDS_PR_H

#include <sqlite3.h>

#include "io/db.h"
#include "util/error.h"

struct pr_cached {
	long number;
	char state[16]; /* "open", "draft", "closed", "merged" */
	char url[512];	/* "" when none */
};

/* What pr_record writes: the strings are borrowed for the call. */
struct pr_row {
	const char *branch;
	long number;
	const char *state;	/* "open", "draft", "closed", "merged" */
	const char *base;	/* NULL when unknown */
	const char *url;	/* NULL when none */
	const char *updated_at; /* NULL: now */
};

/* The cached PR of branch on the open database handle h (the campaign
 * database, as db_handle gives it, or prcache_open's): 0; GCAMP_ENOTFOUND
 * when there is no row or no pr table yet, which sqlite_schema says
 * (nothing in err); GCAMP_EDB when the query fails. */
int pr_get(struct pr_cached *out, sqlite3 *h, const char *branch,
	   struct error *err);

/* pr_get on the database at path, opened read-only without migrations
 * (prcache_open): for the hooks. 0; GCAMP_ENOTFOUND when there is no such
 * file, no pr table yet or no row (nothing recorded in err); GCAMP_EDB
 * when the file cannot be read as the campaign database. */
int pr_get_file(struct pr_cached *out, const char *path, const char *branch,
		struct error *err);

/* Inserts or replaces the row of r->branch. */
int pr_record(struct db *db, const struct pr_row *r, struct error *err);

/* Called by pr_for_each with one row; the strings are borrowed for the
 * call. Nonzero stops the walk, and pr_for_each returns it. */
typedef int (*pr_each_fn)(long number, const char *branch, const char *state,
			  void *data);

/* Every cached PR by number, to fn. 0, fn's nonzero return, or GCAMP_EDB
 * ("cannot read the PR cache"). */
int pr_for_each(struct db *db, pr_each_fn fn, void *data, struct error *err);

#endif
