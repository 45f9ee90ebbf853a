/* Java LLM inference numbers (GPULlama3.java, renamed jitllm, branded jllm):
 * the Ollama-style metrics JSON of -Djitllm.metrics.format=json (also the
 * rows of docs/perf-history.jsonl), and the llama-bench style rows of
 * --bench --output json|jsonl. Durations are in ns, rates in tok/s. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "import/llm.h"
#include "import/textscan.h"
#include "util/xalloc.h"

enum { L_NS, L_RATE, L_COUNT };

static const struct {
	const char *key; /* "a.b": member b of object a */
	int kind;
} metrics_keys[] = {
	{"total_duration", L_NS},
	{"load_duration", L_NS},
	{"prompt_eval_count", L_COUNT},
	{"prompt_eval_duration", L_NS},
	{"eval_count", L_COUNT},
	{"eval_duration", L_NS},
	{"total_count", L_COUNT},
	{"prompt_eval_rate", L_RATE},
	{"eval_rate", L_RATE},
	{"total_rate", L_RATE},
	{"tornadovm.plan_creation_duration", L_NS},
	{"tornadovm.jit_duration", L_NS},
	{"tornadovm.read_only_weights_copy_in_duration", L_NS},
};

/* What the run was: kept as config when present. */
static const char *const metrics_config[] = {
	"has_prefill_phase",
	"execution_path",
	"execution_combination",
	"execution_qualified",
	"execution_override",
	"backend",
	"model",
	"quantization",
	"configuration",
};

static const char *const bench_config[] = {
	"model", "model_type", "quant", "backend", "backends",
};

struct llm_ctx {
	const char *path;
	size_t line; /* where the JSON value being read starts */
	size_t counted;
	struct error *err;
};

static int llm_bad(struct llm_ctx *c, const char *what, const char *key)
{
	return error_set(c->err, GCAMP_EFATAL, "%s:%zu: expected %s%s%s%s",
			 textscan_path(c->path), c->line, what,
			 key ? " for '" : "", key ? key : "", key ? "'" : "");
}

static const cJSON *member(const cJSON *obj, const char *key)
{
	const char *dot = strchr(key, '.');
	char outer[32];

	if (!dot)
		return cJSON_GetObjectItemCaseSensitive(obj, key);
	if ((size_t)(dot - key) >= sizeof(outer))
		return NULL;
	memcpy(outer, key, (size_t)(dot - key));
	outer[dot - key] = '\0';
	obj = cJSON_GetObjectItemCaseSensitive(obj, outer);
	return cJSON_IsObject(obj)
		       ? cJSON_GetObjectItemCaseSensitive(obj, dot + 1)
		       : NULL;
}

static int number_of(struct llm_ctx *c, const cJSON *v, const char *key,
		     double *out)
{
	if (!cJSON_IsNumber(v))
		return llm_bad(c, "a number", key);
	if (!isfinite(v->valuedouble))
		return llm_bad(c, "a finite number", key);
	*out = v->valuedouble;
	return 0;
}

/* Adds config key=value for each of keys that obj has as a string, a
 * boolean or a number. */
static void add_config(struct import_rec *r, const cJSON *obj,
		       const char *const *keys, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, keys[i]);

		if (cJSON_IsString(v) && v->valuestring[0])
			import_rec_config(r, keys[i], "%s", v->valuestring);
		else if (cJSON_IsBool(v))
			import_rec_config(r, keys[i], "%s",
					  cJSON_IsTrue(v) ? "true" : "false");
		else if (cJSON_IsNumber(v) && isfinite(v->valuedouble))
			import_rec_config(r, keys[i], "%.17g", v->valuedouble);
	}
}

static int metrics_row(struct import_set *out, struct llm_ctx *c,
		       const cJSON *obj)
{
	const cJSON *commit = cJSON_GetObjectItemCaseSensitive(obj, "commit");
	const cJSON *pc = member(obj, "prompt_eval_count");
	int no_prompt = cJSON_IsNumber(pc) && pc->valuedouble == 0;
	size_t i;

	for (i = 0; i < sizeof(metrics_keys) / sizeof(*metrics_keys); i++) {
		const char *key = metrics_keys[i].key;
		const cJSON *v = member(obj, key);
		struct import_rec *r;
		double x = 0;

		if (!v || cJSON_IsNull(v))
			continue;
		if (number_of(c, v, key, &x) < 0)
			return GCAMP_EFATAL;
		/* a duration or rate of 0 is a phase that did not run (no
		 * prefill, a CPU run's TornadoVM timers), not a number */
		if (metrics_keys[i].kind != L_COUNT && x == 0)
			continue;
		if (no_prompt && !strncmp(key, "prompt_eval_", 12))
			continue;
		switch (metrics_keys[i].kind) {
		case L_NS:
			r = import_add(out, key, x, "ns");
			r->better = IMPORT_BETTER_LOWER;
			break;
		case L_RATE:
			r = import_add(out, key, x, "tok/s");
			r->better = IMPORT_BETTER_HIGHER;
			break;
		default:
			r = import_add(out, key, x, NULL);
			import_rec_stat(r, "count");
			break;
		}
		add_config(r, obj, metrics_config,
			   sizeof(metrics_config) / sizeof(*metrics_config));
		/* a perf-history row names the commit it measured */
		if (cJSON_IsString(commit) && commit->valuestring[0])
			r->commit = xstrdup(commit->valuestring);
	}
	if (commit && !cJSON_IsNull(commit) &&
	    (!cJSON_IsString(commit) || !commit->valuestring[0]))
		return llm_bad(c, "a commit id as a string", "commit");
	return 0;
}

/* The llama-bench test name: "test", or made from n_prompt/n_gen/n_depth
 * as llama-bench names them (pp512, tg128, pp512+tg128, ...@d4096). */
static int test_name(struct llm_ctx *c, const cJSON *obj, char *buf,
		     size_t size)
{
	const cJSON *t = cJSON_GetObjectItemCaseSensitive(obj, "test");
	const cJSON *pp = cJSON_GetObjectItemCaseSensitive(obj, "n_prompt");
	const cJSON *tg = cJSON_GetObjectItemCaseSensitive(obj, "n_gen");
	const cJSON *d = cJSON_GetObjectItemCaseSensitive(obj, "n_depth");
	double p = 0, g = 0, dd = 0;
	size_t n;

	if (cJSON_IsString(t) && t->valuestring[0]) {
		snprintf(buf, size, "%s", t->valuestring);
		return 0;
	}
	if ((pp && number_of(c, pp, "n_prompt", &p) < 0) ||
	    (tg && number_of(c, tg, "n_gen", &g) < 0) ||
	    (d && number_of(c, d, "n_depth", &dd) < 0))
		return GCAMP_EFATAL;
	if ((p <= 0 && g <= 0) || p > 1e9 || g > 1e9 || dd < 0 || dd > 1e9)
		return llm_bad(c,
			       "a 'test' name or n_prompt/n_gen in a bench "
			       "row",
			       NULL);
	if (p > 0 && g > 0)
		n = (size_t)snprintf(buf, size, "pp%.0f+tg%.0f", p, g);
	else
		n = (size_t)snprintf(buf, size, "%s%.0f", p > 0 ? "pp" : "tg",
				     p > 0 ? p : g);
	if (dd > 0 && n < size)
		snprintf(buf + n, size - n, "@d%.0f", dd);
	return 0;
}

static int bench_row(struct import_set *out, struct llm_ctx *c,
		     const cJSON *obj)
{
	const cJSON *s = cJSON_GetObjectItemCaseSensitive(obj, "samples_ts");
	const cJSON *e;
	double avg = 0, *samples = NULL;
	struct import_rec *r;
	char test[128];
	size_t n = 0;
	int rc;

	if ((rc = number_of(c, member(obj, "avg_ts"), "avg_ts", &avg)) < 0 ||
	    (rc = test_name(c, obj, test, sizeof(test))) < 0)
		return rc;
	if (s && !cJSON_IsNull(s)) {
		if (!cJSON_IsArray(s))
			return llm_bad(c, "an array of numbers", "samples_ts");
		samples = xmalloc(((size_t)cJSON_GetArraySize(s) + 1) *
				  sizeof(*samples));
		cJSON_ArrayForEach(e, s) {
			if ((rc = number_of(c, e, "samples_ts", &samples[n])) <
			    0) {
				free(samples);
				return rc;
			}
			n++;
		}
	}
	r = import_add(out, "tok_s", avg, "tok/s");
	r->better = IMPORT_BETTER_HIGHER;
	import_rec_stat(r, "mean");
	import_rec_samples(r, samples, n);
	free(samples);
	add_config(r, obj, bench_config,
		   sizeof(bench_config) / sizeof(*bench_config));
	import_rec_config(r, "test", "%s", test);
	return 0;
}

static int is_metrics(const cJSON *obj)
{
	size_t i;

	for (i = 0; i < sizeof(metrics_keys) / sizeof(*metrics_keys); i++)
		if (member(obj, metrics_keys[i].key))
			return 1;
	return 0;
}

static int read_row(struct import_set *out, struct llm_ctx *c, const cJSON *v)
{
	if (!cJSON_IsObject(v))
		return llm_bad(c, "a JSON object or an array of objects", NULL);
	if (cJSON_GetObjectItemCaseSensitive(v, "avg_ts"))
		return bench_row(out, c, v);
	if (is_metrics(v))
		return metrics_row(out, c, v);
	return llm_bad(c,
		       "jitllm metrics ('eval_rate', 'total_duration', "
		       "...) or bench rows ('avg_ts')",
		       NULL);
}

static size_t skip_ws(const char *s, size_t pos, size_t len)
{
	while (pos < len && strchr(" \t\r\n", s[pos]) && s[pos])
		pos++;
	return pos;
}

/* Moves c->line to offset off of data; offsets only grow, so lines are
 * counted once (c->counted: the offset c->line was counted to). */
static void line_to(struct llm_ctx *c, const char *data, size_t len, size_t off)
{
	c->line += textscan_line_of(data + c->counted, len - c->counted,
				    off - c->counted) -
		   1;
	c->counted = off;
}

/* Whether cJSON stopped (at, or a few bytes after, as it reports) just
 * past a digit, a comma and a digit: a number printed in a locale with a
 * decimal comma. */
static int decimal_comma(const char *s, size_t start, size_t at, size_t len)
{
	size_t k;

	for (k = at > start + 3 ? at - 3 : start + 1; k <= at && k + 1 < len;
	     k++)
		if (s[k] == ',' && s[k - 1] >= '0' && s[k - 1] <= '9' &&
		    s[k + 1] >= '0' && s[k + 1] <= '9')
			return 1;
	return 0;
}

/* The input is one JSON value (an object, an array of objects) or a
 * sequence of them, one a line (jsonl). */
int llm_parse(struct import_set *out, const char *data, size_t len,
	      const char *path, struct error *err)
{
	struct llm_ctx c = {path, 1, 0, err};
	char *copy = xmalloc(len + 1);
	size_t pos = 0, rows = 0;
	cJSON *v = NULL;
	int rc = 0;

	/* cJSON reads a NUL-terminated string; the input is not one */
	memcpy(copy, data, len);
	copy[len] = '\0';
	if (len >= 3 && !memcmp(copy, "\xef\xbb\xbf", 3))
		pos = 3;
	while ((pos = skip_ws(copy, pos, len)) < len) {
		const char *end = NULL;
		const cJSON *e;

		line_to(&c, copy, len, pos);
		v = cJSON_ParseWithLengthOpts(copy + pos, len - pos, &end, 0);
		if (!v) {
			size_t at = end ? (size_t)(end - copy) : pos;

			line_to(&c, copy, len, at);
			/* JsonMetricsRenderer formats rates with the JVM's
			 * default locale: 41,9502 in a German one */
			if (decimal_comma(copy, pos, at, len))
				rc = llm_bad(&c,
					     "a number with a '.' decimal "
					     "point (the JVM's locale printed "
					     "',')",
					     NULL);
			else
				rc = llm_bad(&c,
					     "valid JSON (a metrics object or "
					     "bench rows)",
					     NULL);
			goto out;
		}
		if (cJSON_IsArray(v)) {
			cJSON_ArrayForEach(e, v) {
				if ((rc = read_row(out, &c, e)) < 0)
					goto out;
				rows++;
			}
		} else {
			if ((rc = read_row(out, &c, v)) < 0)
				goto out;
			rows++;
		}
		cJSON_Delete(v);
		v = NULL;
		pos = (size_t)(end - copy);
	}
	if (!rows) {
		c.line = textscan_line_of(copy, len, len);
		rc = llm_bad(&c,
			     "jitllm metrics JSON or bench rows, found "
			     "none",
			     NULL);
	}
out:
	cJSON_Delete(v);
	free(copy);
	return rc;
}

/* A JSON key "name": (not inside a string: not after a backslash). */
static int has_key(const char *data, size_t len, const char *name)
{
	size_t n = strlen(name), i;

	for (i = 1; i + n + 2 <= len; i++) {
		size_t j;

		if (data[i] != '"' || data[i - 1] == '\\' ||
		    memcmp(data + i + 1, name, n) || data[i + 1 + n] != '"')
			continue;
		for (j = i + n + 2;
		     j < len && strchr(" \t\r\n", data[j]) && data[j]; j++)
			;
		if (j < len && data[j] == ':')
			return 1;
	}
	return 0;
}

int llm_detect(const char *data, size_t len)
{
	size_t i = 0;

	if (len >= 3 && !memcmp(data, "\xef\xbb\xbf", 3))
		i = 3;
	i = skip_ws(data, i, len);
	if (i >= len || (data[i] != '{' && data[i] != '['))
		return 0;
	return has_key(data, len, "avg_ts") ||
	       has_key(data, len, "eval_rate") ||
	       has_key(data, len, "total_duration") ||
	       has_key(data, len, "prompt_eval_count");
}
