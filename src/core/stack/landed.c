/* Telling a landed branch offline: merged, rebase-merged, squash-merged. */
#include "core/stack/landed.h"

#include <stddef.h>

/* At most this many first-parent commits of the parent are compared. */
#define LANDED_CAP 1000

/* 1 when merging the change of tree a to tree b into tree p leaves p as
 * it is: p already holds it */
static int holds_change(git_repository *repo, git_tree *a, git_tree *b,
			git_tree *p)
{
	git_merge_options mo;
	git_index *idx = NULL;
	git_oid out;
	int held = 0;

	git_merge_options_init(&mo, GIT_MERGE_OPTIONS_VERSION);
	if (git_merge_trees(&idx, repo, a, p, b, &mo) == 0 &&
	    !git_index_has_conflicts(idx) &&
	    git_index_write_tree_to(&out, idx, repo) == 0)
		held = git_oid_equal(&out, git_tree_id(p));
	git_index_free(idx);
	return held;
}

/* The patch id of the change from tree a to tree b; -1 when unreadable */
static int tree_patchid(git_oid *out, git_repository *repo, git_tree *a,
			git_tree *b)
{
	git_diff *diff = NULL;
	int rc = -1;

	if (git_diff_tree_to_tree(&diff, repo, a, b, NULL) == 0 &&
	    git_diff_patchid(out, diff, NULL) == 0)
		rc = 0;
	git_diff_free(diff);
	return rc;
}

/* 1 when one of the first-parent commits of parent_now since its merge
 * base with tip makes the change whose patch id is pid (a squash) */
static int squashed_in(git_repository *repo, const git_oid *pid,
		       const git_oid *tip, const git_oid *parent_now)
{
	git_commit *c = NULL, *p = NULL;
	git_tree *tc = NULL, *tp = NULL;
	git_oid mb, id = *parent_now, cid;
	size_t steps;
	int found = 0;

	if (git_merge_base(&mb, repo, tip, parent_now) < 0)
		return 0;
	for (steps = 0;
	     steps < LANDED_CAP && !found && !git_oid_equal(&id, &mb);
	     steps++) {
		if (git_commit_lookup(&c, repo, &id) < 0 ||
		    git_commit_parentcount(c) == 0 ||
		    git_commit_parent(&p, c, 0) < 0)
			break;
		if (git_commit_parentcount(c) == 1 &&
		    git_commit_tree(&tc, c) == 0 &&
		    git_commit_tree(&tp, p) == 0 &&
		    tree_patchid(&cid, repo, tp, tc) == 0)
			found = git_oid_equal(&cid, pid);
		id = *git_commit_id(p);
		git_tree_free(tc);
		git_tree_free(tp);
		git_commit_free(c);
		git_commit_free(p);
		tc = tp = NULL;
		c = p = NULL;
	}
	git_commit_free(c);
	return found;
}

int stack_landed(git_repository *repo, const char *recorded,
		 const git_oid *upstream, const git_oid *tip,
		 const git_oid *parent_now)
{
	git_commit *cu = NULL, *ct = NULL, *cp = NULL;
	git_tree *tu = NULL, *tt = NULL, *tp = NULL;
	git_oid was, pid;
	int landed = 0;

	if (git_oid_equal(tip, parent_now))
		goto out;
	if (git_graph_descendant_of(repo, parent_now, tip) == 1) {
		/* merged: below the parent, with commits of its own once */
		landed = recorded && git_oid_fromstr(&was, recorded) == 0 &&
			 !git_oid_equal(&was, tip) &&
			 git_graph_descendant_of(repo, tip, &was) == 1;
		goto out;
	}
	if (git_commit_lookup(&cu, repo, upstream) < 0 ||
	    git_commit_lookup(&ct, repo, tip) < 0 ||
	    git_commit_lookup(&cp, repo, parent_now) < 0 ||
	    git_commit_tree(&tu, cu) < 0 || git_commit_tree(&tt, ct) < 0 ||
	    git_commit_tree(&tp, cp) < 0 ||
	    git_oid_equal(git_tree_id(tu), git_tree_id(tt)))
		goto out;
	landed = holds_change(repo, tu, tt, tp) ||
		 (tree_patchid(&pid, repo, tu, tt) == 0 &&
		  squashed_in(repo, &pid, tip, parent_now));
out:
	git_error_clear();
	git_tree_free(tu);
	git_tree_free(tt);
	git_tree_free(tp);
	git_commit_free(cu);
	git_commit_free(ct);
	git_commit_free(cp);
	return landed;
}
