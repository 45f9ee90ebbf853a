/* The files one tree changes against another, found by walking only the
 * subtrees whose ids differ: the replay's fast path looks at these. */
#ifndef GCAMP_STACK_TREEDIFF_H
#define GCAMP_STACK_TREEDIFF_H

#include <git2.h>
#include <stddef.h>

#include "util/strvec.h"

/* One changed file: had/has say whether it is in the old/new tree. */
struct tree_change {
	const char *path; /* owned by the list's paths */
	git_oid old_id, new_id;
	git_filemode_t old_mode, new_mode;
	int had, has;
};

struct tree_changes {
	struct tree_change *v;
	size_t n, alloc;
	struct strvec paths;
};

#define TREE_CHANGES_INIT                                                      \
	{                                                                      \
		NULL, 0, 0, STRVEC_INIT                                        \
	}

/*
 * The files (blobs, links, submodule commits) that differ between trees a
 * and b, into out (which the caller releases, also on failure), in no set
 * order. A path that is a file on one side and a folder on the other
 * counts as the file removed (or added) and each file of the folder added
 * (or removed), as git diff without --find-renames reports it. Subtrees
 * with equal ids are not read. 0, or a libgit2 error code when a tree
 * cannot be read (the message left in libgit2's error).
 */
int stack_tree_changes(struct tree_changes *out, git_repository *repo,
		       const git_tree *a, const git_tree *b);

/* Frees what out holds; it may be used again. */
void stack_tree_changes_release(struct tree_changes *out);

#endif
