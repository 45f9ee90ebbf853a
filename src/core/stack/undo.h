/* The stack operations that need no replay: delete, undo, and gc of old
 * backups and journal entries. */
#ifndef GCAMP_STACK_UNDO_H
#define GCAMP_STACK_UNDO_H

#include "core/base/ctx.h"
#include "core/stack/restack.h"

/* Removes branch from the stack; its children are re-parented onto its
 * parent (keeping its commits as theirs). With delete_branch, the branch
 * itself is deleted (its tip is kept under the backup ref). */
int stack_delete(struct restack_result *out, struct ctx *ctx,
		 const char *branch, int delete_branch);
/* Restores every branch (and stack record) of the newest finished stack
 * operation that no undo has undone yet, from its backup: undo after undo
 * goes one operation further back. Refused, with nothing changed, when a
 * branch is no longer where that operation left it. */
int stack_undo(struct restack_result *out, struct ctx *ctx);
/* stack_undo steps times, newest first, each its own operation; the
 * first refusal stops there (the undos before it stay, the hint says how
 * many), with the notes of all in out. */
int stack_undo_steps(struct restack_result *out, struct ctx *ctx, long steps);
/* Prunes backup refs and finished operations older than days days; with
 * dry_run, only lists them (in out->done). */
int stack_gc(struct restack_result *out, struct ctx *ctx, long days,
	     int dry_run);

#endif
