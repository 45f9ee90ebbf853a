/* Another work tree's branch, restacked from here. */
#include "core/stack/worktrees.h"

#include <stdlib.h>
#include <string.h>

#include "core/stack/recover.h"
#include "io/repo.h"
#include "util/xalloc.h"

/* The repository of the work tree where names */
static int open_wt(git_repository **out, git_repository *repo,
		   const char *where)
{
	if (!strcmp(where, "the main work tree"))
		return git_repository_open(out, git_repository_commondir(repo));
	return git_repository_open(out, where);
}

int stack_wt_ready(char **path, char **why, git_repository *repo,
		   const char *where, const char *branch)
{
	git_repository *wt = NULL;
	git_reference *head = NULL;
	struct error err = ERROR_INIT;
	char *paths = NULL;
	int rc, ready = 0;

	*path = *why = NULL;
	if (open_wt(&wt, repo, where) < 0 || !git_repository_workdir(wt)) {
		*why = xasprintf("it is checked out in %s; restack it from "
				 "there",
				 where);
		goto out;
	}
	if (git_repository_state(wt) != GIT_REPOSITORY_STATE_NONE ||
	    git_repository_head(&head, wt) < 0 ||
	    git_reference_type(head) != GIT_REFERENCE_DIRECT ||
	    git_repository_head_detached(wt) != 0 ||
	    strcmp(git_reference_shorthand(head), branch)) {
		*why = xasprintf("%s is in the middle of git's own rebase, "
				 "merge, cherry-pick or bisect of it; finish "
				 "that there first",
				 where);
		goto out;
	}
	rc = repo_worktree_dirty(wt, &paths, &err);
	if (rc != 0) {
		*why = rc > 0 ? xasprintf("it is checked out in %s, which has "
					  "changes (%s); commit or stash "
					  "them there, then restack",
					  where, paths)
			      : xasprintf("it is checked out in %s, whose "
					  "work tree cannot be read; restack "
					  "it from there",
					  where);
		goto out;
	}
	*path = xstrdup(git_repository_workdir(wt));
	ready = 1;
out:
	git_error_clear();
	free(paths);
	git_reference_free(head);
	git_repository_free(wt);
	return ready;
}

int stack_wt_in_way(struct strvec *out, const char *path, const git_oid *target,
		    struct error *err)
{
	git_repository *wt = NULL;
	git_commit *c = NULL;
	git_index *idx = NULL;
	int rc;

	if ((rc = git_repository_open(&wt, path)) < 0 ||
	    (rc = git_commit_lookup(&c, wt, target)) < 0 ||
	    (rc = git_repository_index(&idx, wt)) < 0 ||
	    (rc = git_index_read(idx, 0)) < 0 ||
	    (rc = stack_recover_untracked_in_way(out, wt, c, idx)) < 0)
		rc = error_git(err, rc, "cannot read the work tree '%s'", path);
	git_index_free(idx);
	git_commit_free(c);
	git_repository_free(wt);
	return rc;
}

int stack_wt_checkout(const char *path, const git_oid *target,
		      struct error *err)
{
	struct strvec paths = STRVEC_INIT;
	git_checkout_options co;
	git_repository *wt = NULL;
	git_commit *c = NULL;
	git_index *idx = NULL;
	git_tree *tree = NULL;
	git_diff *diff = NULL;
	size_t i, n;
	int rc;

	git_checkout_options_init(&co, GIT_CHECKOUT_OPTIONS_VERSION);
	if ((rc = git_repository_open(&wt, path)) < 0 ||
	    (rc = git_commit_lookup(&c, wt, target)) < 0 ||
	    (rc = git_repository_index(&idx, wt)) < 0 ||
	    (rc = git_index_read(idx, 0)) < 0 ||
	    (rc = git_commit_tree(&tree, c)) < 0 ||
	    (rc = git_diff_tree_to_index(&diff, wt, tree, idx, NULL)) < 0)
		goto out;
	n = git_diff_num_deltas(diff);
	for (i = 0; i < n; i++) {
		const git_diff_delta *d = git_diff_get_delta(diff, i);

		strvec_push(&paths, d->old_file.path);
		if (strcmp(d->old_file.path, d->new_file.path))
			strvec_push(&paths, d->new_file.path);
	}
	if ((rc = stack_recover_done_paths(&paths, wt, c, idx)) < 0 ||
	    !paths.nr)
		goto out;
	/* as the work tree of the checked-out branch: only what differs */
	co.checkout_strategy =
		GIT_CHECKOUT_SAFE | GIT_CHECKOUT_DISABLE_PATHSPEC_MATCH;
	co.baseline_index = idx;
	co.paths.strings = paths.v;
	co.paths.count = paths.nr;
	rc = git_checkout_tree(wt, (git_object *)c, &co);
out:
	if (rc < 0)
		rc = error_git(err, rc, "cannot update the work tree '%s'",
			       path);
	strvec_clear(&paths);
	git_diff_free(diff);
	git_tree_free(tree);
	git_index_free(idx);
	git_commit_free(c);
	git_repository_free(wt);
	return rc;
}
