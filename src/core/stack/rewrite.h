/* What git does once a rebase has rewritten commits, done for restack:
 * the notes of the refs notes.rewriteRef names copied to the new commits
 * (notes.rewrite.rebase, notes.rewriteMode, GIT_NOTES_REWRITE_REF and
 * GIT_NOTES_REWRITE_MODE as git reads them), and the post-rewrite hook
 * run with "rebase". */
#ifndef GCAMP_STACK_REWRITE_H
#define GCAMP_STACK_REWRITE_H

#include <cjson/cJSON.h>

#include "core/base/ctx.h"
#include "core/stack/op.h"

/*
 * For every notes ref that git's notes.rewriteRef (or the colon-separated
 * GIT_NOTES_REWRITE_REF) names, globs expanded, outside refs/notes/
 * ignored, and none when notes.rewrite.rebase is false: one notes commit
 * per note of a rewritten commit of op's done branches (the [old, new]
 * pairs of op->b[].notes), on top of that ref, and its move appended to
 * refs ({"ref", "old", "new"}) for the all-at-once update. A target that
 * has a note already gets notes.rewriteMode's combination (concatenate,
 * the default; overwrite; ignore; cat_sort_uniq).
 */
int stack_rewrite_notes(cJSON *refs, const struct stack_op *op,
			struct ctx *ctx);

/*
 * Runs the post-rewrite hook (core.hooksPath, else the hooks folder of
 * the common git dir) as git rebase runs it: argument "rebase", in the
 * work tree's top, one "OLD NEW" line per rewritten commit of op's done
 * branches on its standard input, its standard output sent to standard
 * error. Its exit status is ignored, as git ignores it; a hook that is
 * missing or not executable is no error.
 */
void stack_rewrite_hook(const struct stack_op *op, struct ctx *ctx);

#endif
