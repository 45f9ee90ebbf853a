/* The PR body lint: the seven sections by their headings, placeholders
 * left, the numbers table with its control row and env labels, the
 * negatives, and the test-suite numbers of both the branch and the base.
 * Works on any Markdown text; reads nothing else. */
#include "core/views/prlint.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/buf.h"
#include "util/xalloc.h"

const char *const prbody_sections[] = {
	"The bug", "Cause",    "Change",    "Numbers",
	"Testing", "Backends", "Negatives", NULL,
};

/* as the lint names them */
static const char *const titles[] = {
	"The bug and its cost",	  "Cause",     "Change", "Numbers", "Testing",
	"Backends and OS tested", "Negatives",
};

enum { S_BUG, S_CAUSE, S_CHANGE, S_NUMBERS, S_TESTING, S_BACKENDS, S_NEG, NS };

struct line {
	const char *p;
	size_t len;
	int fenced;  /* inside a code fence (or the fence itself) */
	int heading; /* its level, 0 when not a heading */
};

struct section {
	int found;
	size_t from, to; /* content lines [from, to) */
};

static struct line *split(size_t *n, const char *body)
{
	struct line *v = NULL;
	size_t cap = 0;
	const char *p = body;
	int fence = 0;

	*n = 0;
	while (*p) {
		const char *e = strchr(p, '\n');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		struct line *l;
		size_t i = 0;

		if (*n == cap)
			v = xrealloc(v,
				     (cap = cap ? 2 * cap : 64) * sizeof(*v));
		l = &v[(*n)++];
		l->p = p;
		l->len = len && p[len - 1] == '\r' ? len - 1 : len;
		l->heading = 0;
		while (i < 3 && i < l->len && p[i] == ' ')
			i++;
		if (l->len - i >= 3 &&
		    (!strncmp(p + i, "```", 3) || !strncmp(p + i, "~~~", 3))) {
			fence = !fence;
			l->fenced = 1;
		} else {
			l->fenced = fence;
		}
		if (!l->fenced && i < l->len && p[i] == '#') {
			size_t k = i;

			while (k < l->len && p[k] == '#')
				k++;
			if (k - i <= 6 &&
			    (k == l->len || p[k] == ' ' || p[k] == '\t'))
				l->heading = (int)(k - i);
		}
		p += len + (e != NULL);
	}
	return v;
}

/* Which section a heading's text names: the words of prbody_sections[]
 * after an optional "N." or "N)", case-insensitively, as whole words (a
 * plural s allowed) */
static int section_of(const struct line *l)
{
	const char *p = l->p, *end = l->p + l->len;
	int s;

	while (p < end && *p == '#')
		p++;
	while (p < end && isspace((unsigned char)*p))
		p++;
	if (p < end && isdigit((unsigned char)*p)) {
		while (p < end && isdigit((unsigned char)*p))
			p++;
		if (p < end && (*p == '.' || *p == ')'))
			p++;
		while (p < end && isspace((unsigned char)*p))
			p++;
	}
	for (s = 0; s < NS; s++) {
		size_t k = strlen(prbody_sections[s]);
		const char *q = p + k;

		if ((size_t)(end - p) < k ||
		    strncasecmp(p, prbody_sections[s], k))
			continue;
		if (q < end && (*q == 's' || *q == 'S'))
			q++;
		if (q == end || !isalnum((unsigned char)*q))
			return s;
	}
	return -1;
}

static int has_marker(const struct line *l)
{
	size_t k = strlen(PRBODY_TODO), i;

	for (i = 0; i + k <= l->len; i++)
		if (!memcmp(l->p + i, PRBODY_TODO, k))
			return 1;
	return 0;
}

/* The text of lines [from, to) without HTML comments, into out */
static void text_of(struct buf *out, const struct line *v, size_t from,
		    size_t to)
{
	struct buf all = BUF_INIT;
	const char *p, *c, *e;
	size_t i;

	for (i = from; i < to; i++) {
		buf_add(&all, v[i].p, v[i].len);
		buf_putc(&all, '\n');
	}
	for (p = all.ptr; (c = strstr(p, "<!--"));) {
		buf_add(out, p, (size_t)(c - p));
		e = strstr(c + 4, "-->");
		p = e ? e + 3 : c + strlen(c);
	}
	buf_puts(out, p);
	buf_release(&all);
}

static int blank(const char *s)
{
	for (; *s; s++)
		if (!isspace((unsigned char)*s))
			return 0;
	return 1;
}

static int blank_line(const struct line *l)
{
	size_t i;

	for (i = 0; i < l->len; i++)
		if (!isspace((unsigned char)l->p[i]))
			return 0;
	return 1;
}

static int is_row(const struct line *l)
{
	size_t i = 0;

	while (i < l->len && i < 3 && l->p[i] == ' ')
		i++;
	return !l->fenced && i < l->len && l->p[i] == '|';
}

/* |---|:--:|---: */
static int is_rule(const struct line *l)
{
	size_t i;
	int dash = 0;

	if (!is_row(l))
		return 0;
	for (i = 0; i < l->len; i++) {
		char ch = l->p[i];

		if (ch == '-')
			dash = 1;
		else if (ch != '|' && ch != ':' && ch != ' ' && ch != '\t')
			return 0;
	}
	return dash;
}

static int line_has_ci(const struct line *l, const char *word)
{
	size_t k = strlen(word), i;

	for (i = 0; i + k <= l->len; i++)
		if (!strncasecmp(l->p + i, word, k))
			return 1;
	return 0;
}

/* Adds to envs each "env ID" (16 lowercase hex digits) of line l */
static void envs_of(struct strvec *envs, const struct line *l)
{
	size_t i, j, k;

	for (i = 0; i + 20 <= l->len; i++) {
		char id[17];

		if (strncmp(l->p + i, "env ", 4) ||
		    (i && isalnum((unsigned char)l->p[i - 1])))
			continue;
		for (k = 0; k < 16; k++)
			if (!isxdigit((unsigned char)l->p[i + 4 + k]) ||
			    isupper((unsigned char)l->p[i + 4 + k]))
				break;
		if (k < 16 ||
		    (i + 20 < l->len && isalnum((unsigned char)l->p[i + 20])))
			continue;
		memcpy(id, l->p + i + 4, 16);
		id[16] = '\0';
		for (j = 0; j < envs->nr; j++)
			if (!strcmp(envs->v[j], id))
				break;
		if (j == envs->nr)
			strvec_push(envs, id);
	}
}

struct table {
	size_t head, end; /* the header line, one past the last row */
	size_t rows;
};

static size_t tables_of(struct table **out, const struct line *v, size_t from,
			size_t to)
{
	size_t n = 0, i = from;

	*out = NULL;
	while (i + 1 < to) {
		struct table t;

		if (!is_row(&v[i]) || is_rule(&v[i]) || !is_rule(&v[i + 1])) {
			i++;
			continue;
		}
		t.head = i;
		for (i += 2; i < to && is_row(&v[i]); i++)
			;
		t.end = i;
		t.rows = t.end - t.head - 2;
		if (!t.rows)
			continue;
		*out = xrealloc(*out, (n + 1) * sizeof(**out));
		(*out)[n++] = t;
	}
	return n;
}

/* 1 when table t is labelled with its env: each row names one, or it has
 * an env column, or the paragraphs right before it (unless that is the
 * caption of a table above) and right after it name exactly one */
static int labelled(const struct line *v, size_t from, size_t to,
		    const struct table *t)
{
	struct strvec envs = STRVEC_INIT, row = STRVEC_INIT;
	size_t i, k, p;
	int every_row = 1, ok;

	for (i = t->head + 2; i < t->end; i++) {
		strvec_clear(&row);
		envs_of(&row, &v[i]);
		every_row &= row.nr == 1;
	}
	strvec_clear(&row);
	if (every_row || line_has_ci(&v[t->head], "| env |")) {
		strvec_clear(&envs);
		return 1;
	}
	/* the paragraph before, unless it is the caption of a table above */
	for (i = t->head; i > from && blank_line(&v[i - 1]);)
		i--;
	for (k = i; k > from && !blank_line(&v[k - 1]) && !is_row(&v[k - 1]);)
		k--;
	for (p = k; p > from && blank_line(&v[p - 1]);)
		p--;
	if (p == from || !is_row(&v[p - 1]))
		for (; k < i; k++)
			envs_of(&envs, &v[k]);
	i = t->end;
	while (i < to && blank_line(&v[i]))
		i++;
	for (; i < to && !blank_line(&v[i]) && !is_row(&v[i]); i++)
		envs_of(&envs, &v[i]);
	ok = envs.nr == 1;
	strvec_clear(&envs);
	return ok;
}

/* A test-suite count: digits (commas allowed) then "failed", "passed",
 * "pass" or "fail", any case */
static int has_count(const struct line *l)
{
	static const char *const words[] = {"fail", "pass", NULL};
	size_t i, k;

	for (i = 0; i < l->len; i++) {
		const char *const *w;

		if (!isdigit((unsigned char)l->p[i]) ||
		    (i && isalnum((unsigned char)l->p[i - 1])))
			continue;
		for (k = i; k < l->len &&
			    (isdigit((unsigned char)l->p[k]) || l->p[k] == ',');
		     k++)
			;
		if (k == l->len || (l->p[k] != ' ' && l->p[k] != '\t'))
			continue;
		while (k < l->len && (l->p[k] == ' ' || l->p[k] == '\t'))
			k++;
		for (w = words; *w; w++)
			if (l->len - k >= 4 && !strncasecmp(l->p + k, *w, 4))
				return 1;
	}
	return 0;
}

/* word as a whole word in l, any case */
static int has_word(const struct line *l, const char *word)
{
	size_t k = strlen(word), i;

	for (i = 0; k && i + k <= l->len; i++)
		if (!strncasecmp(l->p + i, word, k) &&
		    (!i || !isalnum((unsigned char)l->p[i - 1])) &&
		    (i + k == l->len || !isalnum((unsigned char)l->p[i + k])))
			return 1;
	return 0;
}

/* "None.", "- n/a", "nothing": a section that answers without an answer
 * (punctuation, emphasis and list marks aside) */
static int says_nothing(const char *text)
{
	static const char *const nothing[] = {
		"",
		"none",
		"n/a",
		"na",
		"nothing",
		"no",
		"no negatives",
		"none known",
		"not applicable",
		"tbd",
		"todo",
		NULL,
	};
	struct buf w = BUF_INIT;
	const char *const *n;
	const char *p;
	int found = 0;

	buf_puts(&w, "");
	for (p = text; *p; p++) {
		unsigned char ch = (unsigned char)*p;

		if (isspace(ch) || strchr("*_.`-:!", ch)) {
			if (w.len && w.ptr[w.len - 1] != ' ')
				buf_putc(&w, ' ');
			continue;
		}
		buf_putc(&w, (char)tolower(ch));
	}
	buf_rtrim(&w);
	for (n = nothing; *n && !found; n++)
		found = !strcmp(w.ptr, *n);
	buf_release(&w);
	return found;
}

static void lint_numbers(struct strvec *problems, const struct line *v,
			 const struct section *s)
{
	struct strvec envs = STRVEC_INIT;
	struct table *t = NULL;
	size_t nt = tables_of(&t, v, s->from, s->to), i, k;
	int control = 0;

	if (!nt) {
		strvec_push(problems, "no numbers table in section 'Numbers'");
		return;
	}
	for (i = 0; i < nt; i++)
		for (k = t[i].head + 2; k < t[i].end; k++)
			control |= line_has_ci(&v[k], "control");
	if (!control)
		strvec_push(problems, "no control row in the numbers table");
	for (i = s->from; i < s->to; i++)
		envs_of(&envs, &v[i]);
	for (i = 0; envs.nr > 1 && i < nt; i++)
		if (!labelled(v, s->from, s->to, &t[i]))
			strvec_push_owned(
				problems,
				xasprintf("numbers table %zu is not labelled "
					  "with its env (the numbers come from "
					  "%zu envs)",
					  i + 1, envs.nr));
	strvec_clear(&envs);
	free(t);
}

static void lint_testing(struct strvec *problems, const struct line *v,
			 const struct section *s, const char *base)
{
	size_t i;
	int on_base = 0, on_branch = 0;

	for (i = s->from; i < s->to; i++) {
		if (!has_count(&v[i]))
			continue;
		if (has_word(&v[i], "base") || (base && has_word(&v[i], base)))
			on_base = 1;
		else
			on_branch = 1;
	}
	if (!on_base || !on_branch)
		strvec_push_owned(problems,
				  xasprintf("section 'Testing' lacks the "
					    "test-suite numbers of %s",
					    on_base	? "the branch"
					    : on_branch ? "the base"
							: "the branch and of "
							  "the base"));
}

size_t prlint_check(struct strvec *problems, const char *body, const char *base)
{
	struct section sec[NS];
	struct buf text = BUF_INIT;
	size_t n, i, before = problems->nr;
	struct line *v = split(&n, body);
	char *in = xcalloc(n + 1, 1);
	int s;

	memset(sec, 0, sizeof(sec));
	for (i = 0; i < n; i++) {
		size_t k;

		if (!v[i].heading || (s = section_of(&v[i])) < 0 ||
		    sec[s].found)
			continue;
		sec[s].found = 1;
		sec[s].from = i + 1;
		for (k = i + 1; k < n; k++)
			if (v[k].heading && v[k].heading <= v[i].heading)
				break;
		sec[s].to = k;
		memset(in + i, 1, k - i);
	}
	for (s = 0; s < NS; s++) {
		const char *name = titles[s];
		int todo = 0;

		if (!sec[s].found) {
			strvec_push_owned(
				problems,
				xasprintf("section '%s' is missing", name));
			continue;
		}
		for (i = sec[s].from; i < sec[s].to; i++)
			todo |= has_marker(&v[i]);
		buf_reset(&text);
		text_of(&text, v, sec[s].from, sec[s].to);
		if (todo)
			strvec_push_owned(problems,
					  xasprintf("section '%s' has a "
						    "placeholder left",
						    name));
		else if (blank(text.ptr))
			strvec_push_owned(
				problems,
				xasprintf("section '%s' is empty", name));
		if (todo || blank(text.ptr))
			continue;
		if (s == S_NUMBERS)
			lint_numbers(problems, v, &sec[s]);
		else if (s == S_TESTING)
			lint_testing(problems, v, &sec[s], base);
		else if (s == S_NEG && says_nothing(text.ptr))
			strvec_push(problems,
				    "section 'Negatives' states no negative");
	}
	for (i = 0; i < n; i++)
		if (!in[i] && has_marker(&v[i]))
			strvec_push_owned(problems,
					  xasprintf("a placeholder is left "
						    "outside the sections "
						    "(line %zu)",
						    i + 1));
	buf_release(&text);
	free(in);
	free(v);
	return problems->nr - before;
}
