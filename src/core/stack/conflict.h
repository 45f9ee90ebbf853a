/* The stack operation stopped at a conflict, as status shows it: the
 * branch, the commit that stopped and the paths still unmerged. */
#ifndef GCAMP_STACK_CONFLICT_H
#define GCAMP_STACK_CONFLICT_H

#include "core/base/ctx.h"
#include "core/records/journal.h"
#include "util/strvec.h"

struct stack_conflict {
	long long op_id;     /* 0: no stack operation is stopped at one */
	char *kind;	     /* "restack", ... */
	char *branch;	     /* the branch being replayed */
	char *commit;	     /* "1234567 subject" of the commit that stopped */
	int checked_out;     /* the conflict is in this work tree's index */
	struct strvec paths; /* its unmerged paths (when checked_out) */
};

/* Of the unfinished operations ops (journal_unfinished's, n of them),
 * finds the stack operation stopped at a conflict and fills out (release
 * it with stack_conflict_release). 1 when there is one, 0 when none (an
 * operation whose journal cannot be read, or has no plan yet, counts as
 * none: status still shows it); a negative GCAMP_E* code when the
 * repository cannot be opened. */
int stack_conflict_find(struct stack_conflict *out, struct ctx *ctx,
			const struct journal_op *ops, size_t n);
/* Frees what c holds and empties it; accepts NULL. */
void stack_conflict_release(struct stack_conflict *c);

#endif
