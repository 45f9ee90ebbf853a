/* Helpers shared by the importer unit tests (test_import_*.c): fixtures
 * read into buffers of their exact size, so that a parser reading one byte
 * past the end trips AddressSanitizer, and record look-ups by metric and
 * config. Include after cmocka.h. */
#ifndef GCAMP_IMPORT_TEST_H
#define GCAMP_IMPORT_TEST_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import/formats.h"

/* Ends the list of "k=v" given to rec(). */
#define END ((const char *)NULL)

/* The fixture tests/fixtures/rel, in a malloc'd buffer of exactly *len
 * bytes (no NUL after it). */
static inline char *fixture(const char *rel, size_t *len)
{
	const char *src = getenv("SRC_DIR");
	char path[4096];
	char *data;
	FILE *f;
	long n;

	snprintf(path, sizeof(path), "%s/tests/fixtures/%s", src ? src : ".",
		 rel);
	f = fopen(path, "rb");
	if (!f)
		fail_msg("cannot open %s", path);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	data = malloc(n ? (size_t)n : 1);
	assert_non_null(data);
	assert_int_equal(fread(data, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return data;
}

/* The path of fixture rel, for import_path. */
static inline const char *fixture_path(const char *rel)
{
	static char path[4096];
	const char *src = getenv("SRC_DIR");

	snprintf(path, sizeof(path), "%s/tests/fixtures/%s", src ? src : ".",
		 rel);
	return path;
}

/* Parses len bytes of s (copied to an exact-size buffer) as format. */
static inline int parse_as(const char *format, const char *s, size_t len,
			   struct import_set *out, struct error *err)
{
	const struct import_format *f = import_format_find(format);
	char *copy = malloc(len ? len : 1);
	int rc;

	assert_non_null(f);
	assert_non_null(copy);
	memcpy(copy, s, len);
	rc = import_data(out, f, copy, len, "in.txt", err);
	free(copy);
	return rc;
}

/* Parses the string s; on failure returns the code and leaves the message
 * in err. */
static inline int parse_str(const char *format, const char *s,
			    struct import_set *out, struct error *err)
{
	return parse_as(format, s, strlen(s), out, err);
}

/* The one record of set with this metric whose config holds every
 * "k=v" given (a list ended by END); fails the test when there is not
 * exactly one. */
static inline const struct import_rec *rec(const struct import_set *set,
					   const char *metric, ...)
{
	const struct import_rec *found = NULL;
	size_t i, n = 0;

	for (i = 0; i < set->nr; i++) {
		const struct import_rec *r = &set->recs[i];
		const char *kv;
		va_list ap;
		int ok = !strcmp(r->metric, metric);

		va_start(ap, metric);
		while (ok && (kv = va_arg(ap, const char *))) {
			size_t j;

			ok = 0;
			for (j = 0; j < r->config.nr; j++)
				ok |= !strcmp(r->config.v[j], kv);
		}
		va_end(ap);
		if (ok) {
			found = r;
			n++;
		}
	}
	if (n != 1)
		fail_msg("%zu records of '%s' match", n, metric);
	return found;
}

/* Every prefix of data (each byte for small inputs, in steps for large
 * ones) parses to records or fails with "in.txt:LINE: expected ...",
 * never past the end of the prefix. */
static inline void check_prefixes(const char *format, const char *data,
				  size_t len)
{
	size_t step = len > 4096 ? len / 2048 : 1, n;

	for (n = 0; n < len; n += step) {
		struct import_set set = IMPORT_SET_INIT;
		struct error err = ERROR_INIT;
		int rc = parse_as(format, data, n, &set, &err);

		if (rc < 0) {
			assert_int_equal(rc, GCAMP_EFATAL);
			if (strncmp(err.msg, "in.txt:", 7) ||
			    !strstr(err.msg, ": expected "))
				fail_msg("prefix %zu: '%s'", n, err.msg);
		}
		import_set_release(&set);
	}
}

/* Whether set holds a record equal to r: metric, value, unit, stat and,
 * when with_config, config. */
static inline int holds_rec(const struct import_set *set,
			    const struct import_rec *r, int with_config)
{
	size_t i, j;

	for (i = 0; i < set->nr; i++) {
		const struct import_rec *q = &set->recs[i];
		int same = !strcmp(q->metric, r->metric) &&
			   q->value == r->value && !strcmp(q->stat, r->stat) &&
			   !q->unit == !r->unit &&
			   (!q->unit || !strcmp(q->unit, r->unit)) &&
			   (!with_config || q->config.nr == r->config.nr);

		for (j = 0; same && with_config && j < r->config.nr; j++)
			same = !strcmp(q->config.v[j], r->config.v[j]);
		if (same)
			return 1;
	}
	return 0;
}

/* Every prefix of data that parses gives only records of the whole
 * input, with their whole values: a cut input is refused or reads as
 * less, never as a wrong number. with_config: of the same config too (a
 * cut name may read as another name where the format cannot tell). */
static inline void check_prefix_values(const char *format, const char *data,
				       size_t len, int with_config)
{
	struct import_set whole = IMPORT_SET_INIT;
	struct error err = ERROR_INIT;
	size_t step = len > 4096 ? len / 2048 : 1, n, i;

	assert_int_equal(parse_as(format, data, len, &whole, &err), 0);
	for (n = 1; n < len; n += step) {
		struct import_set set = IMPORT_SET_INIT;
		struct error e = ERROR_INIT;

		if (parse_as(format, data, n, &set, &e) == 0)
			for (i = 0; i < set.nr; i++)
				if (!holds_rec(&whole, &set.recs[i],
					       with_config))
					fail_msg("prefix %zu reads '%s' as "
						 "%g, not in the whole input",
						 n, set.recs[i].metric,
						 set.recs[i].value);
		import_set_release(&set);
	}
	import_set_release(&whole);
}

/* Bytes of data overwritten one at a time with bytes that matter to
 * parsers: never a crash, a read past the end, or an error without a
 * place. */
static inline void check_mutations(const char *format, const char *data,
				   size_t len)
{
	static const char bytes[] = {'\0', '<', '>', '&', '"', '\n', ',',
				     '=',  '[', ']', '{', '}', 'x',  '\x1b'};
	char *copy = malloc(len ? len : 1);
	size_t i, b, step = len > 2048 ? len / 1024 : 1;

	assert_non_null(copy);
	for (i = 0; i < len; i += step)
		for (b = 0; b < sizeof(bytes); b++) {
			struct import_set set = IMPORT_SET_INIT;
			struct error err = ERROR_INIT;
			int rc;

			memcpy(copy, data, len);
			copy[i] = bytes[b];
			rc = parse_as(format, copy, len, &set, &err);
			if (rc < 0 && (rc != GCAMP_EFATAL ||
				       strncmp(err.msg, "in.txt:", 7)))
				fail_msg("byte %zu = %d: '%s'", i, bytes[b],
					 err.msg);
			import_set_release(&set);
		}
	free(copy);
}

/* The format detected for fixture rel: its name, or "" for none. */
static inline const char *detected(const char *rel)
{
	const struct import_format *f;
	size_t len;
	char *data = fixture(rel, &len);

	f = import_detect(data, len);
	free(data);
	return f ? f->name : "";
}

#endif
