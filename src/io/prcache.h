/* Reading the PR cache (table pr of the campaign database) without the
 * migrations of db_open: hooks read it, read-only, on every commit. */
#ifndef GCAMP_PRCACHE_H
#define GCAMP_PRCACHE_H

#include <sqlite3.h>

#include "util/error.h"

struct pr_cached {
	long number;
	char state[16]; /* "open", "draft", "closed", "merged" */
	char url[512];	/* "" when none */
};

/* The cached PR of branch in the database at path, opened read-only.
 * 0; GCAMP_ENOTFOUND when there is no such file, no pr table yet or no row
 * (nothing recorded in err); GCAMP_EDB when the file cannot be read as the
 * campaign database (a corrupt one, for one). */
int prcache_get(struct pr_cached *out, const char *path, const char *branch,
		struct error *err);

/* The same read on an open database handle h (the campaign database, opened
 * by the caller): 0; GCAMP_ENOTFOUND when there is no pr table yet or no
 * row (nothing in err); GCAMP_EDB when the query fails. */
int prcache_lookup(struct pr_cached *out, sqlite3 *h, const char *branch,
		   struct error *err);

#endif
