/* The template engine (see template.h): the text is cut into tokens once,
 * checked whole, then rendered by walking the tokens over the cJSON data. */
#include "util/template.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/xalloc.h"

#define MAX_DEPTH 32
/* more than any text of ours; nested loops could otherwise multiply */
#define MAX_OUTPUT ((size_t)16 << 20)
/* tokens visited: sections nested over lists multiply the work even when
 * they print nothing, so the work has its own cap (a fraction of a second) */
#define MAX_STEPS ((size_t)4 << 20)

enum tok_kind { T_TEXT, T_VAR, T_SECTION, T_INVERTED, T_CLOSE };

struct tok {
	enum tok_kind kind;
	const char *s; /* text, or the tag's name */
	size_t len;
	size_t close; /* T_SECTION, T_INVERTED: index of the matching T_CLOSE */
	int line;
	unsigned char found, missed; /* a lookup of the tag's name found it;
					one did not (template_render_checked) */
};

struct toks {
	struct tok *v;
	size_t n, cap;
};

static void push(struct toks *t, enum tok_kind kind, const char *s, size_t len,
		 int line)
{
	if (t->n == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 32;
		t->v = xrealloc(t->v, t->cap * sizeof(*t->v));
	}
	t->v[t->n++] = (struct tok){kind, s, len, 0, line, 0, 0};
}

static int lines_in(const char *s, const char *end)
{
	int n = 0;
	for (; s < end; s++)
		n += *s == '\n';
	return n;
}

static int name_ok(const char *s, size_t len)
{
	if (len == 1 && *s == '.')
		return 1;
	if (!len || *s == '.' || s[len - 1] == '.')
		return 0;
	for (size_t i = 0; i < len; i++) {
		char c = s[i];
		if (!(c == '_' || c == '-' || c == '.' ||
		      (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9')))
			return 0;
		if (c == '.' && s[i + 1] == '.')
			return 0;
	}
	return 1;
}

/* When the tag [tag, after) stands alone on its line, widens it to the whole
 * line (newline included) and returns 1. */
static int standalone(const char *text, const char **tag, const char **after)
{
	const char *a = *tag, *b = *after;
	while (a > text && (a[-1] == ' ' || a[-1] == '\t'))
		a--;
	if (a > text && a[-1] != '\n')
		return 0;
	while (*b == ' ' || *b == '\t')
		b++;
	if (*b == '\r' && b[1] == '\n')
		b++;
	if (*b == '\n')
		b++;
	else if (*b)
		return 0;
	*tag = a;
	*after = b;
	return 1;
}

static int tokenize(const char *name, const char *text, struct toks *t,
		    struct error *err)
{
	size_t open[MAX_DEPTH];
	int depth = 0, line = 1, tline;
	const char *p = text;

	for (;;) {
		const char *tag = strstr(p, "{{"), *end, *after, *n;
		size_t len;
		char sigil;

		if (!tag) {
			if (*p)
				push(t, T_TEXT, p, strlen(p), 0);
			break;
		}
		line += lines_in(p, tag);
		end = strstr(tag + 2, "}}");
		if (!end)
			return error_set(err, GCAMP_EUSAGE,
					 "template '%s' line %d: '{{' is not "
					 "closed by '}}'",
					 name, line);
		after = end + 2;
		sigil = tag[2];
		n = tag + 2 +
		    (sigil == '#' || sigil == '^' || sigil == '/' ||
		     sigil == '!');
		while (n < end && (*n == ' ' || *n == '\t'))
			n++;
		len = (size_t)(end - n);
		while (len && (n[len - 1] == ' ' || n[len - 1] == '\t'))
			len--;
		if (sigil != '!' && !name_ok(n, len))
			return error_set(err, GCAMP_EUSAGE,
					 "template '%s' line %d: bad name "
					 "'%.*s'",
					 name, line, (int)(end - tag - 2),
					 tag + 2);
		if (sigil == '#' || sigil == '^' || sigil == '/' ||
		    sigil == '!')
			standalone(text, &tag, &after);
		if (tag > p)
			push(t, T_TEXT, p, (size_t)(tag - p), 0);
		tline = line;
		line += lines_in(tag, after);
		p = after;
		if (sigil == '!')
			continue;
		if (sigil == '#' || sigil == '^') {
			if (depth == MAX_DEPTH)
				return error_set(err, GCAMP_EUSAGE,
						 "template '%s' line %d: "
						 "sections nest deeper than "
						 "%d",
						 name, tline, MAX_DEPTH);
			open[depth++] = t->n;
			push(t, sigil == '#' ? T_SECTION : T_INVERTED, n, len,
			     tline);
		} else if (sigil == '/') {
			struct tok *o;
			if (!depth)
				return error_set(err, GCAMP_EUSAGE,
						 "template '%s' line %d: "
						 "'{{/%.*s}}' closes no "
						 "section",
						 name, tline, (int)len, n);
			o = &t->v[open[depth - 1]];
			if (o->len != len || memcmp(o->s, n, len))
				return error_set(err, GCAMP_EUSAGE,
						 "template '%s' line %d: "
						 "'{{/%.*s}}' closes section "
						 "'%.*s' of line %d",
						 name, tline, (int)len, n,
						 (int)o->len, o->s, o->line);
			o->close = t->n;
			depth--;
			push(t, T_CLOSE, n, len, tline);
		} else {
			push(t, T_VAR, n, len, tline);
		}
	}
	if (depth) {
		const struct tok *o = &t->v[open[depth - 1]];
		return error_set(err, GCAMP_EUSAGE,
				 "template '%s' line %d: section '%.*s' is "
				 "not closed",
				 name, o->line, (int)o->len, o->s);
	}
	return 0;
}

/* The value of NAME: its first part is looked up from the innermost context
 * outwards, the rest inside that. NULL when missing. */
static const cJSON *lookup(const cJSON *const *stack, int depth, const char *s,
			   size_t len)
{
	const cJSON *v = NULL;
	const char *dot;
	size_t part;
	char key[256];

	if (len == 1 && *s == '.')
		return stack[depth - 1];
	dot = memchr(s, '.', len);
	part = dot ? (size_t)(dot - s) : len;
	if (part >= sizeof(key))
		return NULL;
	memcpy(key, s, part);
	key[part] = '\0';
	for (int i = depth - 1; i >= 0 && !v; i--)
		if (cJSON_IsObject(stack[i]))
			v = cJSON_GetObjectItemCaseSensitive(stack[i], key);
	while (v && dot) {
		s = dot + 1;
		len -= part + 1;
		dot = memchr(s, '.', len);
		part = dot ? (size_t)(dot - s) : len;
		if (part >= sizeof(key))
			return NULL;
		memcpy(key, s, part);
		key[part] = '\0';
		v = cJSON_IsObject(v) ? cJSON_GetObjectItemCaseSensitive(v, key)
				      : NULL;
	}
	return v;
}

static int truthy(const cJSON *v)
{
	if (!v || cJSON_IsNull(v) || cJSON_IsFalse(v))
		return 0;
	if (cJSON_IsString(v))
		return v->valuestring && *v->valuestring;
	if (cJSON_IsNumber(v))
		return v->valuedouble != 0;
	if (cJSON_IsArray(v))
		return cJSON_GetArraySize(v) > 0;
	return 1;
}

static void put_value(struct buf *out, const cJSON *v)
{
	if (cJSON_IsString(v))
		buf_puts(out, v->valuestring);
	else if (cJSON_IsNumber(v))
		buf_addf(out, "%.15g", v->valuedouble);
	else if (cJSON_IsBool(v))
		buf_puts(out, cJSON_IsTrue(v) ? "true" : "false");
}

/* A rendering in progress: what render's steps share. */
struct render_state {
	struct toks *tokens;
	const cJSON **stack; /* the contexts, innermost last */
	int depth;	     /* the entries of stack in use */
	struct buf *out;
	size_t limit; /* bytes of out past which rendering stops */
	size_t steps; /* tokens visited, up to MAX_STEPS */
};

static int render(struct render_state *st, size_t from, size_t to);

/* Renders tokens [from, to) with v as the innermost context */
static int render_with(struct render_state *st, const cJSON *v, size_t from,
		       size_t to)
{
	int rc;

	st->stack[st->depth++] = v;
	rc = render(st, from, to);
	st->depth--;
	return rc;
}

/* A section over v: once per item of an array, once for another truthy
 * value, not at all otherwise */
static int render_section(struct render_state *st, const cJSON *v, size_t from,
			  size_t to)
{
	const cJSON *e;

	if (!cJSON_IsArray(v))
		return truthy(v) ? render_with(st, v, from, to) : 0;
	cJSON_ArrayForEach(e, v) {
		if (render_with(st, e, from, to) < 0)
			return -1;
	}
	return 0;
}

/* Renders tokens [from, to); -1 once the output passes st->limit or the
 * steps pass MAX_STEPS */
static int render(struct render_state *st, size_t from, size_t to)
{
	struct buf *out = st->out;

	/* an empty section's pass is a step too */
	if (++st->steps > MAX_STEPS)
		return -1;
	for (size_t i = from; i < to; i++) {
		struct tok *k = &st->tokens->v[i];
		const cJSON *v = NULL;

		if (out->len > st->limit || ++st->steps > MAX_STEPS)
			return -1;
		switch (k->kind) {
		case T_TEXT:
			buf_add(out, k->s, k->len);
			break;
		case T_VAR:
			v = lookup(st->stack, st->depth, k->s, k->len);
			if (v)
				put_value(out, v);
			break;
		case T_INVERTED:
			v = lookup(st->stack, st->depth, k->s, k->len);
			if (!truthy(v) && render(st, i + 1, k->close) < 0)
				return -1;
			i = k->close;
			break;
		case T_SECTION:
			v = lookup(st->stack, st->depth, k->s, k->len);
			if (render_section(st, v, i + 1, k->close) < 0)
				return -1;
			i = k->close;
			break;
		case T_CLOSE:
			break;
		}
		if (k->kind == T_VAR || k->kind == T_SECTION ||
		    k->kind == T_INVERTED) {
			k->found |= v != NULL;
			k->missed |= v == NULL;
		}
	}
	return out->len > st->limit ? -1 : 0;
}

int template_render(const char *name, const char *text, const cJSON *data,
		    struct buf *out, struct error *err)
{
	return template_render_checked(name, text, data, out, NULL, err);
}

int template_render_checked(const char *name, const char *text,
			    const cJSON *data, struct buf *out,
			    struct buf *unknown, struct error *err)
{
	struct toks t = {0};
	const cJSON *stack[MAX_DEPTH + 1];
	size_t start = out->len;
	struct render_state st = {&t, stack, 1, out, start + MAX_OUTPUT, 0};
	int ret = tokenize(name, text, &t, err);

	if (ret)
		goto out;
	stack[0] = data;
	if (render(&st, 0, t.n) < 0) {
		out->len = start;
		out->ptr[start] = '\0';
		if (st.steps > MAX_STEPS)
			ret = error_set(err, GCAMP_EUSAGE,
					"template '%s' takes more than %zu "
					"million steps to render (sections "
					"nested over lists)",
					name, MAX_STEPS >> 20);
		else
			ret = error_set(err, GCAMP_EUSAGE,
					"template '%s' renders more than %zu "
					"MiB",
					name, MAX_OUTPUT >> 20);
	} else if (unknown) {
		for (size_t i = 0; i < t.n; i++)
			if (t.v[i].missed && !t.v[i].found)
				buf_addf(unknown, "line %d: {{%s%.*s}}\n",
					 t.v[i].line,
					 t.v[i].kind == T_SECTION    ? "#"
					 : t.v[i].kind == T_INVERTED ? "^"
								     : "",
					 (int)t.v[i].len, t.v[i].s);
	}
out:
	free(t.v);
	return ret;
}

char *template_override_path(const char *workdir, const char *name)
{
	return xasprintf("%s%s.campaign/templates/%s", workdir,
			 workdir[strlen(workdir) - 1] == '/' ? "" : "/", name);
}

/* Opens dir/name below the open folder fd without following a symlink:
 * a descriptor, -1 with errno set (ELOOP for a symlink). */
static int open_below(int fd, const char *name, int flags)
{
	return openat(fd, name,
		      flags | O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
}

/*
 * Reads the override .campaign/templates/NAME below workdir: 1 with its
 * text in out, 0 when there is none, or a negative code. The file comes
 * from whoever made the clone, so each component is opened with
 * O_NOFOLLOW below the last (no symlink anywhere, so no path outside the
 * work tree), the file must be a regular one (no device, FIFO or socket:
 * O_NONBLOCK so that opening a FIFO cannot hang), checked before and
 * after the open, and it is read up to TEMPLATE_MAX_FILE bytes only.
 */
static int read_override(struct buf *out, const char *workdir, const char *name,
			 const char *path, struct error *err)
{
	static const char *const dirs[] = {".campaign", "templates"};
	struct stat before, st;
	int dfd, fd = -1, ret = 0;
	size_t i, start = out->len;
	char chunk[8192];
	ssize_t n;

	if ((dfd = open(workdir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		return 0;
	for (i = 0; i < sizeof(dirs) / sizeof(*dirs); i++) {
		int sub = -1;

		if (fstatat(dfd, dirs[i], &st, AT_SYMLINK_NOFOLLOW) < 0)
			goto out; /* none: the built-in one */
		if (S_ISLNK(st.st_mode))
			goto refuse;
		if (S_ISDIR(st.st_mode))
			sub = open_below(dfd, dirs[i], O_DIRECTORY);
		close(dfd);
		if ((dfd = sub) < 0)
			goto out;
	}
	if (fstatat(dfd, name, &before, AT_SYMLINK_NOFOLLOW) < 0)
		goto out;
	if (!S_ISREG(before.st_mode))
		goto refuse;
	if ((fd = open_below(dfd, name, 0)) < 0) {
		if (errno == ELOOP)
			goto refuse;
		ret = error_set(err, GCAMP_EFATAL,
				"cannot read template '%s': %s", path,
				strerror(errno));
		goto out;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
	    st.st_ino != before.st_ino || st.st_dev != before.st_dev)
		goto refuse;
	if (st.st_size > TEMPLATE_MAX_FILE)
		goto too_big;
	while ((n = read(fd, chunk, sizeof(chunk))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			ret = error_set(err, GCAMP_EFATAL,
					"cannot read template '%s': %s", path,
					strerror(errno));
			goto out;
		}
		buf_add(out, chunk, (size_t)n);
		if (out->len - start > TEMPLATE_MAX_FILE)
			goto too_big;
	}
	ret = 1;
	goto out;
refuse:
	ret = error_set(err, GCAMP_EFATAL,
			"template '%s' is not a regular file inside the "
			"repository",
			path);
	error_hint(err, "a template is never read through a symbolic link, "
			"nor from a device or FIFO; replace it with a file, or "
			"remove it to use the built-in one");
	goto out;
too_big:
	ret = error_set(err, GCAMP_EFATAL,
			"template '%s' is larger than %d KiB", path,
			TEMPLATE_MAX_FILE >> 10);
out:
	if (ret <= 0) {
		out->len = start;
		if (out->ptr)
			out->ptr[start] = '\0';
	}
	if (fd >= 0)
		close(fd);
	if (dfd >= 0)
		close(dfd);
	return ret;
}

int template_load(const char *workdir, const char *name, struct buf *out,
		  char **from, struct error *err)
{
	const struct template_builtin *b;
	char *path = NULL;
	int ret = 0;

	if (from)
		*from = NULL;
	if (!*name || strchr(name, '/') || *name == '.')
		return error_set(err, GCAMP_EUSAGE, "bad template name '%s'",
				 name);
	if (workdir) {
		path = template_override_path(workdir, name);
		if ((ret = read_override(out, workdir, name, path, err)) < 0)
			goto out;
		if (ret > 0) {
			ret = 0;
			if (from) {
				*from = path;
				path = NULL;
			}
			goto out;
		}
	}
	for (b = template_builtins; b->name; b++)
		if (!strcmp(b->name, name)) {
			buf_puts(out, b->text);
			goto out;
		}
	ret = error_set(err, GCAMP_ENOTFOUND, "no template named '%s'", name);
out:
	free(path);
	return ret;
}
