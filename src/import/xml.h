/* A small pull reader for the XML that test reports are written in:
 * elements, attributes, the five named entities and character references,
 * CDATA, comments, processing instructions and a DOCTYPE without an internal
 * subset. Strict about well-formedness, bounded in depth and attributes,
 * safe on arbitrary bytes; no namespaces, no DTD processing, no encodings
 * other than UTF-8 (and ASCII). */
#ifndef GCAMP_XML_H
#define GCAMP_XML_H

#include <stddef.h>

#include "util/error.h"

#define XML_MAX_DEPTH 256
#define XML_MAX_ATTRS 64
#define XML_MAX_NAME 1024

enum {
	XML_EOF = 0,   /* the root element closed and nothing but
			* comments and white space followed */
	XML_START = 1, /* <name attr="..."> or <name/> */
	XML_END = 2,   /* </name>, or right after a <name/> START */
};

struct xml_attr {
	char *name;
	char *value; /* entities decoded */
};

struct xml_reader {
	const char *data; /* len bytes, not NUL-terminated */
	size_t len, pos;
	const char *path;	    /* for messages */
	size_t line, line_pos;	    /* the line number of byte line_pos */
	char *stack[XML_MAX_DEPTH]; /* names of the open elements */
	int depth;		    /* open elements after this event */
	int root_seen, empty_pending;
	int state; /* 0 reading, 1 at the end, < 0 failed with that code */
	/* the current event */
	const char *name; /* the element's name, valid until the next call */
	char *ended;	  /* storage of name after an END */
	struct xml_attr attrs[XML_MAX_ATTRS];
	size_t nattrs;
	size_t ev_line; /* line where the event's tag starts */
};

/* Starts reading data (len bytes; data and path must outlive x). */
void xml_reader_init(struct xml_reader *x, const char *data, size_t len,
		     const char *path);

/* Reads up to the next start or end tag, skipping text (checked for valid
 * entities), comments, CDATA and processing instructions. Returns
 * XML_START, XML_END or XML_EOF, or GCAMP_EFATAL with "PATH:LINE: expected
 * ..." in err on malformed input. After an error or XML_EOF further calls
 * return the same. */
int xml_next(struct xml_reader *x, struct error *err);

/* The decoded value of the current START's attribute name, or NULL. */
const char *xml_attr(const struct xml_reader *x, const char *name);

/* Frees what the reader holds. Accepts NULL. */
void xml_reader_release(struct xml_reader *x);

#endif
