/* The verbs of git campaign stack kept apart from src/cmd/stack.c: up,
 * down, top, bottom, rename, fold and split, with the option parsing they
 * share. */
#ifndef GCAMP_CMD_STACK_VERBS_H
#define GCAMP_CMD_STACK_VERBS_H

#include "core/base/ctx.h"
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

#endif
