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

/* Appends the bytes of file path ("-": standard input) to out, as
 * import_path reads them (at most 256 MiB). 0, or GCAMP_EFATAL with err
 * set ("cannot open 'PATH': ..."). */
int import_read_file(struct buf *out, const char *path, struct error *err);

/* Parses data already in memory, as import_path does for one file. */
int import_data(struct import_set *out, const struct import_format *fmt,
		const char *data, size_t len, const char *path,
		struct error *err);

#endif
