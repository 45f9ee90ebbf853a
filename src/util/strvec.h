/* A NULL-terminated, growable vector of owned strings. */
#ifndef GCAMP_STRVEC_H
#define GCAMP_STRVEC_H

#include <stddef.h>

struct strvec {
	char **v; /* v[nr] == NULL once anything was pushed */
	size_t nr;
	size_t alloc;
};

#define STRVEC_INIT                                                            \
	{                                                                      \
		NULL, 0, 0                                                     \
	}

/* Copies s and appends it; returns the copy (owned by the vector). */
const char *strvec_push(struct strvec *sv, const char *s);
/* Appends the printf-style formatted string; returns it (owned by the
 * vector). */
const char *strvec_pushf(struct strvec *sv, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Appends s without copying; the vector takes ownership. */
void strvec_push_owned(struct strvec *sv, char *s);
/* Frees every string and the array. Accepts NULL. */
void strvec_clear(struct strvec *sv);
/* Sorts in strcmp order. */
void strvec_sort(struct strvec *sv);

#endif
