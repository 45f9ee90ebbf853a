/* The text helpers of util/text.h: marked blocks spliced into documents
 * (issue and PR bodies), and UTF-8 lengths. */
#include "util/text.h"

#include <string.h>

size_t text_utf8_length(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = 0;

	while (*p) {
		int len = *p < 0x80		? 1
			  : (*p & 0xe0) == 0xc0 ? 2
			  : (*p & 0xf0) == 0xe0 ? 3
			  : (*p & 0xf8) == 0xf0 ? 4
						: 1;
		int i;

		for (i = 1; i < len; i++)
			if ((p[i] & 0xc0) != 0x80) {
				len = 1;
				break;
			}
		p += len;
		n++;
	}
	return n;
}

/* appends text (LF line ends) with each "\n" written as eol */
static void add_with_eol(struct buf *out, const char *text, const char *eol)
{
	const char *nl;

	while ((nl = strchr(text, '\n'))) {
		buf_add(out, text, (size_t)(nl - text));
		buf_puts(out, eol);
		text = nl + 1;
	}
	buf_puts(out, text);
}

int text_splice_markers(struct buf *out, const char *body, const char *begin,
			const char *end, const char *section)
{
	const char *eol = strstr(body, "\r\n") ? "\r\n" : "\n";
	const char *b = strstr(body, begin), *e;
	size_t len = strlen(body);

	buf_reset(out);
	if (b) {
		e = strstr(b + strlen(begin), end);
		if (!e)
			return -1;
		buf_add(out, body, (size_t)(b - body));
		buf_puts(out, begin);
		buf_puts(out, eol);
		add_with_eol(out, section, eol);
		buf_puts(out, end);
		buf_puts(out, e + strlen(end));
		return 0;
	}
	buf_puts(out, body);
	if (len) {
		if (body[len - 1] != '\n')
			buf_puts(out, eol);
		buf_puts(out, eol);
	}
	buf_puts(out, begin);
	buf_puts(out, eol);
	add_with_eol(out, section, eol);
	buf_puts(out, end);
	buf_puts(out, eol);
	return 1;
}
