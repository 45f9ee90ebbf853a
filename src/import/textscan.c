/* Line reading for the text importers: tools colour their output and end
 * lines with "\r\n" on some platforms; parsers see neither. */
#include "import/textscan.h"

#include "import/input.h"

#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

void textscan_init(struct textscan *ts, const char *data, size_t len)
{
	ts->data = data;
	ts->len = len;
	ts->pos = 0;
	ts->lineno = 0;
	buf_init(&ts->line);
}

/* An ANSI escape as terminals take it: ESC '[' parameters, one final byte
 * in 0x40-0x7e. Returns its length at s (n bytes left), or 1 for a lone
 * ESC, which is dropped as well. */
static size_t ansi_len(const char *s, size_t n)
{
	size_t i = 2;

	if (n < 2 || s[1] != '[')
		return 1;
	while (i < n &&
	       ((s[i] >= '0' && s[i] <= '9') || s[i] == ';' || s[i] == '?'))
		i++;
	if (i < n && s[i] >= 0x40 && s[i] <= 0x7e)
		return i + 1;
	return i;
}

int textscan_next(struct textscan *ts)
{
	const char *p, *end, *nl;
	size_t n;

	if (ts->pos >= ts->len)
		return 0;
	p = ts->data + ts->pos;
	n = ts->len - ts->pos;
	nl = memchr(p, '\n', n);
	end = nl ? nl : p + n;
	ts->pos = nl ? (size_t)(nl - ts->data) + 1 : ts->len;
	ts->lineno++;
	import_input_reached(p);
	buf_reset(&ts->line);
	while (p < end) {
		const char *esc = memchr(p, '\x1b', (size_t)(end - p));
		const char *stop = esc ? esc : end;

		buf_add(&ts->line, p, (size_t)(stop - p));
		if (!esc)
			break;
		p = esc + ansi_len(esc, (size_t)(end - esc));
	}
	/* "\r\n" endings, and the "\r" progress lines some tools print */
	while (ts->line.len && ts->line.ptr[ts->line.len - 1] == '\r')
		ts->line.ptr[--ts->line.len] = '\0';
	return 1;
}

size_t textscan_eof_line(const struct textscan *ts)
{
	if (!ts->len || ts->data[ts->len - 1] == '\n')
		return ts->lineno + 1;
	return ts->lineno;
}

void textscan_release(struct textscan *ts)
{
	buf_release(&ts->line);
}

const char *textscan_path(const char *path)
{
	return strcmp(path, "-") ? path : "stdin";
}

size_t textscan_line_of(const char *data, size_t len, size_t off)
{
	size_t line = 1;
	const char *p = data, *end;

	if (off > len)
		off = len;
	end = data + off;
	while (p < end && (p = memchr(p, '\n', (size_t)(end - p)))) {
		line++;
		p++;
	}
	return line;
}

const char *textscan_skip(const char *s, const char *prefix)
{
	size_t n = strlen(prefix);

	return strncmp(s, prefix, n) ? NULL : s + n;
}

static size_t hash_name(const char *s, size_t len)
{
	size_t h = 14695981039346656037u, i;

	for (i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211u;
	return h;
}

static void rehash(struct textscan_names *t)
{
	size_t i;

	free(t->slot);
	t->nslot = t->nslot ? 2 * t->nslot : 64;
	t->slot = xcalloc(t->nslot, sizeof(*t->slot));
	for (i = 0; i < t->nr; i++) {
		size_t h = hash_name(t->v[i], strlen(t->v[i])) % t->nslot;

		while (t->slot[h])
			h = (h + 1) % t->nslot;
		t->slot[h] = i + 1;
	}
}

size_t textscan_name(struct textscan_names *t, const char *s, size_t len)
{
	size_t h;

	if (2 * (t->nr + 1) > t->nslot)
		rehash(t);
	for (h = hash_name(s, len) % t->nslot; t->slot[h];
	     h = (h + 1) % t->nslot) {
		const char *v = t->v[t->slot[h] - 1];

		if (strlen(v) == len && !memcmp(v, s, len))
			return t->slot[h] - 1;
	}
	if (t->nr == t->alloc) {
		t->alloc = t->alloc ? 2 * t->alloc : 64;
		t->v = xrealloc(t->v, t->alloc * sizeof(*t->v));
	}
	t->v[t->nr] = xstrndup(s, len);
	t->slot[h] = t->nr + 1;
	return t->nr++;
}

void textscan_names_release(struct textscan_names *t)
{
	size_t i;

	if (!t)
		return;
	for (i = 0; i < t->nr; i++)
		free(t->v[i]);
	free(t->v);
	free(t->slot);
	memset(t, 0, sizeof(*t));
}
