/* The commands' entry points, and what they share: printing errors and
 * JSON. Each cmd_NAME parses its own options, so that -h works anywhere,
 * and returns the process exit status. */
#ifndef GCAMP_CMD_H
#define GCAMP_CMD_H

#include <cjson/cJSON.h>

#include "core/ctx.h"

int cmd_belongs(int argc, const char **argv, struct ctx *ctx);
int cmd_config(int argc, const char **argv, struct ctx *ctx);
int cmd_hook(int argc, const char **argv, struct ctx *ctx);
int cmd_hooks(int argc, const char **argv, struct ctx *ctx);
int cmd_init(int argc, const char **argv, struct ctx *ctx);
int cmd_status(int argc, const char **argv, struct ctx *ctx);

/* Runs hook argv[1] with argv[2..] and prints its report on stderr;
 * returns the exit status (see hooks_run). The entry of both `git campaign
 * hook` and git-campaign-hook; it never loads libgit2. */
int cmd_hook_exec(int argc, const char **argv);

/* Prints ctx's error (fatal:/error: and hint: lines) and returns its exit
 * status. */
int cmd_fail(struct ctx *ctx);
/* Prints j to stdout as indented JSON with a final newline, and frees it. */
void cmd_print_json(cJSON *j);

#endif
