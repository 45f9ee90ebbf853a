/* The JFR importer: top-of-stack method sample counts and shares from
 * `jfr print --json` or from `jfr view` tables (see jfr.h for the records);
 * core/measure/convert.c runs jfr print on a binary recording. */
#include "import/jfr.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "import/jsonscan.h"
#include "import/textscan.h"
#include "util/buf.h"
#include "util/json.h"
#include "util/xalloc.h"

static const char *const event_names[] = {"jdk.ExecutionSample",
					  "jdk.NativeMethodSample"};

/* One sample's top frame, then one counted method. */
struct sample {
	int event; /* index into event_names */
	char *method;
	size_t count;
};

struct tally {
	struct sample *v;
	size_t nr, alloc;
	size_t total[2];
	/* "EVENT METHOD" of v[i] at index i: a sample of a method seen
	 * before counts there, so memory follows the methods, not the
	 * samples */
	struct textscan_names idx;
	struct buf key;
};

static const char *show(const char *path)
{
	return strcmp(path, "-") ? path : "stdin";
}

static void tally_push(struct tally *t, int event, char *method)
{
	size_t k;

	buf_reset(&t->key);
	buf_putc(&t->key, (char)('0' + event));
	buf_putc(&t->key, ' ');
	buf_puts(&t->key, method);
	k = textscan_name(&t->idx, t->key.ptr, t->key.len);
	if (k < t->nr) {
		t->v[k].count++;
		free(method);
		return;
	}
	if (t->nr == t->alloc) {
		t->alloc = t->alloc ? 2 * t->alloc : 64;
		t->v = xrealloc(t->v, t->alloc * sizeof(*t->v));
	}
	t->v[t->nr].event = event;
	t->v[t->nr].method = method;
	t->v[t->nr].count = 1;
	t->nr++;
}

static void tally_release(struct tally *t)
{
	size_t i;

	for (i = 0; i < t->nr; i++)
		free(t->v[i].method);
	free(t->v);
	textscan_names_release(&t->idx);
	buf_release(&t->key);
}

static int cmp_by_name(const void *a, const void *b)
{
	const struct sample *x = a, *y = b;

	if (x->event != y->event)
		return x->event - y->event;
	return strcmp(x->method, y->method);
}

static int cmp_by_count(const void *a, const void *b)
{
	const struct sample *x = a, *y = b;

	if (x->event != y->event)
		return x->event - y->event;
	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	return strcmp(x->method, y->method);
}

static void add_method(struct import_set *out, int event, const char *method,
		       double count, double share)
{
	struct import_rec *r;

	r = import_add(out, "jfr.samples", count, NULL);
	import_rec_stat(r, "count");
	import_rec_config(r, "event", "%s", event_names[event]);
	import_rec_config(r, "method", "%s", method);
	r = import_add(out, "jfr.share", share, NULL);
	import_rec_stat(r, "share");
	import_rec_config(r, "event", "%s", event_names[event]);
	import_rec_config(r, "method", "%s", method);
}

/* Counts equal methods (sorting by name, then merging runs), then writes
 * each event's total and its methods, most sampled first. */
static void tally_emit(struct import_set *out, struct tally *t)
{
	struct import_rec *r;
	size_t i, n = 0;
	int e;

	if (t->nr) {
		qsort(t->v, t->nr, sizeof(*t->v), cmp_by_name);
		for (i = 1; i < t->nr; i++) {
			if (!cmp_by_name(&t->v[n], &t->v[i])) {
				t->v[n].count += t->v[i].count;
				free(t->v[i].method);
			} else {
				t->v[++n] = t->v[i];
			}
		}
		t->nr = n + 1;
		qsort(t->v, t->nr, sizeof(*t->v), cmp_by_count);
	}
	for (e = 0; e < 2; e++) {
		if (!t->total[e])
			continue;
		r = import_add(out, "jfr.samples", (double)t->total[e], NULL);
		import_rec_stat(r, "count");
		import_rec_config(r, "event", "%s", event_names[e]);
		for (i = 0; i < t->nr; i++)
			if (t->v[i].event == e)
				add_method(out, e, t->v[i].method,
					   (double)t->v[i].count,
					   (double)t->v[i].count /
						   (double)t->total[e]);
	}
}

/* Appends a descriptor's parameter types as jfr prints them: "(I[J)V" is
 * "int, long[]", "(Ljava/lang/String;)V" is "String". Returns -1 when d is
 * not a method descriptor. */
static int add_params(struct buf *b, const char *d)
{
	static const char prim[] = "BCDFIJSZ";
	static const char *const prim_names[] = {"byte",  "char",   "double",
						 "float", "int",    "long",
						 "short", "boolean"};
	int first = 1;

	if (*d++ != '(')
		return -1;
	while (*d != ')') {
		size_t dims = 0;
		const char *p;

		while (*d == '[') {
			dims++;
			d++;
		}
		if (!first)
			buf_puts(b, ", ");
		first = 0;
		if (*d == 'L') {
			const char *end = strchr(d, ';'), *name = d + 1;

			if (!end || end == d + 1)
				return -1;
			for (p = d + 1; p < end; p++)
				if (*p == '/' || *p == '.')
					name = p + 1;
			buf_add(b, name, (size_t)(end - name));
			d = end + 1;
		} else {
			p = *d ? strchr(prim, *d) : NULL;
			if (!p)
				return -1;
			buf_puts(b, prim_names[p - prim]);
			d++;
		}
		while (dims--)
			buf_puts(b, "[]");
	}
	return 0;
}

/* "pkg.Class.method(params)" for a JSON method object, or NULL. */
static char *method_name(const cJSON *method)
{
	const cJSON *type = cJSON_GetObjectItemCaseSensitive(method, "type");
	const char *cls = json_get_str(type, "name");
	const char *name = json_get_str(method, "name");
	const char *desc = json_get_str(method, "descriptor");
	struct buf b = BUF_INIT;
	char *p;

	if (!cls || !*cls || !name || !*name)
		return NULL;
	buf_puts(&b, cls);
	for (p = b.ptr; *p; p++)
		if (*p == '/')
			*p = '.';
	buf_addf(&b, ".%s", name);
	if (desc) {
		buf_putc(&b, '(');
		if (add_params(&b, desc) < 0) {
			buf_release(&b);
			return NULL;
		}
		buf_putc(&b, ')');
	}
	return buf_detach(&b);
}

/* Counts one event of the JSON output; others than the two sampled event
 * types are ignored. */
static int add_event(struct tally *t, const cJSON *ev, const char *data,
		     size_t at, const char *path, struct error *err)
{
	const char *type = json_get_str(ev, "type");
	const cJSON *values, *st, *frames, *top, *method;
	char *name;
	int e;

	if (!cJSON_IsObject(ev) || !type)
		return jscan_fail(err, path, data, at,
				  "an event object with a \"type\" string");
	for (e = 0; e < 2; e++)
		if (!strcmp(type, event_names[e]))
			break;
	if (e == 2)
		return 0;
	values = cJSON_GetObjectItemCaseSensitive(ev, "values");
	if (!cJSON_IsObject(values))
		return jscan_fail(err, path, data, at,
				  "a \"values\" object in this %s event", type);
	t->total[e]++;
	st = cJSON_GetObjectItemCaseSensitive(values, "stackTrace");
	if (!st || cJSON_IsNull(st))
		return 0; /* the sampler could not walk this stack */
	frames = cJSON_GetObjectItemCaseSensitive(st, "frames");
	if (!cJSON_IsObject(st) || !cJSON_IsArray(frames))
		return jscan_fail(err, path, data, at,
				  "a \"stackTrace\" with a \"frames\" array "
				  "in this %s event",
				  type);
	top = frames->child;
	if (!top)
		return 0;
	method = cJSON_GetObjectItemCaseSensitive(top, "method");
	name = cJSON_IsObject(method) ? method_name(method) : NULL;
	if (!name)
		return jscan_fail(err, path, data, at,
				  "a top frame whose \"method\" has a class "
				  "name, a name and a descriptor");
	tally_push(t, e, name);
	return 0;
}

/* Walks {"recording": {"events": [...]}} one event at a time. */
static int parse_json(struct tally *t, const char *data, size_t len,
		      const char *path, struct error *err)
{
	struct jscan s = {data, len, 0};
	struct jscan_iter top, rec, evs;
	const char *key;
	size_t klen, a, b;
	int r, seen = 0;

	if (jscan_open(&s, '{', &top) < 0)
		return jscan_fail(err, path, data, s.pos,
				  "a JSON object, as jfr print --json writes");
	while ((r = jscan_next(&s, &top, &key, &klen)) > 0) {
		if (!jscan_key_is(key, klen, "recording")) {
			if (jscan_skip(&s, &a, &b) < 0)
				return jscan_fail(err, path, data, s.pos,
						  "a JSON value");
			continue;
		}
		if (jscan_open(&s, '{', &rec) < 0)
			return jscan_fail(err, path, data, s.pos,
					  "a \"recording\" object");
		while ((r = jscan_next(&s, &rec, &key, &klen)) > 0) {
			if (!jscan_key_is(key, klen, "events")) {
				if (jscan_skip(&s, &a, &b) < 0)
					return jscan_fail(err, path, data,
							  s.pos,
							  "a JSON value");
				continue;
			}
			if (jscan_open(&s, '[', &evs) < 0)
				return jscan_fail(err, path, data, s.pos,
						  "an \"events\" array");
			seen = 1;
			while ((r = jscan_next(&s, &evs, NULL, NULL)) > 0) {
				size_t at = s.pos;
				cJSON *ev = jscan_parse(&s);
				int rc;

				if (!ev)
					return jscan_fail(
						err, path, data, s.pos,
						"a JSON event object");
				rc = add_event(t, ev, data, at, path, err);
				cJSON_Delete(ev);
				if (rc < 0)
					return rc;
			}
			if (r < 0)
				return jscan_fail(err, path, data, s.pos,
						  "',' or ']' in \"events\"");
		}
		if (r < 0)
			return jscan_fail(err, path, data, s.pos,
					  "a member or '}' in \"recording\"");
	}
	if (r < 0)
		return jscan_fail(err, path, data, s.pos,
				  "a member or '}' in the JSON object");
	if (jscan_peek(&s) >= 0)
		return jscan_fail(err, path, data, s.pos,
				  "the end of the input after the JSON object");
	if (!seen)
		return jscan_fail(err, path, data, len,
				  "a \"recording\" object with an \"events\" "
				  "array");
	return 0;
}

/* One line of text: [p, p + n) without its "\n" or "\r\n". */
static int next_line(const char *data, size_t len, size_t *pos, const char **p,
		     size_t *n)
{
	size_t i = *pos;

	if (i >= len)
		return 0;
	*p = data + i;
	while (i < len && data[i] != '\n')
		i++;
	*n = (size_t)(data + i - *p);
	*pos = i < len ? i + 1 : len;
	while (*n && ((*p)[*n - 1] == '\r' || (*p)[*n - 1] == ' '))
		(*n)--;
	return 1;
}

static int has(const char *p, size_t n, const char *word)
{
	size_t i, w = strlen(word);

	for (i = 0; i + w <= n; i++)
		if (!memcmp(p + i, word, w))
			return 1;
	return 0;
}

/* The rule under a view's header: three groups of dashes. */
static int is_rule(const char *p, size_t n)
{
	size_t i, groups = 0;

	if (!n || p[0] != '-')
		return 0;
	for (i = 0; i < n; i++) {
		if (p[i] != '-' && p[i] != ' ')
			return 0;
		if (p[i] == '-' && (!i || p[i - 1] == ' '))
			groups++;
	}
	return groups == 3;
}

static int is_header(const char *p, size_t n)
{
	return n && has(p, n, "Method") && has(p, n, "Samples") &&
	       has(p, n, "Percent");
}

/* Whether the line before a rule (and the one before that, with
 * --verbose's "(stackTrace.topFrame) ..." row between) is a header. */
static int under_header(const char *p1, size_t n1, const char *p2, size_t n2)
{
	if (is_header(p1, n1))
		return 1;
	return n1 && p1[0] == '(' && is_header(p2, n2);
}

/* Splits "METHOD   COUNT  PCT%" from the right: the method may hold
 * spaces ("split(char, int, boolean)") and multibyte "…". */
static int split_row(const char *p, size_t n, size_t *mlen, double *count,
		     double *pct)
{
	size_t e = n, b;

	if (!n || p[n - 1] != '%')
		return -1;
	b = e;
	while (b && p[b - 1] != ' ')
		b--;
	if (import_number(pct, p + b, e - b - 1) < 0 || *pct < 0 || *pct > 100)
		return -1;
	e = b;
	while (e && p[e - 1] == ' ')
		e--;
	b = e;
	while (b && p[b - 1] != ' ')
		b--;
	if (import_number(count, p + b, e - b) < 0 || *count < 0 ||
	    *count > 9e15 || *count != (double)(long long)*count)
		return -1;
	e = b;
	while (e && p[e - 1] == ' ')
		e--;
	if (!e)
		return -1;
	*mlen = e;
	return 0;
}

/* The line of the first event block of `jfr print` text
 * ("jdk.ExecutionSample {"), or 0 when data has none. */
static size_t print_text_line(const char *data, size_t len)
{
	const char *p;
	size_t pos = 0, n, line = 0;

	while (next_line(data, len, &pos, &p, &n)) {
		line++;
		if (n > 6 && !memcmp(p, "jdk.", 4) &&
		    !memcmp(p + n - 2, " {", 2))
			return line;
	}
	return 0;
}

/* Reads every `jfr view hot-methods`/`native-methods` table in data. */
static int parse_view(struct import_set *out, const char *data, size_t len,
		      const char *path, struct error *err)
{
	const char *p, *p1 = NULL, *p2 = NULL;
	size_t pos = 0, n, n1 = 0, n2 = 0, line = 0, rows = 0, text_line;
	int native = 0, in_table = 0, tables = 0;

	while (next_line(data, len, &pos, &p, &n)) {
		double count, pct;
		size_t mlen;
		char *m;

		line++;
		if (in_table) {
			if (!n) {
				in_table = 0;
				native = 0;
				continue;
			}
			if (split_row(p, n, &mlen, &count, &pct) < 0)
				return error_set(err, GCAMP_EFATAL,
						 "%s:%zu: expected a method, "
						 "a sample count and a "
						 "percentage",
						 show(path), line);
			m = xstrndup(p, mlen);
			add_method(out, native, m, count, pct / 100);
			free(m);
			rows++;
			continue;
		}
		if (is_rule(p, n) && under_header(p1, n1, p2, n2)) {
			in_table = 1;
			tables++;
		} else if (has(p, n, "Native")) {
			native = 1;
		}
		p2 = p1;
		n2 = n1;
		p1 = p;
		n1 = n;
	}
	if (!tables && has(data, len, "No events found"))
		return error_set(err, GCAMP_EFATAL,
				 "no samples in '%s': jfr found no events",
				 show(path));
	if (!tables && (text_line = print_text_line(data, len))) {
		error_set(err, GCAMP_EFATAL,
			  "%s:%zu: expected jfr print --json output, not the "
			  "text of jfr print",
			  show(path), text_line);
		error_hint(err, "import the .jfr recording itself, or the "
				"output of 'jfr print --json'");
		return GCAMP_EFATAL;
	}
	if (!tables)
		return error_set(err, GCAMP_EFATAL,
				 "%s:1: expected jfr print --json output, "
				 "a jfr view table or a .jfr recording",
				 show(path));
	if (!rows)
		return error_set(err, GCAMP_EFATAL,
				 "no samples in '%s': its jfr view tables "
				 "are empty",
				 show(path));
	return 0;
}

int jfr_is_recording(const char *data, size_t len)
{
	return len >= 4 && !memcmp(data, "FLR\0", 4);
}

static int first_byte(const char *data, size_t len)
{
	struct jscan s = {data, len, 0};

	return jscan_peek(&s);
}

static int parse_any(struct import_set *out, const char *data, size_t len,
		     const char *path, struct error *err)
{
	struct tally t = {NULL, 0, 0, {0, 0}, TEXTSCAN_NAMES_INIT, BUF_INIT};
	int rc;

	if (first_byte(data, len) != '{')
		return parse_view(out, data, len, path, err);
	rc = parse_json(&t, data, len, path, err);
	if (!rc && !t.total[0] && !t.total[1]) {
		error_set(err, GCAMP_EFATAL, "no %s or %s events in '%s'",
			  event_names[0], event_names[1], show(path));
		error_hint(err, "record with -XX:StartFlightRecording and "
				"settings=profile, long enough to be sampled");
		rc = GCAMP_EFATAL;
	}
	if (!rc)
		tally_emit(out, &t);
	tally_release(&t);
	return rc;
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

int jfr_parse(struct import_set *out, const char *data, size_t len,
	      const char *path, struct error *err)
{
	struct import_set mine = IMPORT_SET_INIT;
	int rc;

	if (!jfr_is_recording(data, len)) {
		rc = parse_any(&mine, data, len, path, err);
		goto out;
	}
	if (!strcmp(path, "-")) {
		error_set(err, GCAMP_EFATAL,
			  "cannot read a binary JFR recording from stdin");
		error_hint(err, "name the .jfr file instead of '-'");
	} else {
		error_set(err, GCAMP_EFATAL,
			  "cannot read the binary JFR recording '%s' without "
			  "jfr print",
			  path);
		error_hint(err, "import it with 'git campaign measure "
				"import', which runs jfr print on it");
	}
	rc = GCAMP_EFATAL;
out:
	/* all or nothing: a bad row late in a table adds no record */
	if (!rc)
		move_records(out, &mine);
	import_set_release(&mine);
	return rc;
}

int jfr_detect(const char *data, size_t len)
{
	const char *p, *p1 = NULL, *p2 = NULL;
	size_t pos = 0, n, n1 = 0, n2 = 0;

	if (jfr_is_recording(data, len))
		return 1;
	if (first_byte(data, len) == '{')
		return has(data, len, "\"recording\"") &&
		       has(data, len, "\"events\"");
	while (next_line(data, len, &pos, &p, &n)) {
		if (is_rule(p, n) && under_header(p1, n1, p2, n2))
			return 1;
		p2 = p1;
		n2 = n1;
		p1 = p;
		n1 = n;
	}
	/* jfr print's text: detected so that its message says what to do */
	return print_text_line(data, len) != 0;
}
