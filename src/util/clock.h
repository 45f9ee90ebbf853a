/* Time as the tool writes and measures it: ISO-8601 UTC stamps, a
 * monotonic clock for deadlines, and civil dates as days. */
#ifndef GCAMP_CLOCK_H
#define GCAMP_CLOCK_H

#include <time.h>

/* The size of a stamp "YYYY-MM-DDTHH:MM:SSZ" with its NUL. */
#define CLOCK_ISO_SIZE 21

/* Writes t (seconds since the epoch) in UTC as "YYYY-MM-DDTHH:MM:SSZ"
 * into out; a time gmtime cannot represent, or whose stamp would not fit
 * (after the year 9999), gives "". */
void clock_iso(char out[static CLOCK_ISO_SIZE], time_t t);
/* Writes the current time as clock_iso does. */
void clock_now_iso(char out[static CLOCK_ISO_SIZE]);

/* Seconds on the monotonic clock, from an arbitrary start: only
 * differences mean anything (deadlines, intervals). */
double clock_now_s(void);

/* Days since 1970-01-01 of the proleptic Gregorian date y-m-d (month 1 to
 * 12, day 1 to 31; H. Hinnant's days_from_civil), negative before it. It
 * involves no time zone. */
long long clock_days_from_civil(long long y, int m, int d);

#endif
