/* The importers' common interface: each foreign format (ncu, nsys, JFR,
 * hyperfine, JUnit, tornado-test, ...) is one file under src/import/ that
 * turns a tool's output into import records, and one row of the format
 * table in import.c. Importers never print, never exit, never touch git or
 * the database: src/core/measure/measure.c turns records into notes lines. */
#ifndef GCAMP_IMPORT_H
#define GCAMP_IMPORT_H

#include <stddef.h>

#include "util/error.h"
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
};

struct import_set {
	struct import_rec *recs;
	size_t nr, alloc;
	const char *format; /* the format's name, static */
};

#define IMPORT_SET_INIT                                                        \
	{                                                                      \
		NULL, 0, 0, NULL                                               \
	}

/* One importer: a name for --format, a detector, a parser.
 * detect returns nonzero when data looks like this format (it sees at most
 * the first 64 KiB). parse appends records to out; on malformed input it
 * returns GCAMP_EFATAL with "PATH:LINE: expected ..." in err, and the
 * caller discards out (so a failed parse writes nothing). path names the
 * input in messages ("-" is "stdin"). */
struct import_format {
	const char *name;
	const char *summary;	 /* one line for --help and the man page */
	const char *dir_pattern; /* fnmatch pattern of the files to read in
				  * a directory; NULL: no directories */
	int (*detect)(const char *data, size_t len);
	int (*parse)(struct import_set *out, const char *data, size_t len,
		     const char *path, struct error *err);
};

/* The format table, terminated by a row whose name is NULL. */
extern const struct import_format import_formats[];

/* The format called name, or NULL. */
const struct import_format *import_format_find(const char *name);

/* The first format whose detector accepts data, or NULL. */
const struct import_format *import_detect(const char *data, size_t len);

/* Reads path (a file, "-" for stdin, or a directory: every regular file
 * in it whose name matches the format's dir_pattern, in name order)
 * and parses it with fmt, or the detected format when fmt is NULL. On
 * success out->format names the format used. Inputs are capped at 256 MiB.
 * Returns 0, or a negative code with err set; out may then hold partial
 * records and must be released unused. */
int import_path(struct import_set *out, const struct import_format *fmt,
		const char *path, struct error *err);

/* Parses data already in memory, as import_path does for one file. */
int import_data(struct import_set *out, const struct import_format *fmt,
		const char *data, size_t len, const char *path,
		struct error *err);

/* Appends a record and returns it (owned by s; valid until the next
 * import_add). metric is copied; unit may be NULL. stat starts as
 * "value", better as unknown. */
struct import_rec *import_add(struct import_set *s, const char *metric,
			      double value, const char *unit);

/* Adds "key=value" to r's config; value is printf-formatted. */
void import_rec_config(struct import_rec *r, const char *key, const char *fmt,
		       ...) __attribute__((format(printf, 3, 4)));

/* Sets r's stat (copied). */
void import_rec_stat(struct import_rec *r, const char *stat);

/* Copies n samples into r. */
void import_rec_samples(struct import_rec *r, const double *v, size_t n);

/* Frees every record. Accepts NULL. The set may be reused after. */
void import_set_release(struct import_set *s);

/* Parses a decimal number as tools print it: optional sign, thousands
 * separators (","), a fraction and exponent. Returns 0 and sets *out, or
 * -1 when s (len bytes) is not a number ("n/a", "", "-"). */
int import_number(double *out, const char *s, size_t len);

/* Test results and TornadoVM/LLM runner output: junit.c, tornado_test.c,
 * benchmark_runner.c, llm.c. Each detector returns nonzero on its format;
 * each parser has the contract of struct import_format's parse.
 *
 * junit (Surefire TEST-*.xml; a directory reads every TEST-*.xml in it) and
 * tornado-test (-V output) make per test class counts, stat "count", config
 * "class=<fully qualified class>":
 *   tests.passed       passed (junit: counting flaky ones)
 *   tests.failed       failed (tornado-test: also an OOM-killed class)
 *   tests.errored      junit only: <error>
 *   tests.skipped      junit only: <skipped>
 *   tests.flaky        junit only: passed on a Surefire rerun (flakyFailure,
 *                      flakyError); a subset of tests.passed
 *   tests.unsupported  tornado-test only: [... UNSUPPORTED ...]
 *   tests.whitelisted  tornado-test only, when the driver printed its
 *                      summary: failed tests on the driver's whitelist
 * benchmark-runner: one record per number of a "Performance: bm=" line,
 *   named by its field (average, median, firstIteration, best, speedupAvg,
 *   CV, kernelAvg, ...), times in ns; config bm=, device= or id=,
 *   deviceName=, profiler=on for profiler lines.
 * llm: metrics JSON keys as named (eval_rate tok/s, *_duration ns,
 *   *_count, tornadovm.jit_duration, ...) and bench rows as tok_s (tok/s,
 *   stat mean, samples from samples_ts) with config test=, model=, ... */
int junit_detect(const char *data, size_t len);
int junit_parse(struct import_set *out, const char *data, size_t len,
		const char *path, struct error *err);
int tornado_test_detect(const char *data, size_t len);
int tornado_test_parse(struct import_set *out, const char *data, size_t len,
		       const char *path, struct error *err);
int benchmark_runner_detect(const char *data, size_t len);
int benchmark_runner_parse(struct import_set *out, const char *data, size_t len,
			   const char *path, struct error *err);
int llm_detect(const char *data, size_t len);
int llm_parse(struct import_set *out, const char *data, size_t len,
	      const char *path, struct error *err);

#endif
