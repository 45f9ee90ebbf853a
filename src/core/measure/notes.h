/* The notes trees of refs/notes/campaign, as core/measure/measure.c writes
 * and reads them: a commit's note found through git's fan-out folders,
 * lines appended as one notes commit, the ref moved by compare-and-swap. */
#ifndef GCAMP_NOTES_H
#define GCAMP_NOTES_H

#include <git2.h>

#include "core/base/ctx.h"
#include "util/buf.h"
#include "util/strvec.h"

/* 1 when s (len bytes) is 40 lowercase hex digits. */
int notes_is_hex40(const char *s, size_t len);

/* The tip of refs/notes/campaign in *out, *exists 0 when there is none
 * (not an error). */
int notes_tip(git_oid *out, int *exists, git_repository *repo,
	      struct error *err);

/* 0 when tree (the tree of notes commit commit) is shaped as a notes tree:
 * blobs named by hex ids (or their rest under fan-out folders of two hex
 * digits) and those folders; else GCAMP_EFATAL naming the first other
 * entry, with the hint that puts the ref back. */
int notes_check_tree(const git_tree *tree, const git_oid *commit,
		     struct error *err);

/* The tree of notes commit id; the caller frees *out. */
int notes_commit_tree(git_tree **out, git_repository *repo, const git_oid *id,
		      struct error *err);

/*
 * Finds the note of commit hex (40 digits) in a notes tree, following the
 * fan-out folders git makes ("ab/cdef..."): 1 with the blob in *blob and
 * its path in *path, or 0 when there is none; *path then holds the folder
 * where a new note belongs ("" or "ab/" ...): the folders on the way, and
 * a new one where its level has other fan-out folders, as git fans out
 * every note of a level alike.
 */
int notes_find(git_oid *blob, struct buf *path, git_repository *repo,
	       git_tree *root, const char *hex, struct error *err);

/* One notes commit to write: lines appended to the note of a commit. */
struct notes_write {
	const git_oid *tip;	    /* the notes commit to build on ... */
	int exists;		    /* ... when there is one */
	const char *hex;	    /* the commit whose note it is */
	const struct strvec *lines; /* appended, in order */
	const char *why;	    /* the command, for the message */
};

/*
 * Writes the note of commit w->hex with the lines w->lines->v appended
 * (each ending in a newline; a missing final
 * newline of the old note is added), the notes tree, and a notes commit on
 * w->tip (when w->exists) with the message "Notes added by 'git campaign
 * WHY'", signed by GIT_COMMITTER_NAME/EMAIL, else user.name/email, else
 * "git-campaign". Moves no ref. The new commit in *out.
 */
int notes_write_commit(git_oid *out, struct ctx *ctx, git_repository *repo,
		       const struct notes_write *w);

/* Creates refs/notes/campaign as a notes commit with no notes when it does
 * not exist, so that git, told by notes.rewriteRef to carry its notes on
 * amend and rebase, finds it (a missing one makes every `git commit
 * --amend` warn "notes ref refs/notes/campaign is invalid"). */
int notes_start(struct ctx *ctx, git_repository *repo);

/* Moves refs/notes/campaign from old (existed: else it must not exist) to
 * new, reflog "campaign: WHY". 0; 1 when another writer moved it first
 * (nothing changed, no error); or a negative code (a lock held: the hint
 * says so). */
int notes_move_ref(struct ctx *ctx, git_repository *repo, int existed,
		   const git_oid *old, const git_oid *new, const char *why);

#endif
