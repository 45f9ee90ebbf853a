/* Whether to colour, decided as git decides it, and the helpers that
 * paint; the one place that knows the escapes. */
#include "util/color.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "util/options.h"

static const char *(*config_get)(const char *key, void *data);
static void *config_data;
static const char *config_cmd;
/* the configuration's answer once read: -2 not yet read, else
 * color_parse's */
static int configured = -2;

void color_set_config(const char *(*get)(const char *key, void *data),
		      void *data, const char *cmd)
{
	config_get = get;
	config_data = data;
	config_cmd = cmd;
	configured = -2;
}

int color_parse(const char *v)
{
	static const char *const yes[] = {"true", "yes", "on", "1", ""};
	static const char *const no[] = {"false", "no", "off", "0"};
	size_t i;

	if (!v)
		return -1;
	if (!strcasecmp(v, "never"))
		return 0;
	if (!strcasecmp(v, "always"))
		return 1;
	if (!strcasecmp(v, "auto"))
		return 2;
	for (i = 0; i < sizeof(no) / sizeof(*no); i++)
		if (!strcasecmp(v, no[i]))
			return 0;
	/* any truth value is auto, as git reads color.ui = true */
	for (i = 0; i < sizeof(yes) / sizeof(*yes); i++)
		if (!strcasecmp(v, yes[i]))
			return 2;
	return -1;
}

static int from_config(void)
{
	char key[160];

	if (configured != -2)
		return configured;
	configured = -1;
	if (!config_get)
		return configured;
	if (config_cmd) {
		snprintf(key, sizeof(key), "color.campaign.%s", config_cmd);
		configured = color_parse(config_get(key, config_data));
	}
	if (configured < 0)
		configured =
			color_parse(config_get("color.campaign", config_data));
	if (configured < 0)
		configured = color_parse(config_get("color.ui", config_data));
	return configured;
}

static int is_auto_target(int fd)
{
	const char *term = getenv("TERM"), *no = getenv("NO_COLOR");

	if (no && *no)
		return 0;
	if (!isatty(fd) && !(fd == 1 && getenv("GIT_PAGER_IN_USE")))
		return 0;
	return term && *term && strcmp(term, "dumb") != 0;
}

int color_on(int fd)
{
	int c;

	switch (options_color_mode()) {
	case OPTIONS_COLOR_NEVER:
		return 0;
	case OPTIONS_COLOR_ALWAYS:
		return 1;
	case OPTIONS_COLOR_AUTO:
		return is_auto_target(fd);
	case OPTIONS_COLOR_UNSET:
		break;
	}
	c = from_config();
	if (c == 0 || c == 1)
		return c;
	return is_auto_target(fd);
}

const char *color_get(int fd, const char *code)
{
	return color_on(fd) ? code : "";
}

void color_add(struct buf *out, int fd, const char *code, const char *s)
{
	if (code && *code && color_on(fd))
		buf_addf(out, "%s%s%s", code, s, COLOR_RESET);
	else
		buf_puts(out, s);
}
