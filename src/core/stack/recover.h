/* What a kill leaves behind, taken up so that every unfinished stack
 * operation can be finished or undone: the files a cut checkout already
 * wrote, the lock files of a dead operation, a planless one's index copy. */
#ifndef GCAMP_STACK_RECOVER_H
#define GCAMP_STACK_RECOVER_H

#include <git2.h>

#include "core/base/ctx.h"
#include "core/stack/op.h"
#include "util/error.h"
#include "util/strvec.h"

/*
 * Of paths (where the index and commit's tree differ), takes those whose
 * work-tree file already is commit's version, or a start of it that a
 * killed write left (then written whole, through a renamed temporary
 * file): their index entries move to commit's, with the files' stat
 * data, and the index is written. paths keeps only the rest, for the
 * checkout to write. A negative libgit2 code when the index cannot be
 * written.
 */
int stack_recover_done_paths(struct strvec *paths, git_repository *repo,
			     git_commit *commit, git_index *index);

/*
 * The untracked files that a checkout of commit over index would
 * overwrite, appended to out, as git names them: a path commit's tree has
 * and the index lacks, held in the work tree (or a file where commit has
 * a folder on its way) that is not ignored and not already commit's
 * version. A negative libgit2 code when the two cannot be compared.
 */
int stack_recover_untracked_in_way(struct strvec *out, git_repository *repo,
				   git_commit *commit, git_index *index);

/* Adds git's hint to err when DIR/PATH.lock exists (dir ends in '/'):
 * the lock file named, and what to do about it. */
void stack_recover_lock_hint(struct error *err, const char *dir,
			     const char *path);

/* Removes the lock files that op, whose process is gone, may have left
 * (its branches', backups', notes', the config's, this work tree's index
 * and HEAD), only those made since op began; one line per file removed is
 * appended to removed. */
int stack_op_drop_stale_locks(struct strvec *removed, struct stack_op *op,
			      struct ctx *ctx);

/* Removes the index copy ("campaign-STAMP-ID.index" in the git dir) of
 * operation id, whose plan, which named it, was lost. */
void stack_recover_drop_index_copies(git_repository *repo, long long id);

#endif
