/* Commits read from a repository's object files without libgit2 or git
 * (loose objects and packs, deltas included), for the files backend of
 * io/refs.h: enough to tell whether one commit is an ancestor of another
 * in the hook binary and in status, which spawn no git for it. */
#ifndef GCAMP_GITOBJ_H
#define GCAMP_GITOBJ_H

/*
 * 1 when commit ancestor (40 hexadecimal digits) is descendant or one of
 * its ancestors, 0 when not, as `git merge-base --is-ancestor` answers
 * (the same walk down to the merge bases, newest commit first), read from
 * objects_dir (GIT_COMMON_DIR/objects) and its alternates. GCAMP_ENOTFOUND
 * when it cannot be told this way: an object is missing or does not
 * parse, the history is shallow or grafted, the walk passes its caps
 * (then the caller asks git, which also knows replace refs, SHA-256 and
 * every other case). Records no error.
 */
int gitobj_is_ancestor(const char *objects_dir, const char *ancestor,
		       const char *descendant);

#endif
