/* The text helpers of util/text.h: marked blocks spliced into documents
 * (issue and PR bodies), and UTF-8 lengths. */
#include "util/text.h"

#include <stdio.h>
#include <string.h>

#define MARKER_PREFIX "<!-- git-campaign:"
#define REPLACEMENT "\xef\xbf\xbd" /* U+FFFD */

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

size_t text_utf8_char(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	unsigned long cp;
	size_t len, i;

	if (*p < 0x80)
		return 1;
	if (*p >= 0xc2 && *p <= 0xdf)
		len = 2, cp = *p & 0x1f;
	else if ((*p & 0xf0) == 0xe0)
		len = 3, cp = *p & 0x0f;
	else if (*p >= 0xf0 && *p <= 0xf4)
		len = 4, cp = *p & 0x07;
	else
		return 0;
	for (i = 1; i < len; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (p[i] & 0x3f);
	}
	if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
	    cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return len;
}

/* 1 when the sequence of n bytes at p is a control character */
static int is_control(const unsigned char *p, size_t n)
{
	if (n == 1)
		return *p < 0x20 || *p == 0x7f;
	/* C1: U+0080 to U+009F */
	return n == 2 && p[0] == 0xc2 && p[1] < 0xa0;
}

const char *text_name_problem(const char *s, size_t max)
{
	static char longer[48];
	size_t len = strlen(s), n;
	const char *p;

	for (p = s; *p; p += n) {
		if (!(n = text_utf8_char(p)))
			return "is not valid UTF-8";
		if (is_control((const unsigned char *)p, n))
			return "holds a control character";
	}
	if (len > max) {
		snprintf(longer, sizeof(longer), "is longer than %zu bytes",
			 max);
		return longer;
	}
	if (len && (s[0] == ' ' || s[len - 1] == ' '))
		return "begins or ends with a space";
	return NULL;
}

/* 1 when p starts a marker that delimits a section: begin, end (the
 * umbrella's) or stack (a PR body's); the placeholders (":todo") are data */
static int is_marker(const char *p)
{
	static const char *const kinds[] = {"begin", "end", "stack"};
	size_t i, n = strlen(MARKER_PREFIX);

	if (strncmp(p, MARKER_PREFIX, n))
		return 0;
	for (i = 0; i < sizeof(kinds) / sizeof(*kinds); i++)
		if (!strncmp(p + n, kinds[i], strlen(kinds[i])))
			return 1;
	return 0;
}

void text_defuse(struct buf *b)
{
	struct buf out = BUF_INIT;
	const char *p = b->ptr, *end = b->ptr + b->len;
	size_t n;

	if (!b->len)
		return;
	while (p < end) {
		if (is_marker(p)) {
			buf_puts(&out, "&lt;");
			p++;
			continue;
		}
		n = *p ? text_utf8_char(p) : 0;
		if (!n || (is_control((const unsigned char *)p, n) &&
			   !strchr("\t\r\n", *p))) {
			buf_puts(&out, REPLACEMENT);
			p += n ? n : 1;
			continue;
		}
		buf_add(&out, p, n);
		p += n;
	}
	buf_reset(b);
	buf_add(b, out.ptr, out.len);
	buf_release(&out);
}
