/* Applying a named stash: a three-way merge of the stash's changes into the
 * index's tree, written to the working tree only after every path it
 * touches was checked to hold no local change, then its untracked files. */
#ifndef GCAMP_STASH_APPLY_H
#define GCAMP_STASH_APPLY_H

#include "core/base/ctx.h"
#include "util/buf.h"
#include "util/strvec.h"

/* Applies stash NAME onto the working tree (a three-way merge of its
 * changes with the index) and restores its untracked files. Nothing is
 * written when a local change or an existing file would be overwritten
 * (GCAMP_EREFUSED, paths named). When the merge conflicts, the files get
 * conflict markers, the paths go to *conflicts and GCAMP_EREFUSED is
 * returned; the stash always stays. With pop, the stash is dropped after
 * a clean apply only. */
int stash_apply(struct ctx *ctx, const char *name, int pop,
		struct strvec *conflicts);

/* The changes stash NAME holds against the commit it was made on: a
 * diffstat, or with patch the whole patch; then its untracked files, one
 * "untracked: PATH" line each. Appended to out. */
int stash_diff(struct buf *out, struct ctx *ctx, const char *name, int patch);

#endif
