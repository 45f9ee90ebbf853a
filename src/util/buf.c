/* Growable strings. */
#include "util/buf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

char buf_empty[1];

void buf_init(struct buf *b)
{
	b->ptr = buf_empty;
	b->len = 0;
	b->cap = 0;
}

void buf_release(struct buf *b)
{
	if (!b)
		return;
	if (b->cap)
		free(b->ptr);
	buf_init(b);
}

void buf_reset(struct buf *b)
{
	b->len = 0;
	if (b->cap)
		b->ptr[0] = '\0';
}

void buf_setlen(struct buf *b, size_t len)
{
	if (len >= b->len)
		return;
	b->len = len;
	b->ptr[len] = '\0';
}

char *buf_detach(struct buf *b)
{
	char *s = b->cap ? b->ptr : xstrdup("");

	buf_init(b);
	return s;
}

void buf_grow(struct buf *b, size_t extra)
{
	size_t want = b->len + extra + 1;
	char *old = b->cap ? b->ptr : NULL;

	if (want <= b->cap)
		return;
	if (want < 2 * b->cap)
		want = 2 * b->cap;
	if (want < 64)
		want = 64;
	b->ptr = xrealloc(old, want);
	if (!old)
		b->ptr[0] = '\0';
	b->cap = want;
}

void buf_add(struct buf *b, const void *data, size_t len)
{
	buf_grow(b, len);
	memcpy(b->ptr + b->len, data, len);
	b->len += len;
	b->ptr[b->len] = '\0';
}

void buf_puts(struct buf *b, const char *s)
{
	buf_add(b, s, strlen(s));
}

void buf_putc(struct buf *b, char c)
{
	buf_add(b, &c, 1);
}

void buf_vaddf(struct buf *b, const char *fmt, va_list ap)
{
	va_list cp;
	int n;

	va_copy(cp, ap);
	n = vsnprintf(b->ptr + b->len, b->cap ? b->cap - b->len : 0, fmt, cp);
	va_end(cp);
	if (n < 0)
		return;
	if (!b->cap || (size_t)n >= b->cap - b->len) {
		buf_grow(b, (size_t)n);
		n = vsnprintf(b->ptr + b->len, b->cap - b->len, fmt, ap);
	}
	b->len += (size_t)n;
}

void buf_addf(struct buf *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	buf_vaddf(b, fmt, ap);
	va_end(ap);
}

void buf_rtrim(struct buf *b)
{
	while (b->len && strchr(" \t\r\n", b->ptr[b->len - 1]))
		b->len--;
	if (b->cap)
		b->ptr[b->len] = '\0';
}

void buf_addcount(struct buf *b, long v)
{
	char digits[32];
	size_t i, len;

	/* the magnitude as unsigned: -LONG_MIN does not fit a long */
	len = (size_t)snprintf(digits, sizeof(digits), "%lu",
			       v < 0 ? 0UL - (unsigned long)v
				     : (unsigned long)v);
	if (v < 0)
		buf_putc(b, '-');
	for (i = 0; i < len; i++) {
		if (i && (len - i) % 3 == 0)
			buf_putc(b, ',');
		buf_putc(b, digits[i]);
	}
}
