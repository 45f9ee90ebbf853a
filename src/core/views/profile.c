/* The profile line of a PR body: one per profile import (a JFR recording,
 * an Nsight Compute or Nsight Systems report), naming where the time went,
 * as the campaign's merged bodies give it ("jfr: 98.9 % of 275 samples in
 * `Hot.slow(int)`"). */
#include "core/views/profile.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/buf.h"
#include "util/strvec.h"
#include "util/xalloc.h"

int profile_source(const char *source)
{
	return source && (!strcmp(source, "jfr") || !strcmp(source, "nsys") ||
			  !strcmp(source, "ncu"));
}

/* Where the time of one import went: per name, its weight */
struct tally {
	struct strvec names;
	double *w;
	double total; /* the import's own total, or 0: the sum */
	long launches;
	const char *what; /* "samples", "GPU time" */
	const char *event;
};

static void tally_add(struct tally *t, const char *name, double w)
{
	size_t i;

	for (i = 0; i < t->names.nr; i++)
		if (!strcmp(t->names.v[i], name))
			break;
	if (i == t->names.nr) {
		strvec_push(&t->names, name);
		t->w = xrealloc(t->w, t->names.nr * sizeof(*t->w));
		t->w[i] = 0;
	}
	t->w[i] += w;
}

static int is_ncu_duration(const struct record *r)
{
	return !strcmp(r->metric, "Duration") ||
	       !strcmp(r->metric, "gpu__time_duration.sum");
}

/* Adds record r of the import to t. JFR: the event with the most samples
 * wins (its total is the record without a method); ncu: each launch's
 * duration by kernel (a summary's total and count); nsys: kernel time by
 * name (cuda_gpu_kern_sum, or a cuda_gpu_trace's summaries). */
static void tally_record(struct tally *t, const struct record *r)
{
	const char *name;

	if (!strcmp(r->source, "jfr")) {
		const char *ev = record_config_get(r, "event");

		if (strcmp(r->metric, "jfr.samples") || !ev)
			return;
		if (t->event && strcmp(t->event, ev))
			return;
		t->event = ev;
		t->what = "samples";
		if (!(name = record_config_get(r, "method")))
			t->total = r->value;
		else
			tally_add(t, name, r->value);
	} else if (!strcmp(r->source, "ncu")) {
		if (!is_ncu_duration(r) ||
		    !(name = record_config_get(r, "kernel")))
			return;
		t->what = "GPU time";
		/* a summary of launches: their count and total */
		t->launches += r->summary ? r->n : 1;
		tally_add(t, name, r->summary ? r->sum : r->value);
	} else {
		const char *rep = record_config_get(r, "report");

		/* a trace's summaries of kernels (a grid: no memory copy) */
		if (r->summary && rep && !strcmp(rep, "cuda_gpu_trace") &&
		    !strcmp(r->metric, "duration") &&
		    record_config_get(r, "grid") &&
		    (name = record_config_get(r, "name"))) {
			t->what = "GPU kernel time";
			t->launches += r->n;
			tally_add(t, name, r->sum);
			return;
		}
		if (strcmp(r->metric, "time_total") || !rep ||
		    !(name = record_config_get(r, "name")) ||
		    strcmp(rep, "cuda_gpu_kern_sum"))
			return;
		t->what = "GPU kernel time";
		tally_add(t, name, r->value);
	}
}

/* The line, e.g. "98.9 % of 275 samples in `Hot.slow(int)`" */
static char *line_of(const struct tally *t, size_t top, double total)
{
	double share = total > 0 ? 100 * t->w[top] / total : NAN;
	struct buf b = BUF_INIT;

	if (!strcmp(t->what, "samples"))
		buf_addf(&b, "%.3g %% of %.0f samples in `%s`", share, total,
			 t->names.v[top]);
	else
		buf_addf(&b, "%.3g %% of the %s in `%s`", share, t->what,
			 t->names.v[top]);
	if (t->launches)
		buf_addf(&b, " (%ld launch%s)", t->launches,
			 t->launches == 1 ? "" : "es");
	if (t->event)
		buf_addf(&b, " (%s)", t->event);
	return buf_detach(&b);
}

void profile_summarize(cJSON *out, const struct record *recs, size_t n,
		       const char *commit)
{
	struct strvec runs = STRVEC_INIT;
	size_t i, k;

	for (i = 0; i < n; i++)
		if (profile_source(recs[i].source))
			strvec_push(&runs, recs[i].run);
	strvec_sort(&runs);
	for (k = 0; k < runs.nr; k++) {
		struct tally t;
		const struct record *first = NULL;
		size_t top = 0, nrec = 0;
		double sum = 0;
		cJSON *o;
		char *text, shortid[13];

		if (k && !strcmp(runs.v[k], runs.v[k - 1]))
			continue;
		memset(&t, 0, sizeof(t));
		for (i = 0; i < n; i++) {
			if (!profile_source(recs[i].source) ||
			    strcmp(recs[i].run, runs.v[k]))
				continue;
			first = first ? first : &recs[i];
			nrec++;
			tally_record(&t, &recs[i]);
		}
		for (i = 0; i < t.names.nr; i++) {
			sum += t.w[i];
			if (t.w[i] > t.w[top])
				top = i;
		}
		o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "source", first->source);
		cJSON_AddStringToObject(o, "run", runs.v[k]);
		cJSON_AddStringToObject(o, "env", first->env);
		cJSON_AddStringToObject(o, "commit", commit);
		snprintf(shortid, sizeof(shortid), "%.12s", commit);
		cJSON_AddStringToObject(o, "commit_short", shortid);
		cJSON_AddNumberToObject(o, "records", (double)nrec);
		if (t.names.nr) {
			double total = t.total > 0 ? t.total : sum;

			text = line_of(&t, top, total);
			cJSON_AddStringToObject(o, "top", t.names.v[top]);
			cJSON_AddNumberToObject(
				o, "share", total > 0 ? t.w[top] / total : 0);
		} else {
			text = xasprintf("%zu record%s, none of a time or "
					 "sample count",
					 nrec, nrec == 1 ? "" : "s");
		}
		cJSON_AddStringToObject(o, "text", text);
		cJSON_AddItemToArray(out, o);
		free(text);
		strvec_clear(&t.names);
		free(t.w);
	}
	strvec_clear(&runs);
}
