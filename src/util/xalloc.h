/* Allocation that never returns NULL: out of memory is fatal, as in git. */
#ifndef GCAMP_XALLOC_H
#define GCAMP_XALLOC_H

#include <stddef.h>

/* Each returns memory the caller frees with free(); on exhaustion they print
 * one line and exit 128. */
void *xmalloc(size_t n);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/* printf into a new string */
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
