/* Nsight Systems' reports (nsys stats --format csv) as import records:
 * the summaries cuda_api_sum, cuda_gpu_kern_sum, cuda_gpu_mem_time_sum,
 * cuda_gpu_mem_size_sum and nvtx_sum, and the per-launch cuda_gpu_trace,
 * under their 2023.1+ names or the older ones (cudaapisum, gpukernsum,
 * gputrace, ...), several in one input.
 *
 * cuda_gpu_trace: one record per row and metric, "duration" in ns (lower)
 * and, for a memory operation, "size" in bytes (Bytes (MB) = 10^6 bytes),
 * config report=cuda_gpu_trace, name=NAME, launch=CORRID, and
 * grid=(X,Y,Z), block=(X,Y,Z) for a kernel; `measure import` folds them
 * into summaries per name and shape (import/rec.h).
 *
 * Summary reports: one record per row and kept statistic column.
 * - metric "calls": the column Num Calls, Instances, Count, Calls or
 *   Operations (unitless, stat "count": the robust signal);
 * - "time_total", "time_avg", "time_med", "time_min", "time_max",
 *   "time_stddev": in "ns" whatever --timeunit printed (stat "total",
 *   "mean", "median", "min", "max", "stddev"; better "lower");
 * - "size_total", "size_avg", ... likewise in "byte" (cuda_gpu_mem_size_sum:
 *   MB = 10^6 bytes; the older reports' unsuffixed columns are KiB).
 * "Time (%)" is not kept: it depends on whatever else ran.
 * - config: report=NAME (the 2023.1+ name), name=ROW (Name, Operation or
 *   Range; "[CUDA memcpy HtoD]" as "[CUDA memcpy Host-to-Device]"), and
 *   grid=, block= when the report has GridXYZ/BlockXYZ columns.
 * The report is named by the "Processing [...reports/NAME.py]", "Executing
 * 'NAME'" or " ** Title (NAME):" line before it, by a file name ending in
 * _NAME.csv, or else told from its columns. Other reports are skipped. */
#include "import/nsys.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "import/nvcsv.h"
#include "import/rec.h"
#include "import/textscan.h"
#include "util/xalloc.h"

static const struct report {
	const char *name, *old;
} reports[] = {
	{"cuda_api_sum", "cudaapisum"},
	{"cuda_gpu_kern_sum", "gpukernsum"},
	{"cuda_gpu_mem_time_sum", "gpumemtimesum"},
	{"cuda_gpu_mem_size_sum", "gpumemsizesum"},
	{"nvtx_sum", "nvtxsum"},
	{"cuda_gpu_trace", "gputrace"},
};
#define NREPORTS ((int)(sizeof(reports) / sizeof(*reports)))
enum { R_API, R_KERN, R_MEMTIME, R_MEMSIZE, R_NVTX, R_TRACE };
#define R_UNKNOWN (-1) /* not named: told from the header */
#define R_OTHER (-2)   /* named, not one we read: skipped */

enum kind { K_SKIP, K_CALLS, K_TIME, K_SIZE, K_NAME, K_GRID, K_BLOCK };

struct column {
	int kind;
	const char *stat; /* "total", "mean", ... */
	int exp10, bin;	  /* to ns or bytes */
};

struct nsys {
	struct import_set *out;
	const char *path;
	struct error *err;
	struct textscan it;
	struct strvec f, head;
	struct column *cols;
	int report, in_table, tables;
	int name_col, grid_col, block_col;
	/* cuda_gpu_trace: the columns, -1 when absent, and their scales */
	int trace, t_dur, t_corr, t_bytes, t_grid[3], t_block[3];
	int dur_exp10, bytes_exp10;
	size_t nrec;
};

static int fail(struct nsys *st, const char *what)
{
	return error_set(st->err, GCAMP_EFATAL, "%s:%zu: expected %s",
			 strcmp(st->path, "-") ? st->path : "stdin",
			 st->it.lineno, what);
}

static int report_find(const char *name, size_t len)
{
	int i;

	for (i = 0; i < NREPORTS; i++)
		if ((strlen(reports[i].name) == len &&
		     !memcmp(reports[i].name, name, len)) ||
		    (strlen(reports[i].old) == len &&
		     !memcmp(reports[i].old, name, len)))
			return i;
	return R_OTHER;
}

/* "/opt/nvidia/.../reports/cuda_api_sum.py" or "cuda_api_sum:base" */
static int report_of_path(const char *p, size_t len)
{
	size_t i, start = 0, end;

	for (i = 0; i < len; i++)
		if (p[i] == '/' || p[i] == '\\')
			start = i + 1;
	for (end = start; end < len && p[end] != ':'; end++)
		;
	if (end - start > 3 && !memcmp(p + end - 3, ".py", 3))
		end -= 3;
	return report_find(p + start, end - start);
}

/* The report a banner line names, or R_UNKNOWN when it names none. */
static int banner(const char *s, size_t len)
{
	const char *a, *b;

	if (nv_starts(s, len, "Processing [") && (a = strstr(s, "] with ["))) {
		a += 8;
		b = strchr(a, ']');
		return report_of_path(a, b ? (size_t)(b - a) : strlen(a));
	}
	if (nv_starts(s, len, "Running [")) {
		a = s + 9;
		return report_of_path(a, strcspn(a, " ]"));
	}
	if ((a = strstr(s, "Executing '")) && strstr(s, "' stats report")) {
		a += 11;
		return report_of_path(a, strcspn(a, "'"));
	}
	a = s + strspn(s, " #");
	if (!strncmp(a, "** ", 3) && len > 3 && s[len - 1] == ':' &&
	    s[len - 2] == ')' && (b = strrchr(s, '(')))
		return report_of_path(b + 1, (size_t)(s + len - 2 - (b + 1)));
	return R_UNKNOWN;
}

/* "X_cuda_api_sum.csv", as nsys stats --output X writes */
static int report_of_file(const char *path)
{
	size_t len = strlen(path), n;
	int i, j;

	if (len < 4 || strcmp(path + len - 4, ".csv"))
		return R_UNKNOWN;
	len -= 4;
	for (i = 0; i < NREPORTS; i++)
		for (j = 0; j < 2; j++) {
			const char *r = j ? reports[i].old : reports[i].name;

			n = strlen(r);
			if (len > n && path[len - n - 1] == '_' &&
			    !memcmp(path + len - n, r, n))
				return i;
		}
	return R_UNKNOWN;
}

/* A header cell: its name in lower case without spaces, and its unit */
static void cell_split(const char *cell, char *name, size_t nsize, char *unit,
		       size_t usize)
{
	const char *paren = strchr(cell, '(');
	size_t i, n = 0, end = paren ? (size_t)(paren - cell) : strlen(cell);

	/* "Time (%)" and "Time(%)" keep the parenthesis: it is no unit */
	if (paren && paren[1] == '%')
		end = strlen(cell);
	for (i = 0; i < end && n + 1 < nsize; i++)
		if (cell[i] != ' ')
			name[n++] = (char)(cell[i] >= 'A' && cell[i] <= 'Z'
						   ? cell[i] - 'A' + 'a'
						   : cell[i]);
	name[n] = '\0';
	unit[0] = '\0';
	if (paren && end < strlen(cell))
		snprintf(unit, usize, "%.*s", (int)strcspn(paren + 1, ")"),
			 paren + 1);
}

static const struct unit_scale {
	const char *name;
	int kind, exp10, bin;
} unit_scales[] = {
	{"ns", K_TIME, 0, 0},  {"us", K_TIME, 3, 0},  {"ms", K_TIME, 6, 0},
	{"s", K_TIME, 9, 0},   {"B", K_SIZE, 0, 0},   {"KB", K_SIZE, 3, 0},
	{"kB", K_SIZE, 3, 0},  {"MB", K_SIZE, 6, 0},  {"GB", K_SIZE, 9, 0},
	{"KiB", K_SIZE, 0, 1}, {"MiB", K_SIZE, 0, 2}, {"GiB", K_SIZE, 0, 3},
};

static const struct {
	const char *name, *stat;
} stat_names[] = {
	{"totaltime", "total"}, {"total", "total"},   {"avg", "mean"},
	{"average", "mean"},	{"med", "median"},    {"median", "median"},
	{"min", "min"},		{"minimum", "min"},   {"max", "max"},
	{"maximum", "max"},	{"stddev", "stddev"},
};

static void classify(struct column *c, const char *cell, int report)
{
	char name[64], unit[16];
	size_t i;

	memset(c, 0, sizeof(*c));
	cell_split(cell, name, sizeof(name), unit, sizeof(unit));
	if (!strcmp(name, "numcalls") || !strcmp(name, "calls") ||
	    !strcmp(name, "instances") || !strcmp(name, "count") ||
	    !strcmp(name, "operations")) {
		c->kind = K_CALLS;
		c->stat = "count";
		return;
	}
	if (!strcmp(name, "name") || !strcmp(name, "operation") ||
	    !strcmp(name, "range")) {
		c->kind = K_NAME;
		return;
	}
	if (!strcmp(name, "gridxyz") || !strcmp(name, "blockxyz")) {
		c->kind = name[0] == 'g' ? K_GRID : K_BLOCK;
		return;
	}
	for (i = 0; i < sizeof(stat_names) / sizeof(*stat_names); i++)
		if (!strcmp(name, stat_names[i].name))
			break;
	if (i == sizeof(stat_names) / sizeof(*stat_names))
		return;
	c->stat = stat_names[i].stat;
	if (!*unit) {
		/* the documented defaults: times in ns, old sizes in KiB */
		c->kind = report == R_MEMSIZE && strcmp(name, "totaltime")
				  ? K_SIZE
				  : K_TIME;
		c->bin = c->kind == K_SIZE;
		return;
	}
	for (i = 0; i < sizeof(unit_scales) / sizeof(*unit_scales); i++)
		if (!strcmp(unit, unit_scales[i].name)) {
			c->kind = unit_scales[i].kind;
			c->exp10 = unit_scales[i].exp10;
			c->bin = unit_scales[i].bin;
			return;
		}
}

/* The report a header with no banner before it belongs to */
static int infer(const struct nsys *st, int calls_col)
{
	char name[64], unit[16], cname[64], tname[64];
	size_t i;

	cell_split(st->head.v[st->name_col], name, sizeof(name), unit,
		   sizeof(unit));
	cell_split(st->head.v[calls_col], cname, sizeof(cname), unit,
		   sizeof(unit));

	if (!strcmp(name, "range"))
		return R_NVTX;
	/* every time report has "Total Time"; the size report has not */
	for (i = 0; i < st->head.nr; i++) {
		cell_split(st->head.v[i], tname, sizeof(tname), unit,
			   sizeof(unit));
		if (!strcmp(tname, "totaltime"))
			break;
	}
	if (i == st->head.nr)
		return R_MEMSIZE;
	if (!strcmp(name, "operation") || !strcmp(cname, "operations") ||
	    !strcmp(cname, "count"))
		return R_MEMTIME;
	if (!strcmp(cname, "instances"))
		return R_KERN;
	return R_API;
}

/* The exponent of ten from unit to base ("ns", or "B" with sizes); -99
 * when unit is none of them */
static int trace_scale(const char *unit, int kind)
{
	size_t i;

	if (!*unit)
		return kind == K_TIME ? 0 : -99;
	for (i = 0; i < sizeof(unit_scales) / sizeof(*unit_scales); i++)
		if (!strcmp(unit, unit_scales[i].name) &&
		    unit_scales[i].kind == kind && !unit_scales[i].bin)
			return unit_scales[i].exp10;
	return -99;
}

/* A cuda_gpu_trace header (Start, Duration, CorrId, GrdX..BlkZ, Bytes,
 * Name, ...): 1 when st->head is one, its columns noted */
static int trace_header(struct nsys *st)
{
	static const char *const dims[] = {"x", "y", "z"};
	char name[64], unit[16];
	size_t i, d;

	st->t_dur = st->t_corr = st->t_bytes = -1;
	for (d = 0; d < 3; d++)
		st->t_grid[d] = st->t_block[d] = -1;
	for (i = 0; i < st->head.nr; i++) {
		cell_split(st->head.v[i], name, sizeof(name), unit,
			   sizeof(unit));
		if (!strcmp(name, "duration")) {
			st->t_dur = (int)i;
			st->dur_exp10 = trace_scale(unit, K_TIME);
		} else if (!strcmp(name, "corrid")) {
			st->t_corr = (int)i;
		} else if (!strcmp(name, "bytes")) {
			st->t_bytes = (int)i;
			/* the report's sizes are MB = 10^6 bytes */
			st->bytes_exp10 = *unit ? trace_scale(unit, K_SIZE) : 6;
		}
		for (d = 0; d < 3; d++) {
			if (!strncmp(name, "grd", 3) &&
			    !strcmp(name + 3, dims[d]))
				st->t_grid[d] = (int)i;
			if (!strncmp(name, "blk", 3) &&
			    !strcmp(name + 3, dims[d]))
				st->t_block[d] = (int)i;
		}
	}
	if (st->t_dur < 0 || st->t_corr < 0 || st->dur_exp10 == -99 ||
	    (st->t_bytes >= 0 && st->bytes_exp10 == -99))
		return 0;
	st->trace = 1;
	st->report = R_TRACE;
	st->in_table = 1;
	st->tables++;
	return 1;
}

/* Reads a header line when it is one; returns 1 then, 0 when not. */
static int header(struct nsys *st)
{
	int n, calls = -1, report = st->report;
	size_t i;

	if (!strchr(st->it.line.ptr, ','))
		return 0;
	n = nv_csv_split(&st->head, st->it.line.ptr, st->it.line.len);
	if (n < 2)
		return 0;
	for (i = 0; i < st->head.nr; i++) {
		char *t = xstrdup(nv_trim(st->head.v[i]));

		free(st->head.v[i]);
		st->head.v[i] = t;
	}
	free(st->cols);
	st->cols = xcalloc(st->head.nr, sizeof(*st->cols));
	st->name_col = st->grid_col = st->block_col = -1;
	/* a first pass for the kinds that do not depend on the report */
	for (i = 0; i < st->head.nr; i++) {
		classify(&st->cols[i], st->head.v[i], report);
		if (st->cols[i].kind == K_CALLS && calls < 0)
			calls = (int)i;
		if (st->cols[i].kind == K_NAME && st->name_col < 0)
			st->name_col = (int)i;
		if (st->cols[i].kind == K_GRID)
			st->grid_col = (int)i;
		if (st->cols[i].kind == K_BLOCK)
			st->block_col = (int)i;
	}
	st->trace = 0;
	if (st->name_col >= 0 && (report == R_TRACE || report == R_UNKNOWN) &&
	    trace_header(st))
		return 1;
	if (calls < 0 || st->name_col < 0)
		return 0;
	if (report == R_UNKNOWN) {
		report = infer(st, calls);
		for (i = 0; i < st->head.nr; i++)
			classify(&st->cols[i], st->head.v[i], report);
	}
	st->report = report;
	st->in_table = 1;
	st->tables++;
	return 1;
}

/* "  128    1    1" as "128 1 1", in place */
static const char *collapse(char *s)
{
	char *r = s, *w = s;

	s = nv_trim(s);
	for (; *s; s++)
		if (*s != ' ' || s[1] != ' ')
			*w++ = *s;
	*w = '\0';
	return r;
}

static const char *const memcpy_kinds[][2] = {
	{"HtoD", "Host-to-Device"},   {"DtoH", "Device-to-Host"},
	{"DtoD", "Device-to-Device"}, {"HtoH", "Host-to-Host"},
	{"PtoP", "Peer-to-Peer"},
};

/* "(X,Y,Z)" of three columns, or NULL when the first is empty (a memory
 * operation has no grid) */
static char *dims_of(struct nsys *st, const int *col)
{
	const char *c[3];
	size_t d;

	for (d = 0; d < 3; d++) {
		if (col[d] < 0)
			return NULL;
		c[d] = nv_trim(st->f.v[col[d]]);
	}
	if (!*c[0])
		return NULL;
	return xasprintf("(%s,%s,%s)", c[0], c[1], c[2]);
}

/* One launch or memory operation of cuda_gpu_trace: "duration" in ns and,
 * for memory operations, "size" in bytes, with launch=CORRID; the
 * summaries fold them per name, grid and block (import/rec.h). */
static int trace_row(struct nsys *st, const char *rowname)
{
	struct import_rec *r;
	const char *cell, *corr = nv_trim(st->f.v[st->t_corr]);
	char *grid = dims_of(st, st->t_grid), *block = dims_of(st, st->t_block);
	char msg[160];
	double v;
	int pass, rc = 0;

	if (!*corr) {
		rc = fail(st, "a correlation id in column \"CorrId\"");
		goto out;
	}
	for (pass = 0; pass < 2; pass++) {
		int col = pass ? st->t_bytes : st->t_dur;

		if (col < 0)
			continue;
		cell = nv_trim(st->f.v[col]);
		if (pass && !*cell)
			continue;
		if (nv_number(&v, cell, strlen(cell),
			      pass ? st->bytes_exp10 : st->dur_exp10) < 0) {
			snprintf(msg, sizeof(msg),
				 "a number in column \"%.100s\"",
				 st->head.v[col]);
			rc = fail(st, msg);
			goto out;
		}
		r = import_add(st->out, pass ? "size" : "duration", v,
			       pass ? "byte" : "ns");
		if (!pass)
			r->better = IMPORT_BETTER_LOWER;
		import_rec_config(r, "report", "%s", reports[R_TRACE].name);
		import_rec_config(r, "name", "%s", rowname);
		import_rec_config(r, "launch", "%s", corr);
		if (grid)
			import_rec_config(r, "grid", "%s", grid);
		if (block)
			import_rec_config(r, "block", "%s", block);
		st->nrec++;
	}
out:
	free(grid);
	free(block);
	return rc;
}

static int row(struct nsys *st)
{
	struct import_rec *r;
	const char *name, *metric_base;
	char metric[32], msg[160], *rowname = NULL;
	size_t i, k;
	double v;
	int n, rc = 0;

	n = nv_csv_split(&st->f, st->it.line.ptr, st->it.line.len);
	if (n == -2)
		return fail(st, "fewer than 65536 fields");
	if (n < 0)
		return fail(st, "a closing quote and a comma after it");
	if (st->f.nr != st->head.nr) {
		snprintf(msg, sizeof(msg),
			 "%zu fields as in the header, "
			 "found %zu",
			 st->head.nr, st->f.nr);
		return fail(st, msg);
	}
	name = nv_trim(st->f.v[st->name_col]);
	rowname = xstrdup(name);
	for (k = 0; !strncmp(name, "[CUDA memcpy ", 13) &&
		    k < sizeof(memcpy_kinds) / sizeof(*memcpy_kinds);
	     k++) {
		size_t kl = strlen(memcpy_kinds[k][0]);

		if (!strncmp(name + 13, memcpy_kinds[k][0], kl) &&
		    !strcmp(name + 13 + kl, "]")) {
			free(rowname);
			rowname = xasprintf("[CUDA memcpy %s]",
					    memcpy_kinds[k][1]);
		}
	}
	if (st->trace) {
		rc = trace_row(st, rowname);
		goto out;
	}
	for (i = 0; i < st->f.nr; i++) {
		const struct column *c = &st->cols[i];
		const char *cell = nv_trim(st->f.v[i]);

		if (c->kind != K_CALLS && c->kind != K_TIME &&
		    c->kind != K_SIZE)
			continue;
		if (!*cell)
			continue;
		if (nv_number(&v, cell, strlen(cell), c->exp10) < 0) {
			snprintf(msg, sizeof(msg),
				 "a number in column \"%.100s\"",
				 st->head.v[i]);
			rc = fail(st, msg);
			goto out;
		}
		for (k = 0; k < (size_t)c->bin; k++)
			v *= 1024;
		metric_base = c->kind == K_TIME ? "time" : "size";
		if (c->kind == K_CALLS)
			snprintf(metric, sizeof(metric), "calls");
		else
			snprintf(metric, sizeof(metric), "%s_%s", metric_base,
				 !strcmp(c->stat, "mean")     ? "avg"
				 : !strcmp(c->stat, "median") ? "med"
							      : c->stat);
		r = import_add(st->out, metric, v,
			       c->kind == K_TIME   ? "ns"
			       : c->kind == K_SIZE ? "byte"
						   : NULL);
		import_rec_stat(r, c->stat);
		if (c->kind == K_TIME)
			r->better = IMPORT_BETTER_LOWER;
		import_rec_config(r, "report", "%s", reports[st->report].name);
		import_rec_config(r, "name", "%s", rowname);
		if (st->grid_col >= 0)
			import_rec_config(r, "grid", "%s",
					  collapse(st->f.v[st->grid_col]));
		if (st->block_col >= 0)
			import_rec_config(r, "block", "%s",
					  collapse(st->f.v[st->block_col]));
		st->nrec++;
	}
out:
	free(rowname);
	return rc;
}

static int is_blank_line(const char *s)
{
	return !s[strspn(s, " \t")];
}

/* nsys stats' default column table: a header with no commas */
static int is_column_table(const char *s)
{
	s += strspn(s, " #");
	return (!strncmp(s, "Time (%)", 8) || !strncmp(s, "Time(%)", 7)) &&
	       !strchr(s, ',');
}

static int end_of_input(struct nsys *st, size_t skipped)
{
	if (!st->it.lineno)
		st->it.lineno = 1;
	if (st->nrec)
		return 0;
	if (st->tables)
		return fail(st, "a row of a report, found end of input");
	if (skipped) {
		error_set(st->err, GCAMP_EFATAL,
			  "%s: every report in it was SKIPPED: no data",
			  strcmp(st->path, "-") ? st->path : "stdin");
		error_hint(st->err, "profile with the traces the reports "
				    "need (nsys profile -t cuda,nvtx)");
		return GCAMP_EFATAL;
	}
	fail(st, "a table of nsys stats --format csv (a header such as "
		 "\"Time (%),Total Time (ns),Num Calls,...,Name\"), found "
		 "end of input");
	error_hint(st->err, "nsys stats --report cuda_api_sum "
			    "--format csv REPORT.nsys-rep");
	return GCAMP_EFATAL;
}

int nsys_parse(struct import_set *out, const char *data, size_t len,
	       const char *path, struct error *err)
{
	struct nsys st;
	int file_report = report_of_file(path), b, rc = 0;
	size_t skipped = 0;
	const char *s;

	memset(&st, 0, sizeof(st));
	st.out = out;
	st.path = path;
	st.err = err;
	st.report = file_report;
	textscan_init(&st.it, data, len);
	while (textscan_next(&st.it)) {
		s = st.it.line.ptr;
		if (st.in_table && is_blank_line(s)) {
			st.in_table = 0;
			st.report = file_report;
			continue;
		}
		b = banner(s, st.it.line.len);
		if (b != R_UNKNOWN) {
			st.in_table = 0;
			st.report = b;
			continue;
		}
		if (st.in_table) {
			if (st.report != R_OTHER && (rc = row(&st)) < 0)
				goto out;
			continue;
		}
		if (nv_starts(s, st.it.line.len, "SKIPPED:")) {
			skipped++;
			continue;
		}
		if (is_column_table(s)) {
			rc = fail(&st, "CSV, not nsys stats' column table");
			error_hint(err, "run nsys stats with --format csv");
			goto out;
		}
		if (header(&st) && st.report == R_OTHER)
			st.tables--;
	}
	rc = end_of_input(&st, skipped);
out:
	textscan_release(&st.it);
	strvec_clear(&st.f);
	strvec_clear(&st.head);
	free(st.cols);
	return rc;
}

int nsys_detect(const char *data, size_t len)
{
	struct textscan it;
	const char *s;
	size_t n;
	int found = 0;

	textscan_init(&it, data, len);
	while (!found && textscan_next(&it)) {
		s = it.line.ptr;
		n = it.line.len;
		found = (nv_starts(s, n, "Processing [") &&
			 strstr(s, "] with [")) ||
			(nv_starts(s, n, "Running [") &&
			 strstr(s, "reports")) ||
			(strstr(s, "Executing '") &&
			 strstr(s, "' stats report")) ||
			(nv_starts(s, n, "SKIPPED: ") &&
			 strstr(s, " does not contain ")) ||
			nv_starts(s, n, "Time (%),Total Time (") ||
			nv_starts(s, n, "Time(%),Total Time (") ||
			nv_starts(s, n, "Total (MB),Count,") ||
			nv_starts(s, n, "Start (ns),Duration (ns),CorrId,") ||
			nv_starts(s, n, "Total,Operations,Average,");
	}
	textscan_release(&it);
	return found;
}
