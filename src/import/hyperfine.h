/* The hyperfine importer: `hyperfine --export-json` files, parameter scans
 * included. */
#ifndef GCAMP_IMPORT_HYPERFINE_H
#define GCAMP_IMPORT_HYPERFINE_H

#include <stddef.h>

#include "import/rec.h"
#include "util/error.h"

/* Nonzero for a JSON object that names "results", "command" and
 * "median" (or "times") near its start. */
int hyperfine_detect(const char *data, size_t len);

/* Appends, per result (one benchmarked command), all in ns, better lower,
 * with config command=COMMAND plus one NAME=VALUE per scan parameter
 * (`-P`/`-L`; a parameter named "command" is refused):
 *   hyperfine.time      stat "median", every run's wall time as samples
 *                       (the median is computed from "times" when the file
 *                       has none; mean, min and max follow from samples)
 *   hyperfine.user      stat "mean", user CPU time, when given
 *   hyperfine.system    stat "mean", system CPU time, when given
 *   hyperfine.failures  stat "count", runs whose exit code was not 0 or
 *                       null (killed), when "exit_codes" is given; no unit
 *   hyperfine.memory    stat "median", peak resident bytes per run as
 *                       samples, unit "B", when "memory_usage_byte" is
 *                       given (newer hyperfine)
 * Unknown keys are ignored; "stddev" may be null. Errors as
 * import_format.parse. */
int hyperfine_parse(struct import_set *out, const char *data, size_t len,
		    const char *path, struct error *err);

#endif
