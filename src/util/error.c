/* Error recording and the exit-code policy. */
#include "util/error.h"

#include <stdio.h>

#include "util/color.h"

int error_set(struct error *err, int code, const char *fmt, ...)
{
	va_list ap;

	err->ignored = err->code != 0;
	if (err->ignored)
		return code;
	err->code = code;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	return code;
}

void error_hint(struct error *err, const char *fmt, ...)
{
	va_list ap;

	if (err->ignored)
		return;
	va_start(ap, fmt);
	vsnprintf(err->hint, sizeof(err->hint), fmt, ap);
	va_end(ap);
}

void error_clear(struct error *err)
{
	err->code = 0;
	err->msg[0] = '\0';
	err->hint[0] = '\0';
	err->ignored = 0;
}

int error_exit_code(int code)
{
	switch (code) {
	case GCAMP_OK:
		return 0;
	case GCAMP_EREFUSED:
		return 1;
	case GCAMP_EUSAGE:
		return 129;
	default:
		return 128;
	}
}

void error_print(const struct error *err)
{
	const char *prefix =
		err->code == GCAMP_EREFUSED || err->code == GCAMP_EUSAGE
			? "error"
			: "fatal";

	fprintf(stderr, "%s: %s\n", prefix, err->msg[0] ? err->msg : "failed");
	/* git colours its hints (color.advice.hint), not error: or fatal: */
	if (err->hint[0])
		fprintf(stderr, "%shint: %s%s\n", color_get(2, COLOR_YELLOW),
			err->hint, color_get(2, COLOR_RESET));
}
