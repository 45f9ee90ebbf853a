/* The stack as git config records it (branch.NAME.campaignParent and
 * campaignParentTip), parsed once, and the one rule for "needs a restack":
 * what status, the stack commands and the pre-push hook all decide with.
 * It reads refs through io/refs.h only, so it links into git-campaign-hook,
 * which has no libgit2. */
#ifndef GCAMP_STACK_MODEL_H
#define GCAMP_STACK_MODEL_H

#include <stddef.h>

#include "io/refs.h"

/* One recorded relation: branch is stacked on parent. */
struct stack_rel {
	char *branch;
	char *parent;	  /* campaignParent */
	char *parent_tip; /* campaignParentTip as recorded, or NULL */
	char parent_now[REFS_HEX_SIZE]; /* the parent's tip now, "" when gone */
	char tip_now[REFS_HEX_SIZE];	/* the branch's own tip, "" when gone */
	int needs_restack; /* the branch lacks its parent's current tip */
};

struct stack_model {
	struct stack_rel *rel; /* in the order the configuration names them */
	size_t n;
	size_t alloc;
};

#define STACK_MODEL_INIT                                                       \
	{                                                                      \
		NULL, 0, 0                                                     \
	}

/*
 * Takes one configuration entry (a normalised key, as gitcfg_foreach and
 * gitlite's cfg give it, and its value) into the model, data: keeps
 * branch.NAME.campaignparent and branch.NAME.campaignparenttip (NAME may
 * hold dots), ignores every other key. Later values win, as for `git
 * config KEY`. Returns 0, so that it can be gitcfg_foreach's callback.
 */
int stack_model_add(const char *key, const char *value, void *data);

/* Once every entry is in: forgets the tips of branches that have no
 * parent, then finds each parent's tip through refs (the local branch,
 * else remote's when remote is not NULL) and the branch's own, and sets
 * needs_restack by stack_model_needs_restack(). A parent or a branch that
 * is gone never needs a restack (parent_now or tip_now is ""). */
void stack_model_resolve(struct stack_model *m, const struct refs *refs,
			 const char *remote);

/* The relation of branch, borrowed from m, or NULL when it is not
 * stacked. */
const struct stack_rel *stack_model_find(const struct stack_model *m,
					 const char *branch);

/* Frees what m holds and empties it; accepts NULL. */
void stack_model_release(struct stack_model *m);

/* 1 when a and b are both full object ids (40 hexadecimal digits, in any
 * case) of the same object; they are compared decoded. */
int stack_model_same_commit(const char *a, const char *b);

/* The restack rule, the one that status, the stack commands and the
 * pre-push hook decide with: the commit graph is the truth. A branch whose
 * tip is tip_now must be restacked (1) when it does not contain its
 * parent's current tip parent_tip, asked of refs (refs_is_ancestor); it
 * needs none (0) when it does, whatever recorded (campaignParentTip, a
 * hint for where its own commits start) says, so that a branch brought up
 * to date by `git rebase` or `git rebase --update-refs` is in order. Only
 * when the graph cannot be read does recorded decide: 1 when it is
 * missing, not an object id, or another commit than parent_tip. */
int stack_model_needs_restack(const struct refs *refs, const char *recorded,
			      const char *parent_tip, const char *tip_now);

#endif
