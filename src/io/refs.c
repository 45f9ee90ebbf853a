/* The ref interface's dispatch to its backend, and what is built on the
 * backends' primitives alone. */
#include "io/refs.h"

#include <stdlib.h>
#include <strings.h>

#include "util/xalloc.h"

int refs_resolve(char out[REFS_HEX_SIZE], const struct refs *r,
		 const char *refname)
{
	return r->be->resolve(out, r->store, refname);
}

int refs_head_branch(char **out, const struct refs *r, struct error *err)
{
	return r->be->head_branch(out, r->store, err);
}

int refs_branch_tip(char out[REFS_HEX_SIZE], const struct refs *r,
		    const char *remote, const char *name)
{
	char *ref = xasprintf("refs/heads/%s", name);
	int rc = refs_resolve(out, r, ref);

	free(ref);
	if (rc < 0 && remote) {
		ref = xasprintf("refs/remotes/%s/%s", remote, name);
		rc = refs_resolve(out, r, ref);
		free(ref);
	}
	return rc;
}

int refs_for_each_prefix(const struct refs *r, const char *prefix,
			 int (*fn)(const char *refname, const char *oid,
				   void *data),
			 void *data)
{
	return r->be->for_each_prefix(r->store, prefix, fn, data);
}

int refs_is_ancestor(const struct refs *r, const char *ancestor,
		     const char *descendant)
{
	if (!strcasecmp(ancestor, descendant))
		return 1;
	if (!r->be->is_ancestor)
		return GCAMP_EFATAL;
	return r->be->is_ancestor(r->store, ancestor, descendant);
}
