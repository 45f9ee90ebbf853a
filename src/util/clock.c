/* The clock of util/clock.h: ISO-8601 stamps, the monotonic clock, and
 * Hinnant's days_from_civil. */
#include "util/clock.h"

void clock_iso(char out[static CLOCK_ISO_SIZE], time_t t)
{
	struct tm tm;

	if (!gmtime_r(&t, &tm) ||
	    !strftime(out, CLOCK_ISO_SIZE, "%Y-%m-%dT%H:%M:%SZ", &tm))
		out[0] = '\0';
}

void clock_now_iso(char out[static CLOCK_ISO_SIZE])
{
	clock_iso(out, time(NULL));
}

double clock_now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* March-based years, so that the leap day ends a year: era is the 400-year
 * cycle, yoe the year in it, doy the day in the March-based year, doe the
 * day in the era (http://howardhinnant.github.io/date_algorithms.html). */
long long clock_days_from_civil(long long y, int m, int d)
{
	long long era, yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = y - era * 400;
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}
