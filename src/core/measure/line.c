/* Schema-1 measurement records: encoding in a fixed key order, strict
 * decoding, canonical config, run ids. */
#include "core/measure/line.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include "core/stats/stats.h"
#include "util/text.h"
#include "util/xalloc.h"

void record_init(struct record *r)
{
	memset(r, 0, sizeof(*r));
	r->ctl = -1;
	r->iters = -1;
}

void record_release(struct record *r)
{
	if (!r)
		return;
	free(r->metric);
	free(r->unit);
	free(r->better);
	free(r->stat);
	free(r->samples);
	free(r->arm);
	free(r->vouch);
	free(r->env);
	strvec_clear(&r->config);
	free(r->source);
	free(r->at);
	free(r->raw_path);
	free(r->raw_sha256);
	record_init(r);
}

/* strcmp of the keys of two "key=value" strings */
static int key_cmp(const char *a, size_t alen, const char *b)
{
	size_t blen = strcspn(b, "=");
	int c = memcmp(a, b, alen < blen ? alen : blen);

	if (c)
		return c;
	return alen < blen ? -1 : alen > blen;
}

void record_config_put(struct record *r, const char *key, const char *value)
{
	struct strvec *sv = &r->config;
	size_t klen = strlen(key), i;
	char *kv = xasprintf("%s=%s", key, value);
	int c = 1;

	for (i = 0; i < sv->nr; i++)
		if ((c = key_cmp(key, klen, sv->v[i])) <= 0)
			break;
	if (i < sv->nr && c == 0) {
		free(sv->v[i]);
		sv->v[i] = kv;
		return;
	}
	strvec_push_owned(sv, kv);
	memmove(sv->v + i + 1, sv->v + i, (sv->nr - 1 - i) * sizeof(*sv->v));
	sv->v[i] = kv;
}

int record_config_parse(struct record *r, const char *kv, struct error *err)
{
	const char *eq = strchr(kv, '=');
	char *key;

	if (!eq || eq == kv)
		return error_set(err, GCAMP_EUSAGE,
				 "config '%s' is not of the form key=value",
				 kv);
	key = xstrndup(kv, (size_t)(eq - kv));
	record_config_put(r, key, eq + 1);
	free(key);
	return 0;
}

const char *record_config_get(const struct record *r, const char *key)
{
	size_t klen = strlen(key), i;

	for (i = 0; i < r->config.nr; i++)
		if (!key_cmp(key, klen, r->config.v[i]))
			return r->config.v[i] + klen + 1;
	return NULL;
}

static cJSON *config_object(const struct record *r)
{
	cJSON *o = cJSON_CreateObject();
	size_t i;

	for (i = 0; i < r->config.nr; i++) {
		const char *kv = r->config.v[i], *eq = strchr(kv, '=');
		char *key = xstrndup(kv, (size_t)(eq - kv));

		cJSON_AddItemToObject(o, key, cJSON_CreateString(eq + 1));
		free(key);
	}
	return o;
}

void record_config_json(struct buf *out, const struct record *r)
{
	cJSON *o = config_object(r);
	char *s = cJSON_PrintUnformatted(o);

	buf_puts(out, s ? s : "{}");
	free(s);
	cJSON_Delete(o);
}

int record_new_run(char out[RECORD_RUN_LEN + 1], struct error *err)
{
	unsigned char b[RECORD_RUN_LEN / 2];
	size_t got = 0, i;
	ssize_t n;

	while (got < sizeof(b)) {
		n = getrandom(b + got, sizeof(b) - got, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return error_set(err, GCAMP_EFATAL,
					 "cannot make a run id: %s",
					 strerror(errno));
		got += (size_t)n;
	}
	for (i = 0; i < sizeof(b); i++)
		snprintf(out + 2 * i, 3, "%02x", b[i]);
	return 0;
}

static int is_run_id(const char *s)
{
	size_t i;

	for (i = 0; i < RECORD_RUN_LEN; i++)
		if (!s[i] || !strchr("0123456789abcdef", s[i]))
			return 0;
	return s[i] == '\0';
}

static int is_better(const char *s)
{
	return !strcmp(s, "lower") || !strcmp(s, "higher");
}

static int is_vouch(const char *s)
{
	return !strcmp(s, "steady") || !strcmp(s, "unvouched") ||
	       !strcmp(s, "none");
}

int record_check(const struct record *r, struct error *err)
{
	const char *why;
	size_t i;

	if (!is_run_id(r->run))
		return error_set(err, GCAMP_EUSAGE,
				 "run id '%s' is not 16 hex digits", r->run);
	if (!r->metric || !*r->metric)
		return error_set(err, GCAMP_EUSAGE, "the metric name is empty");
	/* the name reaches terminals, the umbrella and PR bodies, and other
	 * machines through sync: printed as it is, so refused here */
	if ((why = text_name_problem(r->metric, RECORD_MAX_NAME)))
		return error_set(err, GCAMP_EUSAGE, "the metric name %s", why);
	if (!isfinite(r->value))
		return error_set(err, GCAMP_EUSAGE,
				 "the value of '%s' is not a finite number",
				 r->metric);
	if (r->better && !is_better(r->better))
		return error_set(err, GCAMP_EUSAGE,
				 "better is '%s', not lower or higher",
				 r->better);
	if (r->seq < 0)
		return error_set(err, GCAMP_EUSAGE, "seq is %ld, below 0",
				 r->seq);
	if (r->vouch && !is_vouch(r->vouch))
		return error_set(err, GCAMP_EUSAGE,
				 "vouch is '%s', not steady, unvouched or none",
				 r->vouch);
	if (r->n < 0 || (r->samples && r->n && (size_t)r->n != r->nsamples))
		return error_set(err, GCAMP_EUSAGE,
				 "n is %ld for %zu samples of '%s'", r->n,
				 r->nsamples, r->metric);
	for (i = 0; i < r->nsamples; i++)
		if (!isfinite(r->samples[i]))
			return error_set(err, GCAMP_EUSAGE,
					 "sample %zu of '%s' is not a finite "
					 "number",
					 i + 1, r->metric);
	if (r->summary && (r->n < 1 || !isfinite(r->min) || !isfinite(r->max) ||
			   !isfinite(r->sum) ||
			   !(r->min <= r->p10 && r->p10 <= r->value &&
			     r->value <= r->p90 && r->p90 <= r->max)))
		return error_set(err, GCAMP_EUSAGE,
				 "the summary of '%s' is not n >= 1 and min <= "
				 "p10 <= median <= p90 <= max",
				 r->metric);
	if (!r->raw_path != !r->raw_sha256)
		return error_set(err, GCAMP_EUSAGE,
				 "the raw input of '%s' needs a path and a "
				 "SHA-256",
				 r->metric);
	if (!r->env || !*r->env)
		return error_set(err, GCAMP_EUSAGE,
				 "the record of '%s' has no env", r->metric);
	if (!r->at || !*r->at)
		return error_set(err, GCAMP_EUSAGE,
				 "the record of '%s' has no time", r->metric);
	return 0;
}

cJSON *record_to_json(const struct record *r)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddNumberToObject(o, "v", RECORD_VERSION);
	cJSON_AddStringToObject(o, "run", r->run);
	if (r->seq > 0)
		cJSON_AddNumberToObject(o, "seq", (double)r->seq);
	cJSON_AddStringToObject(o, "metric", r->metric ? r->metric : "");
	cJSON_AddNumberToObject(o, "value", r->value);
	if (r->unit)
		cJSON_AddStringToObject(o, "unit", r->unit);
	if (r->better)
		cJSON_AddStringToObject(o, "better", r->better);
	if (r->stat)
		cJSON_AddStringToObject(o, "stat", r->stat);
	if (r->n)
		cJSON_AddNumberToObject(o, "n", (double)r->n);
	if (r->samples)
		cJSON_AddItemToObject(
			o, "samples",
			cJSON_CreateDoubleArray(r->samples, (int)r->nsamples));
	if (r->summary) {
		cJSON *q = cJSON_AddObjectToObject(o, "summary");

		cJSON_AddNumberToObject(q, "min", r->min);
		cJSON_AddNumberToObject(q, "p10", r->p10);
		cJSON_AddNumberToObject(q, "p90", r->p90);
		cJSON_AddNumberToObject(q, "max", r->max);
		cJSON_AddNumberToObject(q, "sum", r->sum);
	}
	if (r->arm)
		cJSON_AddStringToObject(o, "arm", r->arm);
	if (r->ctl >= 0)
		cJSON_AddBoolToObject(o, "ctl", r->ctl);
	if (r->iters >= 0)
		cJSON_AddNumberToObject(o, "iters", (double)r->iters);
	if (r->vouch)
		cJSON_AddStringToObject(o, "vouch", r->vouch);
	cJSON_AddStringToObject(o, "env", r->env ? r->env : "");
	cJSON_AddItemToObject(o, "config", config_object(r));
	if (r->raw_path) {
		cJSON *w = cJSON_AddObjectToObject(o, "raw");

		cJSON_AddStringToObject(w, "path", r->raw_path);
		cJSON_AddStringToObject(w, "sha256", r->raw_sha256);
	}
	if (r->source)
		cJSON_AddStringToObject(o, "source", r->source);
	cJSON_AddStringToObject(o, "at", r->at ? r->at : "");
	return o;
}

int record_encode(struct buf *out, const struct record *r, struct error *err)
{
	cJSON *o;
	char *s;
	int rc;

	if ((rc = record_check(r, err)) < 0)
		return rc;
	o = record_to_json(r);
	s = cJSON_PrintUnformatted(o);
	cJSON_Delete(o);
	if (!s)
		return error_set(err, GCAMP_EFATAL,
				 "cannot encode the record of '%s'", r->metric);
	buf_puts(out, s);
	free(s);
	return 0;
}

/* The keys of schema 1; a bit each, to find one given twice. */
static const char *const keys[] = {
	"v",	 "run", "seq",	   "metric",  "value",	"unit", "better",
	"stat",	 "n",	"samples", "summary", "arm",	"ctl",	"iters",
	"vouch", "env", "config",  "raw",     "source", "at",
};
enum {
	K_V,
	K_RUN,
	K_SEQ,
	K_METRIC,
	K_VALUE,
	K_UNIT,
	K_BETTER,
	K_STAT,
	K_N,
	K_SAMPLES,
	K_SUMMARY,
	K_ARM,
	K_CTL,
	K_ITERS,
	K_VOUCH,
	K_ENV,
	K_CONFIG,
	K_RAW,
	K_SOURCE,
	K_AT
};

static int bad(struct error *err, const char *key, const char *want)
{
	return error_set(err, GCAMP_EFATAL, "key '%s' is not %s", key, want);
}

static int get_string(char **out, const cJSON *it, int nonempty,
		      struct error *err)
{
	if (!cJSON_IsString(it) || (nonempty && !*it->valuestring))
		return bad(err, it->string,
			   nonempty ? "a non-empty string" : "a string");
	*out = xstrdup(it->valuestring);
	return 0;
}

static int get_count(long *out, const cJSON *it, long min, struct error *err)
{
	double d = it->valuedouble;

	if (!cJSON_IsNumber(it) || d != floor(d) || d < (double)min || d > 1e15)
		return bad(err, it->string,
			   min ? "a positive integer" : "an integer >= 0");
	*out = (long)d;
	return 0;
}

static int get_samples(struct record *r, const cJSON *it, struct error *err)
{
	const cJSON *e;
	size_t n = 0;

	if (!cJSON_IsArray(it))
		return bad(err, "samples", "an array of numbers");
	r->nsamples = (size_t)cJSON_GetArraySize(it);
	r->samples = xcalloc(r->nsamples ? r->nsamples : 1, sizeof(double));
	cJSON_ArrayForEach(e, it) {
		if (!cJSON_IsNumber(e) || !isfinite(e->valuedouble))
			return bad(err, "samples", "an array of numbers");
		r->samples[n++] = e->valuedouble;
	}
	return 0;
}

static int get_config(struct record *r, const cJSON *it, struct error *err)
{
	const cJSON *e;

	if (!cJSON_IsObject(it))
		return bad(err, "config", "an object");
	cJSON_ArrayForEach(e, it) {
		if (!cJSON_IsString(e) || !*e->string || strchr(e->string, '='))
			return error_set(err, GCAMP_EFATAL,
					 "config key '%s' is not a string "
					 "without '=' with a string value",
					 e->string);
		if (record_config_get(r, e->string))
			return error_set(err, GCAMP_EFATAL,
					 "config key '%s' is given twice",
					 e->string);
		record_config_put(r, e->string, e->valuestring);
	}
	return 0;
}

/* "summary": {"min": M, "p10": A, "p90": B, "max": X, "sum": S}, all
 * finite */
static int get_summary(struct record *r, const cJSON *it, struct error *err)
{
	static const char *const names[] = {"min", "p10", "p90", "max", "sum"};
	double *to[] = {&r->min, &r->p10, &r->p90, &r->max, &r->sum};
	size_t i;

	if (!cJSON_IsObject(it))
		return bad(err, "summary", "an object");
	for (i = 0; i < 5; i++) {
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(it, names[i]);

		if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble))
			return bad(err, "summary",
				   "an object of finite min, p10, p90, max "
				   "and sum");
		*to[i] = v->valuedouble;
	}
	r->summary = 1;
	return 0;
}

static int is_sha256(const char *s)
{
	size_t i;

	for (i = 0; i < 64; i++)
		if (!s[i] || !strchr("0123456789abcdef", s[i]))
			return 0;
	return !s[i];
}

/* "raw": {"path": P, "sha256": H} */
static int get_raw(struct record *r, const cJSON *it, struct error *err)
{
	const cJSON *p = cJSON_GetObjectItemCaseSensitive(it, "path");
	const cJSON *h = cJSON_GetObjectItemCaseSensitive(it, "sha256");

	if (!cJSON_IsObject(it) || !cJSON_IsString(p) || !*p->valuestring ||
	    !cJSON_IsString(h) || !is_sha256(h->valuestring))
		return bad(err, "raw",
			   "an object of a path and 64 hex digits of sha256");
	r->raw_path = xstrdup(p->valuestring);
	r->raw_sha256 = xstrdup(h->valuestring);
	return 0;
}

static int decode_key(struct record *r, size_t k, const cJSON *it,
		      struct error *err)
{
	switch (k) {
	case K_V:
		if (!cJSON_IsNumber(it) || it->valuedouble != RECORD_VERSION)
			return error_set(err, GCAMP_EFATAL,
					 "schema version is not %d",
					 RECORD_VERSION);
		return 0;
	case K_RUN:
		if (!cJSON_IsString(it) || !is_run_id(it->valuestring))
			return bad(err, "run", "16 lowercase hex digits");
		memcpy(r->run, it->valuestring, RECORD_RUN_LEN + 1);
		return 0;
	case K_METRIC:
		return get_string(&r->metric, it, 1, err);
	case K_VALUE:
		if (!cJSON_IsNumber(it) || !isfinite(it->valuedouble))
			return bad(err, "value", "a finite number");
		r->value = it->valuedouble;
		return 0;
	case K_SEQ:
		return get_count(&r->seq, it, 1, err);
	case K_UNIT:
		return get_string(&r->unit, it, 0, err);
	case K_BETTER:
		if (!cJSON_IsString(it) || !is_better(it->valuestring))
			return bad(err, "better", "\"lower\" or \"higher\"");
		r->better = xstrdup(it->valuestring);
		return 0;
	case K_STAT:
		return get_string(&r->stat, it, 1, err);
	case K_N:
		return get_count(&r->n, it, 1, err);
	case K_SAMPLES:
		return get_samples(r, it, err);
	case K_ARM:
		return get_string(&r->arm, it, 1, err);
	case K_CTL:
		if (!cJSON_IsBool(it))
			return bad(err, "ctl", "true or false");
		r->ctl = cJSON_IsTrue(it);
		return 0;
	case K_ITERS:
		return get_count(&r->iters, it, 0, err);
	case K_VOUCH:
		if (!cJSON_IsString(it) || !is_vouch(it->valuestring))
			return bad(err, "vouch",
				   "\"steady\", \"unvouched\" or \"none\"");
		r->vouch = xstrdup(it->valuestring);
		return 0;
	case K_ENV:
		return get_string(&r->env, it, 1, err);
	case K_CONFIG:
		return get_config(r, it, err);
	case K_SOURCE:
		return get_string(&r->source, it, 1, err);
	case K_SUMMARY:
		return get_summary(r, it, err);
	case K_RAW:
		return get_raw(r, it, err);
	default:
		return get_string(&r->at, it, 1, err);
	}
}

static int decode(struct record *out, const char *line, size_t len,
		  unsigned required, struct error *err)
{
	const size_t nkeys = sizeof(keys) / sizeof(*keys);
	const char *end = NULL;
	unsigned seen = 0;
	const cJSON *it;
	cJSON *j;
	size_t k;
	int rc = 0;

	record_release(out);
	j = cJSON_ParseWithLengthOpts(line, len, &end, 0);
	if (!j || !cJSON_IsObject(j)) {
		rc = error_set(err, GCAMP_EFATAL, "not a JSON object");
		goto out;
	}
	while (end < line + len && strchr(" \t\r\n", *end))
		end++;
	if (end != line + len) {
		rc = error_set(err, GCAMP_EFATAL, "text after the JSON object");
		goto out;
	}
	cJSON_ArrayForEach(it, j) {
		for (k = 0; k < nkeys; k++)
			if (!strcmp(it->string, keys[k]))
				break;
		if (k == nkeys)
			continue;
		if (seen & 1u << k) {
			rc = error_set(err, GCAMP_EFATAL,
				       "key '%s' is given twice", keys[k]);
			goto out;
		}
		seen |= 1u << k;
		if ((rc = decode_key(out, k, it, err)) < 0)
			goto out;
	}
	for (k = 0; k < nkeys; k++)
		if ((required & 1u << k) && !(seen & 1u << k)) {
			rc = error_set(err, GCAMP_EFATAL, "key '%s' is missing",
				       keys[k]);
			goto out;
		}
	if (out->samples && out->n && (size_t)out->n != out->nsamples) {
		rc = error_set(err, GCAMP_EFATAL, "n is %ld for %zu samples",
			       out->n, out->nsamples);
		goto out;
	}
	if (!(seen & 1u << K_VALUE)) {
		if (!out->nsamples) {
			rc = error_set(err, GCAMP_EFATAL,
				       "key 'value' is missing, and there are "
				       "no samples");
			goto out;
		}
		out->value = stats_median(out->samples, out->nsamples);
		if (!out->stat)
			out->stat = xstrdup("median");
	}
out:
	cJSON_Delete(j);
	if (rc < 0)
		record_release(out);
	return rc;
}

int record_decode(struct record *out, const char *line, size_t len,
		  struct error *err)
{
	return decode(out, line, len,
		      1u << K_V | 1u << K_RUN | 1u << K_METRIC | 1u << K_VALUE |
			      1u << K_ENV | 1u << K_AT,
		      err);
}

int record_decode_partial(struct record *out, const char *line, size_t len,
			  struct error *err)
{
	return decode(out, line, len, 1u << K_METRIC, err);
}
