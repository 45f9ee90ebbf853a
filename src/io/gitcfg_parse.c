/* Git configuration text as git writes it, and the command-line overrides
 * git passes its children (GIT_CONFIG_PARAMETERS, GIT_CONFIG_COUNT/KEY/
 * VALUE): parsers over bytes and the environment, with no file access. */
#include "io/gitcfg_parse.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/buf.h"
#include "util/xalloc.h"

int gitcfg_normalize_key(char *key)
{
	char *first = strchr(key, '.'), *last = strrchr(key, '.'), *p;

	if (!first || first == key || !last[1])
		return -1;
	for (p = key; p < first; p++)
		*p = (char)tolower((unsigned char)*p);
	for (p = last + 1; *p; p++)
		*p = (char)tolower((unsigned char)*p);
	return 0;
}

/* Marks a `-c key` without "=": git reads it as boolean true. */
static const char implicit_true[] = "true";

/* One shell-quoted word as git's sq_quote writes it: 'abc'\''d'\!'e'. */
static const char *sq_dequote_word(struct buf *out, const char *p)
{
	buf_reset(out);
	while (*p == '\'') {
		const char *end = strchr(p + 1, '\'');

		if (!end)
			return NULL;
		buf_add(out, p + 1, (size_t)(end - p - 1));
		p = end + 1;
		if (p[0] == '\\' && p[1] && p[2] == '\'') {
			buf_putc(out, p[1]);
			p += 2;
		}
	}
	return p;
}

int gitcfg_parse_parameters(struct strvec *out, const char *env)
{
	struct buf w = BUF_INIT;
	const char *p = env;
	int rc = 0;

	while (*p) {
		char *key, *eq;

		while (isspace((unsigned char)*p))
			p++;
		if (!*p)
			break;
		if (*p != '\'' || !(p = sq_dequote_word(&w, p))) {
			rc = -1;
			break;
		}
		if (*p == '=') {
			/* new form: 'key'='value' or 'key'= */
			key = xstrdup(w.ptr);
			p++;
			if (*p == '\'') {
				if (!(p = sq_dequote_word(&w, p))) {
					free(key);
					rc = -1;
					break;
				}
				strvec_push_owned(out, key);
				strvec_push(out, w.ptr);
			} else {
				strvec_push_owned(out, key);
				strvec_push(out, implicit_true);
			}
		} else {
			/* old form: 'key=value' or 'key' */
			eq = strchr(w.ptr, '=');
			if (eq) {
				*eq = '\0';
				strvec_push(out, w.ptr);
				strvec_push(out, eq + 1);
			} else {
				strvec_push(out, w.ptr);
				strvec_push(out, implicit_true);
			}
		}
		if (*p && !isspace((unsigned char)*p)) {
			rc = -1;
			break;
		}
	}
	buf_release(&w);
	return rc;
}

/* git reads GIT_CONFIG_COUNT/KEY/VALUE first and GIT_CONFIG_PARAMETERS
 * (`git -c`) after it, so -c wins: the same order here, last one wins. */
void gitcfg_load_env(struct strvec *out)
{
	const char *env = getenv("GIT_CONFIG_PARAMETERS");
	const char *count = getenv("GIT_CONFIG_COUNT");
	struct strvec dashc = STRVEC_INIT;
	size_t i, from = out->nr;

	if (count) {
		long n = strtol(count, NULL, 10), k;

		for (k = 0; k < n && k < 10000; k++) {
			char name[64];
			const char *key, *val;

			snprintf(name, sizeof(name), "GIT_CONFIG_KEY_%ld", k);
			key = getenv(name);
			snprintf(name, sizeof(name), "GIT_CONFIG_VALUE_%ld", k);
			val = getenv(name);
			if (!key || !val)
				break;
			strvec_push(out, key);
			strvec_push(out, val);
		}
	}
	/* git itself refuses to run with a value it cannot read, so we never
	 * see one from it; ignore what we cannot read */
	if (env && gitcfg_parse_parameters(&dashc, env) == 0)
		for (i = 0; i < dashc.nr; i++)
			strvec_push(out, dashc.v[i]);
	strvec_clear(&dashc);
	for (i = from; i < out->nr; i += 2)
		gitcfg_normalize_key(out->v[i]);
}

/*
 * git's config grammar (config.c): [section], [section "sub"] (\" and \\
 * escaped), the old [section.sub]; `name = value` with "..." quoting,
 * escapes \n \t \b \\ \", a backslash-newline continuation, # and ;
 * comments outside quotes, inner whitespace kept and outer dropped; a name
 * alone means true.
 */
struct cfgparse {
	const char *p, *end;
	struct buf section; /* "section.Sub" as it goes into keys */
};

static int parse_section(struct cfgparse *c, int *includes)
{
	const char *p = c->p + 1;

	buf_reset(&c->section);
	while (p < c->end &&
	       (isalnum((unsigned char)*p) || *p == '-' || *p == '.')) {
		buf_putc(&c->section, (char)tolower((unsigned char)*p));
		p++;
	}
	if (!c->section.len)
		return -1;
	if (p < c->end && isspace((unsigned char)*p)) {
		while (p < c->end && (*p == ' ' || *p == '\t'))
			p++;
		if (p >= c->end || *p != '"')
			return -1;
		buf_putc(&c->section, '.');
		for (p++; p < c->end && *p != '"'; p++) {
			if (*p == '\n')
				return -1;
			if (*p == '\\' && p + 1 < c->end)
				p++;
			buf_putc(&c->section, *p);
		}
		if (p >= c->end)
			return -1;
		p++;
	}
	if (p >= c->end || *p != ']')
		return -1;
	c->p = p + 1;
	if (!strcmp(c->section.ptr, "include") ||
	    !strncmp(c->section.ptr, "includeif.", 10))
		*includes = 1;
	return 0;
}

static int parse_value(struct cfgparse *c, struct buf *v)
{
	size_t keep = 0; /* v's length up to the last non-space */
	int quoted = 0;

	buf_reset(v);
	while (c->p < c->end && (*c->p == ' ' || *c->p == '\t'))
		c->p++;
	for (; c->p < c->end; c->p++) {
		char ch = *c->p;

		if (ch == '\n') {
			if (quoted)
				return -1;
			break;
		}
		if (!quoted && (ch == ';' || ch == '#')) {
			while (c->p < c->end && *c->p != '\n')
				c->p++;
			break;
		}
		if (ch == '\\') {
			if (++c->p >= c->end)
				return -1;
			ch = *c->p;
			if (ch == '\n')
				continue;
			if (ch == '\r' && c->p + 1 < c->end &&
			    c->p[1] == '\n') {
				c->p++;
				continue;
			}
			switch (ch) {
			case 'n':
				ch = '\n';
				break;
			case 't':
				ch = '\t';
				break;
			case 'b':
				ch = '\b';
				break;
			case '\\':
			case '"':
				break;
			default:
				return -1;
			}
			buf_putc(v, ch);
			keep = v->len;
			continue;
		}
		if (ch == '"') {
			quoted = !quoted;
			keep = v->len;
			continue;
		}
		if (!quoted && isspace((unsigned char)ch)) {
			if (v->len) /* inner whitespace, kept if followed */
				buf_putc(v, ' ');
			continue;
		}
		buf_putc(v, ch);
		keep = v->len;
	}
	if (quoted)
		return -1;
	v->len = keep;
	v->ptr[keep] = '\0';
	return 0;
}

int gitcfg_parse_config(struct strvec *out, const char *text, size_t len,
			int *includes)
{
	struct cfgparse c = {text, text + len, BUF_INIT};
	struct buf name = BUF_INIT, value = BUF_INIT;
	int rc = 0;

	*includes = 0;
	if (len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3))
		c.p += 3;
	while (c.p < c.end) {
		char ch = *c.p;

		if (isspace((unsigned char)ch)) {
			c.p++;
		} else if (ch == '#' || ch == ';') {
			while (c.p < c.end && *c.p != '\n')
				c.p++;
		} else if (ch == '[') {
			if ((rc = parse_section(&c, includes)) < 0)
				break;
		} else if (isalpha((unsigned char)ch) && c.section.len) {
			buf_reset(&name);
			while (c.p < c.end &&
			       (isalnum((unsigned char)*c.p) || *c.p == '-'))
				buf_putc(&name,
					 (char)tolower((unsigned char)*c.p++));
			while (c.p < c.end && (*c.p == ' ' || *c.p == '\t'))
				c.p++;
			if (c.p < c.end && *c.p == '=') {
				c.p++;
				if ((rc = parse_value(&c, &value)) < 0)
					break;
			} else if (c.p >= c.end || *c.p == '\n' ||
				   *c.p == '\r' || *c.p == '#' || *c.p == ';') {
				buf_reset(&value);
				buf_puts(&value, implicit_true);
			} else {
				rc = -1;
				break;
			}
			strvec_push_owned(out, xasprintf("%s.%s", c.section.ptr,
							 name.ptr));
			strvec_push(out, value.ptr);
		} else {
			rc = -1;
			break;
		}
	}
	buf_release(&c.section);
	buf_release(&name);
	buf_release(&value);
	return rc;
}
