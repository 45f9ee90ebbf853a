/* Tracing for developers: GIT_CAMPAIGN_TRACE=1 (stderr) or =PATH (append). */
#ifndef GCAMP_TRACE_H
#define GCAMP_TRACE_H

/* Writes one line "HH:MM:SS.uuuuuu campaign: ..." when tracing is on. */
void trace_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
