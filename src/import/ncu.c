/* Nsight Compute (ncu) results as import records: the --csv details page
 * (as printed to stdout among ==PROF== lines, or from --import), the wide
 * --page raw CSV, the details page as text, and the "no counters" cases.
 *
 * Records: one per kernel launch and numeric metric.
 * - metric: the details page's display name ("Duration", "DRAM
 *   Throughput"), on every page: a metric id (the raw page's columns, the
 *   details page with --print-metric-name name) that the default sections
 *   show is named by its label and section there (import/ncu_labels.c);
 *   another id stays as printed ("sm__inst_executed.sum"). Rule rows and
 *   text values are skipped.
 * - value, unit: normalised, so stdout (base units) and --import (scaled)
 *   give equal records: time in "ns", frequency in "hz", sizes in "byte"
 *   (Kbyte = 1000, KiB = 1024), rates per second ("byte/s"; cycles per
 *   second are "hz"), "Kbyte/block" as "byte/block"; "%", "cycle" and
 *   other units as printed; no unit: unitless. Durations are "lower".
 *   A launch's sizes (section "Launch Statistics") are binary: a scaled
 *   value whose printed digits allow one multiple of 1024 (of 1024^2 for
 *   Mbyte) is that multiple, as the base-unit forms print it ("32.77
 *   Kbyte" is 32,768 byte, "1.02 Kbyte/block" 1,024 byte/block).
 * - config: kernel=NAME, launch=ID (ncu's ID; in the text form, the
 *   launch's position in the report), section=SECTION (details page),
 *   block=(X,Y,Z) and grid=(X,Y,Z) (spaces removed) when printed.
 * `measure import` folds the launches of a kernel into one summary per
 * metric (import/rec.h); `git campaign ncu` keeps them. */
#include "import/ncu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "import/ncu_labels.h"
#include "import/nvcsv.h"
#include "import/rec.h"
#include "import/textscan.h"
#include "util/xalloc.h"

struct scale {
	const char *name;
	const char *base;
	int exp10; /* base units per unit, as a power of ten */
	int bin;   /* and times 1024^bin */
};

/* Matched without regard to case: ncu spells "Ghz", "Kbyte", "usecond" */
static const struct scale scales[] = {
	{"second", "ns", 9, 0},	   {"s", "ns", 9, 0},
	{"msecond", "ns", 6, 0},   {"ms", "ns", 6, 0},
	{"usecond", "ns", 3, 0},   {"us", "ns", 3, 0},
	{"\xc2\xb5s", "ns", 3, 0}, {"nsecond", "ns", 0, 0},
	{"ns", "ns", 0, 0},	   {"psecond", "ns", -3, 0},
	{"ps", "ns", -3, 0},	   {"hz", "hz", 0, 0},
	{"khz", "hz", 3, 0},	   {"mhz", "hz", 6, 0},
	{"ghz", "hz", 9, 0},	   {"thz", "hz", 12, 0},
	{"byte", "byte", 0, 0},	   {"kbyte", "byte", 3, 0},
	{"mbyte", "byte", 6, 0},   {"gbyte", "byte", 9, 0},
	{"tbyte", "byte", 12, 0},  {"pbyte", "byte", 15, 0},
	{"kb", "byte", 3, 0},	   {"mb", "byte", 6, 0},
	{"gb", "byte", 9, 0},	   {"tb", "byte", 12, 0},
	{"kib", "byte", 0, 1},	   {"mib", "byte", 0, 2},
	{"gib", "byte", 0, 3},	   {"tib", "byte", 0, 4},
	{"%", "%", 0, 0},	   {"cycle", "cycle", 0, 0},
};

static const struct scale *find_scale(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < sizeof(scales) / sizeof(*scales); i++)
		if (strlen(scales[i].name) == len &&
		    !strncasecmp(scales[i].name, s, len))
			return &scales[i];
	return NULL;
}

/* The base unit of unit in base ("" when unitless) and the factor to it.
 * Returns 1 when unit is a quantity whose values must be numbers. */
static int unit_normalise(const char *unit, char *base, size_t size, int *exp10,
			  int *bin)
{
	const char *slash = strchr(unit, '/');
	size_t nlen = slash ? (size_t)(slash - unit) : strlen(unit);
	const struct scale *num = find_scale(unit, nlen), *den = NULL;

	*exp10 = num ? num->exp10 : 0;
	*bin = num ? num->bin : 0;
	if (slash)
		den = find_scale(slash + 1, strlen(slash + 1));
	if (den && strcmp(den->base, "ns"))
		den = NULL;
	if (!slash) {
		snprintf(base, size, "%s", num ? num->base : unit);
	} else if (den) {
		/* per time unit to per second */
		*exp10 += 9 - den->exp10;
		if (num && !strcmp(num->base, "cycle"))
			snprintf(base, size, "hz");
		else
			snprintf(base, size, "%.*s/s",
				 num ? (int)strlen(num->base) : (int)nlen,
				 num ? num->base : unit);
	} else {
		snprintf(base, size, "%.*s/%s",
			 num ? (int)strlen(num->base) : (int)nlen,
			 num ? num->base : unit, slash + 1);
	}
	return num || den;
}

/* What identifies one launch in the records. */
struct launch {
	const char *kernel, *id, *block, *grid;
};

/* "(256, 1, 1)" as "(256,1,1)" */
static char *squeeze(const char *s)
{
	char *r = xstrdup(s), *w = r;

	for (; *s; s++)
		if (*s != ' ' && *s != '\t')
			*w++ = *s;
	*w = '\0';
	return r;
}

/* ncu's words for a value it has not got: "n/a", "-", "" and, since 2025,
 * "no data" (MemoryWorkloadAnalysis on an H200, for a kernel that spills
 * nothing). */
static int no_value(const char *value)
{
	return !*value || !strcasecmp(value, "n/a") || !strcmp(value, "-") ||
	       !strcasecmp(value, "no data");
}

/* The binary size V (bytes) that a scaled VALUE printed with ncu's digits
 * stands for: the one multiple of 1024^(exp10/3) within the printed
 * precision, else V itself. */
static double binary_size(double v, const char *value, int exp10)
{
	const char *dot = strchr(value, '.');
	double k = 1, half = 0.5, m;
	int digits = 0;

	if (exp10 < 3 || exp10 % 3 || strpbrk(value, "eE"))
		return v;
	if (dot)
		while (dot[1 + digits] >= '0' && dot[1 + digits] <= '9')
			digits++;
	for (int i = 0; i < exp10 / 3; i++)
		k *= 1024;
	for (int i = digits; i < exp10; i++)
		half *= 10;
	for (int i = exp10; i < digits; i++)
		half /= 10;
	m = (double)(long long)(v / k + 0.5) * k;
	return m - v < half && v - m < half ? m : v;
}

/* Adds the record of one metric. Returns 1 when added, 0 when the value is
 * no number (text, or no_value), -1 when the value of a time, frequency,
 * size or percentage is some other text. */
static int emit(struct import_set *out, const char *metric, const char *unit,
		const char *value, const char *section, const struct launch *l)
{
	struct import_rec *r;
	char base[128];
	int exp10, bin, quantity;
	double v;

	if (!*metric)
		return 0;
	quantity = unit_normalise(unit, base, sizeof(base), &exp10, &bin);
	if (nv_number(&v, value, strlen(value), exp10) < 0) {
		if (quantity && !no_value(value))
			return -1;
		return 0;
	}
	while (bin-- > 0)
		v *= 1024;
	if (section && !strcmp(section, "Launch Statistics") &&
	    (!strcmp(base, "byte") || !strcmp(base, "byte/block")))
		v = binary_size(v, value, exp10);
	r = import_add(out, metric, v, *base ? base : NULL);
	if (!strcmp(base, "ns"))
		r->better = IMPORT_BETTER_LOWER;
	import_rec_config(r, "kernel", "%s", l->kernel);
	import_rec_config(r, "launch", "%s", l->id);
	if (section && *section)
		import_rec_config(r, "section", "%s", section);
	if (l->block && *l->block)
		import_rec_config(r, "block", "%s", l->block);
	if (l->grid && *l->grid)
		import_rec_config(r, "grid", "%s", l->grid);
	return 1;
}

enum mode { M_NONE, M_DETAILS, M_RAW, M_TEXT };
enum table { T_OUT, T_DASH1, T_HEAD, T_DASH2, T_ROWS, T_SKIP };

struct ncu {
	struct import_set *out;
	const char *path;
	struct error *err;
	struct textscan it;
	struct strvec f, head, units;
	int mode;
	size_t nrec;
	/* CSV: the columns of the header, -1 when absent */
	int c_id, c_kernel, c_block, c_grid, c_section, c_name, c_unit, c_value;
	size_t need, head_line;
	int want_units;
	/* text: the launch being read and the metric table's columns */
	struct launch tl;
	char *t_kernel, *t_block, *t_grid, *t_section;
	char t_id[32];
	long t_next;
	int table;
	size_t span[3][2];
};

/* "PATH:LINE: expected WHAT" (eoi: ", found end of input" added) */
static int fail_at(struct ncu *st, const char *what, int eoi)
{
	return error_set(st->err, GCAMP_EFATAL, "%s:%zu: expected %s%s",
			 strcmp(st->path, "-") ? st->path : "stdin",
			 st->it.lineno, what,
			 eoi ? ", found end of input" : "");
}

static int fail(struct ncu *st, const char *what)
{
	return fail_at(st, what, 0);
}

/* "PATH:LINE: MSG" */
static int fail_msg(struct ncu *st, const char *msg)
{
	return error_set(st->err, GCAMP_EFATAL, "%s:%zu: %s",
			 strcmp(st->path, "-") ? st->path : "stdin",
			 st->it.lineno, msg);
}

static int col(const struct strvec *h, const char *name)
{
	size_t i;

	for (i = 0; i < h->nr; i++)
		if (!strcmp(h->v[i], name))
			return (int)i;
	return -1;
}

static int csv_header(struct ncu *st)
{
	int n = nv_csv_split(&st->head, st->it.line.ptr, st->it.line.len);
	size_t i;

	if (n < 0)
		return fail(st, "a CSV header line");
	for (i = 0; i < st->head.nr; i++) {
		char *t = xstrdup(nv_trim(st->head.v[i]));

		free(st->head.v[i]);
		st->head.v[i] = t;
	}
	st->c_id = col(&st->head, "ID");
	st->c_kernel = col(&st->head, "Kernel Name");
	st->c_block = col(&st->head, "Block Size");
	st->c_grid = col(&st->head, "Grid Size");
	st->c_section = col(&st->head, "Section Name");
	st->c_name = col(&st->head, "Metric Name");
	st->c_unit = col(&st->head, "Metric Unit");
	st->c_value = col(&st->head, "Metric Value");
	st->head_line = st->it.lineno;
	if (st->c_id < 0 || st->c_kernel < 0)
		return fail(st, "the columns \"ID\" and \"Kernel Name\"");
	if (st->c_name >= 0 || st->c_value >= 0) {
		if (st->c_name < 0 || st->c_unit < 0 || st->c_value < 0)
			return fail(st, "the columns \"Metric Name\", "
					"\"Metric Unit\" and \"Metric Value\"");
		st->mode = M_DETAILS;
	} else {
		st->mode = M_RAW;
		st->want_units = 1;
		strvec_clear(&st->units);
	}
	{
		const int cols[] = {st->c_id,	st->c_kernel,  st->c_block,
				    st->c_grid, st->c_section, st->c_name,
				    st->c_unit, st->c_value};

		st->need = 0;
		for (i = 0; i < sizeof(cols) / sizeof(*cols); i++)
			if (cols[i] >= 0 && (size_t)cols[i] + 1 > st->need)
				st->need = (size_t)cols[i] + 1;
	}
	return 0;
}

static const char *field(const struct ncu *st, int c)
{
	return c >= 0 && (size_t)c < st->f.nr ? st->f.v[c] : "";
}

static int launch_of_row(struct ncu *st, struct launch *l, char **block,
			 char **grid)
{
	const char *id = field(st, st->c_id);

	if (!*id || strspn(id, "0123456789") != strlen(id))
		return fail(st, "a launch number in column \"ID\"");
	if (!*field(st, st->c_kernel))
		return fail(st, "a kernel name in column \"Kernel Name\"");
	*block = squeeze(field(st, st->c_block));
	*grid = squeeze(field(st, st->c_grid));
	l->kernel = field(st, st->c_kernel);
	l->id = id;
	l->block = *block;
	l->grid = *grid;
	return 0;
}

static int csv_row(struct ncu *st)
{
	struct launch l;
	char *block = NULL, *grid = NULL, msg[128];
	int n, rc = 0;
	size_t i;

	n = nv_csv_split(&st->f, st->it.line.ptr, st->it.line.len);
	if (n == -2)
		return fail(st, "fewer than 65536 fields");
	if (n < 0)
		return fail(st, "a closing quote and a comma after it");
	if (st->mode == M_RAW && st->want_units) {
		st->want_units = 0;
		if (!*field(st, st->c_id)) {
			for (i = 0; i < st->f.nr; i++)
				strvec_push(&st->units, nv_trim(st->f.v[i]));
			return 0;
		}
	}
	if ((st->mode == M_DETAILS && st->f.nr < st->need) ||
	    (st->mode == M_RAW && st->f.nr != st->head.nr)) {
		snprintf(msg, sizeof(msg),
			 "%zu fields as in the header on line %zu, found %zu",
			 st->mode == M_RAW ? st->head.nr : st->need,
			 st->head_line, st->f.nr);
		return fail(st, msg);
	}
	if ((rc = launch_of_row(st, &l, &block, &grid)) < 0)
		goto out;
	if (st->mode == M_DETAILS) {
		const char *section = NULL;

		const char *name = nv_trim(st->f.v[st->c_name]);
		const struct ncu_label *lb = NULL;

		if (st->c_section >= 0)
			section = nv_trim(st->f.v[st->c_section]);
		/* --print-metric-name name: the label of the id there */
		while (section && (lb = ncu_label_next(name, lb)))
			if (!strcmp(lb->section, section)) {
				name = lb->label;
				break;
			}
		n = emit(st->out, name, nv_trim(st->f.v[st->c_unit]),
			 nv_trim(st->f.v[st->c_value]), section, &l);
		if (n > 0)
			st->nrec++;
	} else {
		for (i = 0; i < st->f.nr; i++) {
			const char *name = st->head.v[i];
			const char *unit =
				i < st->units.nr ? st->units.v[i] : "";

			const struct ncu_label *lb;

			/* metric ids have "__"; the launch's columns not */
			if (!strstr(name, "__"))
				continue;
			/* named as the details page names it, once per
			 * section that shows it */
			if (!(lb = ncu_label_next(name, NULL))) {
				n = emit(st->out, name, unit,
					 nv_trim(st->f.v[i]), NULL, &l);
			} else {
				for (n = 0; lb && n >= 0;
				     lb = ncu_label_next(name, lb)) {
					n = emit(st->out, lb->label, unit,
						 nv_trim(st->f.v[i]),
						 lb->section, &l);
					st->nrec += n > 0 ? (size_t)n : 0;
				}
				if (n >= 0)
					continue;
			}
			if (n < 0)
				break;
			st->nrec += (size_t)n;
		}
	}
	if (n < 0)
		rc = fail(st, "a number as the metric's value");
out:
	free(block);
	free(grid);
	return rc;
}

static int is_rule(const char *s, size_t len)
{
	size_t i;
	int dash = 0;

	for (i = 0; i < len; i++) {
		if (s[i] == '-')
			dash = 1;
		else if (s[i] != ' ')
			return 0;
	}
	return dash;
}

static int is_blank(const char *s, size_t len)
{
	return strspn(s, " \t") >= len;
}

/* The runs of '-' of a table's rule line, the first three in span;
 * returns how many there are. */
static int rule_spans(size_t span[3][2], const char *s, size_t len)
{
	size_t i = 0, a;
	int n = 0;

	while (i < len) {
		if (s[i] != '-') {
			i++;
			continue;
		}
		for (a = i; i < len && s[i] == '-'; i++)
			;
		if (n < 3) {
			span[n][0] = a;
			span[n][1] = i;
		}
		n++;
	}
	return n;
}

/* s[a, b) clipped to len, trimmed, as a new string */
static char *slice(const char *s, size_t len, size_t a, size_t b)
{
	char *r, *t;

	if (b > len)
		b = len;
	if (a > b)
		a = b;
	r = xstrndup(s + a, b - a);
	t = xstrdup(nv_trim(r));
	free(r);
	return t;
}

/* The index of the '(' that opens the group ending at s[end - 1] == ')',
 * searching no lower than from; -1 when there is none. */
static long open_paren(const char *s, size_t from, size_t end)
{
	size_t i;

	for (i = end - 1; i > from; i--)
		if (s[i - 1] == '(')
			return (long)(i - 1);
	return -1;
}

static void text_forget_launch(struct ncu *st)
{
	free(st->t_kernel);
	free(st->t_block);
	free(st->t_grid);
	free(st->t_section);
	st->t_kernel = st->t_block = st->t_grid = st->t_section = NULL;
}

/* "  vadd (65536, 1, 1)x(256, 1, 1), Context 1, Stream 7, Device 0, CC 9.0"
 * (older releases: "  vadd, 2021-Mar-23 13:04:07, Context 1, Stream 7")
 * starts a launch; returns 1 when the line is one. */
static int text_kernel(struct ncu *st)
{
	const char *s = st->it.line.ptr, *p, *ctx = NULL;
	size_t len = st->it.line.len, end;
	char *block = NULL, *grid = NULL, *name;
	long lp, gp;

	if (len < 3 || s[0] != ' ' || s[1] != ' ' || s[2] == ' ')
		return 0;
	for (p = s; (p = strstr(p, ", Context ")); p++)
		ctx = p;
	if (!ctx || !strstr(ctx, ", Stream "))
		return 0;
	end = (size_t)(ctx - s);
	if (end > 2 && s[end - 1] == ')') {
		lp = open_paren(s, 2, end);
		if (lp >= 4 && s[lp - 1] == 'x' && s[lp - 2] == ')' &&
		    (gp = open_paren(s, 2, (size_t)lp - 1)) >= 2) {
			block = xstrndup(s + lp, end - (size_t)lp);
			grid = xstrndup(s + gp, (size_t)(lp - 1 - gp));
			end = (size_t)gp;
		}
	}
	name = slice(s, len, 2, end);
	if (!block) {
		/* drop the older releases' ", <date> <time>" */
		char *c = strrchr(name, ',');

		if (c && c[1] == ' ' && c[2] >= '0' && c[2] <= '9' &&
		    strchr(c, ':'))
			*c = '\0';
	}
	if (!*name) {
		free(name);
		free(block);
		free(grid);
		return 0;
	}
	text_forget_launch(st);
	st->t_kernel = name;
	st->t_block = squeeze(block ? block : "");
	st->t_grid = squeeze(grid ? grid : "");
	free(block);
	free(grid);
	snprintf(st->t_id, sizeof(st->t_id), "%ld", st->t_next++);
	st->tl.kernel = st->t_kernel;
	st->tl.id = st->t_id;
	st->tl.block = st->t_block;
	st->tl.grid = st->t_grid;
	st->table = T_OUT;
	st->mode = M_TEXT;
	return 1;
}

static int text_row(struct ncu *st)
{
	const char *s = st->it.line.ptr;
	size_t len = st->it.line.len;
	char *name, *unit, *value;
	int n;

	if (len <= st->span[2][0] ||
	    is_blank(s + st->span[2][0], len - st->span[2][0]))
		return fail(st, "a metric's name, unit and value, or the "
				"table's closing '---' line");
	name = slice(s, len, st->span[0][0], st->span[1][0]);
	unit = slice(s, len, st->span[1][0], st->span[2][0]);
	value = slice(s, len, st->span[2][0], len);
	n = emit(st->out, name, unit, value, st->t_section, &st->tl);
	free(name);
	free(unit);
	free(value);
	if (n < 0)
		return fail(st, "a number as the metric's value");
	st->nrec += (size_t)n;
	return 0;
}

static int text_line(struct ncu *st)
{
	const char *s = st->it.line.ptr;
	size_t len = st->it.line.len;

	switch (st->table) {
	case T_DASH1:
		if (is_blank(s, len))
			return 0;
		if (is_rule(s, len)) {
			st->table = T_HEAD;
			return 0;
		}
		st->table = T_OUT;
		break;
	case T_HEAD:
		st->table = strstr(s, "Metric Name") &&
					    strstr(s, "Metric Unit") &&
					    strstr(s, "Metric Value")
				    ? T_DASH2
				    : T_SKIP;
		return 0;
	case T_DASH2:
		if (!is_rule(s, len) || rule_spans(st->span, s, len) != 3)
			return fail(st, "the '---' line under a metric table's "
					"header");
		st->table = T_ROWS;
		return 0;
	case T_ROWS:
		if (is_rule(s, len)) {
			st->table = T_OUT;
			return 0;
		}
		return text_row(st);
	case T_SKIP:
		if (is_blank(s, len))
			st->table = T_OUT;
		return 0;
	default:
		break;
	}
	if (text_kernel(st))
		return 0;
	if (st->t_kernel && len > 4 && s[0] == ' ') {
		const char *t = s + strspn(s, " ");

		if (!strncmp(t, "Section: ", 9)) {
			free(st->t_section);
			st->t_section = xstrdup(nv_trim((char *)t + 9));
			st->table = T_DASH1;
		}
	}
	return 0;
}

/* ncu's messages that mean "this machine gave no counters" */
static int diagnose(struct ncu *st, const char *data, size_t len,
		    size_t *nokern)
{
	struct textscan it;
	size_t perm = 0, lib = 0, busy = 0;
	const char *p;
	int rc = 0;

	textscan_init(&it, data, len);
	while (textscan_next(&it)) {
		p = it.line.ptr;
		if (!nv_starts(p, it.line.len, "=="))
			continue;
		if (!perm && strstr(p, "ERR_NVGPUCTRPERM"))
			perm = it.lineno;
		if (!lib && (strstr(p, "Failed to initialize the profiler") ||
			     strstr(p, "LibraryNotLoaded")))
			lib = it.lineno;
		if (!busy && strstr(p, "driver resource was unavailable"))
			busy = it.lineno;
		if (!*nokern && strstr(p, "No kernels were profiled"))
			*nokern = it.lineno;
	}
	st->it.lineno = perm ? perm : lib ? lib : busy;
	if (perm) {
		rc = fail_msg(
			st, "ncu could not read the GPU performance counters "
			    "(ERR_NVGPUCTRPERM): this machine lets only "
			    "administrators profile; no results were recorded");
		error_hint(st->err,
			   "as root, put 'options nvidia "
			   "NVreg_RestrictProfilingToAdminUsers=0' in "
			   "/etc/modprobe.d/ and reload the driver, or run "
			   "ncu as root (a container needs CAP_SYS_ADMIN); "
			   "RmProfilingAdminOnly in /proc/driver/nvidia/params "
			   "shows the setting");
	} else if (lib) {
		rc = fail_msg(
			st, "ncu could not start its profiler "
			    "(LibraryNotLoaded): this machine does not expose "
			    "the GPU's performance counters; no results were "
			    "recorded");
		error_hint(st->err,
			   "some container runtimes (gVisor) hide the "
			   "counters: profile on the host or under a runtime "
			   "that passes the GPU through");
	} else if (busy) {
		rc = fail_msg(
			st,
			"ncu could not get the GPU's performance counters: "
			"another tool holds them; no results were recorded");
		error_hint(st->err, "stop the other collector (DCGM: "
				    "'dcgmi profile --pause') and profile "
				    "again");
	}
	textscan_release(&it);
	return rc;
}

static int end_of_input(struct ncu *st, size_t nokern)
{
	if (!st->it.lineno)
		st->it.lineno = 1;
	if (st->mode == M_TEXT && st->table >= T_HEAD && st->table <= T_ROWS)
		return fail_at(st, "the closing '---' line of a metric table",
			       1);
	if (st->nrec)
		return 0;
	if (nokern) {
		st->it.lineno = nokern;
		fail_msg(st,
			 "ncu profiled no kernels; no results were recorded");
		error_hint(st->err, "check --kernel-name, --launch-skip and "
				    "--launch-count; child processes need "
				    "--target-processes all");
		return GCAMP_EFATAL;
	}
	if (st->mode == M_NONE) {
		fail_at(st, "ncu's CSV header (\"ID\",...) or its text report",
			1);
		error_hint(st->err, "run ncu with --csv, or import a saved "
				    "report: ncu --import REPORT.ncu-rep "
				    "--csv --page details");
		return GCAMP_EFATAL;
	}
	return fail_at(st, "the results of a profiled kernel", 1);
}

int ncu_parse(struct import_set *out, const char *data, size_t len,
	      const char *path, struct error *err)
{
	struct ncu st;
	size_t nokern = 0;
	const char *s;
	int rc;

	memset(&st, 0, sizeof(st));
	st.out = out;
	st.path = path;
	st.err = err;
	textscan_init(&st.it, data, len);
	if ((rc = diagnose(&st, data, len, &nokern)) < 0)
		goto out;
	st.it.lineno = 0;
	while (textscan_next(&st.it)) {
		s = st.it.line.ptr;
		if (nv_starts(s, st.it.line.len, "=="))
			continue;
		if (nv_starts(s, st.it.line.len, "\"ID\","))
			rc = csv_header(&st);
		else if (st.mode == M_DETAILS || st.mode == M_RAW)
			rc = s[0] == '"' ? csv_row(&st) : 0;
		else if (nv_starts(s, st.it.line.len,
				   "\"Process ID\",\"Kernel Name\"")) {
			rc = fail(&st, "one row per launch, not ncu's "
				       "--print-summary table");
			error_hint(err, "run ncu without --print-summary");
		} else
			rc = text_line(&st);
		if (rc < 0)
			goto out;
	}
	rc = end_of_input(&st, nokern);
out:
	text_forget_launch(&st);
	textscan_release(&st.it);
	strvec_clear(&st.f);
	strvec_clear(&st.head);
	strvec_clear(&st.units);
	return rc;
}

int ncu_detect(const char *data, size_t len)
{
	struct textscan it;
	const char *s;
	size_t n;
	int found = 0;

	textscan_init(&it, data, len);
	while (!found && textscan_next(&it)) {
		s = it.line.ptr;
		n = it.line.len;
		found = nv_starts(s, n, "\"ID\",\"Process ID\",") ||
			nv_starts(s, n, "\"Process ID\",\"Kernel Name\",") ||
			nv_starts(s, n, "==PROF==") ||
			nv_starts(s, n, "==ERROR==") ||
			nv_starts(s, n, "==WARNING==") ||
			(nv_starts(s, n, "==") &&
			 strstr(s, "ERR_NVGPUCTRPERM")) ||
			(strstr(s, "Metric Name") && strstr(s, "Metric Unit") &&
			 strstr(s, "Metric Value"));
	}
	textscan_release(&it);
	return found;
}
