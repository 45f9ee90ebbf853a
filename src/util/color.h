/* Colour the git way: --color[=WHEN]/--no-color, then color.campaign.CMD,
 * color.campaign and color.ui, auto by default, NO_COLOR honoured; the
 * escapes git's own palette uses. */
#ifndef GCAMP_COLOR_H
#define GCAMP_COLOR_H

#include "util/buf.h"

#define COLOR_RESET "\033[m"
#define COLOR_RED "\033[31m"
#define COLOR_GREEN "\033[32m"
#define COLOR_YELLOW "\033[33m"
#define COLOR_BOLD_RED "\033[1;31m"

/* Where the configuration is read from: get(key, data) returns the value
 * of a git configuration key or NULL, and is called at most once per key,
 * when colour is first asked for; cmd names the command, for
 * color.campaign.CMD. main sets it once; until then, or with NULL, the
 * configuration says nothing (auto). cmd must outlive the process's
 * output. */
void color_set_config(const char *(*get)(const char *key, void *data),
		      void *data, const char *cmd);

/* The value of a git colour setting: 0 never (or false), 1 always, 2 auto
 * (or true, as git reads it), -1 for NULL or a value git would refuse. */
int color_parse(const char *value);

/*
 * 1 when what goes to fd (1 or 2) is coloured. --color=always or
 * --no-color (options_color_mode) decide first; then the first of
 * color.campaign.CMD, color.campaign and color.ui that is set; then auto.
 * Auto colours only a terminal (for fd 1 also git's pager started for one,
 * GIT_PAGER_IN_USE) whose TERM is set and not "dumb", and nothing when
 * NO_COLOR is set and not empty (no-color.org; always still colours).
 */
int color_on(int fd);

/* code when color_on(fd), else "": printf("%sx%s", color_get(1, RED),
 * color_get(1, COLOR_RESET)). */
const char *color_get(int fd, const char *code);
/* Appends s to out, between code and COLOR_RESET when color_on(fd) and
 * code is neither NULL nor "". */
void color_add(struct buf *out, int fd, const char *code, const char *s);

#endif
