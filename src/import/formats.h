/* The importers' common interface: each foreign format (ncu, nsys, JFR,
 * hyperfine, JUnit, tornado-test, ...) is one file under src/import/ that
 * turns a tool's output into import records (import/rec.h), and one row of
 * the format table in formats.c. Importers are parsers over bytes: they
 * never print, never exit, never run a program, never touch git or the
 * database. */
#ifndef GCAMP_IMPORT_FORMATS_H
#define GCAMP_IMPORT_FORMATS_H

#include <stddef.h>

#include "import/rec.h"
#include "util/buf.h"
#include "util/error.h"

/* One importer: a name for --format, a detector, a parser.
 * detect returns nonzero when data looks like this format (it sees the
 * first 64 KiB, or all of the input for a line format). parse appends records
 * to out; on malformed input it returns GCAMP_EFATAL with "PATH:LINE: expected
 * ..." in err, and the caller discards out (so a failed parse writes nothing).
 * path names the input in messages ("-" is "stdin"). */
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

/* The first format whose detector accepts data, or NULL: import_detect_among
 * of every format. */
const struct import_format *import_detect(const char *data, size_t len);

/* The format of data among the formats named in only (a NULL-terminated
 * list; NULL: every format), or NULL. Data that opens as XML is JUnit or
 * nothing, whatever lines its text holds. Otherwise the first format, in
 * table order, whose detector accepts the first 64 KiB; when none does, the
 * line formats (ncu, nsys, tornado-test, benchmark-runner) are tried on the
 * whole input, whose lines may follow any amount of other output. */
const struct import_format *import_detect_among(const char *data, size_t len,
						const char *const *only);

/* Reads path (a file, "-" for stdin, or a directory: every regular file
 * in it whose name matches the format's dir_pattern, in name order)
 * and parses it with fmt, or the detected format when fmt is NULL. On
 * success out->format names the format used. Inputs are capped at 256 MiB.
 * Returns 0, or a negative code with err set; out may then hold partial
 * records and must be released unused. */
int import_path(struct import_set *out, const struct import_format *fmt,
		const char *path, struct error *err);

/* import_path, detecting among the formats named in only (see
 * import_detect_among); a directory without fmt is read by the one format
 * of only that reads directories (junit). The message for an input of no
 * format names the formats of only. */
int import_path_among(struct import_set *out, const struct import_format *fmt,
		      const char *const *only, const char *path,
		      struct error *err);

/* Appends the bytes of file path ("-": standard input) to out, as
 * import_path reads them (at most 256 MiB). 0, or GCAMP_EFATAL with err
 * set ("cannot open 'PATH': ..."). */
int import_read_file(struct buf *out, const char *path, struct error *err);

/* Parses data already in memory, as import_path does for one file. */
int import_data(struct import_set *out, const struct import_format *fmt,
		const char *data, size_t len, const char *path,
		struct error *err);

/* import_data, detecting among the formats named in only. */
int import_data_among(struct import_set *out, const struct import_format *fmt,
		      const char *const *only, const char *data, size_t len,
		      const char *path, struct error *err);

#endif
