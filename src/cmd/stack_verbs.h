/* The verbs of git campaign stack kept apart from src/cmd/stack.c: up,
 * down, top, bottom, rename, fold and split, with the option parsing they
 * share, and --autostash. */
#ifndef GCAMP_CMD_STACK_VERBS_H
#define GCAMP_CMD_STACK_VERBS_H

#include "core/base/ctx.h"
#include "core/stack/restack.h"
#include "util/options.h"

/* Parses one verb's options into opts: returns the count of operands,
 * which must be lo..hi, or -1 with *status the exit status of -h, --help
 * or a usage error. */
int stack_verb_args(int *status, int argc, const char **argv,
		    const struct option *opts, const char *const *usage, int lo,
		    int hi);

extern const char *const stack_up_usage[];
extern const char *const stack_down_usage[];
extern const char *const stack_top_usage[];
extern const char *const stack_bottom_usage[];
extern const char *const stack_rename_usage[];
extern const char *const stack_fold_usage[];
extern const char *const stack_split_usage[];

int stack_up_cmd(int argc, const char **argv, struct ctx *ctx);
int stack_down_cmd(int argc, const char **argv, struct ctx *ctx);
int stack_top_cmd(int argc, const char **argv, struct ctx *ctx);
int stack_bottom_cmd(int argc, const char **argv, struct ctx *ctx);
int stack_rename_cmd(int argc, const char **argv, struct ctx *ctx);
int stack_fold_cmd(int argc, const char **argv, struct ctx *ctx);
int stack_split_cmd(int argc, const char **argv, struct ctx *ctx);

/* --autostash: saves the local changes (not untracked files) as stash
 * "autostash/STAMP" when there are any, *name (caller gives it to
 * stack_autostash_after) NULL when there were none. */
int stack_autostash_save(char **name, struct ctx *ctx);
/* After the operation (rc, r): pops the stash name (and frees name); when
 * the operation stopped at a conflict, keeps it as "autostash/op-ID" for
 * stack_autostash_resume. What could not come back stays in the stash,
 * named on stderr. ctx's error is kept. */
void stack_autostash_after(struct ctx *ctx, char *name, int rc,
			   const struct restack_result *r);
/* After continue, abort or skip-branch of operation r->op_id: pops its
 * "autostash/op-ID" when there is one and the operation is over. */
void stack_autostash_resume(struct ctx *ctx, int rc,
			    const struct restack_result *r);

#endif
