/* TornadoVM BenchmarkRunner output: "Performance: bm=ID, device=B:D,
 * average(ns)=..., ..." lines (older releases: "bm=..." without the
 * prefix), one record per number, keyed by benchmark and device. The
 * summary ends in "%n", so the device line arrives split in two; the
 * second half (", speedupAvg=...") is joined back on. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import/benchmark_runner.h"
#include "import/textscan.h"
#include "util/buf.h"
#include "util/xalloc.h"

struct bm_field {
	const char *key, *val; /* NUL-terminated inside the line copy */
};

#define BM_MAX_FIELDS 64

static int is_key_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || strchr("_ ().%/-", c);
}

/* Whether s starts with "key=": a field of the line, not a comma inside a
 * value. */
static int starts_field(const char *s)
{
	const char *p = s;

	if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z')))
		return 0;
	while (*p && *p != '=' && is_key_char(*p))
		p++;
	return *p == '=';
}

static char *trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
		*--e = '\0';
	return s;
}

/* Splits "bm=x, k=v, ..., deviceName=any, text" into fields, in place.
 * deviceName comes last and may hold commas. Returns the count or -1. */
static int split_fields(char *s, struct bm_field *f)
{
	int n = 0;

	while (*s) {
		char *eq = strchr(s, '='), *p;

		if (!eq || n == BM_MAX_FIELDS)
			return -1;
		*eq = '\0';
		f[n].key = trim(s);
		s = eq + 1;
		p = s;
		if (!strcmp(f[n].key, "deviceName"))
			p += strlen(p);
		for (; *p; p++)
			if (*p == ',' &&
			    starts_field(p + 1 + strspn(p + 1, " ")))
				break;
		if (*p) {
			*p = '\0';
			f[n].val = trim(s);
			s = p + 1;
		} else {
			f[n].val = trim(s);
			s = p;
		}
		n++;
	}
	return n;
}

/* A number as Java's %e/%f prints it ('.' decimal point), with an optional
 * '%'. Returns 0, 1 for NaN/Infinity (no number to record), -1 when not a
 * number, -2 for a decimal comma. */
static int bm_number(double *out, const char *v, int *percent)
{
	size_t n = strlen(v);
	const char *p;

	*percent = n && v[n - 1] == '%';
	if (*percent)
		n--;
	if ((n == 3 && !memcmp(v, "NaN", 3)) ||
	    (n == 8 && !memcmp(v, "Infinity", 8)) ||
	    (n == 9 && (*v == '-' || *v == '+') &&
	     !memcmp(v + 1, "Infinity", 8)))
		return 1;
	for (p = v; p < v + n; p++)
		if (!strchr("0123456789+-.eE", *p))
			return *p == ',' ? -2 : -1;
	return import_number(out, v, n) < 0 ? -1 : 0;
}

struct bm_metric {
	const char *key;
	const char *stat;
	int better;
	int time; /* in ns when the key names no unit */
};

static const struct bm_metric known[] = {
	{"average", "mean", IMPORT_BETTER_LOWER, 0},
	{"median", "median", IMPORT_BETTER_LOWER, 0},
	{"firstIteration", "value", IMPORT_BETTER_LOWER, 0},
	{"best", "min", IMPORT_BETTER_LOWER, 0},
	{"speedupAvg", "mean", IMPORT_BETTER_HIGHER, 0},
	{"speedupMedian", "median", IMPORT_BETTER_HIGHER, 0},
	{"speedupFirstIteration", "value", IMPORT_BETTER_HIGHER, 0},
	{"CV", "value", IMPORT_BETTER_LOWER, 0},
	/* the profiler's device timers, in ns */
	{"kernelMin", "min", IMPORT_BETTER_LOWER, 1},
	{"kernelAvg", "mean", IMPORT_BETTER_LOWER, 1},
	{"copyInAvg", "mean", IMPORT_BETTER_LOWER, 1},
	{"copyOutAvg", "mean", IMPORT_BETTER_LOWER, 1},
	{"elapsed", "value", IMPORT_BETTER_LOWER, 0},
	{"per iteration", "mean", IMPORT_BETTER_LOWER, 0},
	{"lowestEnergy", "min", IMPORT_BETTER_LOWER, 0},
	{"averageEnergy", "mean", IMPORT_BETTER_LOWER, 0},
	{"highestEnergy", "value", IMPORT_BETTER_LOWER, 0},
};

static const struct bm_metric *find_known(const char *key, size_t n)
{
	size_t i;

	for (i = 0; i < sizeof(known) / sizeof(*known); i++)
		if (strlen(known[i].key) == n && !memcmp(known[i].key, key, n))
			return &known[i];
	return NULL;
}

/* Times become ns; other units are kept as printed. */
static const char *norm_unit(const char *unit, double *v)
{
	static const struct {
		const char *unit;
		double scale;
	} times[] = {{"ns", 1}, {"us", 1e3}, {"ms", 1e6}, {"s", 1e9}};
	size_t i;

	for (i = 0; i < sizeof(times) / sizeof(*times); i++)
		if (!strcmp(unit, times[i].unit)) {
			*v *= times[i].scale;
			return "ns";
		}
	return unit;
}

struct bm_ctx {
	const char *path;
	size_t line;
	struct error *err;
};

static int bm_bad(struct bm_ctx *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int bm_bad(struct bm_ctx *c, const char *fmt, ...)
{
	char what[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	return error_set(c->err, GCAMP_EFATAL, "%s:%zu: expected %s",
			 textscan_path(c->path), c->line, what);
}

/* One metric field; returns 1 when it made a record. */
static int add_metric(struct import_set *out, struct bm_ctx *c,
		      const struct bm_field *f, const struct bm_field *cfg,
		      int ncfg, int profiler)
{
	const char *key = f->key, *paren = strchr(key, '(');
	size_t klen = paren ? (size_t)(paren - key) : strlen(key);
	const struct bm_metric *m = find_known(key, klen);
	char unit[32] = "", *name;
	struct import_rec *r;
	double v = 0;
	int pct, rc, i;

	if (paren) {
		size_t ulen = strcspn(paren + 1, ")");

		if (paren[1 + ulen] != ')' || paren[2 + ulen] || !ulen ||
		    ulen >= sizeof(unit))
			return bm_bad(c, "a unit in parentheses in '%.64s'",
				      key);
		memcpy(unit, paren + 1, ulen);
		unit[ulen] = '\0';
	}
	rc = bm_number(&v, f->val, &pct);
	if (rc == -2)
		return bm_bad(c,
			      "a number with a '.' decimal point in "
			      "'%.64s' (the JVM's locale printed ',')",
			      key);
	if (rc == -1 && (m || paren))
		return bm_bad(c, "a number after '%.64s='", key);
	if (rc)
		return rc == 1 ? 0 : -1;
	/* no reference run (-Dtornado.benchmarks.skipserial=True): the
	 * speedups are printed against -1 */
	if (!strncmp(key, "speedup", 7) && f->val[0] == '-')
		return 0;
	if (pct || (m && !strcmp(m->key, "CV")))
		strcpy(unit, "%");
	else if (!*unit && m && m->time)
		strcpy(unit, "ns");
	/* "firstIteration(mJ)" of the energy summary is not the time */
	if (*unit && unit[strlen(unit) - 1] == 'J' && !strstr(key, "Energy"))
		name = xasprintf("%.*sEnergy", (int)klen, key);
	else
		name = xstrndup(key, klen);
	for (i = 0; name[i]; i++)
		if (name[i] == ' ')
			name[i] = '_';
	r = import_add(out, name, v, NULL);
	free(name);
	if (*unit) {
		const char *u = norm_unit(unit, &r->value);

		r->unit = xstrdup(u);
	}
	if (m) {
		import_rec_stat(r, m->stat);
		r->better = m->better;
	} else if (*unit && !strcmp(r->unit, "ns")) {
		r->better = IMPORT_BETTER_LOWER;
	}
	for (i = 0; i < ncfg; i++)
		import_rec_config(r, cfg[i].key, "%s", cfg[i].val);
	if (profiler)
		import_rec_config(r, "profiler", "on");
	return 1;
}

/* Whether v, printed with Java's %e, kept its whole exponent of two
 * digits or more ("8.1e+03"); %e also prints NaN and Infinity. */
static int full_exponent(const char *v)
{
	const char *e = strpbrk(v, "eE");

	if (strstr(v, "NaN") || strstr(v, "Infinity"))
		return 1;
	return e && (e[1] == '+' || e[1] == '-') &&
	       strspn(e + 2, "0123456789") >= 2;
}

/* What was measured, whatever its value looks like. */
static int is_config_key(const char *key)
{
	return !strcmp(key, "bm") || !strcmp(key, "device") ||
	       !strcmp(key, "id") || !strcmp(key, "deviceName");
}

static int parse_bm_line(struct import_set *out, struct bm_ctx *c, char *s)
{
	struct bm_field f[BM_MAX_FIELDS], cfg[BM_MAX_FIELDS];
	int is_metric[BM_MAX_FIELDS];
	int n, ncfg = 0, i, nmetric = 0, profiler = 0, device = 0, name = 0;
	int summary = 0, best = 0, rc;

	n = split_fields(s, f);
	if (n <= 0)
		return bm_bad(c, "'key=value' fields after 'bm=', "
				 "separated by ', '");
	if (!*f[0].val)
		return bm_bad(c, "a benchmark name after 'bm='");
	for (i = 0; i < n; i++) {
		const char *paren = strchr(f[i].key, '(');
		size_t klen =
			paren ? (size_t)(paren - f[i].key) : strlen(f[i].key);
		double v;
		int pct;

		if (!*f[i].key)
			return bm_bad(c, "a field name before '='");
		if (!strncmp(f[i].key, "kernel", 6) ||
		    !strncmp(f[i].key, "copyIn", 6) ||
		    !strncmp(f[i].key, "copyOut", 7))
			profiler = 1;
		device |= !strcmp(f[i].key, "device");
		/* getPreciseSummary() (and the older average=... form)
		 * opens with average and always reaches best */
		summary |= !strcmp(f[i].key, "average(ns)") ||
			   !strcmp(f[i].key, "average");
		if (!strcmp(f[i].key, "best(ns)") || !strcmp(f[i].key, "best"))
			best = i + 1;
		name |= !strcmp(f[i].key, "deviceName") && *f[i].val;
		is_metric[i] = !is_config_key(f[i].key) &&
			       (find_known(f[i].key, klen) || paren ||
				bm_number(&v, f[i].val, &pct) != -1);
		if (is_metric[i]) {
			nmetric++;
			continue;
		}
		if (strcmp(f[i].key, "deviceName") && strstr(f[i].val, ", "))
			return bm_bad(c, "'key=value' after ',' in '%.64s'",
				      f[i].val);
		cfg[ncfg++] = f[i];
	}
	if (!nmetric)
		return bm_bad(c, "measurements after 'bm=%.64s'", f[0].val);
	for (i = 0; i < n; i++)
		if (is_metric[i] &&
		    (rc = add_metric(out, c, &f[i], cfg, ncfg, profiler)) < 0)
			return rc;
	/* best is printed with %e: a value without its exponent was cut */
	if (summary && (!best || !full_exponent(f[best - 1].val)))
		return bm_bad(c,
			      "'best(ns)=' with a %%e number at the end of "
			      "the summary of 'bm=%.64s'",
			      f[0].val);
	/* every device line and every profiler line ends with its device's
	 * name: without it the line was cut short */
	if ((device || profiler) && !name)
		return bm_bad(c,
			      "'deviceName=' at the end of the line of "
			      "'bm=%.64s'",
			      f[0].val);
	return 0;
}

/* The start of a benchmark line ("bm=..."), or NULL. */
static const char *bm_start(const char *line)
{
	const char *s = line, *p;

	while (*s == ' ' || *s == '\t')
		s++;
	if ((p = textscan_skip(s, "Performance: ")))
		s = p;
	return textscan_skip(s, "bm=") ? s : NULL;
}

/* A continuation of the previous line: ", speedupAvg=..." */
static int is_continuation(const char *line)
{
	const char *s = line;

	while (*s == ' ' || *s == '\t')
		s++;
	return *s == ',' && starts_field(s + 1 + strspn(s + 1, " "));
}

int benchmark_runner_parse(struct import_set *out, const char *data, size_t len,
			   const char *path, struct error *err)
{
	struct textscan ts;
	struct buf pending = BUF_INIT;
	struct bm_ctx c = {path, 0, err};
	size_t pending_line = 0, lines = 0;
	int rc = 0, more;

	textscan_init(&ts, data, len);
	do {
		const char *s;

		more = textscan_next(&ts);
		if (more && pending.len && is_continuation(ts.line.ptr)) {
			buf_puts(&pending, ts.line.ptr);
			continue;
		}
		if (pending.len) {
			c.line = pending_line;
			rc = parse_bm_line(out, &c, pending.ptr);
			if (rc < 0)
				goto out;
			buf_reset(&pending);
			lines++;
		}
		if (!more)
			break;
		if ((s = bm_start(ts.line.ptr))) {
			buf_puts(&pending, s);
			pending_line = ts.lineno;
		} else if (is_continuation(ts.line.ptr)) {
			c.line = ts.lineno;
			rc = bm_bad(&c,
				    "a 'Performance: bm=' line before "
				    "'%.32s'",
				    ts.line.ptr);
			goto out;
		}
	} while (more);
	if (!lines) {
		c.line = textscan_eof_line(&ts);
		rc = bm_bad(&c, "'Performance: bm=...' lines of "
				"BenchmarkRunner, found none");
	}
out:
	buf_release(&pending);
	textscan_release(&ts);
	return rc;
}

int benchmark_runner_detect(const char *data, size_t len)
{
	struct textscan ts;
	int found = 0;

	textscan_init(&ts, data, len);
	while (!found && textscan_next(&ts)) {
		const char *s = bm_start(ts.line.ptr);

		found = s && (strstr(s, ", device=") || strstr(s, ", id="));
	}
	textscan_release(&ts);
	return found;
}
