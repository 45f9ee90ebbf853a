/* The campaign database opened read-only, for the PR cache of the hooks. */
#include "io/prcache.h"

#include <errno.h>
#include <unistd.h>

int prcache_open(sqlite3 **out, const char *path, struct error *err)
{
	sqlite3 *db = NULL;
	int rc;

	*out = NULL;
	if (access(path, F_OK) < 0 && errno == ENOENT)
		return GCAMP_ENOTFOUND;
	rc = sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL);
	if (rc != SQLITE_OK) {
		rc = error_set(err, GCAMP_EDB,
			       "cannot read the PR cache in '%s': %s", path,
			       db ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
		sqlite3_close(db);
		return rc;
	}
	sqlite3_busy_timeout(db, 2000);
	*out = db;
	return 0;
}
