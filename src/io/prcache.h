/* Opening the campaign database read-only without the migrations of
 * db_open, for the PR cache (core/records/pr.c): hooks read it on every
 * commit, and git-campaign-hook links sqlite alone. */
#ifndef GCAMP_PRCACHE_H
#define GCAMP_PRCACHE_H

#include <sqlite3.h>

#include "util/error.h"

/* Opens the database at path read-only into *out (the caller closes it
 * with sqlite3_close). 0; GCAMP_ENOTFOUND when there is no such file
 * (nothing recorded in err, *out NULL); GCAMP_EDB when it cannot be
 * opened ("cannot read the PR cache in PATH: ..."). */
int prcache_open(sqlite3 **out, const char *path, struct error *err);

#endif
