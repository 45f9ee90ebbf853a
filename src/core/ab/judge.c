/* Judging and showing an A/B: verdicts by benchstat's rules plus a
 * minimum effect, controls that invalidate the run, the iteration-sweep
 * fit, a drift check, the Markdown table and the JSON. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/ab/ab.h"
#include "util/json.h"
#include "util/xalloc.h"

/* Fewer runs per arm give numbers but no verdict: below 5 an exact
 * Mann-Whitney test cannot reach p < 0.05 with a CI (see stats.h) */
#define AB_MIN_N 5

static long runs_needed(long n, double half_width, double target)
{
	double k;

	if (!(half_width > 0) || !(target > 0))
		return 0;
	/* a CI narrows as 1/sqrt(n) */
	k = (double)n * (half_width / target) * (half_width / target);
	return k > 1e6 ? 1000000 : (long)ceil(k);
}

void ab_judge(struct ab_point *p, double min_effect, double control_tol,
	      int higher_is_better)
{
	double effect, half;
	size_t n = p->na < p->nb ? p->na : p->nb;
	int ci_ok;

	p->why[0] = '\0';
	p->n_needed = 0;
	stats_summarize(&p->sa, p->a, p->na);
	stats_summarize(&p->sb, p->b, p->nb);
	memset(&p->cmp, 0, sizeof(p->cmp));
	p->cmp.ratio = p->cmp.ci_lo = p->cmp.ci_hi = NAN;
	p->cmp.p = 1;
	if (p->failed_a || p->failed_b) {
		p->verdict = AB_VERDICT_FAILED;
		snprintf(p->why, sizeof(p->why),
			 "%zu run(s) of A and %zu of B exited non-zero",
			 p->failed_a, p->failed_b);
		return;
	}
	if (!p->na || !p->nb) {
		p->verdict = AB_VERDICT_NO_VERDICT;
		snprintf(p->why, sizeof(p->why), "no samples");
		return;
	}
	stats_compare(&p->cmp, p->a, p->na, p->b, p->nb);
	effect = p->cmp.ratio - 1;
	ci_ok = !isnan(p->cmp.ci_lo) && !isnan(p->cmp.ci_hi);
	half = ci_ok ? (p->cmp.ci_hi - p->cmp.ci_lo) / 2 : NAN;
	if (n < AB_MIN_N) {
		p->verdict = AB_VERDICT_NO_VERDICT;
		snprintf(p->why, sizeof(p->why),
			 "n = %zu per arm: %d are needed for a verdict", n,
			 AB_MIN_N);
		p->n_needed = AB_MIN_N;
		return;
	}
	if (p->control) {
		if (p->cmp.significant && fabs(effect) > control_tol) {
			p->verdict = AB_VERDICT_MOVED;
			snprintf(p->why, sizeof(p->why),
				 "the control moved %+.1f%% (p = %.3g)",
				 effect * 100, p->cmp.p);
		} else if (!ci_ok || half > control_tol) {
			p->verdict = AB_VERDICT_NOISY;
			p->n_needed = runs_needed((long)n, half, control_tol);
			snprintf(p->why, sizeof(p->why),
				 "too noisy to vouch for the run: 95%% CI "
				 "+-%.1f%%, tolerance %.1f%%",
				 ci_ok ? half * 100 : NAN, control_tol * 100);
		} else {
			p->verdict = AB_VERDICT_STEADY;
		}
		return;
	}
	if (p->cmp.significant && ci_ok &&
	    (p->cmp.ci_hi < 1 || p->cmp.ci_lo > 1) &&
	    fabs(effect) >= min_effect) {
		p->verdict = (effect < 0) != !!higher_is_better
				     ? AB_VERDICT_FASTER
				     : AB_VERDICT_SLOWER;
	} else if (ci_ok && half > min_effect) {
		p->verdict = AB_VERDICT_INCONCLUSIVE;
		p->n_needed = runs_needed((long)n, half, min_effect);
		snprintf(p->why, sizeof(p->why),
			 "95%% CI +-%.1f%% is wider than the %.1f%% minimum "
			 "effect",
			 half * 100, min_effect * 100);
	} else {
		p->verdict = AB_VERDICT_SAME;
	}
}

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

static void row(struct buf *out, const struct ab_result *r,
		const struct ab_point *p)
{
	double fl = in_floors(r, p);

	buf_addf(out, "| %s`%s` |", p->control ? "control: " : "", p->workload);
	if (r->sweep.ok || p->iters)
		buf_addf(out, " %ld |", p->iters);
	buf_putc(out, ' ');
	fmt_value(out, p->sa.median, p->unit ? p->unit : r->unit);
	buf_puts(out, " | ");
	fmt_value(out, p->sb.median, p->unit ? p->unit : r->unit);
	buf_puts(out, " | ");
	fmt_ratio(out, p->cmp.ratio, p->cmp.ci_lo, p->cmp.ci_hi);
	if (isnan(p->cmp.ratio))
		buf_puts(out, " | - |");
	else
		buf_addf(out, " | %.2g |", p->cmp.p);
	buf_addf(out, " %s |",
		 p->verdict != AB_VERDICT_NONE ? ab_verdict_name(p->verdict)
					       : "-");
	if (r->has_floor && isnan(fl))
		buf_puts(out, " - |");
	else if (r->has_floor)
		buf_addf(out, fl >= 1000 ? " %.0fx |" : " %.3gx |", fl);
	buf_putc(out, '\n');
}

void ab_render_table(struct buf *out, const struct ab_result *r)
{
	size_t i;
	int iters = 0;

	for (i = 0; i < r->npoints; i++) {
		iters |= r->points[i].iters != 0;
		if (r->points[i].control &&
		    r->points[i].verdict == AB_VERDICT_MOVED)
			buf_addf(out,
				 "**INVALID**: control `%s` moved: %s. The "
				 "environment or the build moved, not the code "
				 "under test.\n\n",
				 r->points[i].workload, r->points[i].why);
	}
	buf_addf(out,
		 "| workload |%s A: %s | B: %s | B/A [95%% CI] | p | "
		 "verdict |",
		 iters ? " iters |" : "", r->a_desc, r->b_desc);
	if (r->has_floor)
		buf_addf(out, " floor: launch %.2f us |", r->floor.launch_us);
	buf_addf(out, "\n|---|%s---:|---:|---:|---:|---|%s\n",
		 iters ? "---:|" : "", r->has_floor ? "---:|" : "");
	for (i = 0; i < r->npoints; i++)
		row(out, r, &r->points[i]);
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

void ab_render_markdown(struct buf *out, const struct ab_result *r)
{
	size_t i;

	ab_render_table(out, r);
	if (r->sweep.ok) {
		const struct stats_sweep *f = &r->sweep.fit;

		buf_addf(out,
			 "\nSweep (Theil-Sen per arm, time = fixed + "
			 "per-iteration x iters): %s.\n",
			 r->sweep.words);
		buf_puts(out, "- fixed: ");
		fmt_value(out, f->fixed_a, r->unit);
		buf_puts(out, " -> ");
		fmt_value(out, f->fixed_b, r->unit);
		buf_puts(out, ", change ");
		fmt_value(out, f->d_fixed, r->unit);
		buf_puts(out, " [");
		fmt_value(out, f->d_fixed_lo, r->unit);
		buf_puts(out, ", ");
		fmt_value(out, f->d_fixed_hi, r->unit);
		buf_puts(out, "]\n- per iteration: ");
		fmt_value(out, f->per_iter_a, r->unit);
		buf_puts(out, " -> ");
		fmt_value(out, f->per_iter_b, r->unit);
		buf_puts(out, ", B/A ");
		fmt_ratio(out, f->per_iter_ratio, f->per_iter_ratio_lo,
			  f->per_iter_ratio_hi);
		buf_putc(out, '\n');
	}
	for (i = 0; i < r->npoints; i++) {
		const struct ab_point *p = &r->points[i];

		if (!p->why[0] || p->verdict == AB_VERDICT_MOVED)
			continue;
		buf_addf(out, "- `%s`%s: %s", p->workload, p->iters ? "" : "",
			 p->why);
		if (p->n_needed)
			buf_addf(out, "; about %ld runs per arm would tell",
				 p->n_needed);
		buf_putc(out, '\n');
	}
	for (i = 0; i < r->warnings.nr; i++)
		buf_addf(out, "- warning: %s\n", r->warnings.v[i]);
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
		json_add_num_or_null(o, "ci_low", p->cmp.ci_lo);
		json_add_num_or_null(o, "ci_high", p->cmp.ci_hi);
		json_add_num_or_null(o, "p", p->cmp.p);
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
	}
	w = cJSON_AddArrayToObject(j, "warnings");
	for (i = 0; i < r->warnings.nr; i++)
		cJSON_AddItemToArray(w, cJSON_CreateString(r->warnings.v[i]));
	return j;
}

void ab_result_release(struct ab_result *r)
{
	size_t i;

	if (!r)
		return;
	for (i = 0; i < r->npoints; i++) {
		free(r->points[i].workload);
		free(r->points[i].metric);
		free(r->points[i].unit);
		free(r->points[i].a);
		free(r->points[i].b);
	}
	free(r->points);
	strvec_clear(&r->warnings);
	strvec_clear(&r->labels);
	free(r->unit);
	free(r->metric);
	free(r->env_line);
	memset(r, 0, sizeof(*r));
}

/* Every sample of one arm of the main workload as (iters, value) */
static size_t sweep_points(double **x, double **y, const struct ab_result *r,
			   int arm_b)
{
	size_t n = 0, i, k;

	*x = *y = NULL;
	for (i = 0; i < r->npoints; i++) {
		const struct ab_point *p = &r->points[i];
		const double *v = arm_b ? p->b : p->a;
		size_t m = arm_b ? p->nb : p->na;

		if (p->control)
			continue;
		*x = xrealloc(*x, (n + m + 1) * sizeof(**x));
		*y = xrealloc(*y, (n + m + 1) * sizeof(**y));
		for (k = 0; k < m; k++, n++) {
			(*x)[n] = (double)p->iters;
			(*y)[n] = v[k];
		}
	}
	return n;
}

/* What a sweep says, in words (ab_result_from_json maps them back) */
static const char *const sweep_words[] = {
	"both the per-iteration and the fixed cost changed",
	"removed per-iteration work",
	"added per-iteration work",
	"displaced fixed cost (the saving does not grow with iterations)",
	"added a fixed cost (the loss does not grow with iterations)",
	"neither the fixed nor the per-iteration cost changed",
	NULL,
};

/* A change is called when its 95% CI excludes "no change" and it is at
 * least the minimum effect: for the per-iteration cost relative to A's,
 * for the fixed cost relative to A's time at the smallest count. */
static void fit_sweep(struct ab_result *r, double min_effect, unsigned seed)
{
	struct ab_sweep *s = &r->sweep;
	struct stats_sweep *f = &s->fit;
	double *xa, *ya, *xb, *yb, base = NAN;
	size_t na, nb, i;
	int per_moved, fixed_moved;

	for (i = 0; i < r->npoints; i++)
		if (!r->points[i].control && r->points[i].na) {
			base = r->points[i].sa.median; /* smallest count */
			break;
		}
	na = sweep_points(&xa, &ya, r, 0);
	nb = sweep_points(&xb, &yb, r, 1);
	s->ok = !stats_sweep_compare(f, xa, ya, na, xb, yb, nb, 2000, seed) &&
		base > 0;
	free(xa);
	free(ya);
	free(xb);
	free(yb);
	if (!s->ok)
		return;
	per_moved = !isnan(f->per_iter_ratio_lo) &&
		    (f->per_iter_ratio_hi < 1 || f->per_iter_ratio_lo > 1) &&
		    fabs(f->per_iter_ratio - 1) >= min_effect;
	fixed_moved = !isnan(f->d_fixed_lo) &&
		      (f->d_fixed_hi < 0 || f->d_fixed_lo > 0) &&
		      fabs(f->d_fixed) / base >= min_effect;
	if (per_moved && fixed_moved)
		s->words = sweep_words[0];
	else if (per_moved)
		s->words = sweep_words[f->per_iter_ratio < 1 ? 1 : 2];
	else if (fixed_moved)
		s->words = sweep_words[f->d_fixed < 0 ? 3 : 4];
	else
		s->words = sweep_words[5];
}

/* Samples were taken in order: a second half unlike the first means the
 * machine drifted under the arm */
static void check_drift(struct ab_result *r, const struct ab_point *p,
			int arm_b, double min_effect)
{
	const double *v = arm_b ? p->b : p->a;
	size_t n = arm_b ? p->nb : p->na, h = n / 2;
	double tau, pt, first, second;

	if (n < 6)
		return;
	pt = stats_trend(&tau, v, n);
	first = stats_median(v, h);
	second = stats_median(v + h, n - h);
	if (pt < STATS_ALPHA && first > 0 &&
	    fabs(second / first - 1) >= min_effect)
		strvec_push_owned(
			&r->warnings,
			xasprintf("drift: arm %c of `%s` trends over its runs "
				  "(Mann-Kendall p = %.2g); its second half "
				  "is %+.1f%% off the first",
				  arm_b ? 'B' : 'A', p->workload, pt,
				  (second / first - 1) * 100));
}

void ab_finish(struct ab_result *r, double min_effect, double control_tol,
	       int sweep, unsigned seed)
{
	size_t i;

	for (i = 0; i < r->npoints; i++) {
		struct ab_point *p = &r->points[i];

		ab_judge(p, min_effect, control_tol, r->higher_is_better);
		if (p->control && p->verdict == AB_VERDICT_MOVED)
			r->invalid = 1;
		check_drift(r, p, 0, min_effect);
		check_drift(r, p, 1, min_effect);
	}
	if (r->order == AB_ORDER_BLOCKED)
		strvec_push(&r->warnings,
			    "blocked order: drift of the machine between the "
			    "arms reads as an effect of the code; --mode "
			    "worktree interleaves A B B A");
	if (sweep && !r->higher_is_better)
		fit_sweep(r, min_effect, seed);
}

/* The literal among words equal to s, or NULL: sweep words are pointers
 * to literals, not copies */
static const char *intern(const char *const *words, const char *s)
{
	for (; s && *words; words++)
		if (!strcmp(*words, s))
			return *words;
	return NULL;
}

static double *samples_from(size_t *n, const cJSON *a)
{
	double *v = xcalloc((size_t)cJSON_GetArraySize(a) + 1, sizeof(*v));
	const cJSON *e;

	*n = 0;
	cJSON_ArrayForEach(e, a) if (cJSON_IsNumber(e)) v[(*n)++] =
		e->valuedouble;
	return v;
}

int ab_result_from_json(struct ab_result *out, const cJSON *j)
{
	const cJSON *pts = cJSON_GetObjectItemCaseSensitive(j, "workloads");
	const cJSON *e, *sw, *cfg;
	const char *s;
	size_t k = 0;

	memset(out, 0, sizeof(*out));
	if (!cJSON_IsObject(j) || !cJSON_IsArray(pts))
		return -1;
	out->invalid = json_get_bool(j, "invalid");
	snprintf(out->a_desc, sizeof(out->a_desc), "%s",
		 json_get_str_or(j, "a", "A"));
	snprintf(out->b_desc, sizeof(out->b_desc), "%s",
		 json_get_str_or(j, "b", "B"));
	out->mode =
		ab_mode_from_name(json_get_str(j, "mode"), AB_MODE_WORKTREE);
	out->order =
		ab_order_from_name(json_get_str(j, "order"), AB_ORDER_ABBA);
	out->n = (long)json_get_num(j, "n", 0);
	out->warmup = (long)json_get_num(j, "warmup", 0);
	out->metric = xstrdup(json_get_str_or(j, "metric", "wall"));
	out->unit = xstrdup(json_get_str_or(j, "unit", ""));
	out->higher_is_better =
		!strcmp(json_get_str_or(j, "better", ""), "higher");
	snprintf(out->env, sizeof(out->env), "%s",
		 json_get_str_or(j, "env", ""));
	if ((s = json_get_str(j, "a_commit")))
		git_oid_fromstrp(&out->a_commit, s);
	if ((s = json_get_str(j, "b_tree")))
		git_oid_fromstrp(&out->b_tree, s);
	cfg = cJSON_GetObjectItemCaseSensitive(j, "config");
	cJSON_ArrayForEach(e, cfg) if (cJSON_IsString(e)) strvec_push_owned(
		&out->labels, xasprintf("%s=%s", e->string, e->valuestring));
	cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(
				      j, "warnings")) if (cJSON_IsString(e))
		strvec_push(&out->warnings, e->valuestring);
	out->npoints = (size_t)cJSON_GetArraySize(pts);
	out->points = xcalloc(out->npoints + 1, sizeof(*out->points));
	cJSON_ArrayForEach(e, pts)
	{
		struct ab_point *p = &out->points[k++];

		p->workload = xstrdup(json_get_str_or(e, "workload", ""));
		if ((s = json_get_str(e, "metric"))) {
			p->metric = xstrdup(s);
			p->unit = xstrdup(json_get_str_or(e, "unit", ""));
		}
		p->control = json_get_bool(e, "control");
		p->iters = (long)json_get_num(e, "iters", 0);
		p->a = samples_from(&p->na,
				    cJSON_GetObjectItemCaseSensitive(e, "a"));
		p->b = samples_from(&p->nb,
				    cJSON_GetObjectItemCaseSensitive(e, "b"));
		/* what the tables draw: the median's CI is not one */
		stats_summarize_no_ci(&p->sa, p->a, p->na);
		stats_summarize_no_ci(&p->sb, p->b, p->nb);
		p->failed_a = (size_t)fmax(0, json_get_num(e, "failed_a", NAN));
		p->failed_b = (size_t)fmax(0, json_get_num(e, "failed_b", NAN));
		p->cmp.ratio = json_get_num(e, "ratio", NAN);
		p->cmp.ci_lo = json_get_num(e, "ci_low", NAN);
		p->cmp.ci_hi = json_get_num(e, "ci_high", NAN);
		p->cmp.p = json_get_num(e, "p", NAN);
		p->cmp.significant = p->cmp.p < STATS_ALPHA;
		p->cmp.median_a = p->sa.median;
		p->cmp.median_b = p->sb.median;
		p->verdict = ab_verdict_from_name(json_get_str(e, "verdict"),
						  AB_VERDICT_NONE);
		snprintf(p->why, sizeof(p->why), "%s",
			 json_get_str_or(e, "why", ""));
		p->n_needed = (long)json_get_num(e, "n_needed", 0);
	}
	sw = cJSON_GetObjectItemCaseSensitive(j, "sweep");
	if (cJSON_IsObject(sw) &&
	    (out->sweep.words =
		     intern(sweep_words, json_get_str(sw, "words")))) {
		struct stats_sweep *f = &out->sweep.fit;

		out->sweep.ok = 1;
		f->fixed_a = json_get_num(sw, "fixed_a", NAN);
		f->per_iter_a = json_get_num(sw, "per_iter_a", NAN);
		f->fixed_b = json_get_num(sw, "fixed_b", NAN);
		f->per_iter_b = json_get_num(sw, "per_iter_b", NAN);
		f->d_fixed = json_get_num(sw, "d_fixed", NAN);
		f->d_fixed_lo = json_get_num(sw, "d_fixed_low", NAN);
		f->d_fixed_hi = json_get_num(sw, "d_fixed_high", NAN);
		f->per_iter_ratio = json_get_num(sw, "per_iter_ratio", NAN);
		f->per_iter_ratio_lo =
			json_get_num(sw, "per_iter_ratio_low", NAN);
		f->per_iter_ratio_hi =
			json_get_num(sw, "per_iter_ratio_high", NAN);
	}
	return 0;
}
