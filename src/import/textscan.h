/* Helpers the text importers (tornado-test, benchmark-runner, junit, llm)
 * share: reading input that is not NUL-terminated line by line with ANSI
 * colours and carriage returns removed, and naming places in messages. */
#ifndef GCAMP_TEXTSCAN_H
#define GCAMP_TEXTSCAN_H

#include <stddef.h>

#include "util/buf.h"

struct textscan {
	const char *data; /* the input, len bytes, not NUL-terminated */
	size_t len;
	size_t pos;	 /* where the next line starts */
	size_t lineno;	 /* 1-based number of the line last read */
	struct buf line; /* that line, without "\n", "\r" and ANSI escapes */
};

/* Starts reading data (len bytes; it must outlive ts). */
void textscan_init(struct textscan *ts, const char *data, size_t len);

/* Reads the next line into ts->line. Returns 1, or 0 at the end of the
 * input. A NUL byte in the input ends the C string ts->line.ptr early; the
 * rest of that line is then invisible to string functions, never read past. */
int textscan_next(struct textscan *ts);

/* The line number of the end of the input, for "found the end of the
 * file": after the last line when the input ends with a newline. */
size_t textscan_eof_line(const struct textscan *ts);

/* Frees the line buffer. */
void textscan_release(struct textscan *ts);

/* The name of path in messages: "stdin" for "-". */
const char *textscan_path(const char *path);

/* The 1-based line number of byte offset off in data (off <= len). */
size_t textscan_line_of(const char *data, size_t len, size_t off);

/* Returns the part of s after prefix when s starts with it, else NULL. */
const char *textscan_skip(const char *s, const char *prefix);

/* Names in first-seen order with a hash index, for per-class counts. */
struct textscan_names {
	char **v; /* v[0..nr), owned */
	size_t nr, alloc;
	size_t *slot; /* open addressing: index + 1, 0 when empty */
	size_t nslot;
};

#define TEXTSCAN_NAMES_INIT                                                    \
	{                                                                      \
		NULL, 0, 0, NULL, 0                                            \
	}

/* The index of the name s (len bytes) in t, added when new. */
size_t textscan_name(struct textscan_names *t, const char *s, size_t len);

/* Frees every name. Accepts NULL. */
void textscan_names_release(struct textscan_names *t);

#endif
