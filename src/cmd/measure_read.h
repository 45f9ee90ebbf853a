/* The subcommands of `git campaign measure` that read (show, log, compare),
 * for the dispatch in src/cmd/measure.c (with add and import). */
#ifndef GCAMP_CMD_MEASURE_READ_H
#define GCAMP_CMD_MEASURE_READ_H

#include "core/base/ctx.h"

/* their synopsis lines, NULL-terminated */
extern const char *const measure_show_usage[];
extern const char *const measure_log_usage[];
extern const char *const measure_compare_usage[];

int cmd_measure_show(int argc, const char **argv, struct ctx *ctx);
int cmd_measure_log(int argc, const char **argv, struct ctx *ctx);
int cmd_measure_compare(int argc, const char **argv, struct ctx *ctx);

#endif
