/* Reinstating a named stash with its index: stash_apply for the working
 * tree, then the stash's staged tree merged into the index. */
#include "core/stash/reinstate.h"

#include <git2.h>
#include <string.h>

#include "core/stash/apply.h"
#include "core/stash/stash.h"
#include "io/repo.h"

/* The trees of the stash's base commit and of its index commit */
static int staged_trees(git_tree **out_base, git_tree **out_staged,
			git_repository *repo, const git_oid *stash_id)
{
	git_commit *stash = NULL, *base = NULL, *staged = NULL;
	int rc;

	*out_base = *out_staged = NULL;
	if ((rc = git_commit_lookup(&stash, repo, stash_id)) < 0 ||
	    (rc = git_commit_parent(&base, stash, 0)) < 0 ||
	    (rc = git_commit_parent(&staged, stash, 1)) < 0 ||
	    (rc = git_commit_tree(out_base, base)) < 0 ||
	    (rc = git_commit_tree(out_staged, staged)) < 0)
		goto out;
out:
	git_commit_free(staged);
	git_commit_free(base);
	git_commit_free(stash);
	return rc;
}

int stash_reinstate(struct ctx *ctx, const char *name, int pop,
		    struct strvec *conflicts)
{
	git_repository *repo;
	struct stash_info info;
	git_tree *base = NULL, *staged = NULL, *ours = NULL, *result = NULL;
	git_index *index = NULL, *merged = NULL;
	git_merge_options mo;
	char hex[GIT_OID_HEXSZ + 1];
	git_oid ours_id, merged_id;
	int rc, have_info = 0;

	if ((rc = ctx_repo(&repo, ctx, 1)) < 0 ||
	    (rc = stash_lookup(&info, ctx, name)) < 0)
		return rc;
	have_info = 1;
	/* the index before the apply: the side the staged changes go onto */
	if ((rc = staged_trees(&base, &staged, repo, &info.id)) < 0 ||
	    (rc = git_repository_index(&index, repo)) < 0 ||
	    (rc = git_index_read(index, 0)) < 0 ||
	    (rc = git_index_write_tree(&ours_id, index)) < 0 ||
	    (rc = git_tree_lookup(&ours, repo, &ours_id)) < 0) {
		rc = error_git(&ctx->err, rc, "cannot read stash '%s'", name);
		goto out;
	}
	if ((rc = stash_apply(ctx, name, 0, conflicts)) < 0)
		goto out;
	git_merge_options_init(&mo, GIT_MERGE_OPTIONS_VERSION);
	if ((rc = git_index_read(index, 0)) < 0 ||
	    (rc = git_merge_trees(&merged, repo, base, ours, staged, &mo)) <
		    0) {
		rc = error_git(&ctx->err, rc,
			       "cannot restore the index of "
			       "stash '%s'",
			       name);
		goto out;
	}
	if (git_index_has_conflicts(merged)) {
		rc = error_set(&ctx->err, GCAMP_EREFUSED,
			       "stash '%s': the working tree holds its "
			       "changes, but its staged changes conflict "
			       "with the index; the stash is kept",
			       name);
		goto out;
	}
	/* the stat data goes: the next 'git status' hashes the files again */
	if ((rc = git_index_write_tree_to(&merged_id, merged, repo)) < 0 ||
	    (rc = git_tree_lookup(&result, repo, &merged_id)) < 0 ||
	    (rc = git_index_read_tree(index, result)) < 0 ||
	    (rc = git_index_write(index)) < 0) {
		rc = error_git(&ctx->err, rc,
			       "cannot restore the index of "
			       "stash '%s'",
			       name);
		goto out;
	}
	if (pop) {
		git_oid_tostr(hex, sizeof(hex), &info.id);
		rc = stash_drop(NULL, ctx, name, hex);
	}
out:
	git_index_free(merged);
	git_index_free(index);
	git_tree_free(result);
	git_tree_free(ours);
	git_tree_free(staged);
	git_tree_free(base);
	if (have_info)
		stash_info_release(&info);
	return rc;
}
