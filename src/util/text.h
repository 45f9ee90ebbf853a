/* Text helpers over UTF-8 strings: counting and checking code points,
 * replacing a marked block of a document while keeping every other byte,
 * and defusing user text rendered into one. */
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

/* The length of the valid UTF-8 sequence at s (1 to 4 bytes; s[0] is not
 * NUL), or 0 when s does not start one: an overlong form, a surrogate, a
 * code point past U+10FFFF, a stray or missing continuation byte. */
size_t text_utf8_char(const char *s);

/*
 * Checks a name that other people will read (a metric): NULL when it is
 * valid UTF-8 of at most max bytes, with no control character (C0, DEL,
 * C1) and no space at either end; else why not, as a phrase for "the
 * metric name ..." ("is not valid UTF-8", "holds a control character",
 * "is longer than 1024 bytes", "begins or ends with a space"). The
 * phrase is static; max is at most 99999.
 */
const char *text_name_problem(const char *s, size_t max);

/*
 * Makes rendered text safe to post between markers, in place: each byte
 * that does not start valid UTF-8 and each control character other than
 * tab and newline becomes U+FFFD, and each marker the tool splices
 * sections by ("<!-- git-campaign:begin", ":end", ":stack") starts with
 * "&lt;" instead of "<", so user text (a title, a finding, a metric name)
 * can never end or begin a section; the reader sees it as it was typed.
 * Other comments (the ":todo" placeholder) are left alone.
 */
void text_defuse(struct buf *b);

#endif
