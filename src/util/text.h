/* Text helpers over UTF-8 strings: counting code points, and replacing a
 * marked block of a document while keeping every other byte. */
#ifndef GCAMP_TEXT_H
#define GCAMP_TEXT_H

#include <stddef.h>

#include "util/buf.h"

/*
 * Writes body into out (reset first) with the text between the markers
 * begin and end replaced by section (LF line ends; written in body's own
 * style, CRLF when body has CRLF). Bytes outside the markers are kept as
 * they are. Without a begin marker the block is appended after a blank
 * line. begin and end may be the same text, the second occurrence then
 * ending the block. Returns 0 (replaced), 1 (appended), or -1 when body has
 * a begin marker without an end marker after it (out is then left empty).
 */
int text_splice_markers(struct buf *out, const char *body, const char *begin,
			const char *end, const char *section);

/* The number of Unicode code points in the UTF-8 string s (bytes that are
 * not valid UTF-8 count one each). */
size_t text_utf8_length(const char *s);

#endif
