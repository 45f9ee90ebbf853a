/* Renderings of `status` and `resume` kept between runs: a prompt runs
 * them again and again while nothing they show changes, and reading the
 * database is most of their cost. A rendering is used only for the same
 * facts from the repository's files (HEAD, refs, configuration: read
 * anew by each run), the same database file, unchanged since, and the
 * same binary. */
#ifndef GCAMP_OUTCACHE_H
#define GCAMP_OUTCACHE_H

#include "core/base/ctx.h"
#include "util/buf.h"

struct outcache {
	char *path;	  /* the cache file; NULL: not used this run */
	char *db_path;	  /* the database it depends on */
	char key[65];	  /* what the rendering is for, hashed */
	struct buf stamp; /* the database file as it was at the start */
};

#define OUTCACHE_INIT                                                          \
	{                                                                      \
		NULL, NULL, "", BUF_INIT                                       \
	}

/*
 * Prepares oc for the rendering named what ("status --short") of facts
 * (what the rendering depends on besides the database). The cache is not
 * used (oc->path NULL) when there is no database, while one is being
 * written (its -wal file is there: the database file does not yet hold
 * everything then), or when GIT_CAMPAIGN_NO_CACHE is set (not "0").
 */
void outcache_begin(struct outcache *oc, struct ctx *ctx, const char *what,
		    const char *facts);
/* Appends a fact "file PATH DEV INODE SIZE TIME" of the file at path, or
 * "file PATH none": for a rendering that depends on a file's content. */
void outcache_file_fact(struct buf *facts, const char *path);
/* 1 with the rendering in out when one was kept for this key, else 0. */
int outcache_get(struct outcache *oc, struct buf *out);
/*
 * Keeps text as the rendering for the key, when the database file is as
 * it was at outcache_begin, no process has it open, and its last change
 * is over two seconds old: a change in the same tick of the clock as the
 * one seen could leave its time as it was. Call it after the database is
 * closed. A failure is ignored: it is a cache.
 */
void outcache_put(struct outcache *oc, const char *text, size_t len);
void outcache_release(struct outcache *oc);

#endif
