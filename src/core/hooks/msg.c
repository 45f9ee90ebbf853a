/* The commit-msg rules: git's cleanup, one line, no AI attribution. */
#include "core/hooks/msg.h"

#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

/*
 * Lines that credit an AI tool or a bot, matched in any case: trailers
 * (Co-authored-by and its kin) naming a tool or one of the tools' commit
 * addresses, "Generated with/by ..." lines such as Claude Code's footer,
 * and the robot emoji those footers start with.
 */
#define AI_NAMES                                                               \
	"(claude|anthropic|chatgpt|openai|gpt-?[0-9]|copilot|gemini|bard|"     \
	"codeium|windsurf|cursor|devin|aider|tabnine|codewhisperer|amazon q|"  \
	"cody|sourcegraph|llm|\\<ai\\>|\\[bot\\])"
static const char *const attribution_patterns[] = {
	"^[[:space:]]*(co-authored-by|co-developed-by|generated-by|"
	"assisted-by|helped-by|signed-off-by|suggested-by|ai-assisted|"
	"made-with|created-by)[[:space:]]*:.*" AI_NAMES,
	"(noreply@anthropic\\.com|@openai\\.com|copilot@github\\.com|"
	"\\[bot\\]@users\\.noreply\\.github\\.com|@cursor\\.(sh|com)|"
	"@codeium\\.com|@devin\\.ai)",
	"^[^[:alnum:]]*generated (with|by|using)[[:space:]]",
	"generated (with|by|using) .*" AI_NAMES,
	"\xf0\x9f\xa4\x96", /* U+1F916 ROBOT FACE */
	"(claude\\.ai/code|claude\\.com/claude-code)",
	NULL,
};

static int is_blank(const char *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (p[i] != ' ' && p[i] != '\t' && p[i] != '\r' &&
		    p[i] != '\f' && p[i] != '\v')
			return 0;
	return 1;
}

static int is_scissors(const char *p, size_t n, char cc)
{
	static const char cut[] =
		" ------------------------ >8 ------------------------";

	return n == sizeof(cut) && p[0] == cc && !memcmp(p + 1, cut, n - 1);
}

void hooks_msg_cleanup(struct buf *out, const char *text, size_t len,
		       enum msg_cleanup mode, char comment_char)
{
	const char *p = text, *end = text + len;
	size_t blanks = 0; /* blank lines waiting for a next line */
	int any = 0;

	if (mode == MSG_VERBATIM) {
		buf_add(out, text, len);
		return;
	}
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);

		if ((mode == MSG_STRIP || mode == MSG_SCISSORS) &&
		    is_scissors(p, n, comment_char))
			break;
		if (mode == MSG_STRIP && n && p[0] == comment_char) {
			p = nl ? nl + 1 : end;
			continue;
		}
		while (n && (p[n - 1] == ' ' || p[n - 1] == '\t' ||
			     p[n - 1] == '\r'))
			n--;
		if (is_blank(p, n)) {
			if (any)
				blanks++;
		} else {
			if (blanks)
				buf_putc(out, '\n');
			blanks = 0;
			buf_add(out, p, n);
			buf_putc(out, '\n');
			any = 1;
		}
		p = nl ? nl + 1 : end;
	}
}

int hooks_utf8_valid(const char *text, size_t len, size_t *line)
{
	const unsigned char *s = (const unsigned char *)text;
	size_t i = 0, ln = 1;

	while (i < len) {
		unsigned char c = s[i];
		size_t need, k;
		unsigned long cp;

		if (c == '\n')
			ln++;
		if (c < 0x80) {
			i++;
			continue;
		}
		if (c >= 0xc2 && c <= 0xdf) {
			need = 1;
			cp = c & 0x1f;
		} else if (c >= 0xe0 && c <= 0xef) {
			need = 2;
			cp = c & 0x0f;
		} else if (c >= 0xf0 && c <= 0xf4) {
			need = 3;
			cp = c & 0x07;
		} else {
			goto bad;
		}
		for (k = 1; k <= need; k++) {
			if (i + k >= len || (s[i + k] & 0xc0) != 0x80)
				goto bad;
			cp = (cp << 6) | (s[i + k] & 0x3f);
		}
		/* overlong forms, surrogates, past U+10FFFF */
		if ((need == 2 && cp < 0x800) || (need == 3 && cp < 0x10000) ||
		    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
			goto bad;
		i += need + 1;
	}
	return 1;
bad:
	*line = ln;
	return 0;
}

/* "line 3: 'text'" with the text cut to fit a message. */
static void quote_line(char *out, size_t cap, size_t no, const char *p,
		       size_t n)
{
	const size_t max = 160;

	snprintf(out, cap, "line %zu: '%.*s%s'", no, (int)(n > max ? max : n),
		 p, n > max ? "..." : "");
}

struct line_iter {
	const char *p;
	size_t no;
};

/* The next line of it (without its newline) in *p, *n; 0 at the end. */
static int next_line(struct line_iter *it, const char **p, size_t *n)
{
	const char *nl;

	if (!*it->p)
		return 0;
	nl = strchr(it->p, '\n');
	*p = it->p;
	*n = nl ? (size_t)(nl - it->p) : strlen(it->p);
	it->p = nl ? nl + 1 : it->p + *n;
	it->no++;
	return 1;
}

static int match_line(const regex_t *re, const char *p, size_t n)
{
	char *line = xstrndup(p, n);
	int hit = regexec(re, line, 0, NULL, 0) == 0;

	free(line);
	return hit;
}

/* Every line against the built-in and the configured patterns. */
static int check_patterns(const char *msg, const struct msg_rules *r,
			  size_t first_no, struct error *err)
{
	regex_t re[16];
	size_t nre = 0, i, k, n;
	struct line_iter it = {msg, first_no};
	char quoted[256];
	const char *p;
	int rc = 0;

	if (r->attribution)
		for (i = 0; attribution_patterns[i]; i++)
			if (regcomp(&re[nre], attribution_patterns[i],
				    REG_EXTENDED | REG_ICASE | REG_NOSUB) == 0)
				nre++;
	k = nre; /* re[k..] are the user's */
	for (i = 0; r->deny && i < r->deny->nr && nre < 16; i++) {
		if (regcomp(&re[nre], r->deny->v[i],
			    REG_EXTENDED | REG_ICASE | REG_NOSUB) != 0) {
			rc = error_set(err, GCAMP_EUSAGE,
				       "campaign.hooks.denyPattern '%s' is not "
				       "a valid extended regular expression",
				       r->deny->v[i]);
			goto out;
		}
		nre++;
	}
	while (next_line(&it, &p, &n))
		for (i = 0; i < nre; i++) {
			if (!match_line(&re[i], p, n))
				continue;
			quote_line(quoted, sizeof(quoted), it.no, p, n);
			if (i < k) {
				rc = error_set(err, GCAMP_EREFUSED,
					       "the commit message credits an "
					       "AI tool or a bot (%s)",
					       quoted);
				error_hint(err, "no attribution in commit "
						"messages: remove the line");
			} else {
				rc = error_set(err, GCAMP_EREFUSED,
					       "the commit message matches "
					       "campaign.hooks.denyPattern "
					       "'%s' (%s)",
					       r->deny->v[i - k], quoted);
			}
			goto out;
		}
out:
	for (i = 0; i < nre; i++)
		regfree(&re[i]);
	return rc;
}

/* 1 when p[0..n) is "PREFIX<hex object name>SUFFIX". */
static int names_commit(const char *p, size_t n, const char *prefix,
			const char *suffix)
{
	size_t a = strlen(prefix), z = strlen(suffix), i;

	if (n < a + z + 7 || n > a + z + 64 || strncmp(p, prefix, a) ||
	    strncmp(p + n - z, suffix, z))
		return 0;
	for (i = a; i < n - z; i++)
		if (!strchr("0123456789abcdef", p[i]))
			return 0;
	return 1;
}

/* The lines git itself writes into a message: cherry-pick -x's trailer and
 * revert's body. They are git's, as the bodies of merges are. */
static int git_line(const char *p, size_t n)
{
	return names_commit(p, n, "(cherry picked from commit ", ")") ||
	       names_commit(p, n, "This reverts commit ", ".");
}

/* The first line after the subject that is neither blank nor git's own,
 * in *p, *n. */
static size_t body_line(const char *msg, const char **p, size_t *n)
{
	struct line_iter it = {msg, 0};

	if (!next_line(&it, p, n))
		return 0;
	while (next_line(&it, p, n))
		if (*n && !git_line(*p, *n))
			return it.no;
	return 0;
}

int hooks_msg_check(const char *msg, const struct msg_rules *r,
		    struct error *err)
{
	const char *body = NULL, *p;
	char quoted[256];
	size_t n, no;
	int rc;

	if (!strncmp(msg, "amend! ", 7)) {
		/* "amend! subject", a blank line, then the new message */
		body = strstr(msg, "\n\n");
		if (body && (rc = hooks_msg_check(body + 2, r, err)) < 0)
			return rc;
		return check_patterns(msg, r, 0, err);
	}
	if ((rc = check_patterns(msg, r, 0, err)) < 0)
		return rc;
	if (!r->one_line || r->merge || !strncmp(msg, "squash! ", 8))
		return 0;
	if ((no = body_line(msg, &p, &n))) {
		quote_line(quoted, sizeof(quoted), no, p, n);
		error_set(err, GCAMP_EREFUSED,
			  "the commit message has more than one line (%s)",
			  quoted);
		error_hint(err, "commit messages here are one line, no body: "
				"put the details in the PR");
		return GCAMP_EREFUSED;
	}
	return 0;
}
