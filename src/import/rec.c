/* The records every importer builds, and numbers read as tools print
 * them. */
#include "import/rec.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import/summary.h"
#include "util/buf.h"
#include "util/xalloc.h"

struct import_rec *import_add(struct import_set *s, const char *metric,
			      double value, const char *unit)
{
	struct import_rec *r;

	if (s->sum)
		import_summary_fold(s);
	if (s->nr == s->alloc) {
		s->alloc = s->alloc ? 2 * s->alloc : 16;
		s->recs = xrealloc(s->recs, s->alloc * sizeof(*s->recs));
	}
	r = &s->recs[s->nr++];
	memset(r, 0, sizeof(*r));
	r->metric = xstrdup(metric);
	r->value = value;
	r->unit = unit ? xstrdup(unit) : NULL;
	r->stat = xstrdup("value");
	return r;
}

void import_rec_config(struct import_rec *r, const char *key, const char *fmt,
		       ...)
{
	struct buf b = BUF_INIT;
	va_list ap;

	buf_puts(&b, key);
	buf_putc(&b, '=');
	va_start(ap, fmt);
	/* "%s", the importers' usual format, without printf's cost: a
	 * trace calls this for every launch */
	if (!strcmp(fmt, "%s"))
		buf_puts(&b, va_arg(ap, const char *));
	else
		buf_vaddf(&b, fmt, ap);
	va_end(ap);
	strvec_push_owned(&r->config, buf_detach(&b));
}

void import_rec_stat(struct import_rec *r, const char *stat)
{
	free(r->stat);
	r->stat = xstrdup(stat);
}

void import_rec_samples(struct import_rec *r, const double *v, size_t n)
{
	free(r->samples);
	r->samples = n ? xmalloc(n * sizeof(*v)) : NULL;
	if (n)
		memcpy(r->samples, v, n * sizeof(*v));
	r->nsamples = n;
}

void import_rec_release(struct import_rec *r)
{
	free(r->metric);
	free(r->unit);
	free(r->stat);
	free(r->samples);
	free(r->commit);
	strvec_clear(&r->config);
	memset(r, 0, sizeof(*r));
}

void import_set_release(struct import_set *s)
{
	size_t i;

	if (!s)
		return;
	for (i = 0; i < s->nr; i++)
		import_rec_release(&s->recs[i]);
	free(s->recs);
	import_summary_free(s->sum);
	s->sum = NULL;
	s->recs = NULL;
	s->nr = s->alloc = s->summaries = 0;
	s->format = NULL;
}

int import_number(double *out, const char *s, size_t len)
{
	char tmp[128];
	size_t i, n = 0;
	char *end;
	double v;

	while (len && (*s == ' ' || *s == '\t' || *s == '"')) {
		s++;
		len--;
	}
	while (len && (s[len - 1] == ' ' || s[len - 1] == '\t' ||
		       s[len - 1] == '"' || s[len - 1] == '\r'))
		len--;
	if (!len)
		return -1;
	for (i = 0; i < len; i++) {
		if (s[i] == ',')
			continue;
		if (n + 1 >= sizeof(tmp))
			return -1;
		tmp[n++] = s[i];
	}
	tmp[n] = '\0';
	/* strtod would take "nan", "inf" and hex: tools print none of those
	 * as a measured value */
	for (i = 0; i < n; i++)
		if (!strchr("0123456789+-.eE", tmp[i]))
			return -1;
	errno = 0;
	v = strtod(tmp, &end);
	if (end == tmp || *end || errno == ERANGE || !isfinite(v))
		return -1;
	*out = v;
	return 0;
}
