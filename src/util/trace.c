/* Trace lines with timestamps, to stderr or a file named by the variable. */
#include "util/trace.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

static int trace_state = -1; /* -1 unknown, 0 off, 1 on */
static FILE *trace_fp;

/* Reads GIT_CAMPAIGN_TRACE once; cheap when unset. */
static int trace_enabled(void)
{
	const char *v;

	if (trace_state >= 0)
		return trace_state;
	v = getenv("GIT_CAMPAIGN_TRACE");
	trace_state = 0;
	if (!v || !*v || !strcmp(v, "0") || !strcmp(v, "false"))
		return 0;
	if (v[0] == '/') {
		trace_fp = fopen(v, "a");
		if (!trace_fp)
			return 0;
	} else {
		trace_fp = stderr;
	}
	trace_state = 1;
	return 1;
}

void trace_printf(const char *fmt, ...)
{
	va_list ap;
	struct timeval tv;
	struct tm tm;

	if (!trace_enabled())
		return;
	gettimeofday(&tv, NULL);
	localtime_r(&tv.tv_sec, &tm);
	fprintf(trace_fp, "%02d:%02d:%02d.%06ld campaign: ", tm.tm_hour,
		tm.tm_min, tm.tm_sec, (long)tv.tv_usec);
	va_start(ap, fmt);
	vfprintf(trace_fp, fmt, ap);
	va_end(ap);
	fputc('\n', trace_fp);
	fflush(trace_fp);
}
