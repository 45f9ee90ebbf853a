/* Exchanging measurements with a remote: refs/notes/campaign (merged by
 * cat_sort_uniq) and the fingerprints under refs/campaign/env/, fetched and
 * pushed through the `git` program, merged with libgit2, never forced. */
#ifndef GCAMP_SYNC_H
#define GCAMP_SYNC_H

#include <git2.h>
#include <stddef.h>

#include "core/base/ctx.h"
#include "util/buf.h"

#define SYNC_NOTES_REF "refs/notes/campaign"
#define SYNC_ENV_PREFIX "refs/campaign/env/"
/* pushes tried before giving up when the remote keeps moving */
#define SYNC_TRIES 5
/* the wait before the second try; doubled before each further one */
#define SYNC_BACKOFF_MS 200

struct sync_opts {
	const char *remote; /* NULL: campaign.remote, else "origin" */
	int progress;	    /* 1: git's own progress meters on stderr too */
	/* called with one line to show: progress ("fetching measurements
	 * from 'origin'", notice 0) or a notice (a refused push tried again,
	 * notice 1); may be NULL */
	void (*say)(int notice, const char *line, void *data);
	void *say_data;
};

struct sync_report {
	char *remote;	      /* the remote's name */
	int remote_had_notes; /* 0 on a first sync to that remote */
	const char *notes;    /* "up to date", "fast-forward", "merged" or
				 "none" (no notes on either side) */
	size_t lines_added;   /* lines that arrived in the local notes */
	size_t lines_pushed;  /* lines the remote lacked and got */
	size_t env_copied;    /* env refs copied from the remote */
	size_t env_pushed;    /* env refs the remote lacked and got */
	int pushed;	      /* 1 when something was pushed */
	int attempts;	      /* fetch-merge-push rounds (1 unless raced) */
	git_oid tip;	      /* refs/notes/campaign after sync; zero when
				 there are no notes */
};

#define SYNC_REPORT_INIT                                                       \
	{                                                                      \
		NULL, 0, "none", 0, 0, 0, 0, 0, 0,                             \
		{                                                              \
			{                                                      \
				0                                              \
			}                                                      \
		}                                                              \
	}

/*
 * Syncs the notes and env refs of the repository in ctx with a remote:
 * 1. `git fetch REMOTE +refs/notes/campaign:refs/notes/remotes/REMOTE/campaign
 *    +refs/campaign/env/(*):refs/campaign/remotes/REMOTE/env/(*)` (a remote
 *    without the notes ref is a first sync, not an error);
 * 2. merges the fetched notes into refs/notes/campaign (see notes_merge) and
 *    moves the ref by compare-and-swap on its old id, with a reflog entry;
 *    a local ref moved meanwhile by another process makes it merge again;
 * 3. creates refs/campaign/env/ID for each fetched ID missing here (an
 *    existing local one is never changed);
 * 4. pushes refs/notes/campaign and the env refs the remote lacks, without
 *    force; when the push is rejected (the remote moved meanwhile), waits
 *    SYNC_BACKOFF_MS, doubling, and repeats 1-4, SYNC_TRIES rounds at most.
 * Local refs only ever move forward, so nothing local is lost whatever
 * stops it. Errors: an unknown remote (GCAMP_ENOTFOUND), a fetch or push
 * that failed (GCAMP_EFATAL with git's own reason), a push still rejected
 * after the last try (GCAMP_EFATAL; what merged locally stays). out is
 * filled as far as it got; release it with sync_report_release().
 */
int sync_run(struct sync_report *out, struct ctx *ctx,
	     const struct sync_opts *opts);

/* Frees what sync_run put in r and resets it. Accepts NULL. */
void sync_report_release(struct sync_report *r);

/* The reason a failed git gave, from its stderr: the first "fatal: " line
 * (prefix dropped), else the last "error: " line, else the last non-empty
 * line; copied into out. Exposed for the unit tests. */
void sync_git_reason(struct buf *out, const char *stderr_text);

#endif
