/* What the files of `git campaign measure` share: src/cmd/measure.c (the
 * dispatch, add, import) and src/cmd/measure_read.c (show, log, compare). */
#ifndef GCAMP_CMD_MEASURE_H
#define GCAMP_CMD_MEASURE_H

#include "core/base/ctx.h"

extern const char *const measure_show_usage[];
extern const char *const measure_log_usage[];
extern const char *const measure_compare_usage[];

int cmd_measure_show(int argc, const char **argv, struct ctx *ctx);
int cmd_measure_log(int argc, const char **argv, struct ctx *ctx);
int cmd_measure_compare(int argc, const char **argv, struct ctx *ctx);

#endif
