/* The journals of a stash save, apply or pop: one file in the work tree's
 * own git folder naming the stash while the command writes the working
 * tree, so that a kill there is finished by running the command again and
 * status can say so. */
#ifndef GCAMP_STASH_JOURNAL_H
#define GCAMP_STASH_JOURNAL_H

#include <git2.h>

/* The journal files, in the work tree's git folder */
#define STASH_JOURNAL_SAVE "campaign-stash-save"
#define STASH_JOURNAL_APPLY "campaign-stash-apply"

/* What a journal names. */
struct stash_journal {
	char id[41];	 /* the stash commit, hex */
	char *name;	 /* the stash's name */
	char *verb;	 /* "save", "apply" or "pop" */
	char target[41]; /* save: the tree the reset brings back, else "" */
	long pid;	 /* the run that wrote it */
};

/* Reads the journal at path into *out: 0, GCAMP_ENOTFOUND when there is
 * none or it holds no stash id (an apply journal of an earlier version
 * holds the id alone: name and verb are then ""). Release with
 * stash_journal_release. */
int stash_journal_read(struct stash_journal *out, const char *path);

/* Writes j to path, synced to the disk, in one rename: 0, or -1 with errno
 * set. */
int stash_journal_write(const char *path, const struct stash_journal *j);

/* 1 when the working file at path (relative to the work tree) is a regular
 * file holding blob id, or with or_start, the start of it: what a command
 * killed while writing that file leaves. */
int stash_path_holds(git_repository *repo, const char *path, const git_oid *id,
		     int or_start);

void stash_journal_release(struct stash_journal *j);

#endif
