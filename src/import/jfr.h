/* The JFR importer: which methods the sampler found on top of the stack,
 * from `jfr print --json` or from `jfr view hot-methods`/`native-methods`
 * tables (JDK 21+); a binary .jfr recording is recognised, and converted by
 * core/measure/convert.c. */
#ifndef GCAMP_IMPORT_JFR_H
#define GCAMP_IMPORT_JFR_H

#include <stddef.h>

#include "import/rec.h"
#include "util/error.h"

/* Nonzero for `jfr print --json` output (an object with "recording"), a
 * `jfr view` table (a "Method Samples Percent" header over dashes), or a
 * binary recording (magic "FLR\0"). */
int jfr_detect(const char *data, size_t len);

/* Nonzero when data is a binary JFR recording (magic "FLR\0"). */
int jfr_is_recording(const char *data, size_t len);

/* Appends, per sampled event type E (jdk.ExecutionSample,
 * jdk.NativeMethodSample) and per method M found on top of the stack:
 *   jfr.samples  stat "count", the samples of M, config event=E method=M
 *   jfr.share    stat "share", that count over all samples of E (0..1)
 * ordered by count (most first), after one "jfr.samples" record with config
 * event=E alone holding all samples of E (those without a stack included).
 * M is written as jfr writes it in views and stack traces:
 * "java.lang.String.split(char, int, boolean)" (package and class with
 * dots, parameter types by simple name), so JSON and view imports agree.
 * A `jfr view` table lists the top 25 only and gives no total: no event
 * total is written for it; a title naming "Native" marks
 * jdk.NativeMethodSample. A binary recording is refused (from stdin, or
 * with a hint to convert it): the importer runs no program, and
 * convert_import_path (core/measure/convert.h) hands it jfr print's output
 * instead. Input with no samples is refused. Errors as
 * import_format.parse. */
int jfr_parse(struct import_set *out, const char *data, size_t len,
	      const char *path, struct error *err);

#endif
