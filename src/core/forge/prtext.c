/* The generated parts of a PR's body: placeholders left out, sections
 * between hashed markers refreshed where nobody edited them (prtext.h). */
#include "core/forge/prtext.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "core/views/prlint.h"
#include "util/sha256.h"

#define HASH_LEN 12

/* the first HASH_LEN hex digits of the SHA-256 of n bytes of s */
static void short_hash(char out[HASH_LEN + 1], const char *s, size_t n)
{
	char hex[2 * SHA256_DIGEST_LEN + 1];

	sha256_hex(hex, s, n);
	memcpy(out, hex, HASH_LEN);
	out[HASH_LEN] = '\0';
}

/* the end of the line at p: after its '\n', or at the final '\0' */
static const char *line_end(const char *p)
{
	const char *nl = strchr(p, '\n');

	return nl ? nl + 1 : p + strlen(p);
}

/* 1 when the n bytes at p hold needle */
static int line_has(const char *p, size_t n, const char *needle)
{
	size_t k = strlen(needle), i;

	for (i = 0; i + k <= n; i++)
		if (!memcmp(p + i, needle, k))
			return 1;
	return 0;
}

void prtext_strip_placeholders(struct buf *out, const char *body)
{
	const char *p = body, *e;

	buf_reset(out);
	for (; *p; p = e) {
		e = line_end(p);
		if (!line_has(p, (size_t)(e - p), PRBODY_TODO))
			buf_add(out, p, (size_t)(e - p));
	}
}

static void add_block(struct buf *out, const char *p, size_t n)
{
	char h[HASH_LEN + 1];

	if (!n)
		return;
	short_hash(h, p, n);
	buf_addf(out, "%s%s -->\n", PRTEXT_GEN, h);
	buf_add(out, p, n);
	if (p[n - 1] != '\n')
		buf_putc(out, '\n');
	buf_addf(out, "%s\n", PRTEXT_GEN_END);
}

void prtext_wrap(struct buf *out, const char *generated)
{
	const char *start = generated, *p = generated;

	buf_reset(out);
	for (; *p; p = line_end(p))
		if (!strncmp(p, "## ", 3) && p > start) {
			add_block(out, start, (size_t)(p - start));
			start = p;
		}
	add_block(out, start, (size_t)(p - start));
}

struct block {
	const char *begin;    /* the PRTEXT_GEN line */
	const char *text;     /* after it */
	const char *text_end; /* the PRTEXT_GEN_END line */
	const char *end;      /* after that line */
	char hash[HASH_LEN + 1];
};

/* the next block at or after p, 0; -1 when there is none */
static int next_block(struct block *b, const char *p)
{
	size_t n = strlen(PRTEXT_GEN);
	const char *q;

	for (; *p; p = line_end(p)) {
		if (strncmp(p, PRTEXT_GEN, n) || strlen(p + n) < HASH_LEN ||
		    strncmp(p + n + HASH_LEN, " -->", 4))
			continue;
		b->begin = p;
		memcpy(b->hash, p + n, HASH_LEN);
		b->hash[HASH_LEN] = '\0';
		b->text = line_end(p);
		for (q = b->text; *q; q = line_end(q))
			if (!strncmp(q, PRTEXT_GEN_END,
				     strlen(PRTEXT_GEN_END))) {
				b->text_end = q;
				b->end = line_end(q);
				return 0;
			}
		return -1;
	}
	return -1;
}

/* 1 when the n bytes at a and the m at b say the same but for the commit
 * ids in them (runs of 7 to 40 lower-case hex digits): a restack gives
 * the commits new ids and records nothing new */
static int same_but_ids(const char *a, size_t n, const char *b, size_t m)
{
	size_t i = 0, j = 0, ri, rj;

	while (i < n && j < m) {
		for (ri = 0; i + ri < n && isxdigit((unsigned char)a[i + ri]) &&
			     !isupper((unsigned char)a[i + ri]);
		     ri++)
			;
		for (rj = 0; j + rj < m && isxdigit((unsigned char)b[j + rj]) &&
			     !isupper((unsigned char)b[j + rj]);
		     rj++)
			;
		if (ri >= 7 && ri <= 40 && rj >= 7 && rj <= 40) {
			i += ri;
			j += rj;
			continue;
		}
		if (a[i] != b[j])
			return 0;
		i++;
		j++;
	}
	return i == n && j == m;
}

/* the block of fresh whose text starts with the line of b's text */
static int find_same(struct block *out, const char *fresh,
		     const struct block *b)
{
	size_t n = (size_t)(line_end(b->text) - b->text);
	const char *p = fresh;

	while (next_block(out, p) == 0) {
		if ((size_t)(line_end(out->text) - out->text) == n &&
		    !strncmp(out->text, b->text, n))
			return 0;
		p = out->end;
	}
	return -1;
}

int prtext_refresh(struct buf *out, const char *old, const char *fresh)
{
	const char *p = old;
	struct block b, f;
	char h[HASH_LEN + 1];
	int changed = 0;

	buf_reset(out);
	while (next_block(&b, p) == 0) {
		buf_add(out, p, (size_t)(b.begin - p));
		short_hash(h, b.text, (size_t)(b.text_end - b.text));
		if (strcmp(h, b.hash) || find_same(&f, fresh, &b) < 0 ||
		    !strcmp(f.hash, b.hash) ||
		    same_but_ids(b.text, (size_t)(b.text_end - b.text), f.text,
				 (size_t)(f.text_end - f.text))) {
			buf_add(out, b.begin, (size_t)(b.end - b.begin));
		} else {
			buf_add(out, f.begin, (size_t)(f.end - f.begin));
			changed++;
		}
		p = b.end;
	}
	buf_puts(out, p);
	return changed;
}

void prtext_title_marker(struct buf *out, const char *title)
{
	char h[HASH_LEN + 1];

	short_hash(h, title, strlen(title));
	buf_addf(out, "%s%s -->\n", PRTEXT_TITLE, h);
}

int prtext_title_unedited(const char *body, const char *title)
{
	const char *m = body ? strstr(body, PRTEXT_TITLE) : NULL;
	char h[HASH_LEN + 1];

	if (!m)
		return -1;
	m += strlen(PRTEXT_TITLE);
	short_hash(h, title ? title : "", title ? strlen(title) : 0);
	return !strncmp(m, h, HASH_LEN);
}
