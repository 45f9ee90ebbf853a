/* The records every importer builds: one number read from a tool's output,
 * with its unit, direction, statistic, samples and what was measured. The
 * importers fill them; src/core/measure/measure.c turns them into notes
 * lines. */
#ifndef GCAMP_IMPORT_REC_H
#define GCAMP_IMPORT_REC_H

#include <stddef.h>

#include "util/strvec.h"

enum {
	IMPORT_BETTER_UNKNOWN = 0,
	IMPORT_BETTER_LOWER,
	IMPORT_BETTER_HIGHER,
};

/* One number read from a tool's output: one metric of one kernel launch,
 * one benchmark, one test class, one method's sample share. */
struct import_rec {
	char *metric;	 /* e.g. "gpu__time_duration", "tests.failed" */
	double value;	 /* in unit, already normalised (ns, hz, B, ...) */
	char *unit;	 /* NULL when unitless (counts, shares) */
	int better;	 /* IMPORT_BETTER_* */
	char *stat;	 /* "value", "median", "mean", "count", "share" */
	double *samples; /* NULL when the tool gave no samples */
	size_t nsamples;
	struct strvec config; /* "key=value": what was measured (kernel=vadd,
			       * launch=0, class=..., command=...) */
	char *commit;	      /* the commit the input says it measured (a row of
			       * a perf history), as written; NULL: the one imported
			       * into */
	/* a summary of launches (below): value is their median,
	 * stat "median", count the launches, sum their total; count 0 when r
	 * is no summary */
	size_t count;
	double min, p10, p90, max, sum;
};

struct import_summary;

struct import_set {
	struct import_rec *recs;
	size_t nr, alloc;
	const char *format; /* the format's name, static */
	/* NULL, or the launches being summarised (import_set_summarise):
	 * a record with a "launch" config key is folded into its kernel's
	 * summary as soon as the next one is added */
	struct import_summary *sum;
	size_t summaries; /* summary records appended by import_set_finish */
};

#define IMPORT_SET_INIT                                                        \
	{                                                                      \
		NULL, 0, 0, NULL, NULL, 0                                      \
	}

/* Appends a record and returns it (owned by s; valid until the next
 * import_add). metric is copied; unit may be NULL. stat starts as
 * "value", better as unknown. When s summarises, the record added before
 * is folded into its summary first (below). */
struct import_rec *import_add(struct import_set *s, const char *metric,
			      double value, const char *unit);

/* Adds "key=value" to r's config; value is printf-formatted. */
void import_rec_config(struct import_rec *r, const char *key, const char *fmt,
		       ...) __attribute__((format(printf, 3, 4)));

/* Sets r's stat (copied). */
void import_rec_stat(struct import_rec *r, const char *stat);

/* Copies n samples into r. */
void import_rec_samples(struct import_rec *r, const double *v, size_t n);

/* Frees what r owns and zeroes it. */
void import_rec_release(struct import_rec *r);

/* Frees every record and the summaries. Accepts NULL. The set may be reused
 * after. */
void import_set_release(struct import_set *s);

/* Parses a decimal number as tools print it: optional sign, thousands
 * separators (","), a fraction and exponent. Returns 0 and sets *out, or
 * -1 when s (len bytes) is not a number ("n/a", "", "-"). */
int import_number(double *out, const char *s, size_t len);

/* Per-launch traces as summaries: the records of one kernel (or memory
 * operation) and metric over many launches become one record of their
 * count, median, p10, p90, min, max and sum, so that a trace of a million
 * launches leaves records by kernels, not launches, and holds 16 bytes a
 * launch while it is read. */
/* The config key that names a launch (ncu's ID, nsys's CorrId). */
#define IMPORT_LAUNCH_KEY "launch"

/* Makes s summarise: from now on every record it is given that carries a
 * "launch=" config pair and no samples or commit is folded into the
 * summary of its group (every field but that pair equal), as soon as the
 * next record is added or import_set_finish runs. Records without the pair
 * stay as they are. */
void import_set_summarise(struct import_set *s);

/* Folds the last record of s when it is a launch's (see above). Called by
 * import_add; a no-op unless s summarises. */
void import_summary_fold(struct import_set *s);

/*
 * Appends one record per group to s, in the order the groups were first
 * seen, and stops summarising: metric, unit, better and config as the
 * launches had them without "launch=", stat "median", value the median,
 * count the launches, min, max, sum (their total, added smallest first),
 * and p10, p90 as Python's
 * statistics.quantiles(values, n=10, method="inclusive") gives them (linear
 * interpolation between the order statistics, numpy's default), computed
 * with the same arithmetic (and kept within [min, median], [median, max]
 * against rounding); with one launch all of them are its value. A
 * launch given twice with one value (a repeated row) counts once. Sets
 * s->summaries to the records appended. A no-op unless s summarises.
 */
void import_set_finish(struct import_set *s);

/* Frees a summary state. Accepts NULL. */
void import_summary_free(struct import_summary *sum);

#endif
