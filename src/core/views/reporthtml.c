/* The campaign report drawn: one HTML page, its styles inline and its
 * pictures inline SVG drawn here (no script, font or image from anywhere),
 * from report_data's document. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/views/report.h"
#include "util/json.h"
#include "util/xalloc.h"

static const char *const palette[] = {
	"#1f77b4", "#d62728", "#2ca02c", "#9467bd",
	"#ff7f0e", "#17becf", "#8c564b", "#e377c2",
};
#define NPALETTE (sizeof(palette) / sizeof(*palette))
#define COLOR_A "#1f77b4"
#define COLOR_B "#d62728"

/* s with &, <, >, " escaped */
static void esc(struct buf *out, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '&':
			buf_puts(out, "&amp;");
			break;
		case '<':
			buf_puts(out, "&lt;");
			break;
		case '>':
			buf_puts(out, "&gt;");
			break;
		case '"':
			buf_puts(out, "&quot;");
			break;
		default:
			buf_putc(out, *s);
		}
	}
}

static void num(struct buf *out, double v, const char *unit)
{
	if (!isfinite(v)) {
		buf_puts(out, "-");
		return;
	}
	buf_addf(out, fabs(v) >= 1000 ? "%.0f" : "%.4g", v);
	if (unit && *unit) {
		buf_putc(out, ' ');
		esc(out, unit);
	}
}

static const char *str(const cJSON *o, const char *key)
{
	const char *s = json_get_str(o, key);

	return s ? s : "";
}

static double dbl(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

static const char *env_label(const cJSON *d, const char *env)
{
	const char *l = json_get_str(
		cJSON_GetObjectItemCaseSensitive(d, "envs"), env ? env : "");

	return l ? l : env ? env : "";
}

/* The config object as "k=v, k=v", or "" */
static void config_text(struct buf *out, const cJSON *config)
{
	const cJSON *kv;
	int first = 1;

	cJSON_ArrayForEach(kv, config) {
		if (!cJSON_IsString(kv))
			continue;
		buf_puts(out, first ? "" : ", ");
		esc(out, kv->string);
		buf_putc(out, '=');
		esc(out, kv->valuestring);
		first = 0;
	}
}

/* " [lo, hi]" with digits significant digits, or nothing when the
 * interval is unknown */
static void interval(struct buf *out, double lo, double hi, int digits)
{
	if (!isfinite(lo) || !isfinite(hi))
		return;
	buf_addf(out, " [%.*g, %.*g]", digits, lo, digits, hi);
}

/* A linear scale from [lo, hi] to [a, b] */
struct scale {
	double lo, hi, a, b;
	int log;
};

static double at(const struct scale *s, double v)
{
	double lo = s->lo, hi = s->hi;

	if (s->log) {
		v = log10(v > 0 ? v : 1e-300);
		lo = log10(lo);
		hi = log10(hi);
	}
	if (hi <= lo)
		return (s->a + s->b) / 2;
	return s->a + (v - lo) / (hi - lo) * (s->b - s->a);
}

/* Widens [*lo, *hi] by a twentieth on each side, or around a single
 * value */
static void pad(double *lo, double *hi)
{
	double w = *hi - *lo;

	if (!(w > 0))
		w = fabs(*lo) > 0 ? fabs(*lo) * 0.1 : 1;
	*lo -= w / 20;
	*hi += w / 20;
}

/* Five value ticks on the y axis of scale y, labels at x */
static void y_ticks(struct buf *out, const struct scale *y, double x0,
		    double x1, const char *unit)
{
	int i;

	for (i = 0; i <= 4; i++) {
		double v = y->lo + (y->hi - y->lo) * i / 4, py = at(y, v);

		buf_addf(out,
			 "<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" "
			 "x2=\"%.1f\" y2=\"%.1f\"/>",
			 x0, py, x1, py);
		buf_addf(out,
			 "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" "
			 "text-anchor=\"end\">",
			 x0 - 4, py + 4);
		num(out, v, i == 4 ? unit : NULL);
		buf_puts(out, "</text>");
	}
}

#define W 900
#define H 260
#define ML 80
#define MR 20
#define MT 16
#define MB 36

/* The points of one series to draw: all, or per bucket of commits its
 * lowest and highest (in commit order); returns how many, into *out */
static size_t drawn(double (**out)[2], const cJSON *pts, long ncommits)
{
	size_t n = (size_t)cJSON_GetArraySize(pts), k = 0;
	double(*v)[2] = xcalloc(n ? n : 1, sizeof(*v));
	const cJSON *p;

	cJSON_ArrayForEach(p, pts) {
		v[k][0] = cJSON_GetArrayItem(p, 0)->valuedouble;
		v[k][1] = cJSON_GetArrayItem(p, 1)->valuedouble;
		k++;
	}
	if (n > REPORT_MAX_POINTS) {
		size_t nb = REPORT_MAX_POINTS / 2, b, j = 0, m = 0;
		double(*w)[2] = xcalloc(REPORT_MAX_POINTS, sizeof(*w));
		double width = (double)(ncommits > 0 ? ncommits : 1) / nb;

		for (b = 0; b < nb && j < n; b++) {
			size_t lo = j, hi = j, first = j;

			while (j < n && (size_t)(v[j][0] / width) <= b) {
				if (v[j][1] < v[lo][1])
					lo = j;
				if (v[j][1] > v[hi][1])
					hi = j;
				j++;
			}
			if (j == first)
				continue;
			memcpy(w[m++], v[lo < hi ? lo : hi], sizeof(*w));
			if (lo != hi)
				memcpy(w[m++], v[lo < hi ? hi : lo],
				       sizeof(*w));
		}
		free(v);
		v = w;
		n = m;
	}
	*out = v;
	return n;
}

static void history(struct buf *out, const cJSON *d, const cJSON *m)
{
	const cJSON *commits = cJSON_GetObjectItemCaseSensitive(d, "commits");
	const cJSON *series = cJSON_GetObjectItemCaseSensitive(m, "series");
	const cJSON *runs = cJSON_GetObjectItemCaseSensitive(d, "ab_runs");
	const char *unit = json_get_str(m, "unit");
	long nc = cJSON_GetArraySize(commits);
	struct scale x = {0, (double)(nc > 1 ? nc - 1 : 1), ML, W - MR, 0};
	struct scale y = {INFINITY, -INFINITY, H - MB, MT, 0};
	const cJSON *s, *p, *r;
	size_t k = 0, total = 0, shown = 0;

	cJSON_ArrayForEach(s, series) {
		cJSON_ArrayForEach(
			p, cJSON_GetObjectItemCaseSensitive(s, "points")) {
			double v = cJSON_GetArrayItem(p, 1)->valuedouble;

			y.lo = v < y.lo ? v : y.lo;
			y.hi = v > y.hi ? v : y.hi;
		}
	}
	pad(&y.lo, &y.hi);
	buf_addf(out, "<section class=\"metric\"><h3>");
	esc(out, str(m, "metric"));
	if (unit) {
		buf_puts(out, " (");
		esc(out, unit);
		buf_putc(out, ')');
	}
	if (json_get_str(m, "better"))
		buf_addf(out, " <small>%s is better</small>", str(m, "better"));
	buf_puts(out, "</h3>\n<svg class=\"history\" data-metric=\"");
	esc(out, str(m, "metric"));
	buf_addf(out,
		 "\" data-series=\"%d\" viewBox=\"0 0 %d %d\" width=\"%d\" "
		 "height=\"%d\" role=\"img\">",
		 cJSON_GetArraySize(series), W, H, W, H);
	y_ticks(out, &y, ML, W - MR, NULL);
	/* the A/B runs, on A's commit */
	cJSON_ArrayForEach(r, runs) {
		double ai = dbl(r, "a_index");

		if (!(ai >= 0))
			continue;
		buf_addf(out,
			 "<line class=\"ab-mark\" x1=\"%.1f\" y1=\"%d\" "
			 "x2=\"%.1f\" y2=\"%d\"><title>A/B #%.0f on ",
			 at(&x, ai), MT, at(&x, ai), H - MB, dbl(r, "id"));
		buf_addf(out, "%.10s: ",
			 str(cJSON_GetArrayItem(commits, (int)ai), "id"));
		esc(out, str(r, "verdict"));
		buf_puts(out, "</title></line>");
	}
	cJSON_ArrayForEach(s, series) {
		const char *color = palette[k % NPALETTE];
		const char *env = str(s, "env");
		const cJSON *pts =
			cJSON_GetObjectItemCaseSensitive(s, "points");
		struct buf cfg = BUF_INIT;
		double(*v)[2];
		size_t n = drawn(&v, pts, nc), i;

		total += (size_t)cJSON_GetArraySize(pts);
		shown += n;
		config_text(&cfg,
			    cJSON_GetObjectItemCaseSensitive(s, "config"));
		buf_addf(out,
			 "<g class=\"series\" data-env=\"%.16s\" "
			 "data-points=\"%zu\" "
			 "data-drawn=\"%zu\"><polyline fill=\"none\" "
			 "stroke=\"%s\" stroke-width=\"1.5\" points=\"",
			 env, (size_t)cJSON_GetArraySize(pts), n, color);
		for (i = 0; i < n; i++)
			buf_addf(out, "%s%.1f,%.1f", i ? " " : "",
				 at(&x, v[i][0]), at(&y, v[i][1]));
		buf_puts(out, "\"/>");
		for (i = 0; n <= 400 && i < n; i++) {
			const cJSON *c =
				cJSON_GetArrayItem(commits, (int)v[i][0]);

			buf_addf(out,
				 "<circle class=\"pt\" cx=\"%.1f\" cy=\"%.1f\" "
				 "r=\"3\" fill=\"%s\"><title>%.10s ",
				 at(&x, v[i][0]), at(&y, v[i][1]), color,
				 str(c, "id"));
			esc(out, str(c, "subject"));
			buf_puts(out, ": ");
			num(out, v[i][1], unit);
			buf_puts(out, " on ");
			esc(out, env_label(d, env));
			if (cfg.len) {
				buf_puts(out, " (");
				buf_add(out, cfg.ptr, cfg.len);
				buf_putc(out, ')');
			}
			buf_puts(out, "</title></circle>");
		}
		buf_puts(out, "</g>");
		free(v);
		buf_release(&cfg);
		k++;
	}
	buf_addf(out,
		 "<text class=\"tick\" x=\"%d\" y=\"%d\">%.10s</text>"
		 "<text class=\"tick\" x=\"%d\" y=\"%d\" "
		 "text-anchor=\"end\">%.10s</text>"
		 "<text class=\"tick\" x=\"%d\" y=\"%d\" "
		 "text-anchor=\"middle\">%ld commit%s, oldest left</text>"
		 "</svg>\n",
		 ML, H - 12, str(cJSON_GetArrayItem(commits, 0), "id"), W - MR,
		 H - 12, str(cJSON_GetArrayItem(commits, (int)nc - 1), "id"),
		 (ML + W - MR) / 2, H - 2, nc, nc == 1 ? "" : "s");
	if (shown < total)
		buf_addf(out,
			 "<p class=\"note\">Downsampled: %zu of %zu points "
			 "drawn, the lowest and the highest of each stretch "
			 "of commits.</p>\n",
			 shown, total);
	buf_puts(out, "<ul class=\"legend\">");
	k = 0;
	cJSON_ArrayForEach(s, series) {
		struct buf cfg = BUF_INIT;
		int np;

		config_text(&cfg,
			    cJSON_GetObjectItemCaseSensitive(s, "config"));
		buf_addf(out,
			 "<li><span class=\"sw\" style=\"background:%s\">"
			 "</span>",
			 palette[k++ % NPALETTE]);
		esc(out, env_label(d, str(s, "env")));
		buf_addf(out, " <code>env %s</code>", str(s, "env"));
		if (cfg.len) {
			buf_puts(out, " · ");
			buf_add(out, cfg.ptr, cfg.len);
		}
		np = cJSON_GetArraySize(
			cJSON_GetObjectItemCaseSensitive(s, "points"));
		buf_addf(out, " · %d point%s</li>", np, np == 1 ? "" : "s");
		buf_release(&cfg);
	}
	buf_puts(out, "</ul></section>\n");
}

static void sample_range(const cJSON *arr, double *lo, double *hi)
{
	const cJSON *v;

	cJSON_ArrayForEach(v, arr) {
		if (!cJSON_IsNumber(v))
			continue;
		*lo = v->valuedouble < *lo ? v->valuedouble : *lo;
		*hi = v->valuedouble > *hi ? v->valuedouble : *hi;
	}
}

/* One arm's samples as dots on row y, its median as a tick */
static void strip_arm(struct buf *out, const struct scale *x, double y,
		      const cJSON *samples, double median, const char *color,
		      const char *arm, const char *unit)
{
	const cJSON *v;

	cJSON_ArrayForEach(v, samples) {
		if (!cJSON_IsNumber(v))
			continue;
		buf_addf(out,
			 "<circle class=\"sample\" data-arm=\"%s\" cx=\"%.1f\" "
			 "cy=\"%.1f\" r=\"3\" fill=\"%s\" fill-opacity=\"0.6\">"
			 "<title>%s: ",
			 arm, at(x, v->valuedouble), y, color, arm);
		num(out, v->valuedouble, unit);
		buf_puts(out, "</title></circle>");
	}
	if (isfinite(median))
		buf_addf(out,
			 "<line class=\"median\" x1=\"%.1f\" y1=\"%.1f\" "
			 "x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
			 "stroke-width=\"2\"/>",
			 at(x, median), y - 7, at(x, median), y + 7, color);
}

#define ROW 44

/* The workload's command as it ran: {iters} replaced by the count */
static void workload_at(struct buf *out, const char *cmd, double iters)
{
	const char *at = strstr(cmd, "{iters}");
	struct buf c = BUF_INIT;

	if (!(iters > 0) || !at) {
		esc(out, cmd);
		return;
	}
	buf_add(&c, cmd, (size_t)(at - cmd));
	buf_addf(&c, "%.0f%s", iters, at + 7);
	esc(out, c.ptr);
	buf_release(&c);
}

static void strips(struct buf *out, const cJSON *res)
{
	const cJSON *ws = cJSON_GetObjectItemCaseSensitive(res, "workloads");
	const char *unit = json_get_str(res, "unit");
	int n = cJSON_GetArraySize(ws), i = 0;
	const cJSON *w;

	buf_addf(out,
		 "<svg class=\"strips\" data-rows=\"%d\" viewBox=\"0 0 %d %d\" "
		 "width=\"%d\" height=\"%d\" role=\"img\">",
		 n, W, n * ROW + 8, W, n * ROW + 8);
	cJSON_ArrayForEach(w, ws) {
		const cJSON *a = cJSON_GetObjectItemCaseSensitive(w, "a");
		const cJSON *b = cJSON_GetObjectItemCaseSensitive(w, "b");
		double lo = INFINITY, hi = -INFINITY, top = i * ROW + 4;
		struct scale x = {0, 0, 300, W - 140, 0};
		double iters = dbl(w, "iters");

		sample_range(a, &lo, &hi);
		sample_range(b, &lo, &hi);
		pad(&lo, &hi);
		x.lo = lo;
		x.hi = hi;
		buf_addf(out,
			 "<g class=\"strip\" data-control=\"%s\">"
			 "<text class=\"label\" x=\"4\" y=\"%.1f\">%s",
			 cJSON_IsTrue(
				 cJSON_GetObjectItemCaseSensitive(w, "control"))
				 ? "true"
				 : "false",
			 top + 24,
			 cJSON_IsTrue(
				 cJSON_GetObjectItemCaseSensitive(w, "control"))
				 ? "control: "
				 : "");
		workload_at(out, str(w, "workload"), iters);
		buf_addf(out,
			 "</text><text class=\"tick\" x=\"290\" y=\"%.1f\" "
			 "text-anchor=\"end\">A</text><text class=\"tick\" "
			 "x=\"290\" y=\"%.1f\" text-anchor=\"end\">B</text>",
			 top + 14, top + 34);
		strip_arm(out, &x, top + 10, a, dbl(w, "median_a"), COLOR_A,
			  "A", unit);
		strip_arm(out, &x, top + 30, b, dbl(w, "median_b"), COLOR_B,
			  "B", unit);
		buf_addf(out, "<text class=\"verdict\" x=\"%d\" y=\"%.1f\">",
			 W - 130, top + 24);
		esc(out, str(w, "verdict"));
		buf_puts(out, "</text></g>");
		i++;
	}
	buf_puts(out, "</svg>\n");
}

static void ab_table(struct buf *out, const cJSON *res)
{
	const cJSON *w;
	const char *unit = json_get_str(res, "unit");

	buf_puts(out, "<table class=\"ab\"><tr><th>workload</th><th>iters</th>"
		      "<th>A median</th><th>B median</th><th>B/A [95% CI]</th>"
		      "<th>p</th><th>verdict</th></tr>\n");
	cJSON_ArrayForEach(w,
			   cJSON_GetObjectItemCaseSensitive(res, "workloads")) {
		int ctl = cJSON_IsTrue(
			cJSON_GetObjectItemCaseSensitive(w, "control"));

		buf_addf(out, "<tr%s><td>%s<code>", ctl ? " class=\"ctl\"" : "",
			 ctl ? "control: " : "");
		esc(out, str(w, "workload"));
		buf_puts(out, "</code></td><td>");
		if (dbl(w, "iters") > 0)
			buf_addf(out, "%.0f", dbl(w, "iters"));
		buf_puts(out, "</td><td>");
		num(out, dbl(w, "median_a"), unit);
		buf_puts(out, "</td><td>");
		num(out, dbl(w, "median_b"), unit);
		buf_addf(out,
			 "</td><td>%.3f [%.3f, %.3f]</td><td>%.2g</td><td>",
			 dbl(w, "ratio"), dbl(w, "ci_low"), dbl(w, "ci_high"),
			 dbl(w, "p"));
		esc(out, str(w, "verdict"));
		if (json_get_str(w, "why")) {
			buf_puts(out, ": ");
			esc(out, str(w, "why"));
		}
		buf_puts(out, "</td></tr>\n");
	}
	buf_puts(out, "</table>\n");
}

/* The sweep: each arm's medians by iteration count, and its fitted line */
static void sweep(struct buf *out, const cJSON *res)
{
	const cJSON *sw = cJSON_GetObjectItemCaseSensitive(res, "sweep");
	const cJSON *w;
	const char *unit = json_get_str(res, "unit");
	struct scale x = {INFINITY, -INFINITY, ML, W - MR, 0};
	struct scale y = {INFINITY, -INFINITY, H - MB, MT, 0};
	double fa = dbl(sw, "fixed_a"), pa = dbl(sw, "per_iter_a");
	double fb = dbl(sw, "fixed_b"), pb = dbl(sw, "per_iter_b");
	int arm, i, npts = 0;

	if (cJSON_IsObject(sw) && (!isfinite(fa) || !isfinite(fb))) {
		if (json_get_str(sw, "why")) {
			buf_puts(out, "<p class=\"note\">No sweep fit: ");
			esc(out, str(sw, "why"));
			buf_puts(out, ".</p>\n");
		}
		return;
	}
	if (!cJSON_IsObject(sw))
		return;
	cJSON_ArrayForEach(w,
			   cJSON_GetObjectItemCaseSensitive(res, "workloads")) {
		double it = dbl(w, "iters");

		if (cJSON_IsTrue(
			    cJSON_GetObjectItemCaseSensitive(w, "control")) ||
		    !(it > 0))
			continue;
		x.lo = it < x.lo ? it : x.lo;
		x.hi = it > x.hi ? it : x.hi;
		sample_range(cJSON_GetObjectItemCaseSensitive(w, "a"), &y.lo,
			     &y.hi);
		sample_range(cJSON_GetObjectItemCaseSensitive(w, "b"), &y.lo,
			     &y.hi);
		npts++;
	}
	if (!npts)
		return;
	x.log = x.hi / x.lo > 10;
	pad(&y.lo, &y.hi);
	buf_addf(out,
		 "<svg class=\"sweep\" viewBox=\"0 0 %d %d\" width=\"%d\" "
		 "height=\"%d\" role=\"img\">",
		 W, H, W, H);
	y_ticks(out, &y, ML, W - MR, NULL);
	for (arm = 0; arm < 2; arm++) {
		double f = arm ? fb : fa, p = arm ? pb : pa;
		const char *color = arm ? COLOR_B : COLOR_A;

		buf_addf(
			out,
			"<polyline class=\"fit\" data-arm=\"%c\" fill=\"none\" "
			"stroke=\"%s\" stroke-dasharray=\"4 3\" points=\"",
			arm ? 'B' : 'A', color);
		for (i = 0; i <= 40; i++) {
			double it = x.log ? x.lo * pow(x.hi / x.lo, i / 40.0)
					  : x.lo + (x.hi - x.lo) * i / 40.0;
			double v = f + p * it;

			buf_addf(out, "%s%.1f,%.1f", i ? " " : "", at(&x, it),
				 at(&y, v < y.lo   ? y.lo
					: v > y.hi ? y.hi
						   : v));
		}
		buf_puts(out, "\"/>");
		cJSON_ArrayForEach(
			w, cJSON_GetObjectItemCaseSensitive(res, "workloads")) {
			double it = dbl(w, "iters");
			double m = dbl(w, arm ? "median_b" : "median_a");

			if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(
				    w, "control")) ||
			    !(it > 0) || !isfinite(m))
				continue;
			buf_addf(out,
				 "<circle class=\"sweep-pt\" data-arm=\"%c\" "
				 "cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\">"
				 "<title>%c at %.0f iterations: ",
				 arm ? 'B' : 'A', at(&x, it), at(&y, m), color,
				 arm ? 'B' : 'A', it);
			num(out, m, unit);
			buf_puts(out, "</title></circle>");
		}
	}
	buf_addf(out,
		 "<text class=\"tick\" x=\"%d\" y=\"%d\" "
		 "text-anchor=\"middle\">iterations%s</text></svg>\n",
		 (ML + W - MR) / 2, H - 4, x.log ? " (log scale)" : "");
	buf_puts(out, "<p>Fit per arm, time = fixed + per-iteration × "
		      "iterations: fixed A ");
	num(out, fa, unit);
	buf_puts(out, ", B ");
	num(out, fb, unit);
	buf_puts(out, " (B − A ");
	num(out, dbl(sw, "d_fixed"), unit);
	interval(out, dbl(sw, "d_fixed_low"), dbl(sw, "d_fixed_high"), 4);
	buf_puts(out, "); per iteration A ");
	num(out, pa, unit);
	buf_puts(out, ", B ");
	num(out, pb, unit);
	buf_puts(out, " (B/A ");
	num(out, dbl(sw, "per_iter_ratio"), NULL);
	interval(out, dbl(sw, "per_iter_ratio_low"),
		 dbl(sw, "per_iter_ratio_high"), 3);
	buf_puts(out, "): ");
	esc(out, str(sw, "words"));
	if (json_get_str(sw, "why")) {
		buf_puts(out, " (");
		esc(out, str(sw, "why"));
		buf_putc(out, ')');
	}
	buf_puts(out, ".</p>\n");
}

static void ab_runs(struct buf *out, const cJSON *d)
{
	const cJSON *runs = cJSON_GetObjectItemCaseSensitive(d, "ab_runs");
	const cJSON *r;

	buf_addf(out, "<h2 id=\"ab\">A/B runs</h2>\n");
	if (!cJSON_GetArraySize(runs))
		buf_puts(out, "<p class=\"empty\">No A/B run yet: <code>git "
			      "campaign ab --build CMD --run CMD --control "
			      "CMD</code> measures the change against its "
			      "same-build baseline.</p>\n");
	cJSON_ArrayForEach(r, runs) {
		const cJSON *res =
			cJSON_GetObjectItemCaseSensitive(r, "result");
		const cJSON *w;
		int controls = 0;

		buf_addf(out,
			 "<section class=\"run\" id=\"ab-%.0f\"><h3>A/B #%.0f ",
			 dbl(r, "id"), dbl(r, "id"));
		esc(out, str(r, "verdict"));
		buf_puts(out, " <small>");
		esc(out, str(r, "at"));
		buf_puts(out, "</small></h3>\n<p>A ");
		esc(out, str(res, "a"));
		buf_puts(out, ", B ");
		esc(out, str(res, "b"));
		buf_addf(out, "; %s, median of n = %.0f per arm; on ",
			 str(res, "metric"), dbl(res, "n"));
		esc(out, env_label(d, str(res, "env")));
		buf_addf(out, " <code>env %s</code>.</p>\n", str(res, "env"));
		if (cJSON_IsTrue(
			    cJSON_GetObjectItemCaseSensitive(res, "invalid")))
			buf_puts(out, "<p class=\"invalid\">INVALID: a control "
				      "moved; the verdict is not vouched "
				      "for.</p>\n");
		cJSON_ArrayForEach(
			w, cJSON_GetObjectItemCaseSensitive(res, "workloads")) {
			controls += cJSON_IsTrue(
				cJSON_GetObjectItemCaseSensitive(w, "control"));
		}
		if (!controls)
			buf_puts(out, "<p class=\"note\">No control: nothing "
				      "vouches for this run.</p>\n");
		else if (!strcmp(str(res, "controls"), "unvouched"))
			buf_puts(out,
				 "<p class=\"invalid\">UNVOUCHED: a "
				 "control could not vouch for the run; its "
				 "verdict stands unvouched.</p>\n");
		else if (!strcmp(str(res, "controls"), "steady"))
			buf_puts(out,
				 "<p class=\"note\">Every control steady "
				 "(its interval inside the tolerance): the "
				 "run is vouched for.</p>\n");
		cJSON_ArrayForEach(
			w, cJSON_GetObjectItemCaseSensitive(res, "warnings")) {
			if (!cJSON_IsString(w))
				continue;
			buf_puts(out, "<p class=\"note\">warning: ");
			esc(out, w->valuestring);
			buf_puts(out, "</p>\n");
		}
		ab_table(out, res);
		strips(out, res);
		sweep(out, res);
		buf_puts(out, "</section>\n");
	}
}

static void stack_node(struct buf *out, const cJSON *stack, const char *parent,
		       int depth)
{
	const cJSON *b;
	int any = 0;

	if (depth > 64)
		return;
	cJSON_ArrayForEach(b, stack) {
		if (strcmp(str(b, "parent"), parent))
			continue;
		if (!any++)
			buf_puts(out, "<ul>");
		buf_puts(out, "<li><code>");
		esc(out, str(b, "branch"));
		buf_puts(out, "</code>");
		if (dbl(b, "pr") > 0) {
			buf_addf(out, " PR #%.0f", dbl(b, "pr"));
			if (json_get_str(b, "state")) {
				buf_puts(out, " (");
				esc(out, str(b, "state"));
				buf_putc(out, ')');
			}
		}
		if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(
			    b, "needs_restack")))
			buf_puts(out, " <em>needs restack</em>");
		if (json_get_str(b, "claim")) {
			buf_puts(out, ": ");
			esc(out, str(b, "claim"));
		}
		stack_node(out, stack, str(b, "branch"), depth + 1);
		buf_puts(out, "</li>");
	}
	if (any)
		buf_puts(out, "</ul>");
}

static void stack(struct buf *out, const cJSON *d)
{
	const cJSON *s = cJSON_GetObjectItemCaseSensitive(d, "stack"), *b, *p;

	buf_puts(out, "<h2 id=\"stack\">Stack</h2>\n");
	if (!cJSON_GetArraySize(s)) {
		buf_puts(out, "<p class=\"empty\">No stacked branch: "
			      "<code>git campaign stack new NAME</code> starts "
			      "one on the base.</p>\n");
		return;
	}
	buf_puts(out, "<div class=\"tree\"><code>");
	esc(out, str(d, "base"));
	buf_puts(out, "</code>");
	stack_node(out, s, str(d, "base"), 0);
	/* branches whose parent is neither the base nor stacked */
	cJSON_ArrayForEach(b, s) {
		int known = !strcmp(str(b, "parent"), str(d, "base"));

		cJSON_ArrayForEach(p, s) {
			known |= !strcmp(str(p, "branch"), str(b, "parent"));
		}
		if (!known) {
			buf_puts(out, "<p><code>");
			esc(out, str(b, "parent"));
			buf_puts(out, "</code></p>");
			stack_node(out, s, str(b, "parent"), 0);
		}
	}
	buf_puts(out, "</div>\n");
}

static void hypotheses(struct buf *out, const cJSON *d)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(d, "hypotheses"), *h;

	buf_puts(out, "<h2 id=\"hypotheses\">Hypotheses</h2>\n");
	if (!cJSON_GetArraySize(v)) {
		buf_puts(out, "<p class=\"empty\">No hypothesis yet: "
			      "<code>git campaign hypo add TEXT --metric M "
			      "--predict N</code> states one as a "
			      "number.</p>\n");
		return;
	}
	buf_puts(out, "<table class=\"hypo\"><tr><th>#</th><th>hypothesis</th>"
		      "<th>metric</th><th>predicted</th><th>measured</th>"
		      "<th></th><th>state</th></tr>\n");
	cJSON_ArrayForEach(h, v) {
		double pr = dbl(h, "predicted"), me = dbl(h, "measured");
		double tol = dbl(h, "tolerance");
		const char *unit = json_get_str(h, "unit");
		double lo = pr - fabs(pr) * tol / 100,
		       hi = pr + fabs(pr) * tol / 100;
		struct scale x = {0, 0, 4, 156, 0};

		x.lo = fmin(lo, isfinite(me) ? me : lo);
		x.hi = fmax(hi, isfinite(me) ? me : hi);
		pad(&x.lo, &x.hi);
		buf_addf(out, "<tr class=\"%s\"><td>%.0f</td><td>",
			 str(h, "state"), dbl(h, "id"));
		esc(out, str(h, "text"));
		buf_puts(out, "</td><td><code>");
		esc(out, str(h, "metric"));
		buf_puts(out, "</code></td><td>");
		num(out, pr, unit);
		buf_addf(out, " ± %.3g%%</td><td>", tol);
		num(out, me, unit);
		buf_addf(
			out,
			"</td><td><svg class=\"hypo-bar\" width=\"160\" "
			"height=\"16\"><rect x=\"%.1f\" y=\"4\" width=\"%.1f\" "
			"height=\"8\" fill=\"#bbb\"><title>predicted</title>"
			"</rect>",
			at(&x, lo), at(&x, hi) - at(&x, lo) + 1);
		if (isfinite(me))
			buf_addf(out,
				 "<circle cx=\"%.1f\" cy=\"8\" r=\"4\" "
				 "fill=\"#000\"><title>measured</title>"
				 "</circle>",
				 at(&x, me));
		buf_puts(out, "</svg></td><td>");
		esc(out, str(h, "state"));
		buf_puts(out, "</td></tr>\n");
	}
	buf_puts(out, "</table>\n");
}

static void findings(struct buf *out, const cJSON *d)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(d, "findings"), *f;

	buf_puts(out, "<h2 id=\"findings\">Findings, by rank</h2>\n");
	if (!cJSON_GetArraySize(v)) {
		buf_puts(out, "<p class=\"empty\">No finding yet: <code>git "
			      "campaign finding add --kind slow TITLE</code> "
			      "records one.</p>\n");
		return;
	}
	buf_puts(out, "<ol class=\"findings\">");
	cJSON_ArrayForEach(f, v) {
		buf_addf(out, "<li class=\"%s\"><b>", str(f, "state"));
		esc(out, str(f, "kind"));
		buf_puts(out, "</b>: ");
		esc(out, str(f, "title"));
		buf_addf(out, " <small>#%.0f, %s", dbl(f, "id"),
			 str(f, "state"));
		if (dbl(f, "pr") > 0)
			buf_addf(out, ", PR #%.0f", dbl(f, "pr"));
		buf_puts(out, "</small></li>");
	}
	buf_puts(out, "</ol>\n");
}

void report_html(struct buf *out, const cJSON *d)
{
	const cJSON *metrics = cJSON_GetObjectItemCaseSensitive(d, "metrics");
	const cJSON *m;
	int nc = cJSON_GetArraySize(
		cJSON_GetObjectItemCaseSensitive(d, "commits"));

	buf_puts(out, "<!DOCTYPE html>\n<html lang=\"en\"><head>"
		      "<meta charset=\"utf-8\"><title>");
	esc(out, str(d, "campaign"));
	buf_puts(out,
		 " · git-campaign report</title><style>"
		 "body{font:14px/1.4 sans-serif;margin:24px;color:#222;"
		 "max-width:960px}"
		 "code{font-family:monospace}h2{border-bottom:1px solid #ccc}"
		 "svg text{font:11px sans-serif;fill:#444}"
		 "svg .grid{stroke:#eee}svg .ab-mark{stroke:#999;"
		 "stroke-dasharray:3 3}.legend{list-style:none;padding:0}"
		 ".sw{display:inline-block;width:10px;height:10px;"
		 "margin-right:6px}.note{color:#666}.empty{color:#666;"
		 "font-style:italic}.invalid{color:#b00;font-weight:bold}"
		 "table{border-collapse:collapse}td,th{padding:2px 8px;"
		 "border-bottom:1px solid #eee;text-align:left}"
		 "tr.ctl{color:#555}.tree ul{margin:2px 0}"
		 "</style></head><body>\n<h1>");
	esc(out, str(d, "campaign"));
	buf_puts(out,
		 " <small>· git-campaign report</small></h1>\n<p>Base <code>");
	esc(out, str(d, "base"));
	buf_puts(out, "</code>, range <code>");
	esc(out, str(d, "range"));
	buf_addf(out,
		 "</code>, %d commit%s. Numbers of different machines and "
		 "configurations are never joined: each has its own line. "
		 "Hover a point for its commit and machine.</p>\n",
		 nc, nc == 1 ? "" : "s");
	buf_puts(out, "<h2 id=\"history\">History</h2>\n");
	if (!cJSON_GetArraySize(metrics))
		buf_puts(out, "<p class=\"empty\">No measurement in this range "
			      "yet: <code>git campaign measure add METRIC "
			      "VALUE</code>, <code>git campaign measure import "
			      "FILE</code> or <code>git campaign ab</code> "
			      "attach the first numbers to a commit.</p>\n");
	cJSON_ArrayForEach(m, metrics) {
		history(out, d, m);
	}
	ab_runs(out, d);
	stack(out, d);
	hypotheses(out, d);
	findings(out, d);
	buf_puts(out, "</body></html>\n");
}
