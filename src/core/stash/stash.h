/* Named stashes: stash commits shaped as `git stash` makes them, kept under
 * refs/campaign/stash/<name> instead of the refs/stash stack, so that no
 * index can be mistaken for another and plain `git stash` entries are never
 * touched. Every save and drop is also logged in the reflog of
 * refs/campaign/stash-log, which keeps dropped stashes recoverable. */
#ifndef GCAMP_STASH_H
#define GCAMP_STASH_H

#include <git2.h>

#include "core/base/ctx.h"
#include "util/buf.h"
#include "util/strvec.h"

#define STASH_REF_PREFIX "refs/campaign/stash/"
#define STASH_LOG_REF "refs/campaign/stash-log"

enum {
	STASH_INCLUDE_UNTRACKED = 1 << 0, /* save untracked files too */
	STASH_KEEP_INDEX = 1 << 1, /* leave the staged changes in place */
	STASH_IF_ANY = 1 << 2, /* no local change: 1, nothing saved, no error */
};

/* One stash commit, named or found unreachable. */
struct stash_info {
	char *name;	   /* NULL for an unnamed (recovered) stash */
	git_oid id;	   /* the stash commit ("WIP on ..." or "On ...") */
	char *branch;	   /* the branch it was made on, from its message */
	char *message;	   /* the commit message's first line */
	git_time_t when;   /* committer time */
	int has_untracked; /* a third parent holds untracked files */
};

/* Saves the working tree and index changes as stash NAME and resets them
 * as `git stash push` does (HEAD, or the index with STASH_KEEP_INDEX;
 * stashed untracked files are removed). The ref is written before anything
 * in the working tree changes. msg may be NULL. Refuses (GCAMP_EEXISTS) an
 * existing name, GCAMP_EREFUSED when there is nothing to save (with
 * STASH_IF_ANY, returns 1 then, saving nothing), conflicts
 * in the index or an unborn branch. *out (may be NULL) gets the stash. */
int stash_save(git_oid *out, struct ctx *ctx, const char *name, const char *msg,
	       unsigned flags);

/* When a save of stash NAME was stopped half way (its journal names it),
 * puts the working tree and index back as they were before that save and,
 * with pop, drops the stash; *undone is then 1. Refuses (GCAMP_EREFUSED,
 * nothing written) when a path changed since; *undone 0 and 0 when there
 * is no such save. */
int stash_save_undo(int *undone, struct ctx *ctx, const char *name, int pop);

/* The tree of the tracked files as they are in the working tree now (the
 * index with every unstaged change applied), as `git stash` records it.
 * Untracked files are not in it. Writes the tree's objects. */
int stash_worktree_tree(git_oid *out, struct ctx *ctx);

/* Every named stash, sorted by name. The caller frees with
 * stash_infos_free. */
int stash_list(struct stash_info **out, size_t *out_n, struct ctx *ctx);

/* The stash called name; GCAMP_ENOTFOUND with a hint when there is none.
 * The caller releases *out with stash_info_release. */
int stash_lookup(struct stash_info *out, struct ctx *ctx, const char *name);

/* Deletes stash NAME only while it still points at expect (a full or
 * abbreviated id; NULL: wherever it points now), as a compare-and-swap.
 * The commit stays in the stash-log reflog. *out (may be NULL) gets the
 * dropped id. */
int stash_drop(git_oid *out, struct ctx *ctx, const char *name,
	       const char *expect);

/* Stash-shaped commits (ours and plain `git stash` ones) that no ref
 * reaches, newest first. The caller frees with stash_infos_free. */
int stash_find_lost(struct stash_info **out, size_t *out_n, struct ctx *ctx);

/* Names the stash commit rev (a full or abbreviated id) as stash NAME. It
 * must be stash-shaped; an existing name is refused. */
int stash_restore_as(git_oid *out, struct ctx *ctx, const char *rev,
		     const char *name);

/* Sets out to refs/campaign/stash/NAME: 0, or GCAMP_EUSAGE (with the
 * message) when NAME is no valid stash name (empty, a leading '-', not a
 * ref name component). */
int stash_ref_name(struct buf *out, struct ctx *ctx, const char *name);

/* Points the stash log at id with a reflog line what (also when it points
 * there already), waiting up to 5 s for a lock another process holds; a
 * lock a killed run of ours left is removed (io/ownlock.h). */
int stash_log(struct ctx *ctx, git_repository *repo, const git_oid *id,
	      const char *what);

/* Logs id in the stash log, then creates refs/campaign/stash/NAME at it
 * with a reflog line what, never over an existing name (GCAMP_EEXISTS,
 * nothing logged). A held lock is waited for as by stash_log; when one
 * stays, GCAMP_EFATAL names it and no name was made. */
int stash_name_ref(struct ctx *ctx, git_repository *repo, const char *name,
		   const git_oid *id, const char *what);

void stash_info_release(struct stash_info *s);
void stash_infos_free(struct stash_info *s, size_t n);

#endif
