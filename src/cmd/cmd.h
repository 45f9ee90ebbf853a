/* The commands' entry points, and what they share: printing errors and
 * JSON. Each cmd_NAME parses its own options, so that -h works anywhere,
 * and returns the process exit status. */
#ifndef GCAMP_CMD_H
#define GCAMP_CMD_H

#include <cjson/cJSON.h>

#include "core/ctx.h"

int cmd_config(int argc, const char **argv, struct ctx *ctx);
int cmd_env(int argc, const char **argv, struct ctx *ctx);
int cmd_init(int argc, const char **argv, struct ctx *ctx);
int cmd_measure(int argc, const char **argv, struct ctx *ctx);
int cmd_status(int argc, const char **argv, struct ctx *ctx);
int cmd_sync(int argc, const char **argv, struct ctx *ctx);
int cmd_umbrella(int argc, const char **argv, struct ctx *ctx);

/* Prints ctx's error (fatal:/error: and hint: lines) and returns its exit
 * status. */
int cmd_fail(struct ctx *ctx);
/* Prints j to stdout as indented JSON with a final newline, and frees it. */
void cmd_print_json(cJSON *j);

#endif
