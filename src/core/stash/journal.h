/* The journals of a stash save, apply or pop: one file in the work tree's
 * own git folder naming the stash while the command writes the working
 * tree, so that a kill there is finished by running the command again and
 * status can say so. */
#ifndef GCAMP_STASH_JOURNAL_H
#define GCAMP_STASH_JOURNAL_H

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

void stash_journal_release(struct stash_journal *j);

#endif
