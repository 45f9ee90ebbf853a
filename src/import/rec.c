/* The records every importer builds, their summaries over launches, and
 * numbers read as tools print them. */
#include "import/rec.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import/textscan.h"
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

/* Per-launch records folded into one summary record per kernel and
 * metric while a trace is read (see rec.h). */
/* one launch's value, and a hash of its launch id to drop repeats */
struct point {
	double v;
	uint64_t launch;
};

struct group {
	struct import_rec tmpl; /* the launches' fields, without "launch=" */
	struct point *p;
	size_t nr, alloc;
};

struct import_summary {
	struct textscan_names keys; /* a group's key, by group index */
	struct group *g;
	size_t nr, alloc;
	struct buf key;
};

void import_set_summarise(struct import_set *s)
{
	if (!s->sum) {
		s->sum = xcalloc(1, sizeof(*s->sum));
		buf_init(&s->sum->key);
	}
}

static uint64_t hash64(const char *s)
{
	uint64_t h = 14695981039346656037u;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211u;
	return h;
}

/* The config pair of r that names its launch, or -1. */
static long launch_pair(const struct import_rec *r)
{
	size_t i, klen = strlen(IMPORT_LAUNCH_KEY);

	for (i = 0; i < r->config.nr; i++)
		if (!strncmp(r->config.v[i], IMPORT_LAUNCH_KEY, klen) &&
		    r->config.v[i][klen] == '=')
			return (long)i;
	return -1;
}

/* A new group for r: r's fields move into its template, but the launch
 * pair lp, which is freed; r is left empty. */
static struct group *group_new(struct import_summary *sum, struct import_rec *r,
			       size_t lp)
{
	struct group *g;
	size_t i;

	if (sum->nr == sum->alloc) {
		sum->alloc = sum->alloc ? 2 * sum->alloc : 16;
		sum->g = xrealloc(sum->g, sum->alloc * sizeof(*sum->g));
	}
	g = &sum->g[sum->nr++];
	memset(g, 0, sizeof(*g));
	g->tmpl = *r;
	memset(&g->tmpl.config, 0, sizeof(g->tmpl.config));
	for (i = 0; i < r->config.nr; i++)
		if (i == lp)
			free(r->config.v[i]);
		else
			strvec_push_owned(&g->tmpl.config, r->config.v[i]);
	free(r->config.v);
	memset(r, 0, sizeof(*r));
	return g;
}

void import_summary_fold(struct import_set *s)
{
	struct import_summary *sum = s->sum;
	struct import_rec *r;
	struct group *g;
	struct point pt;
	size_t i, k;
	long lp;

	if (!sum || !s->nr)
		return;
	r = &s->recs[s->nr - 1];
	if (r->samples || r->commit || r->count || (lp = launch_pair(r)) < 0)
		return;
	pt.v = r->value;
	pt.launch = hash64(r->config.v[lp] + strlen(IMPORT_LAUNCH_KEY) + 1);
	/* the key: every field but the launch, each ended by a byte no
	 * field holds */
	buf_reset(&sum->key);
	buf_puts(&sum->key, r->metric);
	buf_putc(&sum->key, '\x1f');
	buf_puts(&sum->key, r->unit ? r->unit : "\x1e");
	buf_putc(&sum->key, '\x1f');
	buf_puts(&sum->key, r->stat);
	buf_putc(&sum->key, '\x1f');
	buf_putc(&sum->key, (char)('0' + r->better));
	for (i = 0; i < r->config.nr; i++)
		if (i != (size_t)lp) {
			buf_putc(&sum->key, '\x1f');
			buf_puts(&sum->key, r->config.v[i]);
		}
	k = textscan_name(&sum->keys, sum->key.ptr, sum->key.len);
	if (k == sum->nr)
		g = group_new(sum, r, (size_t)lp);
	else
		g = &sum->g[k];
	import_rec_release(r);
	s->nr--;
	if (g->nr == g->alloc) {
		g->alloc = g->alloc ? 2 * g->alloc : 16;
		g->p = xrealloc(g->p, g->alloc * sizeof(*g->p));
	}
	g->p[g->nr++] = pt;
}

static int cmp_point(const void *a, const void *b)
{
	const struct point *x = a, *y = b;

	if (x->launch != y->launch)
		return x->launch < y->launch ? -1 : 1;
	return x->v < y->v ? -1 : x->v > y->v;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Decile i (1..9) of the n sorted values x as Python's
 * statistics.quantiles(x, n=10, method="inclusive") computes it:
 * j, delta = divmod(i * (n - 1), 10);
 * (x[j] * (10 - delta) + x[j + 1] * delta) / 10 */
static double decile(const double *x, size_t n, size_t i)
{
	size_t j = i * (n - 1) / 10, delta = i * (n - 1) % 10;

	if (n == 1)
		return x[0];
	return (x[j] * (double)(10 - delta) + x[j + 1] * (double)delta) / 10;
}

/* The median as Python's statistics.median: the middle value, or the mean
 * of the middle two */
static double median(const double *x, size_t n)
{
	return n % 2 ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2;
}

static double clamp(double v, double lo, double hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

void import_set_finish(struct import_set *s)
{
	struct import_summary *sum = s->sum;
	double *x = NULL;
	size_t i, k, n, alloc = 0;

	if (!sum)
		return;
	import_summary_fold(s);
	s->sum = NULL;
	for (k = 0; k < sum->nr; k++) {
		struct group *g = &sum->g[k];
		struct import_rec *r;

		/* a repeated row of one launch counts once */
		qsort(g->p, g->nr, sizeof(*g->p), cmp_point);
		if (g->nr > alloc) {
			alloc = g->nr;
			x = xrealloc(x, alloc * sizeof(*x));
		}
		for (i = n = 0; i < g->nr; i++)
			if (!i || g->p[i].launch != g->p[i - 1].launch ||
			    g->p[i].v != g->p[i - 1].v)
				x[n++] = g->p[i].v;
		qsort(x, n, sizeof(*x), cmp_double);
		r = import_add(s, g->tmpl.metric, median(x, n), g->tmpl.unit);
		import_rec_stat(r, "median");
		r->better = g->tmpl.better;
		for (i = 0; i < g->tmpl.config.nr; i++)
			strvec_push(&r->config, g->tmpl.config.v[i]);
		r->count = n;
		r->min = x[0];
		r->max = x[n - 1];
		/* rounding may move a decile of equal values a little past
		 * them */
		r->p10 = clamp(decile(x, n, 1), x[0], r->value);
		r->p90 = clamp(decile(x, n, 9), r->value, x[n - 1]);
		for (i = 0; i < n; i++)
			r->sum += x[i];
		s->summaries++;
	}
	free(x);
	import_summary_free(sum);
}

void import_summary_free(struct import_summary *sum)
{
	size_t k;

	if (!sum)
		return;
	for (k = 0; k < sum->nr; k++) {
		import_rec_release(&sum->g[k].tmpl);
		free(sum->g[k].p);
	}
	free(sum->g);
	textscan_names_release(&sum->keys);
	buf_release(&sum->key);
	free(sum);
}
