/* Showing an A/B: the Markdown table, with the sweep, the reasons and
 * the warnings, and the JSON of a result. */
#include "core/ab/render.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/ab/control.h"
#include "util/color.h"
#include "util/csv.h"
#include "util/json.h"
#include "util/xalloc.h"

static void fmt_value(struct buf *out, double v, const char *unit)
{
	if (isnan(v)) {
		buf_puts(out, "-");
		return;
	}
	if (!strcmp(unit, "s") && fabs(v) < 1) {
		if (fabs(v) < 1e-3)
			buf_addf(out, "%.3g us", v * 1e6);
		else
			buf_addf(out, "%.4g ms", v * 1e3);
		return;
	}
	/* no exponents in a table people read */
	buf_addf(out, fabs(v) >= 1000 ? "%.0f%s%s" : "%.4g%s%s", v,
		 *unit ? " " : "", unit);
}

/* "0.912 [0.900, 0.925]", "-" for what is not known */
static void fmt_ratio(struct buf *out, double r, double lo, double hi)
{
	if (isnan(r)) {
		buf_puts(out, "-");
		return;
	}
	buf_addf(out, "%.3f", r);
	if (!isnan(lo) && !isnan(hi))
		buf_addf(out, " [%.3f, %.3f]", lo, hi);
}

/* v in unit as microseconds; NAN when unit is no time */
static double to_us(double v, const char *unit)
{
	static const struct {
		const char *unit;
		double us;
	} t[] = {{"s", 1e6}, {"ms", 1e3}, {"us", 1}, {"ns", 1e-3}};
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(*t); i++)
		if (!strcmp(unit, t[i].unit))
			return v * t[i].us;
	return NAN;
}

/* B's median in empty-launch floors: what the floor column shows */
static double in_floors(const struct ab_result *r, const struct ab_point *p)
{
	if (!r->has_floor || !(r->floor.launch_us > 0))
		return NAN;
	return to_us(p->sb.median, p->unit ? p->unit : r->unit) /
	       r->floor.launch_us;
}

/* " (iters 64)" for a point of a sweep, "" for one without a count */
static void at_count(struct buf *out, const struct ab_point *p)
{
	if (p->iters)
		buf_addf(out, " (iters %ld)", p->iters);
}

/* What a reader scans for, coloured on a terminal: gains green, losses
 * and a moved control red, what cannot be told yellow */
static const char *verdict_color(enum ab_verdict v)
{
	switch (v) {
	case AB_VERDICT_FASTER:
	case AB_VERDICT_STEADY:
		return COLOR_GREEN;
	case AB_VERDICT_SLOWER:
	case AB_VERDICT_FAILED:
		return COLOR_RED;
	case AB_VERDICT_MOVED:
		return COLOR_BOLD_RED;
	case AB_VERDICT_INCONCLUSIVE:
	case AB_VERDICT_NOISY:
	case AB_VERDICT_CANNOT_VOUCH:
		return COLOR_YELLOW;
	default:
		return NULL;
	}
}

/* s, between code and the reset when paint and code */
static void painted(struct buf *out, int paint, const char *code, const char *s)
{
	if (paint && code)
		buf_addf(out, "%s%s%s", code, s, COLOR_RESET);
	else
		buf_puts(out, s);
}

static void row(struct buf *out, const struct ab_result *r,
		const struct ab_point *p, int iters_column, int paint)
{
	double fl = in_floors(r, p);

	buf_addf(out, "| %s`%s` |", p->control ? "control: " : "", p->workload);
	if (iters_column && p->iters)
		buf_addf(out, " %ld |", p->iters);
	else if (iters_column)
		buf_puts(out, " - |");
	buf_putc(out, ' ');
	fmt_value(out, p->sa.median, p->unit ? p->unit : r->unit);
	buf_puts(out, " | ");
	fmt_value(out, p->sb.median, p->unit ? p->unit : r->unit);
	buf_puts(out, " | ");
	if (p->cmp.on_diff) {
		/* values <= 0: the estimator is of B - A (stats_compare) */
		const char *unit = p->unit ? p->unit : r->unit;

		buf_puts(out, "B-A ");
		if (p->cmp.diff > 0)
			buf_putc(out, '+');
		fmt_value(out, p->cmp.diff, unit);
		if (!isnan(p->cmp.diff_lo)) {
			buf_puts(out, " [");
			fmt_value(out, p->cmp.diff_lo, unit);
			buf_puts(out, ", ");
			fmt_value(out, p->cmp.diff_hi, unit);
			buf_putc(out, ']');
		}
	} else {
		fmt_ratio(out, p->cmp.ratio, p->cmp.ci_lo, p->cmp.ci_hi);
	}
	/* one run per arm tests nothing: its p of 1 would read as a result */
	if ((isnan(p->cmp.ratio) && !p->cmp.on_diff) || p->na < 2 || p->nb < 2)
		buf_puts(out, " | - |");
	else
		buf_addf(out, " | %.2g |", p->cmp.p);
	buf_putc(out, ' ');
	painted(out, paint, verdict_color(p->verdict),
		p->verdict != AB_VERDICT_NONE ? ab_verdict_name(p->verdict)
					      : "-");
	if (!p->control && ab_vouch_of(r) == AB_VOUCH_UNVOUCHED)
		painted(out, paint, COLOR_YELLOW, " (unvouched)");
	buf_puts(out, " |");
	if (r->has_floor && isnan(fl))
		buf_puts(out, " - |");
	else if (r->has_floor)
		buf_addf(out, fl >= 1000 ? " %.0fx |" : " %.3gx |", fl);
	buf_putc(out, '\n');
}

void ab_render_csv(struct buf *out, const struct ab_result *r)
{
	static const char *const head[] = {
		"workload", "control", "iters",	   "metric",   "unit",
		"a_median", "a_n",     "b_median", "b_n",      "ratio",
		"ci_low",   "ci_high", "diff",	   "diff_low", "diff_high",
		"p",	    "verdict", "vouch"};
	size_t i;

	csv_row(out, head, sizeof(head) / sizeof(*head));
	for (i = 0; i < r->npoints; i++) {
		const struct ab_point *p = &r->points[i];
		int tested = !(isnan(p->cmp.ratio) && !p->cmp.on_diff) &&
			     p->na >= 2 && p->nb >= 2;

		csv_field(out, p->workload);
		csv_field(out, p->control ? "true" : "false");
		if (p->iters)
			csv_count(out, p->iters);
		else
			csv_field(out, NULL);
		csv_field(out, p->metric ? p->metric : r->metric);
		csv_field(out, p->unit ? p->unit : r->unit);
		csv_number(out, p->sa.median);
		csv_count(out, (long long)p->na);
		csv_number(out, p->sb.median);
		csv_count(out, (long long)p->nb);
		csv_number(out, p->cmp.ratio);
		csv_number(out, p->cmp.ci_lo);
		csv_number(out, p->cmp.ci_hi);
		csv_number(out, p->cmp.on_diff ? p->cmp.diff : NAN);
		csv_number(out, p->cmp.on_diff ? p->cmp.diff_lo : NAN);
		csv_number(out, p->cmp.on_diff ? p->cmp.diff_hi : NAN);
		csv_number(out, tested ? p->cmp.p : NAN);
		csv_field(out, p->verdict != AB_VERDICT_NONE
				       ? ab_verdict_name(p->verdict)
				       : NULL);
		csv_field(out, ab_vouch_name(ab_vouch_of(r)));
		csv_end(out);
	}
}

/* The lines above the table: what each control that did not vouch says,
 * or that no control was run */
static void headline(struct buf *out, const struct ab_result *r, int paint)
{
	size_t i;

	if (ab_vouch_of(r) == AB_VOUCH_NONE) {
		painted(out, paint, COLOR_YELLOW, "**No control**");
		buf_puts(out, ": nothing vouches that the machine "
			      "held still between the arms; add --control "
			      "CMD, a workload the change does not touch.\n\n");
		return;
	}
	for (i = 0; i < r->npoints; i++) {
		const struct ab_point *p = &r->points[i];

		if (!p->control || p->verdict == AB_VERDICT_STEADY)
			continue;
		if (p->verdict == AB_VERDICT_MOVED) {
			painted(out, paint, COLOR_BOLD_RED, "**INVALID**");
			buf_addf(out, ": control `%s`", p->workload);
			at_count(out, p);
			buf_addf(out,
				 " %s. Either the machine or the build moved "
				 "under the run, or the change reaches the "
				 "control's code too: a control the change "
				 "does not touch tells them apart.\n\n",
				 p->why);
			continue;
		}
		painted(out, paint, COLOR_YELLOW, "**UNVOUCHED**");
		buf_addf(out, ": control `%s`", p->workload);
		at_count(out, p);
		buf_addf(out, " cannot vouch for the run: %s",
			 p->why[0] ? p->why : ab_verdict_name(p->verdict));
		if (p->n_needed)
			buf_addf(out, "; about %ld runs per arm would let it",
				 p->n_needed);
		buf_puts(out, ". The verdicts stand unvouched.\n\n");
	}
}

static void render_table(struct buf *out, const struct ab_result *r, int paint)
{
	size_t i;
	int iters = 0;

	for (i = 0; i < r->npoints; i++)
		iters |= r->points[i].iters != 0;
	headline(out, r, paint);
	buf_addf(out,
		 "| workload |%s A: %s | B: %s | B/A [95%% CI] | p | "
		 "verdict |",
		 iters ? " iters |" : "", r->a_desc, r->b_desc);
	if (r->has_floor)
		buf_addf(out, " floor: launch %.2f us |", r->floor.launch_us);
	buf_addf(out, "\n|---|%s---:|---:|---:|---:|---|%s\n",
		 iters ? "---:|" : "", r->has_floor ? "---:|" : "");
	for (i = 0; i < r->npoints; i++)
		row(out, r, &r->points[i], iters, paint);
	buf_addf(out,
		 "\n%s, median of n = %ld per arm after %ld warm-up "
		 "run%s; order %s; mode %s.\n",
		 r->metric, r->n, r->warmup, r->warmup == 1 ? "" : "s",
		 ab_order_words(r->order), ab_mode_name(r->mode));
	if (r->env_line)
		buf_addf(out, "%s.\n", r->env_line);
	if (r->has_floor) {
		buf_addf(out,
			 "Floor of this env (env --floor, stored on %.10s): "
			 "empty launch + sync %.2f us",
			 r->floor.commit, r->floor.launch_us);
		if (r->floor.htod_us >= 0)
			buf_addf(out, ", 24 B host-to-device copy %.2f us",
				 r->floor.htod_us);
		buf_puts(out, "; the floor column is B's median in empty "
			      "launches.\n");
	}
	for (i = 0; i < r->labels.nr; i++)
		buf_addf(out, "%s%s%s", i ? ", " : "Labelled ", r->labels.v[i],
			 i + 1 == r->labels.nr ? ".\n" : "");
	for (i = 0; i < r->labels.nr; i++)
		if (!strcmp(r->labels.v[i], "profiler=on"))
			buf_puts(out, "**Profiler on**: these numbers are not "
				      "comparable with unprofiled runs.\n");
}

/* The sweep's fit under the table: its words, each cost, and what an
 * unresolved fit lacks */
static void render_sweep(struct buf *out, const struct ab_result *r)
{
	const struct stats_sweep *f = &r->sweep.fit;
	char *runit = *r->unit ? xasprintf("1/%s", r->unit) : xstrdup("");
	const char *unit = r->sweep.reciprocal ? runit : r->unit;

	if (r->sweep.reciprocal)
		buf_addf(out,
			 "\nSweep (Theil-Sen per arm of 1/%s, the metric "
			 "being higher-is-better: cost = fixed + "
			 "per-iteration x iters): %s",
			 r->metric, r->sweep.words);
	else
		buf_addf(out,
			 "\nSweep (Theil-Sen per arm, time = fixed + "
			 "per-iteration x iters): %s",
			 r->sweep.words);
	if (r->sweep.why[0])
		buf_addf(out, ": %s", r->sweep.why);
	if (r->sweep.n_needed)
		buf_addf(out, "; about %ld runs per arm would tell",
			 r->sweep.n_needed);
	buf_puts(out, ".\n- fixed: ");
	fmt_value(out, f->fixed_a, unit);
	buf_puts(out, " -> ");
	fmt_value(out, f->fixed_b, unit);
	buf_puts(out, ", change ");
	fmt_value(out, f->d_fixed, unit);
	buf_puts(out, " [");
	fmt_value(out, f->d_fixed_lo, unit);
	buf_puts(out, ", ");
	fmt_value(out, f->d_fixed_hi, unit);
	buf_putc(out, ']');
	if (f->fixed_a < 0 || f->fixed_b < 0)
		buf_puts(out, "; fixed cost not resolved at these counts: "
			      "the fitted intercept is below 0");
	buf_puts(out, "\n- per iteration: ");
	fmt_value(out, f->per_iter_a, unit);
	buf_puts(out, " -> ");
	fmt_value(out, f->per_iter_b, unit);
	buf_puts(out, ", B/A ");
	fmt_ratio(out, f->per_iter_ratio, f->per_iter_ratio_lo,
		  f->per_iter_ratio_hi);
	buf_putc(out, '\n');
	free(runit);
}

void ab_render_table(struct buf *out, const struct ab_result *r)
{
	render_table(out, r, 0);
}

void ab_render_markdown(struct buf *out, const struct ab_result *r)
{
	ab_render_painted(out, r, 0);
}

void ab_render_painted(struct buf *out, const struct ab_result *r, int paint)
{
	size_t i;

	render_table(out, r, paint);
	if (r->sweep.ok)
		render_sweep(out, r);
	else if (r->sweep.why[0])
		buf_addf(out, "\nNo sweep fit: %s.\n", r->sweep.why);
	for (i = 0; i < r->npoints; i++) {
		const struct ab_point *p = &r->points[i];

		/* a control's reason is in the lines above the table */
		if (!p->why[0] || p->control)
			continue;
		buf_addf(out, "- `%s`", p->workload);
		at_count(out, p);
		buf_addf(out, ": %s", p->why);
		if (p->n_needed)
			buf_addf(out, "; about %ld runs per arm would tell",
				 p->n_needed);
		buf_putc(out, '\n');
	}
	for (i = 0; i < r->warnings.nr; i++) {
		buf_puts(out, "- ");
		painted(out, paint, COLOR_YELLOW, "warning:");
		buf_addf(out, " %s\n", r->warnings.v[i]);
	}
}

static cJSON *samples_json(const double *v, size_t n)
{
	cJSON *a = cJSON_CreateArray();
	size_t i;

	for (i = 0; i < n; i++)
		cJSON_AddItemToArray(a, cJSON_CreateNumber(v[i]));
	return a;
}

cJSON *ab_result_json(const struct ab_result *r)
{
	cJSON *j = cJSON_CreateObject(), *pts = cJSON_CreateArray(), *w;
	char hex[GIT_OID_HEXSZ + 1];
	size_t i;

	cJSON_AddBoolToObject(j, "invalid", r->invalid);
	cJSON_AddStringToObject(j, "controls", ab_vouch_name(ab_vouch_of(r)));
	cJSON_AddBoolToObject(j, "vouched", ab_vouch_of(r) == AB_VOUCH_STEADY);
	cJSON_AddNumberToObject(j, "control_tests", (double)r->control_tests);
	cJSON_AddStringToObject(j, "a", r->a_desc);
	cJSON_AddStringToObject(j, "b", r->b_desc);
	cJSON_AddStringToObject(j, "mode", ab_mode_name(r->mode));
	cJSON_AddStringToObject(j, "order", ab_order_name(r->order));
	cJSON_AddNumberToObject(j, "n", (double)r->n);
	cJSON_AddNumberToObject(j, "warmup", (double)r->warmup);
	cJSON_AddStringToObject(j, "metric", r->metric);
	cJSON_AddStringToObject(j, "env", r->env);
	if (r->has_floor) {
		w = cJSON_AddObjectToObject(j, "floor");
		cJSON_AddNumberToObject(w, "launch_sync_us",
					r->floor.launch_us);
		cJSON_AddItemToObject(
			w, "htod_24B_us",
			r->floor.htod_us >= 0
				? cJSON_CreateNumber(r->floor.htod_us)
				: cJSON_CreateNull());
		cJSON_AddStringToObject(w, "commit", r->floor.commit);
	}
	git_oid_tostr(hex, sizeof(hex), &r->a_commit);
	cJSON_AddStringToObject(j, "a_commit", hex);
	git_oid_tostr(hex, sizeof(hex), &r->b_tree);
	cJSON_AddStringToObject(j, "b_tree", hex);
	w = cJSON_AddObjectToObject(j, "config");
	for (i = 0; i < r->labels.nr; i++) {
		const char *eq = strchr(r->labels.v[i], '=');
		char *key = eq ? xstrndup(r->labels.v[i],
					  (size_t)(eq - r->labels.v[i]))
			       : xstrdup(r->labels.v[i]);

		cJSON_AddStringToObject(w, key, eq ? eq + 1 : "");
		free(key);
	}
	cJSON_AddStringToObject(j, "unit", r->unit);
	cJSON_AddStringToObject(j, "better",
				r->higher_is_better ? "higher" : "lower");
	for (i = 0; i < r->npoints; i++) {
		const struct ab_point *p = &r->points[i];
		cJSON *o = cJSON_CreateObject();

		cJSON_AddStringToObject(o, "workload", p->workload);
		cJSON_AddBoolToObject(o, "control", p->control);
		if (p->metric) {
			cJSON_AddStringToObject(o, "metric", p->metric);
			cJSON_AddStringToObject(o, "unit", p->unit);
		}
		if (p->iters)
			cJSON_AddNumberToObject(o, "iters", (double)p->iters);
		cJSON_AddItemToObject(o, "a", samples_json(p->a, p->na));
		cJSON_AddItemToObject(o, "b", samples_json(p->b, p->nb));
		json_add_num_or_null(o, "median_a", p->sa.median);
		json_add_num_or_null(o, "median_b", p->sb.median);
		json_add_num_or_null(o, "min_a", p->sa.min);
		json_add_num_or_null(o, "max_a", p->sa.max);
		json_add_num_or_null(o, "min_b", p->sb.min);
		json_add_num_or_null(o, "max_b", p->sb.max);
		json_add_num_or_null(o, "mad_a", p->sa.mad);
		json_add_num_or_null(o, "mad_b", p->sb.mad);
		json_add_num_or_null(o, "ratio", p->cmp.ratio);
		json_add_num_or_null(o, "median_ratio", p->cmp.median_ratio);
		if (p->cmp.on_diff) {
			json_add_num_or_null(o, "diff", p->cmp.diff);
			json_add_num_or_null(o, "diff_low", p->cmp.diff_lo);
			json_add_num_or_null(o, "diff_high", p->cmp.diff_hi);
		}
		json_add_num_or_null(o, "ci_low", p->cmp.ci_lo);
		json_add_num_or_null(o, "ci_high", p->cmp.ci_hi);
		json_add_num_or_null(o, "p", p->cmp.p);
		if (p->control)
			json_add_num_or_null(o, "p_holm", p->p_holm);
		if (r->has_floor)
			json_add_num_or_null(o, "b_in_floors", in_floors(r, p));
		cJSON_AddNumberToObject(o, "failed_a", (double)p->failed_a);
		cJSON_AddNumberToObject(o, "failed_b", (double)p->failed_b);
		cJSON_AddStringToObject(o, "verdict",
					ab_verdict_name(p->verdict));
		if (p->why[0])
			cJSON_AddStringToObject(o, "why", p->why);
		if (p->n_needed)
			cJSON_AddNumberToObject(o, "n_needed",
						(double)p->n_needed);
		cJSON_AddItemToArray(pts, o);
	}
	cJSON_AddItemToObject(j, "workloads", pts);
	if (r->sweep.ok) {
		w = cJSON_AddObjectToObject(j, "sweep");
		const struct stats_sweep *f = &r->sweep.fit;

		json_add_num_or_null(w, "fixed_a", f->fixed_a);
		json_add_num_or_null(w, "per_iter_a", f->per_iter_a);
		json_add_num_or_null(w, "fixed_b", f->fixed_b);
		json_add_num_or_null(w, "per_iter_b", f->per_iter_b);
		json_add_num_or_null(w, "d_fixed", f->d_fixed);
		json_add_num_or_null(w, "d_fixed_low", f->d_fixed_lo);
		json_add_num_or_null(w, "d_fixed_high", f->d_fixed_hi);
		json_add_num_or_null(w, "per_iter_ratio", f->per_iter_ratio);
		json_add_num_or_null(w, "per_iter_ratio_low",
				     f->per_iter_ratio_lo);
		json_add_num_or_null(w, "per_iter_ratio_high",
				     f->per_iter_ratio_hi);
		cJSON_AddStringToObject(w, "words", r->sweep.words);
		json_add_num_or_null(w, "p_fixed", r->sweep.p_fixed);
		json_add_num_or_null(w, "p_per_iter", r->sweep.p_per_iter);
		cJSON_AddBoolToObject(w, "reciprocal", r->sweep.reciprocal);
		cJSON_AddBoolToObject(w, "fixed_resolved",
				      !(f->fixed_a < 0 || f->fixed_b < 0));
		if (r->sweep.why[0])
			cJSON_AddStringToObject(w, "why", r->sweep.why);
		if (r->sweep.n_needed)
			cJSON_AddNumberToObject(w, "n_needed",
						(double)r->sweep.n_needed);
	} else if (r->sweep.why[0]) {
		w = cJSON_AddObjectToObject(j, "sweep");
		cJSON_AddStringToObject(w, "why", r->sweep.why);
	}
	w = cJSON_AddArrayToObject(j, "warnings");
	for (i = 0; i < r->warnings.nr; i++)
		cJSON_AddItemToArray(w, cJSON_CreateString(r->warnings.v[i]));
	return j;
}

void ab_render_value(struct buf *out, double v, const char *unit)
{
	fmt_value(out, v, unit);
}
