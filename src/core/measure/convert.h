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

/* Where kept inputs go, relative to the git common directory: the
 * scratch folder's raw/ */
#define CONVERT_RAW_PREFIX "campaign/scratch/raw/"

/* An input kept outside the repository */
struct convert_raw {
	char *path; /* CONVERT_RAW_PREFIX "SHA256.EXT"; NULL: none kept */
	char *file; /* the same file as this machine reaches it */
	char sha256[65];
};

/*
 * convert_import_path for `measure import`: the per-launch records of a
 * trace (ncu, nsys cuda_gpu_trace) become summaries per kernel and metric
 * (import_set_summarise, import_set_finish), and when any were made the
 * input's bytes, as read (a JFR recording's, not jfr's output), are kept as
 * SCRATCH raw/SHA256.EXT (EXT the input's extension, else "txt"; written
 * through a temporary file, left as it is when there already) with raw
 * naming it; scratch is the campaign's scratch folder with its final
 * slash. raw is the caller's to release with convert_raw_release, also on
 * failure. 0, or a negative code with err set.
 */
int convert_import_summarised(struct import_set *out,
			      const struct import_format *fmt, const char *path,
			      const char *scratch, struct convert_raw *raw,
			      struct error *err);

/* Frees what raw holds. */
void convert_raw_release(struct convert_raw *raw);

#endif
