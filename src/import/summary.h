/* Per-launch traces as summaries: the records of one kernel (or memory
 * operation) and metric over many launches become one record of their
 * count, median, p10, p90, min and max, so that a trace of a million
 * launches leaves records by kernels, not launches, and holds 16 bytes a
 * launch while it is read. */
#ifndef GCAMP_IMPORT_SUMMARY_H
#define GCAMP_IMPORT_SUMMARY_H

#include "import/rec.h"

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
