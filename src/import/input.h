/* The input of an import, as the parsers see it: a regular file is mapped
 * read-only rather than copied into memory, and the scanners (textscan,
 * jsonscan, xml) say how far they have read, so that the pages behind are
 * handed back and the memory an import holds stays bounded whatever the
 * size of the file. Standard input and other streams are read into memory. */
#ifndef GCAMP_IMPORT_INPUT_H
#define GCAMP_IMPORT_INPUT_H

#include <stddef.h>

#include "util/buf.h"
#include "util/error.h"

/* Inputs larger than this are refused. */
#define IMPORT_MAX_BYTES ((size_t)256 << 20)

struct import_input {
	const char *data; /* len bytes, not NUL-terminated */
	size_t len;
	void *map;	/* the mapping, or NULL when data is in mem */
	struct buf mem; /* what was read of a stream */
};

#define IMPORT_INPUT_INIT                                                      \
	{                                                                      \
		NULL, 0, NULL, BUF_INIT                                        \
	}

/* Opens path ("-": standard input): a regular file is mapped (and
 * registered, see import_input_reached), anything else read (at most
 * IMPORT_MAX_BYTES). 0, or GCAMP_EFATAL with err set ("cannot open 'PATH':
 * ..."). in is the caller's to release, also on failure. A file changed
 * while it is read may be read partly changed. */
int import_input_open(struct import_input *in, const char *path,
		      struct error *err);

/* Unmaps or frees what in holds. Accepts an initialised, unopened in. */
void import_input_release(struct import_input *in);

/* A scanner has read up to p: when p lies in the registered mapping, the
 * pages more than a few MiB behind it are handed back (read again from the
 * file if something looks back). A p before the pages handed back starts
 * a new pass from there. Cheap; anything else is ignored. */
void import_input_reached(const char *p);

/* Reading starts again from the beginning of the mapping (a second pass):
 * pages are handed back again as they are passed. */
void import_input_rewind(void);

#endif
