/* A journaled stack operation (restack, move, delete, undo) as the journal
 * records it, and the steps every such operation shares: backups, the
 * all-at-once ref update, the work tree at the end, abort. Internal to
 * core/stack/restack.c and core/stack/op.c. */
#ifndef GCAMP_STACKOP_H
#define GCAMP_STACKOP_H

#include <cjson/cJSON.h>
#include <git2.h>

#include "core/base/ctx.h"
#include "util/strvec.h"

struct op_branch {
	char *name;
	git_oid old;	  /* its tip before the operation */
	git_oid upstream; /* replay upstream..old */
	git_oid onto; /* the parent's tip, when the parent is not replayed */
	int pidx;     /* the parent's index in the operation, or -1 */
	char *parent_old; /* stack records before and after */
	char *tip_old;
	char *parent_new;
	int done, skipped;
	char *wt_path; /* another work tree it is checked out in, whose index
			  and files follow it; NULL when none */
	git_oid new;
	cJSON *notes; /* [[old, new], ...] commits whose note to copy */
};

struct stack_op {
	long long id;
	char *kind;	  /* "restack", "stack-delete", "undo" */
	char *name;	  /* "20261129T120000Z-7": the backup folder */
	char *head;	  /* the branch checked out at the start */
	git_oid head_old; /* its tip then */
	int may_checkout; /* a conflict may be checked out */
	char *index_copy; /* the index saved at the start (a file name in the
			     work tree's git dir), or NULL */
	char *wt;	  /* the work tree it runs in (stack_worktree_id) */
	struct op_branch *b;
	size_t n;
	cJSON *fixed; /* the ref and record updates, for undo and delete */

	/* progress, as the journal tells it */
	int backed_up;
	int conflict; /* stopped (or stopping) at a conflict */
	int stopped;  /* the conflict was shown */
	int touched;  /* HEAD, the index or the work tree were changed */
	size_t ci;    /* the conflicted branch */
	git_oid c_commit, c_onto;
	cJSON *c_rest, *c_notes; /* commits after c_commit; notes so far */
	int c_checkout;
	int partial; /* a resolved conflict whose branch is not finished */
	size_t pi;
	git_oid p_new;
	cJSON *p_rest, *p_notes;
	cJSON *apply; /* the updates being applied */
	int applied, checked;
	int planless;	   /* killed before its plan step: it changed nothing */
	int wt_gone;	   /* the linked work tree that ran it was removed */
	long long started; /* when it began (seconds since the epoch); 0:
			      not known */
};

void stack_op_free(struct stack_op *op);

/* 1 when kind (a journal entry's) is a stack operation's, which
 * continue, abort and undo take. */
int stack_op_kind_is_stack(const char *kind);

/* The unfinished stack operation in *out (NULL when none; caller frees).
 * One that another live process runs is refused. One killed before its
 * plan step comes back with planless set and nothing else: it changed
 * nothing, and stack_op_finish closes it. */
int stack_op_unfinished(struct stack_op **out, struct ctx *ctx);
/* Loads operation id from the journal into *out (caller frees). */
int stack_op_load(struct stack_op **out, struct ctx *ctx, long long id);
/* Refuses when a stack operation is unfinished; one that is planless is
 * closed instead. */
int stack_op_none_pending(struct ctx *ctx);
/* Starts op in the journal (kind, summary) and writes its "plan" step. */
int stack_op_begin(struct stack_op *op, struct ctx *ctx, const char *summary);
/* Writes step name with data (taken, may be NULL) for op (see
 * GIT_CAMPAIGN_TEST_KILL_AT in journal.c). */
int stack_op_step(struct stack_op *op, struct ctx *ctx, const char *name,
		  cJSON *data);
/* Saves the index again over op's copy of it, byte for byte: done right
 * before op first touches the work tree, so that abort gives back the
 * index that goes with the files as they are then (after a `git stash`
 * that the hint advised, not the one from before it). */
int stack_op_save_index(struct stack_op *op, struct ctx *ctx);
/* One stack record change of an operation's "config" list (what
 * stack_op_apply_refs writes after the refs): BRANCH's parent and parent
 * tip before and after; NULLs become JSON nulls. */
cJSON *stack_op_record_json(const char *branch, const char *parent_old,
			    const char *tip_old, const char *parent_new,
			    const char *tip_new);
/* Saves the old tips under refs/campaign/backup/<op>/ and records it. */
int stack_op_backup(struct stack_op *op, struct ctx *ctx);
/* Applies (inverse: reverts) op->apply: refs in one transaction, each
 * checked against its expected value first, then the stack records. A
 * ref already at its target is left; one elsewhere (someone else moved
 * it) refuses everything, or, when left is not NULL, is left where it is
 * and named in left (abort moves back only what the operation moved). */
int stack_op_apply_refs(struct stack_op *op, struct ctx *ctx, int inverse,
			struct strvec *left);
/* Brings the work tree of the checked-out branch to its new tip and HEAD
 * back onto it; records the "checkout" step. */
int stack_op_checkout(struct stack_op *op, struct ctx *ctx);
/* Deletes the backup refs of op (one that moved nothing needs none). */
void stack_op_drop_backups(git_repository *repo, const struct stack_op *op);
/* A branch of op checked out in another work tree that follows it. */
struct stack_wt_move {
	const char *branch, *path; /* borrowed from op */
	git_oid old, new;
};
/* The moves of op's branches (done ones, that moved) and of its fixed
 * updates that name another work tree, in *out (caller frees); returns
 * their count. */
size_t stack_op_wt_moves(struct stack_wt_move **out, const struct stack_op *op);
/* After op's refs moved back (abort): the other work trees of op's
 * branches (wt_path) whose branch is back at its old tip get their index
 * and files back to it. */
int stack_op_restore_elsewhere(struct stack_op *op, struct ctx *ctx);
/* Ends op: the journal entry is closed (ok or aborted), temporary files
 * are removed. */
int stack_op_finish(struct stack_op *op, struct ctx *ctx, int ok);
/* Restores HEAD, the index (byte for byte) and the work tree to the start
 * of op. */
int stack_op_restore_worktree(struct stack_op *op, struct ctx *ctx);
/* "" for the main work tree, else the linked work tree's name (its
 * folder under $GIT_COMMON_DIR/worktrees); the caller frees it. */
char *stack_worktree_id(git_repository *repo);

#endif
