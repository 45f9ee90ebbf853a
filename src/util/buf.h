/* A growable, always NUL-terminated byte string (git's strbuf, smaller). */
#ifndef GCAMP_BUF_H
#define GCAMP_BUF_H

#include <stdarg.h>
#include <stddef.h>

struct buf {
	char *ptr; /* never NULL after buf_init; "" when empty */
	size_t len;
	size_t cap; /* 0 while ptr points at the shared empty string */
};

#define BUF_INIT                                                               \
	{                                                                      \
		buf_empty, 0, 0                                                \
	}
extern char buf_empty[];

void buf_init(struct buf *b);
/* Frees the storage and leaves b empty and reusable. Accepts NULL. */
void buf_release(struct buf *b);
/* Empties b, keeping its storage. */
void buf_reset(struct buf *b);
/* Shortens b to its first len bytes (len <= b->len). */
void buf_setlen(struct buf *b, size_t len);
/* Hands the string to the caller (free() it) and leaves b empty. */
char *buf_detach(struct buf *b);
void buf_grow(struct buf *b, size_t extra);
void buf_add(struct buf *b, const void *data, size_t len);
void buf_puts(struct buf *b, const char *s);
void buf_putc(struct buf *b, char c);
void buf_addf(struct buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void buf_vaddf(struct buf *b, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));
/* Drops trailing whitespace. */
void buf_rtrim(struct buf *b);
/* Appends v with thousands separated by commas: 1116 as "1,116". */
void buf_addcount(struct buf *b, long v);

#endif
