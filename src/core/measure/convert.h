/* Inputs that a program must convert before an importer can read them: a
 * binary JFR recording, through the JDK's `jfr print`. import/ parses bytes
 * and runs nothing; the program runs here. */
#ifndef GCAMP_MEASURE_CONVERT_H
#define GCAMP_MEASURE_CONVERT_H

#include "import/formats.h"
#include "util/error.h"

/*
 * Reads and parses path as import_path does (a file, "-" for stdin, or a
 * directory; with fmt, or the detected format when fmt is NULL), except
 * that a binary JFR recording in a file is first converted by running
 * `jfr print --json --stack-depth 1 --events
 * jdk.ExecutionSample,jdk.NativeMethodSample PATH` (the top frame is all
 * that is read, and jfr's default depth of 5 is never relied on), and jfr's
 * output is parsed instead, named "PATH (jfr print)" in messages. Without
 * `jfr` on PATH the recording is refused with a hint; a failing jfr is
 * reported with the first line of its standard error, and an output over
 * 256 MiB is refused. Returns 0, or a negative code with err set; out must
 * then be released unused, as after import_path.
 */
int convert_import_path(struct import_set *out, const struct import_format *fmt,
			const char *path, struct error *err);

/* convert_import_path, detecting among the formats named in only (see
 * import_detect_among). */
int convert_import_path_among(struct import_set *out,
			      const struct import_format *fmt,
			      const char *const *only, const char *path,
			      struct error *err);

#endif
