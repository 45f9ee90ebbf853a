/* Stacked branches: the graph recorded in git config
 * (branch.NAME.campaignParent / campaignParentTip), its checks, and the
 * commands that only edit it (new, adopt, show, delete). The rebase engine
 * is in core/stack/restack.h. */
#ifndef GCAMP_STACK_H
#define GCAMP_STACK_H

#include <stddef.h>

#include <git2.h>

#include "core/base/ctx.h"

#define STACK_NONE ((size_t)-1)

struct stack_branch {
	char *name;
	char *parent;	  /* campaignParent */
	char *parent_tip; /* campaignParentTip as recorded, or NULL */
	git_oid tip;	  /* valid when exists */
	int exists;	  /* refs/heads/NAME resolves */
	git_oid parent_oid;
	int parent_found;  /* the parent resolves (locally or on the remote) */
	int needs_restack; /* it lacks its parent's tip (stack/model.h) */
	int landed; /* its work is in its parent, which is not stacked: merged,
		       squash- or rebase-merged (stack/landed.h) */
	size_t parent_idx; /* the parent's index when stacked, else STACK_NONE
			    */
	int in_cycle;	   /* its chain of parents loops */
	size_t own;	   /* commits of its own (upstream..tip) */
	int pr_number;	   /* 0 when the PR cache has none */
	char *pr_state;
	char *pr_url;
	char *renamed_to; /* the parent is gone, renamed by git branch -m
			     to this branch (stack/renamed.h); else NULL */
};

struct stack_graph {
	struct stack_branch *b; /* sorted by name */
	size_t n;
	char *base;    /* campaign.base */
	char *remote;  /* campaign.remote */
	char *current; /* the checked-out branch, NULL when detached */
};

/* Loads every recorded relation and the state of each branch (the PR
 * cache is read when the database exists). Release with
 * stack_graph_release(). GCAMP_ENOTINIT without a campaign. */
int stack_graph_load(struct stack_graph *out, struct ctx *ctx);
void stack_graph_release(struct stack_graph *g);
/* The index of branch name, or STACK_NONE. */
size_t stack_find(const struct stack_graph *g, const char *name);
/* 1 when d is i or one of i's descendants through recorded parents. */
int stack_is_descendant(const struct stack_graph *g, size_t d, size_t i);

/* The commit to replay a branch from: the newer of its recorded parent
 * tip (when that is an ancestor of, or equal to, tip) and the merge base
 * of tip and parent_now; parent_now itself when tip holds it (nothing to
 * replay). GCAMP_ENOTFOUND when the two share no history. */
int stack_upstream(git_oid *out, git_repository *repo, const char *recorded,
		   const git_oid *tip, const git_oid *parent_now,
		   struct error *err);

/* Refuses a detached HEAD; *out is the checked-out branch (caller frees).
 */
int stack_check_head(char **out, git_repository *repo, const char *what,
		     struct error *err);

/* Creates branch name at parent's tip (parent NULL: the current branch),
 * records it on parent and checks it out (HEAD moves; the index and work
 * tree are kept, as `git checkout -b` does). */
int stack_new(struct ctx *ctx, const char *name, const char *parent);
/* Records the existing branch as stacked on parent, as of where it was
 * forked: the newer of the merge base of the two and the newest of the
 * parent's old tips (its reflog) that the branch holds, so that only its
 * own commits are replayed later, not the parent's pre-amend ones. */
int stack_adopt(struct ctx *ctx, const char *branch, const char *parent);
/* Writes branch.NAME.campaignParent/campaignParentTip (tip NULL: unset). */
int stack_record(struct ctx *ctx, const char *branch, const char *parent,
		 const char *tip);

#endif
