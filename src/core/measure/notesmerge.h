/* Merging two notes refs the way `git notes merge -s cat_sort_uniq` does,
 * with libgit2: per annotated object a three-way choice against the merge
 * base, and where both sides changed a note, the sorted union of its lines.
 * The pure parts are exposed for the unit tests. */
#ifndef GCAMP_NOTESMERGE_H
#define GCAMP_NOTESMERGE_H

#include <git2.h>
#include <stddef.h>

#include "util/buf.h"
#include "util/error.h"

/* git's combine_notes_cat_sort_uniq (notes.c) on two note texts: each is
 * read up to its first NUL, split at '\n', empty lines dropped; the lines of
 * both are sorted bytewise (strcmp), duplicates dropped, and each written
 * back followed by '\n'. out is reset first. Nothing at all gives "". */
void notes_cat_sort_uniq(struct buf *out, const char *a, size_t alen,
			 const char *b, size_t blen);

/* The number of distinct lines of text a (split as above) that are not
 * lines of text b. */
size_t notes_lines_missing(const char *a, size_t alen, const char *b,
			   size_t blen);

enum notes_pick {
	NOTES_PICK_LOCAL,   /* keep the local note (or its absence) */
	NOTES_PICK_REMOTE,  /* take the remote note (or its absence) */
	NOTES_PICK_COMBINE, /* both changed: cat_sort_uniq of the two */
};

/* git's notes-merge.c choice for one annotated object; NULL means "no
 * note" on that side (base NULL also when there is no merge base): same on
 * both sides, or only local changed: local; only remote changed: remote;
 * both changed differently: combine (where one side removed the note, the
 * combination is the other side's lines). */
enum notes_pick notes_merge_pick(const git_oid *base, const git_oid *local,
				 const git_oid *remote);

/* git's fan-out rule (notes.c determine_fanout) for n note names (hex
 * object ids, sorted, all sharing their first 2 * depth hex digits): 1 when
 * they go into two-digit subtrees below this level, that is when each of
 * the 16 possible next hex digits starts at least two of the names; else 0
 * (the names are written flat here). */
int notes_fanout_split(const char *const *hex, size_t n, size_t depth);

struct notes_merge_result {
	git_oid commit;	      /* the commit refs/notes/... should point at */
	int changed;	      /* 1 when commit differs from local */
	int fast_forward;     /* 1 when commit is remote (local behind it) */
	int merged;	      /* 1 when a merge commit was written */
	size_t lines_added;   /* lines in commit's notes that local lacked */
	size_t lines_to_push; /* lines in commit's notes that remote lacks */
	size_t notes;	      /* notes in the result */
};

/*
 * Merges the notes commit remote into local (either may be NULL: no notes
 * there yet). When they are equal or remote is an ancestor of local, the
 * result is local; when local is an ancestor of remote, remote (a
 * fast-forward); otherwise a new tree is written with git's fan-out and ONE
 * commit with parents (local, remote) and the given message, author and
 * committer sig. No reference is changed: the caller moves the ref (by
 * compare-and-swap). Line counts compare the notes of the result with those
 * of local and remote. Objects whose tree path is not a note (not a hex
 * object id) are not carried into a written tree.
 */
int notes_merge(struct notes_merge_result *out, git_repository *repo,
		const git_oid *local, const git_oid *remote,
		const git_signature *sig, const char *message,
		struct error *err);

#endif
