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
	int needs_restack; /* the parent is there and moved since parent_tip */
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
 * else remote's when remote is not NULL) and sets needs_restack by
 * stack_model_needs_restack(). A parent that is gone never needs a
 * restack (parent_now is ""). */
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

/* The restack rule: 1 when a branch based on recorded (campaignParentTip;
 * NULL when it was never recorded) must be restacked onto a parent whose
 * tip is now parent_tip, that is when recorded is missing, is not an
 * object id, or names another commit; else 0. */
int stack_model_needs_restack(const char *recorded, const char *parent_tip);

#endif
