/* Vectors of owned strings. */
#include "util/strvec.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "util/buf.h"
#include "util/xalloc.h"

void strvec_push_owned(struct strvec *sv, char *s)
{
	if (sv->nr + 2 > sv->alloc) {
		sv->alloc = sv->alloc ? 2 * sv->alloc : 8;
		sv->v = xrealloc(sv->v, sv->alloc * sizeof(*sv->v));
	}
	sv->v[sv->nr++] = s;
	sv->v[sv->nr] = NULL;
}

const char *strvec_push(struct strvec *sv, const char *s)
{
	char *c = xstrdup(s);

	strvec_push_owned(sv, c);
	return c;
}

const char *strvec_pushf(struct strvec *sv, const char *fmt, ...)
{
	struct buf b = BUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	buf_vaddf(&b, fmt, ap);
	va_end(ap);
	strvec_push_owned(sv, buf_detach(&b));
	return sv->v[sv->nr - 1];
}

void strvec_clear(struct strvec *sv)
{
	size_t i;

	if (!sv)
		return;
	for (i = 0; i < sv->nr; i++)
		free(sv->v[i]);
	free(sv->v);
	sv->v = NULL;
	sv->nr = sv->alloc = 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void strvec_sort(struct strvec *sv)
{
	if (sv->nr > 1)
		qsort(sv->v, sv->nr, sizeof(*sv->v), cmp_str);
}
