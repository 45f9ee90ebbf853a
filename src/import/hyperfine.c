/* The hyperfine importer: one set of records per benchmarked command of an
 * --export-json file; seconds become ns like every other importer's times
 * (see hyperfine.h for the records). */
#include "import/hyperfine.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "import/jsonscan.h"
#include "util/strvec.h"
#include "util/xalloc.h"

#define NS_PER_S 1e9

/* What one element of "results" held. */
struct result {
	char *command;
	double median;
	int has_median;
	double *times;
	size_t ntimes;
	double user, system;
	int has_user, has_system;
	size_t failures;
	int has_exit;
	double *mem;
	size_t nmem;
	struct strvec params;
};

static void result_release(struct result *r)
{
	free(r->command);
	free(r->times);
	free(r->mem);
	strvec_clear(&r->params);
	memset(r, 0, sizeof(*r));
}

static int is_amount(const cJSON *j, double scale, double *out)
{
	double v;

	if (!cJSON_IsNumber(j))
		return 0;
	v = j->valuedouble * scale;
	if (!isfinite(v) || v < 0)
		return 0;
	*out = v;
	return 1;
}

/* Reads an array of amounts (scaled). Returns 0, or -1 when j is not one. */
static int amounts(const cJSON *j, double scale, double **out, size_t *n)
{
	const cJSON *e;
	size_t i = 0;

	if (!cJSON_IsArray(j))
		return -1;
	*n = (size_t)cJSON_GetArraySize(j);
	*out = *n ? xmalloc(*n * sizeof(**out)) : NULL;
	cJSON_ArrayForEach(e, j) {
		if (i == *n || !is_amount(e, scale, &(*out)[i]))
			return -1;
		i++;
	}
	return i == *n ? 0 : -1;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median_of(const double *v, size_t n)
{
	double *s = xmalloc(n * sizeof(*s)), m;

	memcpy(s, v, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_double);
	m = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
	free(s);
	return m;
}

static int read_exit_codes(struct result *r, const cJSON *j)
{
	const cJSON *e;

	if (!cJSON_IsArray(j))
		return -1;
	cJSON_ArrayForEach(e, j) {
		if (cJSON_IsNull(e)) {
			r->failures++; /* killed by a signal */
			continue;
		}
		if (!cJSON_IsNumber(e) || e->valuedouble < -1e9 ||
		    e->valuedouble > 1e9 ||
		    e->valuedouble != (double)(int)e->valuedouble)
			return -1;
		if (e->valuedouble != 0)
			r->failures++;
	}
	r->has_exit = 1;
	return 0;
}

static int read_params(struct result *r, const cJSON *j)
{
	const cJSON *e;

	if (!cJSON_IsObject(j))
		return -1;
	cJSON_ArrayForEach(e, j) {
		if (!e->string || !*e->string || strchr(e->string, '=') ||
		    !strcmp(e->string, "command"))
			return -1;
		if (cJSON_IsString(e))
			strvec_push_owned(
				&r->params,
				xasprintf("%s=%s", e->string, e->valuestring));
		else if (cJSON_IsNumber(e))
			strvec_push_owned(&r->params,
					  xasprintf("%s=%.15g", e->string,
						    e->valuedouble));
		else
			return -1;
	}
	return 0;
}

/* Reads one member of a result; returns 0, or -1 with *what naming what
 * the value should have been. Unknown keys are skipped by the caller. */
static int read_member(struct result *r, const char *key, size_t klen,
		       const cJSON *j, const char **what)
{
	if (jscan_key_is(key, klen, "command")) {
		*what = "a \"command\" string";
		if (!cJSON_IsString(j) || r->command)
			return -1;
		r->command = xstrdup(j->valuestring);
	} else if (jscan_key_is(key, klen, "median")) {
		*what = "a \"median\" time in seconds";
		if (!is_amount(j, NS_PER_S, &r->median))
			return -1;
		r->has_median = 1;
	} else if (jscan_key_is(key, klen, "user")) {
		*what = "a \"user\" time in seconds or null";
		if (cJSON_IsNull(j))
			return 0;
		if (!is_amount(j, NS_PER_S, &r->user))
			return -1;
		r->has_user = 1;
	} else if (jscan_key_is(key, klen, "system")) {
		*what = "a \"system\" time in seconds or null";
		if (cJSON_IsNull(j))
			return 0;
		if (!is_amount(j, NS_PER_S, &r->system))
			return -1;
		r->has_system = 1;
	} else if (jscan_key_is(key, klen, "times")) {
		*what = "a \"times\" array of seconds";
		free(r->times);
		r->times = NULL;
		return amounts(j, NS_PER_S, &r->times, &r->ntimes);
	} else if (jscan_key_is(key, klen, "memory_usage_byte")) {
		*what = "a \"memory_usage_byte\" array of byte counts";
		free(r->mem);
		r->mem = NULL;
		return amounts(j, 1, &r->mem, &r->nmem);
	} else if (jscan_key_is(key, klen, "exit_codes")) {
		*what = "an \"exit_codes\" array of integers or nulls";
		r->failures = 0;
		return read_exit_codes(r, j);
	} else if (jscan_key_is(key, klen, "parameters")) {
		*what = "a \"parameters\" object of names (not \"command\") "
			"and values";
		strvec_clear(&r->params);
		return read_params(r, j);
	}
	return 0;
}

static int is_known(const char *key, size_t klen)
{
	static const char *const known[] = {
		"command",    "median",	    "user",
		"system",     "times",	    "memory_usage_byte",
		"exit_codes", "parameters", NULL};
	size_t i;

	for (i = 0; known[i]; i++)
		if (jscan_key_is(key, klen, known[i]))
			return 1;
	return 0;
}

static struct import_rec *add(struct import_set *out, const struct result *r,
			      const char *metric, double v, const char *unit,
			      const char *stat)
{
	struct import_rec *rec = import_add(out, metric, v, unit);
	size_t i;

	import_rec_stat(rec, stat);
	rec->better = IMPORT_BETTER_LOWER;
	import_rec_config(rec, "command", "%s", r->command);
	for (i = 0; i < r->params.nr; i++)
		strvec_push(&rec->config, r->params.v[i]);
	return rec;
}

static void emit(struct import_set *out, const struct result *r)
{
	struct import_rec *rec;
	double median = r->median;

	if (!r->has_median)
		median = median_of(r->times, r->ntimes);
	rec = add(out, r, "hyperfine.time", median, "ns", "median");
	import_rec_samples(rec, r->times, r->ntimes);
	if (r->has_user)
		add(out, r, "hyperfine.user", r->user, "ns", "mean");
	if (r->has_system)
		add(out, r, "hyperfine.system", r->system, "ns", "mean");
	if (r->has_exit)
		add(out, r, "hyperfine.failures", (double)r->failures, NULL,
		    "count");
	if (r->nmem) {
		rec = add(out, r, "hyperfine.memory",
			  median_of(r->mem, r->nmem), "B", "median");
		import_rec_samples(rec, r->mem, r->nmem);
	}
}

/* Reads the result object at s->pos into r. */
static int read_result(struct result *r, struct jscan *s, const char *path,
		       struct error *err)
{
	struct jscan_iter it;
	size_t at = s->pos, klen, a, b;
	const char *key, *what;
	int n;

	if (jscan_open(s, '{', &it) < 0)
		return jscan_fail(err, path, s->data, s->pos,
				  "a result object");
	while ((n = jscan_next(s, &it, &key, &klen)) > 0) {
		size_t vat = s->pos;
		cJSON *j;
		int rc;

		if (!is_known(key, klen)) {
			if (jscan_skip(s, &a, &b) < 0)
				return jscan_fail(err, path, s->data, s->pos,
						  "a JSON value");
			continue;
		}
		j = jscan_parse(s);
		if (!j)
			return jscan_fail(err, path, s->data, s->pos,
					  "a JSON value");
		rc = read_member(r, key, klen, j, &what);
		cJSON_Delete(j);
		if (rc < 0)
			return jscan_fail(err, path, s->data, vat, "%s", what);
	}
	if (n < 0)
		return jscan_fail(err, path, s->data, s->pos,
				  "a member or '}' in a result");
	if (!r->command)
		return jscan_fail(err, path, s->data, at,
				  "a \"command\" in this result");
	if (!r->has_median && !r->ntimes)
		return jscan_fail(err, path, s->data, at,
				  "a \"median\" or \"times\" in this result");
	return 0;
}

/* Moves every record of from to the end of to, leaving from empty. */
static void move_records(struct import_set *to, struct import_set *from)
{
	if (to->nr + from->nr > to->alloc) {
		to->alloc = to->nr + from->nr;
		to->recs = xrealloc(to->recs, to->alloc * sizeof(*to->recs));
	}
	if (from->nr)
		memcpy(to->recs + to->nr, from->recs,
		       from->nr * sizeof(*from->recs));
	to->nr += from->nr;
	free(from->recs);
	from->recs = NULL;
	from->nr = from->alloc = 0;
}

/* Walks {"results": [...]} one result at a time into out. */
static int parse_results(struct import_set *out, const char *data, size_t len,
			 const char *path, struct error *err)
{
	struct jscan s = {data, len, 0};
	struct jscan_iter top, res;
	struct result r;
	const char *key;
	size_t klen, a, b, nres = 0;
	int n, seen = 0, rc = 0;

	memset(&r, 0, sizeof(r));
	if (jscan_open(&s, '{', &top) < 0)
		return jscan_fail(err, path, data, s.pos,
				  "a JSON object, as hyperfine --export-json "
				  "writes");
	while ((n = jscan_next(&s, &top, &key, &klen)) > 0) {
		if (!jscan_key_is(key, klen, "results") || seen) {
			if (jscan_skip(&s, &a, &b) < 0)
				return jscan_fail(err, path, data, s.pos,
						  "a JSON value");
			continue;
		}
		if (jscan_open(&s, '[', &res) < 0)
			return jscan_fail(err, path, data, s.pos,
					  "a \"results\" array");
		seen = 1;
		while ((n = jscan_next(&s, &res, NULL, NULL)) > 0) {
			rc = read_result(&r, &s, path, err);
			if (!rc)
				emit(out, &r);
			result_release(&r);
			if (rc < 0)
				return rc;
			nres++;
		}
		if (n < 0)
			return jscan_fail(err, path, data, s.pos,
					  "',' or ']' in \"results\"");
	}
	if (n < 0)
		return jscan_fail(err, path, data, s.pos,
				  "a member or '}' in the JSON object");
	if (jscan_peek(&s) >= 0)
		return jscan_fail(err, path, data, s.pos,
				  "the end of the input after the JSON object");
	if (!seen || !nres)
		return jscan_fail(err, path, data, len,
				  "a \"results\" array with one result or "
				  "more");
	return 0;
}

int hyperfine_parse(struct import_set *out, const char *data, size_t len,
		    const char *path, struct error *err)
{
	struct import_set mine = IMPORT_SET_INIT;
	int rc = parse_results(&mine, data, len, path, err);

	/* all or nothing: a bad result late in the file adds no record */
	if (!rc)
		move_records(out, &mine);
	import_set_release(&mine);
	return rc;
}

static int has(const char *p, size_t n, const char *word)
{
	size_t i, w = strlen(word);

	for (i = 0; i + w <= n; i++)
		if (!memcmp(p + i, word, w))
			return 1;
	return 0;
}

int hyperfine_detect(const char *data, size_t len)
{
	struct jscan s = {data, len, 0};

	if (jscan_peek(&s) != '{')
		return 0;
	return has(data, len, "\"results\"") && has(data, len, "\"command\"") &&
	       (has(data, len, "\"median\"") || has(data, len, "\"times\""));
}
