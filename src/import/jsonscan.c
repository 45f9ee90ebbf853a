/* A bounded scanner over JSON text: importers walk the outer structure
 * with it and parse each piece with cJSON, so a large document never has
 * to be one tree, and an error can name its line. Reads never pass len. */
#include "import/jsonscan.h"

#include <stdarg.h>
#include <string.h>

#include "import/input.h"
#include "util/buf.h"

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

int jscan_peek(struct jscan *s)
{
	while (s->pos < s->len && is_space(s->data[s->pos]))
		s->pos++;
	return s->pos < s->len ? (unsigned char)s->data[s->pos] : -1;
}

/* Moves past the string that starts at s->pos (its opening quote). */
static int skip_string(struct jscan *s)
{
	size_t i = s->pos + 1;

	while (i < s->len) {
		unsigned char c = (unsigned char)s->data[i];

		if (c == '"') {
			s->pos = i + 1;
			return 0;
		}
		if (c < 0x20)
			break;
		i += c == '\\' ? 2 : 1;
	}
	s->pos = i < s->len ? i : s->len;
	return -1;
}

int jscan_open(struct jscan *s, char open, struct jscan_iter *it)
{
	if (jscan_peek(s) != open)
		return -1;
	s->pos++;
	it->close = open == '{' ? '}' : ']';
	it->started = 0;
	return 0;
}

int jscan_next(struct jscan *s, struct jscan_iter *it, const char **key,
	       size_t *keylen)
{
	int c = jscan_peek(s);
	size_t kstart;

	import_input_reached(s->data + s->pos);
	if (key)
		*key = NULL;
	if (keylen)
		*keylen = 0;
	if (c == it->close) {
		s->pos++;
		return 0;
	}
	if (it->started) {
		if (c != ',')
			return -1;
		s->pos++;
		c = jscan_peek(s);
	}
	it->started = 1;
	if (it->close == ']')
		return c < 0 || c == ']' ? -1 : 1;
	if (c != '"')
		return -1;
	kstart = s->pos + 1;
	if (skip_string(s) < 0)
		return -1;
	if (key)
		*key = s->data + kstart;
	if (keylen)
		*keylen = s->pos - 1 - kstart;
	if (jscan_peek(s) != ':')
		return -1;
	s->pos++;
	return jscan_peek(s) < 0 ? -1 : 1;
}

static int is_scalar_byte(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
	       (c >= 'A' && c <= 'Z') || c == '-' || c == '+' || c == '.';
}

int jscan_skip(struct jscan *s, size_t *start, size_t *end)
{
	char stack[JSCAN_MAX_DEPTH];
	size_t depth = 0;
	int c = jscan_peek(s);

	*start = s->pos;
	if (c < 0)
		return -1;
	for (;;) {
		c = jscan_peek(s);
		if (c < 0)
			return -1;
		if (c == '"') {
			if (skip_string(s) < 0)
				return -1;
		} else if (c == '{' || c == '[') {
			if (depth == sizeof(stack))
				return -1;
			stack[depth++] = c == '{' ? '}' : ']';
			s->pos++;
			continue; /* an empty container closes at once */
		} else if (c == '}' || c == ']') {
			if (!depth || stack[depth - 1] != c)
				return -1;
			depth--;
			s->pos++;
		} else if (depth && (c == ',' || c == ':')) {
			s->pos++;
			continue;
		} else if (is_scalar_byte((char)c)) {
			while (s->pos < s->len &&
			       is_scalar_byte(s->data[s->pos]))
				s->pos++;
		} else {
			return -1;
		}
		if (!depth)
			break;
	}
	*end = s->pos;
	return 0;
}

cJSON *jscan_parse(struct jscan *s)
{
	const char *stop = NULL;
	size_t start, end;
	cJSON *j;

	if (jscan_skip(s, &start, &end) < 0)
		return NULL;
	j = cJSON_ParseWithLengthOpts(s->data + start, end - start, &stop, 0);
	if (!j) {
		s->pos = start;
		if (stop && stop >= s->data + start && stop <= s->data + end)
			s->pos = (size_t)(stop - s->data);
	}
	return j;
}

int jscan_key_is(const char *key, size_t keylen, const char *name)
{
	return key && strlen(name) == keylen && !memcmp(key, name, keylen);
}

size_t jscan_line(const char *data, size_t off)
{
	size_t i, line = 1;

	for (i = 0; i < off; i++)
		if (data[i] == '\n')
			line++;
	return line;
}

int jscan_fail(struct error *err, const char *path, const char *data,
	       size_t off, const char *fmt, ...)
{
	struct buf msg = BUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	buf_vaddf(&msg, fmt, ap);
	va_end(ap);
	error_set(err, GCAMP_EFATAL, "%s:%zu: expected %s",
		  strcmp(path, "-") ? path : "stdin", jscan_line(data, off),
		  msg.ptr);
	buf_release(&msg);
	return GCAMP_EFATAL;
}
