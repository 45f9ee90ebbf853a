/* One interface to a repository's refs over two backends, as git's struct
 * ref_storage_be and libgit2's refdb: the files backend (io/gitlite.h),
 * which the hook binary and the commands that never start libgit2 read
 * with, and libgit2's (io/repo.h) for the commands that hold a
 * repository. */
#ifndef GCAMP_REFS_H
#define GCAMP_REFS_H

#include "util/error.h"

/* An object id as 40 hexadecimal digits and a NUL */
#define REFS_HEX_SIZE 41

/* What a backend implements; the functions below state the contracts. */
struct refs_backend {
	const char *name; /* "files", "libgit2" */
	int (*resolve)(char out[REFS_HEX_SIZE], void *store,
		       const char *refname);
	int (*head_branch)(char **out, void *store, struct error *err);
	int (*for_each_prefix)(void *store, const char *prefix,
			       int (*fn)(const char *refname, const char *oid,
					 void *data),
			       void *data);
	/* NULL: refs_is_ancestor answers GCAMP_EFATAL */
	int (*is_ancestor)(void *store, const char *ancestor,
			   const char *descendant);
};

/* A backend and its store; made by gitlite_refs() or repo_refs(), it
 * borrows the store, which must outlive it, and needs no release. */
struct refs {
	const struct refs_backend *be;
	void *store;
};

/* The commit refname ("HEAD", "refs/heads/x") points at, through symbolic
 * refs, as 40 hexadecimal digits in out. 0, or GCAMP_ENOTFOUND when it
 * does not resolve (nothing recorded: a missing ref is an answer). */
int refs_resolve(char out[REFS_HEX_SIZE], const struct refs *r,
		 const char *refname);

/* The checked-out branch ("main" for refs/heads/main, also when unborn) in
 * *out, or NULL when HEAD is detached. The caller frees *out. GCAMP_EFATAL
 * (in err) when HEAD cannot be read. */
int refs_head_branch(char **out, const struct refs *r, struct error *err);

/* The commit branch NAME points at: refs/heads/NAME, else (when remote is
 * not NULL) refs/remotes/REMOTE/NAME. 0, or GCAMP_ENOTFOUND when neither
 * resolves; records no error. */
int refs_branch_tip(char out[REFS_HEX_SIZE], const struct refs *r,
		    const char *remote, const char *name);

/* Calls fn(refname, oid, data) for each ref whose name starts with prefix
 * (such as "refs/campaign/stash/") and that resolves to an object, in the
 * order of their names; symbolic refs are left out. A non-zero return from
 * fn stops the walk and is returned; a negative GCAMP_E* code when the
 * refs cannot be listed. */
int refs_for_each_prefix(const struct refs *r, const char *prefix,
			 int (*fn)(const char *refname, const char *oid,
				   void *data),
			 void *data);

/* 1 when commit ancestor (40 hexadecimal digits) is descendant or one of
 * its ancestors, as `git merge-base --is-ancestor` answers; 0 when not; a
 * negative GCAMP_E* code when it cannot be told (an object is missing,
 * the backend cannot walk commits). Records no error. */
int refs_is_ancestor(const struct refs *r, const char *ancestor,
		     const char *descendant);

#endif
