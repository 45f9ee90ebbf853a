/* A bounded scanner over JSON text that finds where members and elements
 * start and end without building them, so JSON importers can hand one piece
 * at a time to cJSON (memory stays bounded) and name the line of an error. */
#ifndef GCAMP_JSONSCAN_H
#define GCAMP_JSONSCAN_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "util/error.h"

/* Containers nested deeper than this are refused as malformed. */
#define JSCAN_MAX_DEPTH 512

/* A position in data (len bytes, not NUL-terminated). */
struct jscan {
	const char *data;
	size_t len;
	size_t pos; /* the next byte to read; on a failure, the offending one */
};

/* One open object or array being walked with jscan_next. */
struct jscan_iter {
	char close; /* '}' or ']' */
	int started;
};

/* Skips whitespace; returns the next byte, or -1 at the end of data. */
int jscan_peek(struct jscan *s);

/* Enters the object ('{') or array ('[') at s->pos. Returns 0, or -1 with
 * s->pos at the offending byte when something else is there. */
int jscan_open(struct jscan *s, char open, struct jscan_iter *it);

/* Moves to the next member (objects) or element (arrays) of it. Returns 1
 * with s->pos at the value and, for objects, *key and *keylen set to the
 * key as written between its quotes (escapes not decoded; NULL for arrays
 * and key may be NULL); 0 after the closing bracket; -1 on malformed text,
 * with s->pos at the offending byte. */
int jscan_next(struct jscan *s, struct jscan_iter *it, const char **key,
	       size_t *keylen);

/* Skips the value at s->pos and sets *start and *end (exclusive) around it.
 * Strings, nesting and bracket kinds are checked; scalars are only
 * delimited (cJSON checks what an importer parses). Returns 0 or -1. */
int jscan_skip(struct jscan *s, size_t *start, size_t *end);

/* Parses the value at s->pos with cJSON and moves past it. Returns the
 * tree (the caller's to cJSON_Delete), or NULL on malformed text with
 * s->pos at (about) the offending byte. */
cJSON *jscan_parse(struct jscan *s);

/* Whether key/keylen from jscan_next is name. */
int jscan_key_is(const char *key, size_t keylen, const char *name);

/* The 1-based line of byte off in data. */
size_t jscan_line(const char *data, size_t off);

/* Records "PATH:LINE: expected ..." (fmt continues after "expected ")
 * for byte off of data and returns GCAMP_EFATAL. path "-" is "stdin". */
int jscan_fail(struct error *err, const char *path, const char *data,
	       size_t off, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

#endif
