/* The PR body lint: the seven parts of a campaign PR under the headings
 * maintainers really use, what each must say for the kind of PR, the
 * placeholders left, the numbers table with its medians, configuration and
 * control row, and the test-suite numbers of both the branch and the base.
 * Works on any Markdown text; reads nothing else. */
#include "core/views/prlint.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/buf.h"
#include "util/xalloc.h"

const char *const prlint_kind_names[] = {"auto", "perf", "fix", "docs", NULL};

enum {
	S_BUG,
	S_CAUSE,
	S_CHANGE,
	S_NUMBERS,
	S_TESTING,
	S_BACKENDS,
	S_NEG,
	S_REPRO, /* a Reproduction: the test that shows a fix's failure */
	S_OTHER, /* any other heading */
	NS
};

/* as the lint names them */
static const char *const titles[] = {
	"The bug and its cost",
	"Cause",
	"Change",
	"Numbers",
	"Testing",
	"Backends and OS tested",
	"Negatives",
	"Reproduction",
	"",
};

/* The names maintainers give each part, lowercase, matched as whole words
 * at the start of a heading's text (after a number and an article; a
 * plural s and "/s" allowed). Longer names first where one starts
 * another. */
static const struct {
	int s;
	const char *name;
} names[] = {
	{S_BUG, "bug"},
	{S_BUG, "problem"},
	{S_BUG, "summary"},
	{S_BUG, "why"},
	{S_BUG, "how this was found"},
	{S_BUG, "motivation"},
	{S_CAUSE, "root cause"},
	{S_CAUSE, "cause"},
	{S_CHANGE, "change"},
	{S_CHANGE, "fix"},
	{S_CHANGE, "what is in it"},
	{S_CHANGE, "description"},
	{S_CHANGE, "commit"},
	{S_CHANGE, "implementation"},
	{S_NUMBERS, "number"},
	{S_NUMBERS, "result"},
	{S_NUMBERS, "benchmark"},
	{S_NUMBERS, "measurement"},
	{S_NUMBERS, "performance"},
	{S_NUMBERS, "throughput"},
	{S_NUMBERS, "comparison"},
	{S_TESTING, "testing"},
	{S_TESTING, "test"},
	{S_TESTING, "how to test"},
	{S_BACKENDS, "backend"},
	{S_BACKENDS, "os tested"},
	{S_BACKENDS, "platform"},
	{S_NEG, "negative"},
	{S_NEG, "limitation"},
	{S_NEG, "caveat"},
	{S_NEG, "cost"},
	{S_NEG, "what did not work"},
	{S_REPRO, "reproduction"},
	{S_REPRO, "how to reproduce"},
	{S_REPRO, "reproducer"},
};

struct line {
	const char *p;
	size_t len;
	int fenced;  /* inside a code fence (or the fence itself) */
	int heading; /* its level, 0 when not a heading */
	int rule;    /* a setext underline (not content) */
};

/* The lines of one part: every section under one of its names */
struct part {
	size_t nr;
	size_t *from, *to; /* content lines [from, to) of each */
};

struct body {
	struct line *v;
	size_t n;
	struct part part[NS];
};

static int is_item(const struct line *l)
{
	size_t i = 0;

	while (i < l->len && l->p[i] == ' ')
		i++;
	if (i < l->len && strchr("-*+", l->p[i]))
		return i + 1 == l->len || l->p[i + 1] == ' ';
	while (i < l->len && isdigit((unsigned char)l->p[i]))
		i++;
	return i && i < l->len && (l->p[i] == '.' || l->p[i] == ')');
}

/* "===" or "---" (up to 3 spaces before, any after) */
static int underline(const struct line *l)
{
	size_t i = 0, k;

	while (i < 3 && i < l->len && l->p[i] == ' ')
		i++;
	if (i == l->len || (l->p[i] != '=' && l->p[i] != '-'))
		return 0;
	for (k = i; k < l->len && l->p[k] == l->p[i]; k++)
		;
	while (k < l->len && (l->p[k] == ' ' || l->p[k] == '\t'))
		k++;
	return k == l->len ? (l->p[i] == '=' ? 1 : 2) : 0;
}

static struct line *split(size_t *n, const char *body)
{
	struct line *v = NULL;
	size_t cap = 0, j;
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
		l->rule = 0;
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
	/* setext: a paragraph line underlined with = or - */
	for (j = 1; j < *n; j++) {
		struct line *t = &v[j - 1];
		int level;

		if (v[j].fenced || t->fenced || t->heading || t->rule ||
		    !(level = underline(&v[j])))
			continue;
		if (t->len == 0 || t->p[0] == '|' || is_item(t) ||
		    underline(t) ||
		    (j >= 2 && v[j - 2].len && !v[j - 2].heading &&
		     !v[j - 2].rule))
			continue;
		t->heading = level;
		v[j].rule = 1;
	}
	return v;
}

/* The heading's text, lowercase, without its marks, number and article,
 * "/s" dropped, into out */
static void heading_text(struct buf *out, const struct line *l)
{
	const char *p = l->p, *end = l->p + l->len;
	static const char *const articles[] = {"the ", "a ", "an ", NULL};
	const char *const *a;
	size_t i;

	while (p < end && *p == '#')
		p++;
	while (end > p && (end[-1] == '#' || isspace((unsigned char)end[-1])))
		end--;
	while (p < end && (isspace((unsigned char)*p) || *p == '*'))
		p++;
	if (p < end && isdigit((unsigned char)*p)) {
		const char *q = p;

		while (q < end && isdigit((unsigned char)*q))
			q++;
		if (q < end && (*q == '.' || *q == ')')) {
			p = q + 1;
			while (p < end && isspace((unsigned char)*p))
				p++;
		}
	}
	for (; p < end; p++) {
		if (*p == '/' && p + 1 < end && (p[1] == 's' || p[1] == 'S') &&
		    (p + 2 == end || !isalnum((unsigned char)p[2]))) {
			p++;
			continue;
		}
		buf_putc(out, (char)tolower((unsigned char)*p));
	}
	for (a = articles; *a; a++) {
		size_t k = strlen(*a);

		if (out->len > k && !strncmp(out->ptr, *a, k)) {
			memmove(out->ptr, out->ptr + k, out->len - k + 1);
			out->len -= k;
			break;
		}
	}
	for (i = 0; i < out->len; i++)
		if (out->ptr[i] == '*' || out->ptr[i] == '`')
			out->ptr[i] = ' ';
}

/* whole word w at p (a plural s allowed), any case */
static int word_at(const char *p, const char *w)
{
	size_t k = strlen(w);

	if (strncasecmp(p, w, k))
		return 0;
	if (p[k] == 's' || p[k] == 'S')
		k++;
	return !isalnum((unsigned char)p[k]);
}

/* Which part a heading names, S_OTHER when none */
static int section_of(const struct line *l)
{
	struct buf t = BUF_INIT;
	size_t i;
	int s = S_OTHER;

	heading_text(&t, l);
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (word_at(t.ptr ? t.ptr : "", names[i].name)) {
			s = names[i].s;
			break;
		}
	/* "100-launch comparison against hand-written CUDA" */
	for (i = 0; s == S_OTHER && t.ptr && i < t.len; i++)
		if ((!i || !isalnum((unsigned char)t.ptr[i - 1])) &&
		    word_at(t.ptr + i, "comparison"))
			s = S_NUMBERS;
	buf_release(&t);
	return s;
}

static void part_add(struct part *p, size_t from, size_t to)
{
	p->from = xrealloc(p->from, (p->nr + 1) * sizeof(*p->from));
	p->to = xrealloc(p->to, (p->nr + 1) * sizeof(*p->to));
	p->from[p->nr] = from;
	p->to[p->nr++] = to;
}

/* Each heading's section: to the next heading of its level or higher */
static void sections(struct body *b, char *in)
{
	size_t i, k;

	for (i = 0; i < b->n; i++) {
		if (!b->v[i].heading)
			continue;
		for (k = i + 1; k < b->n; k++)
			if (b->v[k].heading &&
			    b->v[k].heading <= b->v[i].heading)
				break;
		part_add(&b->part[section_of(&b->v[i])], i + 1, k);
		memset(in + i, 1, k - i);
	}
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
		if (v[i].rule)
			continue;
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

/* 1 when any line of part s satisfies pred */
static int part_any(const struct body *b, int s,
		    int (*pred)(const struct line *l))
{
	const struct part *p = &b->part[s];
	size_t r, i;

	for (r = 0; r < p->nr; r++)
		for (i = p->from[r]; i < p->to[r]; i++)
			if (!b->v[i].rule && pred(&b->v[i]))
				return 1;
	return 0;
}

static int any_word(const struct line *l, const char *const *words)
{
	for (; *words; words++)
		if (has_word(l, *words))
			return 1;
	return 0;
}

static int any_sub(const struct line *l, const char *const *subs)
{
	for (; *subs; subs++)
		if (line_has_ci(l, *subs))
			return 1;
	return 0;
}

/* a code fence, or `inline code` */
static int has_code(const struct line *l)
{
	const char *a;

	if (l->fenced)
		return 1;
	a = memchr(l->p, '`', l->len);
	return a && memchr(a + 1, '`', l->len - (size_t)(a + 1 - l->p));
}

/* a number with a unit: "51.9 %", "17.46 µs", "2.08×", "12.10 cycles" */
static int has_figure(const struct line *l)
{
	static const char *const units[] = {
		"%",	  "\xc2\xb5s", "us",	 "ms",		"ns",
		"s",	  "\xc3\x97",  "x",	 "cycle",	"call",
		"sample", "byte",      "b",	 "kb",		"mb",
		"gb",	  "kib",       "mib",	 "gib",		"tok/s",
		"t/s",	  "gb/s",      "hz",	 "mhz",		"ghz",
		"fps",	  "op",	       "launch", "instruction", "ms/",
		"us/",	  "sec",       "second", "minute",	"flop",
		NULL,
	};
	size_t i, k;

	for (i = 0; i < l->len; i++) {
		const char *const *u;

		if (!isdigit((unsigned char)l->p[i]) ||
		    (i && (isalnum((unsigned char)l->p[i - 1]) ||
			   l->p[i - 1] == '_')))
			continue;
		for (k = i; k < l->len && (isdigit((unsigned char)l->p[k]) ||
					   l->p[k] == '.' || l->p[k] == ',');
		     k++)
			;
		i = k;
		if (k < l->len && l->p[k] == ' ')
			k++;
		for (u = units; *u; u++) {
			size_t n = strlen(*u);

			if (l->len - k >= n && !strncasecmp(l->p + k, *u, n) &&
			    (!isalpha((unsigned char)**u) || k + n == l->len ||
			     !isalpha((unsigned char)l->p[k + n]) ||
			     l->p[k + n] == 's'))
				return 1;
		}
	}
	return 0;
}

static int says_unchanged(const struct line *l)
{
	static const char *const subs[] = {
		"unchanged",	   "not changed",    "no change",
		"does not change", "doesn't change", "do not change",
		"untouched",	   "left alone",     "left as",
		"deliberately",	   "as before",	     "is kept",
		"are kept",	   "keeps",	     "stays",
		"still",	   "not touched",    "same",
		"keep ",	   "nothing else",   NULL,
	};

	return !l->fenced && (any_sub(l, subs) || has_word(l, "only"));
}

static const char *const backend_words[] = {
	"cuda",	 "opencl", "ptx",	 "spirv",     "spir-v",
	"metal", "hip",	   "level zero", "levelzero", NULL,
};

/* a backend's name, or "backend X" with X not "none" */
static int names_backend(const struct line *l)
{
	size_t i;

	if (any_word(l, backend_words))
		return 1;
	for (i = 0; i + 8 < l->len; i++)
		if (!strncasecmp(l->p + i, "backend ", 8) &&
		    isalpha((unsigned char)l->p[i + 8]) &&
		    strncasecmp(l->p + i + 8, "none", 4))
			return 1;
	return 0;
}

static int names_os(const struct line *l)
{
	static const char *const os[] = {
		"linux",  "windows", "macos",  "mac os", "osx",	   "darwin",
		"ubuntu", "debian",  "fedora", "rhel",	 "centos", NULL,
	};

	return any_word(l, os);
}

/* "- [ ] OpenCL" with nothing after the name: untested, no reason */
static const char *untested_unsaid(const struct line *l, size_t *len)
{
	const char *p = l->p, *end = l->p + l->len, *name;
	const char *const *w;

	while (p < end && (*p == ' ' || *p == '-' || *p == '*'))
		p++;
	if (end - p < 3 || strncmp(p, "[ ]", 3))
		return NULL;
	for (p += 3; p < end && isspace((unsigned char)*p); p++)
		;
	name = p;
	while (end > p &&
	       (isspace((unsigned char)end[-1]) || strchr(".:;,*`", end[-1])))
		end--;
	for (w = backend_words; *w; w++)
		if ((size_t)(end - name) == strlen(*w) &&
		    !strncasecmp(name, *w, strlen(*w))) {
			*len = (size_t)(end - name);
			return name;
		}
	return NULL;
}

/* "None.", "- n/a", "nothing": a section that answers without an answer
 * (punctuation, emphasis and list marks aside); *words gets the count of
 * words; w the words, lowercase */
static int says_nothing(const char *text, size_t *words, struct buf *w)
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
	const char *const *n;
	const char *p;
	size_t i;

	buf_reset(w);
	buf_puts(w, "");
	for (p = text; *p; p++) {
		unsigned char ch = (unsigned char)*p;

		if (isspace(ch) || strchr("*_.`-:!", ch)) {
			if (w->len && w->ptr[w->len - 1] != ' ')
				buf_putc(w, ' ');
			continue;
		}
		buf_putc(w, (char)tolower(ch));
	}
	buf_rtrim(w);
	for (*words = w->len > 0, i = 0; i < w->len; i++)
		*words += w->ptr[i] == ' ';
	for (n = nothing; *n; n++)
		if (!strcmp(w->ptr, *n))
			return 1;
	return 0;
}

static void lint_negatives(struct prlint *l, const char *text)
{
	static const char *const formulas[] = {
		"no regression", "no negative", "nothing regressed",
		"no issue",	 "no problem",	"no known negative",
		"no downside",	 "no drawback", NULL,
	};
	const char *const *f;
	struct buf w = BUF_INIT;
	size_t words;

	if (says_nothing(text, &words, &w)) {
		strvec_push(&l->problems,
			    "section 'Negatives' states no negative");
	} else {
		for (f = formulas; *f; f++)
			if (!strncmp(w.ptr, *f, strlen(*f)))
				break;
		if (*f && words <= 8)
			strvec_push(&l->problems,
				    "section 'Negatives' only says that "
				    "nothing regressed: say where it does not "
				    "help and what it costs");
		else if (words < 4)
			strvec_push(&l->problems,
				    "section 'Negatives' is too short to state "
				    "a negative (where it does not help, what "
				    "it costs)");
	}
	buf_release(&w);
}

/* The first cell of a table row, without "control:", marks and spaces */
static char *first_cell(const struct line *l)
{
	const char *p = memchr(l->p, '|', l->len), *end = l->p + l->len, *e;
	struct buf c = BUF_INIT;

	if (!p)
		return xstrdup("");
	p++;
	e = memchr(p, '|', (size_t)(end - p));
	for (end = e ? e : end; p < end && isspace((unsigned char)*p);)
		p++;
	if (end - p > 8 && !strncasecmp(p, "control:", 8))
		p += 8;
	for (; p < end; p++)
		if (*p != '`' && *p != '*' &&
		    (c.len || !isspace((unsigned char)*p)))
			buf_putc(&c, *p);
	buf_rtrim(&c);
	return c.ptr ? buf_detach(&c) : xstrdup("");
}

static int median_word(const struct line *l)
{
	return has_word(l, "median") || has_word(l, "medians");
}

/* A line of its own saying how the numbers were made: not a table, not a
 * heading, with a figure in it */
static int config_line(const struct line *l)
{
	size_t i;

	if (l->heading || l->fenced || is_row(l))
		return 0;
	for (i = 0; i < l->len; i++)
		if (isdigit((unsigned char)l->p[i]))
			return 1;
	return 0;
}

static void lint_numbers(struct prlint *l, const struct body *b)
{
	static const struct {
		const char *word, *say;
	} unvouched[] = {
		{"noisy", "is noisy"},
		{"moved", "moved"},
		{"invalid", "is INVALID"},
		{"cannot vouch", "could not vouch"},
		{"could not vouch", "could not vouch"},
		{"unvouched", "could not vouch"},
		{NULL, NULL},
	};
	const struct part *p = &b->part[S_NUMBERS];
	struct strvec envs = STRVEC_INIT, ref = STRVEC_INIT;
	struct table *t = NULL;
	size_t nt = 0, r, i, k;
	int control = 0, median = 0;

	for (r = 0; r < p->nr; r++) {
		struct table *one;
		size_t n = tables_of(&one, b->v, p->from[r], p->to[r]);

		t = xrealloc(t, (nt + n + 1) * sizeof(*t));
		if (n)
			memcpy(t + nt, one, n * sizeof(*one));
		nt += n;
		free(one);
		for (i = p->from[r]; i < p->to[r]; i++)
			envs_of(&envs, &b->v[i]);
	}
	if (!nt) {
		strvec_push(&l->problems,
			    "no numbers table in section 'Numbers'");
		goto out;
	}
	median = part_any(b, S_NUMBERS, median_word);
	if (!median)
		strvec_push(&l->problems,
			    "the numbers table gives no medians (a median "
			    "column, or 'median of n = N per arm')");
	if (!part_any(b, S_NUMBERS, config_line))
		strvec_push(&l->problems,
			    "section 'Numbers' gives no configuration line "
			    "(machine, build, workload and its arguments)");
	for (i = 0; i < nt; i++)
		for (k = t[i].head + 2; k < t[i].end; k++) {
			const struct line *row = &b->v[k];
			char *name = first_cell(row);

			if (line_has_ci(row, "control")) {
				size_t w;

				control = 1;
				for (w = 0; unvouched[w].word; w++)
					if (line_has_ci(row, unvouched[w].word))
						break;
				if (unvouched[w].word)
					strvec_push_owned(
						&l->problems,
						xasprintf("control '%s' %s: "
							  "the run is not "
							  "vouched for",
							  name,
							  unvouched[w].say));
			} else if (strstr(name, "reference") ||
				   strstr(name, "baseline") ||
				   strstr(name, "Reference") ||
				   strstr(name, "Baseline")) {
				strvec_push(&ref, name);
			}
			free(name);
		}
	if (!control && ref.nr)
		strvec_push_owned(&l->notes,
				  xasprintf("row '%s' taken as the control row",
					    ref.v[0]));
	else if (!control)
		strvec_push(&l->problems,
			    "no control row in the numbers table (a workload "
			    "that must not move, or a reference row)");
	for (r = 0; envs.nr > 1 && r < p->nr; r++)
		for (i = 0; i < nt; i++)
			if (t[i].head >= p->from[r] && t[i].end <= p->to[r] &&
			    !labelled(b->v, p->from[r], p->to[r], &t[i]))
				strvec_push_owned(
					&l->problems,
					xasprintf("numbers table %zu is not "
						  "labelled with its env (the "
						  "numbers come from %zu envs)",
						  i + 1, envs.nr));
out:
	strvec_clear(&envs);
	strvec_clear(&ref);
	free(t);
}
/* A test-suite count: "9 failed", "1,031 PASS", "2 failures of 10" */
struct count {
	long v;
	int fail, of;
	size_t at;
};

static size_t counts_of(struct count *out, size_t max, const struct line *l)
{
	size_t i, k, n = 0;

	for (i = 0; i < l->len && n < max; i++) {
		struct count c;

		if (!isdigit((unsigned char)l->p[i]) ||
		    (i && (isalnum((unsigned char)l->p[i - 1]) ||
			   l->p[i - 1] == '.')))
			continue;
		c.at = i;
		c.v = 0;
		for (k = i; k < l->len &&
			    (isdigit((unsigned char)l->p[k]) || l->p[k] == ',');
		     k++)
			if (l->p[k] != ',')
				c.v = c.v * 10 + (l->p[k] - '0');
		i = k;
		if (k == l->len || (l->p[k] != ' ' && l->p[k] != '\t'))
			continue;
		while (k < l->len && (l->p[k] == ' ' || l->p[k] == '\t'))
			k++;
		if (l->len - k < 4 || (strncasecmp(l->p + k, "fail", 4) &&
				       strncasecmp(l->p + k, "pass", 4)))
			continue;
		c.fail = !strncasecmp(l->p + k, "fail", 4);
		while (k < l->len && isalpha((unsigned char)l->p[k]))
			k++;
		c.of = l->len - k > 4 && !strncasecmp(l->p + k, " of ", 4) &&
		       isdigit((unsigned char)l->p[k + 4]);
		out[n++] = c;
		i = k;
	}
	return n;
}

/* 1 when the text of l in [from, to) names word */
static int span_has(const struct line *l, size_t from, size_t to,
		    const char *word)
{
	struct line s = *l;

	s.p = l->p + from;
	s.len = to - from;
	return word && has_word(&s, word);
}

struct side {
	int seen, total;
	long failed; /* -1: no failure count */
};

static int names_base(const struct prlint *l, const struct line *ln,
		      size_t from, size_t to)
{
	static const char *const bases[] = {"develop", "main", "master", NULL};
	const char *const *b;

	if (span_has(ln, from, to, "base") || span_has(ln, from, to, l->base))
		return 1;
	for (b = bases; !l->base && *b; b++)
		if (span_has(ln, from, to, *b))
			return 1;
	return 0;
}

/* "matching develop", "same as develop": one count for both */
static int matches_base(const struct prlint *l, const struct line *ln)
{
	static const char *const like[] = {"matching",	   "same as", "as on",
					   "identical to", "like",    NULL};
	const char *const *w;
	size_t i;

	for (w = like; *w; w++)
		for (i = 0; i + strlen(*w) < ln->len; i++)
			if (!strncasecmp(ln->p + i, *w, strlen(*w)) &&
			    names_base(l, ln, i, ln->len))
				return 1;
	return 0;
}

/* Where the clause holding offset at ends (";", ". " or ":") */
static size_t clause_end(const struct line *l, size_t at)
{
	size_t i;

	for (i = at; i < l->len; i++)
		if (l->p[i] == ';' || l->p[i] == ':' ||
		    (l->p[i] == '.' && (i + 1 == l->len || l->p[i + 1] == ' ')))
			return i;
	return l->len;
}

/* Where the clause holding offset at starts, not before from */
static size_t clause_start(const struct line *l, size_t at, size_t from)
{
	size_t i;

	for (i = at; i > from; i--)
		if (l->p[i - 1] == ';' ||
		    (l->p[i - 1] == ' ' && i >= 2 && l->p[i - 2] == '.'))
			return i;
	return from;
}

static void side_add(struct side *s, const struct count *c, int both_kinds)
{
	s->seen = 1;
	s->total |= c->of || both_kinds;
	if (c->fail && s->failed < 0)
		s->failed = c->v;
}

static int new_failures(const struct line *l)
{
	size_t i;

	if (line_has_ci(l, "new") && line_has_ci(l, "fail"))
		return 1;
	for (i = 0; i + 7 <= l->len; i++)
		if (!strncasecmp(l->p + i, "regress", 7))
			return !(i >= 3 &&
				 !strncasecmp(l->p + i - 3, "no ", 3));
	return has_code(l) && line_has_ci(l, "fail");
}

static int names_a_test(const struct line *l)
{
	static const char *const subs[] = {
		"new test",    "regression test", "added a test",
		"adds a test", "test that",	  "unit test",
		NULL};

	return has_code(l) || any_sub(l, subs);
}

static int says_checkstyle(const struct line *l)
{
	return line_has_ci(l, "checkstyle");
}

static void lint_testing(struct prlint *l, const struct body *b)
{
	const struct part *p = &b->part[S_TESTING];
	struct side base = {0, 0, -1}, branch = {0, 0, -1};
	size_t r, i, k;

	if (l->checkstyle && !part_any(b, S_TESTING, says_checkstyle))
		strvec_push_owned(&l->problems,
				  xasprintf("section 'Testing' does not say "
					    "checkstyle passed (the repository "
					    "has '%s')",
					    l->checkstyle));
	for (r = 0; r < p->nr; r++)
		for (i = p->from[r]; i < p->to[r]; i++) {
			const struct line *ln = &b->v[i];
			struct count c[16];
			size_t n = counts_of(c, 16, ln);
			int kinds = 0, side = 0,
			    both = n && matches_base(l, ln);
			size_t prev = 0;

			for (k = 0; k < n; k++)
				kinds |= c[k].fail ? 1 : 2;
			for (k = 0; k < n; k++) {
				size_t a = c[k].at, e = clause_end(ln, a);
				size_t f = clause_start(ln, a, k ? prev : 0);
				int to_base, to_branch;

				if (k + 1 < n && e > c[k + 1].at)
					e = c[k + 1].at;
				prev = e;
				to_base = names_base(l, ln, a, e);
				to_branch = span_has(ln, a, e, "branch");
				if (!to_base && !to_branch) {
					to_base = names_base(l, ln, f, a);
					to_branch =
						!to_base &&
						span_has(ln, f, a, "branch");
				}
				if (to_base || to_branch)
					side = to_base && to_branch ? 3
					       : to_base	    ? 1
								    : 2;
				else if (!side)
					side = 2;
				if (both || (side & 1))
					side_add(&base, &c[k], kinds == 3);
				if (both || (side & 2))
					side_add(&branch, &c[k], kinds == 3);
			}
		}
	if (!base.seen || !branch.seen) {
		strvec_push_owned(&l->problems,
				  xasprintf("section 'Testing' lacks the "
					    "test-suite numbers of %s",
					    base.seen	  ? "the branch"
					    : branch.seen ? "the base"
							  : "the branch and of "
							    "the base"));
		return;
	}
	if (!base.total || !branch.total)
		strvec_push(&l->problems,
			    "section 'Testing' gives a count without its total "
			    "(as in '9 failed of 1,040')");
	if (branch.failed > base.failed && base.failed >= 0 &&
	    !part_any(b, S_TESTING, new_failures) &&
	    !part_any(b, S_NEG, new_failures))
		strvec_push_owned(&l->problems,
				  xasprintf("section 'Testing' shows more "
					    "failures on the branch than on "
					    "the base (%ld against %ld) and "
					    "names no new one",
					    branch.failed, base.failed));
	if (l->kind == PRLINT_FIX && !b->part[S_REPRO].nr &&
	    !part_any(b, S_TESTING, names_a_test))
		strvec_push(&l->problems,
			    "section 'Testing' names no test that shows the "
			    "failure (name it, or add a Reproduction section)");
}

static void lint_backends(struct prlint *l, const struct body *b)
{
	const struct part *p = &b->part[S_BACKENDS];
	size_t r, i, len;

	if (!part_any(b, S_BACKENDS, names_backend))
		strvec_push(
			&l->problems,
			"section 'Backends and OS tested' names no backend");
	if (!part_any(b, S_BACKENDS, names_os))
		strvec_push(&l->problems,
			    "section 'Backends and OS tested' names no OS");
	for (r = 0; r < p->nr; r++)
		for (i = p->from[r]; i < p->to[r]; i++) {
			const char *name = untested_unsaid(&b->v[i], &len);

			if (name)
				strvec_push_owned(
					&l->problems,
					xasprintf("section 'Backends and OS "
						  "tested' leaves %.*s "
						  "unticked without saying why",
						  (int)len, name));
		}
}

static int claims_speed(const struct line *l)
{
	static const char *const words[] = {
		"faster",  "slower",   "speedup",    "speed-up",
		"latency", "overhead", "throughput", NULL,
	};

	return !l->fenced && any_word(l, words);
}

/* A section other than the seven whose table has a median column holds
 * numbers */
static void numbers_by_table(struct body *b)
{
	struct part *o = &b->part[S_OTHER];
	size_t r, i;

	for (r = 0; r < o->nr; r++) {
		struct table *t = NULL;
		size_t n = tables_of(&t, b->v, o->from[r], o->to[r]);

		for (i = 0; i < n; i++)
			if (has_word(&b->v[t[i].head], "median")) {
				part_add(&b->part[S_NUMBERS], o->from[r],
					 o->to[r]);
				break;
			}
		free(t);
	}
}

static int body_any(const struct body *b, int (*pred)(const struct line *l))
{
	size_t i;

	for (i = 0; i < b->n; i++)
		if (pred(&b->v[i]))
			return 1;
	return 0;
}

static void judge_kind(struct prlint *l, const struct body *b)
{
	if (l->kind != PRLINT_AUTO) {
		l->kind_why = "as --kind says";
	} else if (l->has_ab) {
		l->kind = PRLINT_PERF;
		l->kind_why = "the branch has A/B runs";
	} else if (b->part[S_NUMBERS].nr) {
		l->kind = PRLINT_PERF;
		l->kind_why = "it has a numbers section";
	} else if (body_any(b, claims_speed)) {
		l->kind_guessed = 1;
		l->kind = PRLINT_PERF;
		l->kind_why = "it claims a change of speed";
	} else if (b->part[S_BUG].nr || b->part[S_REPRO].nr) {
		l->kind_guessed = 1;
		l->kind = PRLINT_FIX;
		l->kind_why = "it describes a bug and no change of speed";
	} else {
		l->kind_guessed = 1;
		l->kind = PRLINT_DOCS;
		l->kind_why = "it describes no bug and no change of speed";
	}
}

/* 1 when part s is required of a PR of kind k */
static int required(enum prlint_kind k, int s)
{
	switch (k) {
	case PRLINT_PERF:
		return s <= S_NEG;
	case PRLINT_FIX:
		return s <= S_TESTING ? s != S_NUMBERS : s == S_BACKENDS;
	default:
		return s == S_CHANGE;
	}
}

size_t prlint_check(struct prlint *l, const char *body)
{
	struct body b;
	struct buf text = BUF_INIT;
	size_t i, r, before = l->problems.nr;
	char *in;
	int s;

	memset(&b, 0, sizeof(b));
	b.v = split(&b.n, body);
	in = xcalloc(b.n + 1, 1);
	sections(&b, in);
	numbers_by_table(&b);
	judge_kind(l, &b);
	for (s = 0; s < S_REPRO; s++) {
		const char *name = titles[s];
		const struct part *p = &b.part[s];
		int todo = 0;

		if (!p->nr) {
			if (s == S_CAUSE && required(l->kind, s) &&
			    (part_any(&b, S_BUG, has_code) ||
			     part_any(&b, S_OTHER, has_code)))
				continue;
			if (required(l->kind, s))
				strvec_push_owned(
					&l->problems,
					xasprintf(s == S_CAUSE
							  ? "section '%s' is "
							    "missing (or the "
							    "code behind the "
							    "bug, quoted "
							    "under it)"
							  : "section '%s' is "
							    "missing",
						  name));
			continue;
		}
		buf_reset(&text);
		for (r = 0; r < p->nr; r++) {
			for (i = p->from[r]; i < p->to[r]; i++)
				todo |= has_marker(&b.v[i]);
			text_of(&text, b.v, p->from[r], p->to[r]);
		}
		if (todo)
			strvec_push_owned(&l->problems,
					  xasprintf("section '%s' has a "
						    "placeholder left",
						    name));
		else if (blank(text.ptr ? text.ptr : ""))
			strvec_push_owned(
				&l->problems,
				xasprintf("section '%s' is empty", name));
		if (todo || blank(text.ptr ? text.ptr : "") ||
		    l->kind == PRLINT_DOCS)
			continue;
		if (s == S_BUG && l->kind == PRLINT_PERF &&
		    !part_any(&b, S_BUG, has_figure))
			strvec_push(&l->problems,
				    "section 'The bug and its cost' gives no "
				    "measured figure (the profile line: where "
				    "the time goes, with its number)");
		else if (s == S_CAUSE && !part_any(&b, S_CAUSE, has_code))
			strvec_push(
				&l->problems,
				"section 'Cause' quotes no code (the 3 to 5 "
				"lines behind the bug, fenced or `inline`)");
		else if (s == S_CHANGE &&
			 !part_any(&b, S_CHANGE, says_unchanged))
			strvec_push(&l->problems,
				    "section 'Change' does not say what is "
				    "deliberately not changed");
		else if (s == S_NUMBERS && l->kind == PRLINT_PERF)
			lint_numbers(l, &b);
		else if (s == S_TESTING)
			lint_testing(l, &b);
		else if (s == S_BACKENDS)
			lint_backends(l, &b);
		else if (s == S_NEG)
			lint_negatives(l, text.ptr);
	}
	for (i = 0; i < b.n; i++)
		if (!in[i] && has_marker(&b.v[i]))
			strvec_push_owned(&l->problems,
					  xasprintf("a placeholder is left "
						    "outside the sections "
						    "(line %zu)",
						    i + 1));
	for (s = 0; s < NS; s++) {
		free(b.part[s].from);
		free(b.part[s].to);
	}
	buf_release(&text);
	free(in);
	free(b.v);
	return l->problems.nr - before;
}

void prlint_release(struct prlint *l)
{
	strvec_clear(&l->problems);
	strvec_clear(&l->notes);
}
