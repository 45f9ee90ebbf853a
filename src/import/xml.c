/* The XML pull reader: a hand-written scanner over a byte range, since no
 * XML library is a dependency. Every read is checked against len. */
#include "import/xml.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import/input.h"
#include "import/textscan.h"
#include "util/buf.h"
#include "util/xalloc.h"

void xml_reader_init(struct xml_reader *x, const char *data, size_t len,
		     const char *path)
{
	memset(x, 0, sizeof(*x));
	x->data = data;
	x->len = len;
	x->path = path;
	x->line = 1;
	/* a UTF-8 byte order mark */
	if (len >= 3 && !memcmp(data, "\xef\xbb\xbf", 3))
		x->pos = 3;
}

static void clear_attrs(struct xml_reader *x)
{
	size_t i;

	for (i = 0; i < x->nattrs; i++) {
		free(x->attrs[i].name);
		free(x->attrs[i].value);
	}
	x->nattrs = 0;
}

void xml_reader_release(struct xml_reader *x)
{
	if (!x)
		return;
	clear_attrs(x);
	while (x->depth > 0)
		free(x->stack[--x->depth]);
	free(x->ended);
	x->ended = NULL;
}

/* The line of offset off; offsets asked for only grow, so the count is
 * carried forward. */
static size_t line_at(struct xml_reader *x, size_t off)
{
	const char *p, *end;

	if (off > x->len)
		off = x->len;
	if (off < x->line_pos)
		return textscan_line_of(x->data, x->len, off);
	p = x->data + x->line_pos;
	end = x->data + off;
	while (p < end && (p = memchr(p, '\n', (size_t)(end - p)))) {
		x->line++;
		p++;
	}
	x->line_pos = off;
	return x->line;
}

static int fail(struct xml_reader *x, struct error *err, size_t off,
		const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static int fail(struct xml_reader *x, struct error *err, size_t off,
		const char *fmt, ...)
{
	char what[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	x->state = GCAMP_EFATAL;
	return error_set(err, GCAMP_EFATAL, "%s:%zu: %s",
			 textscan_path(x->path), line_at(x, off), what);
}

static int at(const struct xml_reader *x, size_t off, const char *s)
{
	size_t n = strlen(s);

	return off <= x->len && x->len - off >= n &&
	       !memcmp(x->data + off, s, n);
}

/* Finds s at or after off; returns its offset or len when absent. */
static size_t find(const struct xml_reader *x, size_t off, const char *s)
{
	size_t n = strlen(s);

	for (; off < x->len && x->len - off >= n; off++)
		if (x->data[off] == s[0] && !memcmp(x->data + off, s, n))
			return off;
	return x->len;
}

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static int name_start(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
	       c == ':' || c >= 0x80;
}

static int name_char(unsigned char c)
{
	return name_start(c) || (c >= '0' && c <= '9') || c == '-' || c == '.';
}

static void skip_space(struct xml_reader *x)
{
	while (x->pos < x->len && is_space(x->data[x->pos]))
		x->pos++;
}

/* Reads a name at x->pos into a new string (*out), or fails. */
static int read_name(struct xml_reader *x, struct error *err, char **out,
		     const char *what)
{
	size_t start = x->pos;

	if (x->pos >= x->len || !name_start((unsigned char)x->data[x->pos]))
		return fail(x, err, x->pos, "expected %s", what);
	while (x->pos < x->len && name_char((unsigned char)x->data[x->pos]))
		x->pos++;
	if (x->pos - start > XML_MAX_NAME)
		return fail(x, err, start, "expected %s of at most %d bytes",
			    what, XML_MAX_NAME);
	*out = xstrndup(x->data + start, x->pos - start);
	return 0;
}

static void put_utf8(struct buf *b, unsigned long c)
{
	char u[4];

	if (c < 0x80) {
		buf_putc(b, (char)c);
		return;
	}
	if (c < 0x800) {
		u[0] = (char)(0xc0 | (c >> 6));
		u[1] = (char)(0x80 | (c & 0x3f));
		buf_add(b, u, 2);
	} else if (c < 0x10000) {
		u[0] = (char)(0xe0 | (c >> 12));
		u[1] = (char)(0x80 | ((c >> 6) & 0x3f));
		u[2] = (char)(0x80 | (c & 0x3f));
		buf_add(b, u, 3);
	} else {
		u[0] = (char)(0xf0 | (c >> 18));
		u[1] = (char)(0x80 | ((c >> 12) & 0x3f));
		u[2] = (char)(0x80 | ((c >> 6) & 0x3f));
		u[3] = (char)(0x80 | (c & 0x3f));
		buf_add(b, u, 4);
	}
}

/* Decodes the reference at x->pos ('&') into out (NULL: only checks it)
 * and moves past it. */
static int read_entity(struct xml_reader *x, struct error *err, struct buf *out)
{
	static const struct {
		const char *name;
		char c;
	} named[] = {{"amp;", '&'},
		     {"lt;", '<'},
		     {"gt;", '>'},
		     {"quot;", '"'},
		     {"apos;", '\''}};
	size_t start = x->pos, i;
	unsigned long c = 0;
	int hex, digits = 0;

	x->pos++;
	for (i = 0; i < sizeof(named) / sizeof(*named); i++)
		if (at(x, x->pos, named[i].name)) {
			x->pos += strlen(named[i].name);
			if (out)
				buf_putc(out, named[i].c);
			return 0;
		}
	if (x->pos >= x->len || x->data[x->pos] != '#')
		return fail(x, err, start,
			    "expected '&amp;', '&lt;', '&gt;', '&quot;', "
			    "'&apos;' or '&#N;' after '&'");
	x->pos++;
	hex = x->pos < x->len && x->data[x->pos] == 'x';
	if (hex)
		x->pos++;
	for (; x->pos < x->len && x->data[x->pos] != ';'; x->pos++) {
		char d = x->data[x->pos];
		unsigned v;

		if (d >= '0' && d <= '9')
			v = (unsigned)(d - '0');
		else if (hex && d >= 'a' && d <= 'f')
			v = (unsigned)(d - 'a' + 10);
		else if (hex && d >= 'A' && d <= 'F')
			v = (unsigned)(d - 'A' + 10);
		else
			break;
		c = c * (hex ? 16 : 10) + v;
		if (c > 0x10ffff)
			break;
		digits++;
	}
	/* control characters are refused by XML 1.0 but allowed as
	 * references by XML 1.1, and Surefire writes them (&#27; for the
	 * ESC of coloured test output): only NUL and surrogates are refused */
	if (!digits || x->pos >= x->len || x->data[x->pos] != ';' || !c ||
	    (c >= 0xd800 && c <= 0xdfff))
		return fail(x, err, start,
			    "expected a character reference of a valid "
			    "character ('&#N;' or '&#xH;')");
	x->pos++;
	if (out)
		put_utf8(out, c);
	return 0;
}

/* Text between tags: only checked. Outside the root only white space. */
static int skip_text(struct xml_reader *x, struct error *err)
{
	while (x->pos < x->len && x->data[x->pos] != '<') {
		char c = x->data[x->pos];

		if (!x->depth && !is_space(c))
			return fail(x, err, x->pos,
				    "expected '<' (text outside the root "
				    "element)");
		if (c == '&') {
			if (read_entity(x, err, NULL) < 0)
				return GCAMP_EFATAL;
			continue;
		}
		x->pos++;
	}
	return 0;
}

/* Skips <?...?>, <!--...-->, <![CDATA[...]]> and <!DOCTYPE ...>; returns
 * 1 when something was skipped, 0 when x->pos is at a tag, or fails. */
static int skip_markup(struct xml_reader *x, struct error *err)
{
	size_t start = x->pos, end;

	if (at(x, start, "<?")) {
		end = find(x, start + 2, "?>");
		if (end == x->len)
			return fail(x, err, start,
				    "expected '?>' to end "
				    "the processing instruction");
		x->pos = end + 2;
		return 1;
	}
	if (at(x, start, "<!--")) {
		end = find(x, start + 4, "--");
		if (end == x->len || !at(x, end, "-->"))
			return fail(x, err, start,
				    "expected '-->' to end the comment");
		x->pos = end + 3;
		return 1;
	}
	if (at(x, start, "<![CDATA[")) {
		if (!x->depth)
			return fail(x, err, start,
				    "expected CDATA only inside an element");
		end = find(x, start + 9, "]]>");
		if (end == x->len)
			return fail(x, err, start,
				    "expected ']]>' to end the CDATA section");
		x->pos = end + 3;
		return 1;
	}
	if (at(x, start, "<!DOCTYPE")) {
		if (x->depth || x->root_seen)
			return fail(x, err, start,
				    "expected the DOCTYPE "
				    "before the root element");
		for (end = start + 9; end < x->len && x->data[end] != '>';
		     end++)
			if (x->data[end] == '[')
				/* entity definitions: refused, not expanded */
				return fail(x, err, end,
					    "expected a DOCTYPE without an "
					    "internal subset");
		if (end == x->len)
			return fail(x, err, start,
				    "expected '>' to end the DOCTYPE");
		x->pos = end + 1;
		return 1;
	}
	if (at(x, start, "<!"))
		return fail(x, err, start,
			    "expected a comment, CDATA or DOCTYPE after '<!'");
	return 0;
}

/* Reads one quoted attribute value at x->pos into *out. */
static int read_value(struct xml_reader *x, struct error *err, char **out)
{
	struct buf v = BUF_INIT;
	size_t start = x->pos;
	char q;

	if (x->pos >= x->len ||
	    (x->data[x->pos] != '"' && x->data[x->pos] != '\''))
		return fail(x, err, x->pos,
			    "expected a quoted attribute value");
	q = x->data[x->pos++];
	while (x->pos < x->len && x->data[x->pos] != q) {
		char c = x->data[x->pos];

		if (c == '<') {
			buf_release(&v);
			return fail(x, err, x->pos,
				    "expected no '<' in an attribute value");
		}
		if (c == '&') {
			if (read_entity(x, err, &v) < 0) {
				buf_release(&v);
				return GCAMP_EFATAL;
			}
			continue;
		}
		/* attribute-value normalisation (XML 1.0 3.3.3) */
		buf_putc(&v, is_space(c) ? ' ' : c);
		x->pos++;
	}
	if (x->pos >= x->len) {
		buf_release(&v);
		return fail(x, err, start,
			    "expected %c to end the "
			    "attribute value",
			    q);
	}
	x->pos++;
	*out = buf_detach(&v);
	return 0;
}

static int read_end_tag(struct xml_reader *x, struct error *err)
{
	size_t start = x->pos;
	const char *open;
	char *name = NULL;
	int rc;

	if (!x->depth)
		return fail(x, err, start,
			    "expected no end tag outside the root element");
	open = x->stack[x->depth - 1];
	x->pos += 2;
	if (read_name(x, err, &name, "an element name after '</'") < 0)
		return GCAMP_EFATAL;
	skip_space(x);
	if (x->pos >= x->len || x->data[x->pos] != '>')
		rc = fail(x, err, x->pos, "expected '>' to end '</%.64s'",
			  name);
	else if (strcmp(name, open))
		rc = fail(x, err, start,
			  "expected '</%.64s>', found '</%.64s>'", open, name);
	else
		rc = XML_END;
	free(name);
	if (rc < 0)
		return rc;
	x->pos++;
	x->ended = x->stack[--x->depth];
	x->name = x->ended;
	return XML_END;
}

static int read_attrs(struct xml_reader *x, struct error *err)
{
	for (;;) {
		size_t before = x->pos, i;
		struct xml_attr *a;

		skip_space(x);
		if (x->pos >= x->len)
			return fail(x, err, x->pos,
				    "expected '>' to end "
				    "'<%.64s'",
				    x->name);
		if (x->data[x->pos] == '>' || x->data[x->pos] == '/')
			return 0;
		if (x->pos == before)
			return fail(x, err, x->pos,
				    "expected white space between "
				    "attributes");
		if (x->nattrs == XML_MAX_ATTRS)
			return fail(x, err, x->pos,
				    "expected at most %d attributes",
				    XML_MAX_ATTRS);
		a = &x->attrs[x->nattrs];
		a->value = NULL;
		if (read_name(x, err, &a->name, "an attribute name") < 0)
			return GCAMP_EFATAL;
		x->nattrs++;
		for (i = 0; i + 1 < x->nattrs; i++)
			if (!strcmp(x->attrs[i].name, a->name))
				return fail(x, err, before,
					    "expected one '%.64s' attribute, "
					    "found two",
					    a->name);
		skip_space(x);
		if (x->pos >= x->len || x->data[x->pos] != '=')
			return fail(x, err, x->pos,
				    "expected '=' after attribute '%.64s'",
				    a->name);
		x->pos++;
		skip_space(x);
		if (read_value(x, err, &a->value) < 0)
			return GCAMP_EFATAL;
	}
}

static int read_start_tag(struct xml_reader *x, struct error *err)
{
	size_t start = x->pos;
	char *name = NULL;

	if (!x->depth && x->root_seen)
		return fail(x, err, start,
			    "expected one root element, found a second");
	if (x->depth == XML_MAX_DEPTH)
		return fail(x, err, start,
			    "expected at most %d nested elements",
			    XML_MAX_DEPTH);
	x->pos++;
	if (read_name(x, err, &name, "an element name after '<'") < 0)
		return GCAMP_EFATAL;
	x->stack[x->depth++] = name;
	x->name = name;
	x->root_seen = 1;
	if (read_attrs(x, err) < 0)
		return GCAMP_EFATAL;
	if (x->data[x->pos] == '/') {
		if (x->pos + 1 >= x->len || x->data[x->pos + 1] != '>')
			return fail(x, err, x->pos,
				    "expected '/>' to end '<%.64s'", name);
		x->pos += 2;
		x->empty_pending = 1;
	} else {
		x->pos++;
	}
	return XML_START;
}

int xml_next(struct xml_reader *x, struct error *err)
{
	int rc;

	if (x->state < 0)
		return x->state;
	if (x->state > 0)
		return XML_EOF;
	clear_attrs(x);
	free(x->ended);
	x->ended = NULL;
	x->name = NULL;
	import_input_reached(x->data + x->pos);
	if (x->empty_pending) {
		x->empty_pending = 0;
		x->ended = x->stack[--x->depth];
		x->name = x->ended;
		return XML_END;
	}
	for (;;) {
		if (skip_text(x, err) < 0)
			return GCAMP_EFATAL;
		if (x->pos >= x->len) {
			if (x->depth)
				return fail(x, err, x->len,
					    "expected '</%.64s>' before the "
					    "end of the file",
					    x->stack[x->depth - 1]);
			if (!x->root_seen)
				return fail(x, err, x->len,
					    "expected an XML element");
			x->state = 1;
			return XML_EOF;
		}
		rc = skip_markup(x, err);
		if (rc < 0)
			return rc;
		if (rc)
			continue;
		x->ev_line = line_at(x, x->pos);
		if (at(x, x->pos, "</"))
			return read_end_tag(x, err);
		return read_start_tag(x, err);
	}
}

const char *xml_attr(const struct xml_reader *x, const char *name)
{
	size_t i;

	for (i = 0; i < x->nattrs; i++)
		if (!strcmp(x->attrs[i].name, name))
			return x->attrs[i].value;
	return NULL;
}
