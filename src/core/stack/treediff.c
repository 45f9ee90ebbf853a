/* The files one tree changes against another, without reading the
 * subtrees both share (libgit2's tree-to-tree diff iterates every entry of
 * both trees, which costs a whole-tree walk per replayed commit). */
#include "core/stack/treediff.h"

#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

static void add(struct tree_changes *out, const char *prefix,
		const git_tree_entry *o, const git_tree_entry *n)
{
	const char *name = git_tree_entry_name(o ? o : n);
	struct tree_change *c;

	if (out->n == out->alloc) {
		out->alloc = out->alloc ? 2 * out->alloc : 16;
		out->v = xrealloc(out->v, out->alloc * sizeof(*out->v));
	}
	c = &out->v[out->n++];
	memset(c, 0, sizeof(*c));
	c->path = strvec_pushf(&out->paths, "%s%s", prefix, name);
	if ((c->had = o != NULL)) {
		c->old_id = *git_tree_entry_id(o);
		c->old_mode = git_tree_entry_filemode(o);
	}
	if ((c->has = n != NULL)) {
		c->new_id = *git_tree_entry_id(n);
		c->new_mode = git_tree_entry_filemode(n);
	}
}

static int is_tree(const git_tree_entry *e)
{
	return git_tree_entry_type(e) == GIT_OBJECT_TREE;
}

static int walk(struct tree_changes *out, git_repository *repo,
		const char *prefix, const git_tree *a, const git_tree *b);

/* Every file of the folder e (under prefix) as removed (old) or added */
static int whole(struct tree_changes *out, git_repository *repo,
		 const char *prefix, const git_tree_entry *e, int old)
{
	git_tree *t = NULL;
	char *sub;
	int rc;

	if ((rc = git_tree_lookup(&t, repo, git_tree_entry_id(e))) < 0)
		return rc;
	sub = xasprintf("%s%s/", prefix, git_tree_entry_name(e));
	rc = old ? walk(out, repo, sub, t, NULL)
		 : walk(out, repo, sub, NULL, t);
	free(sub);
	git_tree_free(t);
	return rc;
}

/* Entry o of the old side (NULL: none) against n of the new side, both
 * named alike */
static int pair(struct tree_changes *out, git_repository *repo,
		const char *prefix, const git_tree_entry *o,
		const git_tree_entry *n)
{
	git_tree *ta = NULL, *tb = NULL;
	char *sub;
	int rc;

	if (o && n &&
	    git_oid_equal(git_tree_entry_id(o), git_tree_entry_id(n)) &&
	    git_tree_entry_filemode(o) == git_tree_entry_filemode(n))
		return 0;
	if (o && n && is_tree(o) && is_tree(n)) {
		if ((rc = git_tree_lookup(&ta, repo, git_tree_entry_id(o))) <
			    0 ||
		    (rc = git_tree_lookup(&tb, repo, git_tree_entry_id(n))) < 0)
			goto out;
		sub = xasprintf("%s%s/", prefix, git_tree_entry_name(o));
		rc = walk(out, repo, sub, ta, tb);
		free(sub);
		goto out;
	}
	rc = 0;
	if (o && is_tree(o)) {
		if ((rc = whole(out, repo, prefix, o, 1)) < 0)
			goto out;
		o = NULL;
	}
	if (n && is_tree(n)) {
		if ((rc = whole(out, repo, prefix, n, 0)) < 0)
			goto out;
		n = NULL;
	}
	if (o || n)
		add(out, prefix, o, n);
out:
	git_tree_free(ta);
	git_tree_free(tb);
	return rc;
}

/* a or b may be NULL: an empty side */
static int walk(struct tree_changes *out, git_repository *repo,
		const char *prefix, const git_tree *a, const git_tree *b)
{
	size_t i, na = a ? git_tree_entrycount(a) : 0;
	size_t nb = b ? git_tree_entrycount(b) : 0;
	int rc;

	for (i = 0; i < na; i++) {
		const git_tree_entry *o = git_tree_entry_byindex(a, i);
		const git_tree_entry *n =
			b ? git_tree_entry_byname(b, git_tree_entry_name(o))
			  : NULL;

		if ((rc = pair(out, repo, prefix, o, n)) < 0)
			return rc;
	}
	for (i = 0; i < nb; i++) {
		const git_tree_entry *n = git_tree_entry_byindex(b, i);

		if ((!a || !git_tree_entry_byname(a, git_tree_entry_name(n))) &&
		    (rc = pair(out, repo, prefix, NULL, n)) < 0)
			return rc;
	}
	return 0;
}

int stack_tree_changes(struct tree_changes *out, git_repository *repo,
		       const git_tree *a, const git_tree *b)
{
	return walk(out, repo, "", a, b);
}

void stack_tree_changes_release(struct tree_changes *out)
{
	if (!out)
		return;
	free(out->v);
	strvec_clear(&out->paths);
	memset(out, 0, sizeof(*out));
}
