/* The recorded stack and the restack rule, over io/refs.h alone. */
#include "core/stack/model.h"

#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

#define PARENT_SUFFIX ".campaignparent"
#define TIP_SUFFIX ".campaignparenttip"

static struct stack_rel *rel_of(struct stack_model *m, const char *name,
				size_t n)
{
	struct stack_rel *r;
	size_t i;

	for (i = 0; i < m->n; i++)
		if (strlen(m->rel[i].branch) == n &&
		    !strncmp(m->rel[i].branch, name, n))
			return &m->rel[i];
	if (m->n == m->alloc) {
		m->alloc = m->alloc ? 2 * m->alloc : 8;
		m->rel = xrealloc(m->rel, m->alloc * sizeof(*m->rel));
	}
	r = &m->rel[m->n++];
	memset(r, 0, sizeof(*r));
	r->branch = xstrndup(name, n);
	return r;
}

/* branch.NAME.campaignparent = PARENT (NAME may hold dots) */
int stack_model_add(const char *key, const char *value, void *data)
{
	static const char prefix[] = "branch.";
	const size_t plen = sizeof(prefix) - 1;
	struct stack_model *m = data;
	size_t k = strlen(key);
	const char *name = key + plen;
	struct stack_rel *r;
	char **slot;

	if (strncmp(key, prefix, plen))
		return 0;
	if (k > plen + strlen(PARENT_SUFFIX) &&
	    !strcmp(key + k - strlen(PARENT_SUFFIX), PARENT_SUFFIX)) {
		r = rel_of(m, name, k - plen - strlen(PARENT_SUFFIX));
		slot = &r->parent;
	} else if (k > plen + strlen(TIP_SUFFIX) &&
		   !strcmp(key + k - strlen(TIP_SUFFIX), TIP_SUFFIX)) {
		r = rel_of(m, name, k - plen - strlen(TIP_SUFFIX));
		slot = &r->parent_tip;
	} else {
		return 0;
	}
	/* the last value wins, as for git config KEY */
	free(*slot);
	*slot = xstrdup(value);
	return 0;
}

static void rel_release(struct stack_rel *r)
{
	free(r->branch);
	free(r->parent);
	free(r->parent_tip);
}

void stack_model_resolve(struct stack_model *m, const struct refs *refs,
			 const char *remote)
{
	size_t i, k;

	for (i = k = 0; i < m->n; i++) {
		if (!m->rel[i].parent) {
			rel_release(&m->rel[i]);
			continue;
		}
		m->rel[k++] = m->rel[i];
	}
	m->n = k;
	for (i = 0; i < m->n; i++) {
		struct stack_rel *r = &m->rel[i];

		r->needs_restack = 0;
		if (refs_branch_tip(r->parent_now, refs, remote, r->parent) < 0)
			r->parent_now[0] = '\0';
		if (refs_branch_tip(r->tip_now, refs, NULL, r->branch) < 0)
			r->tip_now[0] = '\0';
		if (!r->parent_now[0] || !r->tip_now[0])
			continue;
		r->needs_restack = stack_model_needs_restack(
			refs, r->parent_tip, r->parent_now, r->tip_now);
	}
}

const struct stack_rel *stack_model_find(const struct stack_model *m,
					 const char *branch)
{
	size_t i;

	for (i = 0; i < m->n; i++)
		if (!strcmp(m->rel[i].branch, branch))
			return &m->rel[i];
	return NULL;
}

void stack_model_release(struct stack_model *m)
{
	size_t i;

	if (!m)
		return;
	for (i = 0; i < m->n; i++)
		rel_release(&m->rel[i]);
	free(m->rel);
	memset(m, 0, sizeof(*m));
}

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* 40 hexadecimal digits and the end of the string, as 20 bytes */
static int decode_oid(unsigned char out[20], const char *hex)
{
	size_t i;

	for (i = 0; i < 20; i++) {
		int hi = hex_digit(hex[2 * i]), lo;

		if (hi < 0 || (lo = hex_digit(hex[2 * i + 1])) < 0)
			return -1;
		out[i] = (unsigned char)(hi << 4 | lo);
	}
	return hex[40] ? -1 : 0;
}

int stack_model_same_commit(const char *a, const char *b)
{
	unsigned char x[20], y[20];

	return a && b && decode_oid(x, a) == 0 && decode_oid(y, b) == 0 &&
	       !memcmp(x, y, sizeof(x));
}

int stack_model_needs_restack(const struct refs *refs, const char *recorded,
			      const char *parent_tip, const char *tip_now)
{
	int rc = refs_is_ancestor(refs, parent_tip, tip_now);

	if (rc >= 0)
		return !rc;
	return !stack_model_same_commit(recorded, parent_tip);
}
