/* stash save: the stash commit made, journalled, named, and only then the
 * working tree reset; a save killed while it resets is finished by running
 * it again (the journal in the work tree's git folder says which stash). */
#include "core/stash/stash.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/stash/journal.h"
#include "io/ownlock.h"
#include "io/repo.h"
#include "io/signature.h"
#include "util/buf.h"
#include "util/strvec.h"
#include "util/xalloc.h"

static int head_commit(git_commit **out, char **out_branch, struct ctx *ctx,
		       git_repository *repo)
{
	git_reference *head = NULL;
	int rc = git_repository_head(&head, repo);

	if (rc == GIT_EUNBORNBRANCH || rc == GIT_ENOTFOUND)
		return error_set(&ctx->err, GCAMP_EREFUSED,
				 "cannot stash on a branch with no commit yet");
	if (rc < 0)
		return error_git(&ctx->err, rc, "cannot read HEAD");
	*out_branch = xstrdup(git_reference_is_branch(head)
				      ? git_reference_shorthand(head)
				      : "(no branch)");
	rc = git_reference_peel((git_object **)out, head, GIT_OBJECT_COMMIT);
	git_reference_free(head);
	if (rc < 0) {
		free(*out_branch);
		*out_branch = NULL;
		return error_git(&ctx->err, rc, "cannot read HEAD");
	}
	return 0;
}

/* Adds the working-tree file path to idx as a blob, with git's mode */
static int add_workdir_file(git_index *idx, git_repository *repo,
			    const char *path)
{
	git_index_entry e;
	struct stat st;
	char *full = xasprintf("%s%s", git_repository_workdir(repo), path);
	int rc;

	memset(&e, 0, sizeof(e));
	if (lstat(full, &st) < 0) {
		free(full);
		return git_index_remove(idx, path, 0) < 0 ? -1 : 0;
	}
	free(full);
	if ((rc = git_blob_create_from_workdir(&e.id, repo, path)) < 0)
		return rc;
	e.path = path;
	e.mode = S_ISLNK(st.st_mode)   ? GIT_FILEMODE_LINK
		 : (st.st_mode & 0111) ? GIT_FILEMODE_BLOB_EXECUTABLE
				       : GIT_FILEMODE_BLOB;
	e.file_size = (uint32_t)st.st_size;
	return git_index_add(idx, &e);
}

/* The trees `git stash` records: the working tree of tracked files (the
 * index with every unstaged change applied) and the untracked files. */
static int stash_trees(git_oid *w_tree, git_oid *u_tree, int *has_changes,
		       git_repository *repo, const git_oid *i_tree,
		       unsigned flags)
{
	git_status_options so;
	git_status_list *st = NULL;
	git_index *w = NULL, *u = NULL;
	git_tree *t = NULL;
	size_t i, n;
	int rc, untracked = 0;

	*has_changes = 0;
	git_status_options_init(&so, GIT_STATUS_OPTIONS_VERSION);
	so.show = GIT_STATUS_SHOW_INDEX_AND_WORKDIR;
	so.flags = GIT_STATUS_OPT_EXCLUDE_SUBMODULES;
	if (flags & STASH_INCLUDE_UNTRACKED)
		so.flags |= GIT_STATUS_OPT_INCLUDE_UNTRACKED |
			    GIT_STATUS_OPT_RECURSE_UNTRACKED_DIRS;
	if ((rc = git_status_list_new(&st, repo, &so)) < 0 ||
	    (rc = git_tree_lookup(&t, repo, i_tree)) < 0 ||
	    (rc = git_index_new(&w)) < 0 || (rc = git_index_new(&u)) < 0 ||
	    (rc = git_index_read_tree(w, t)) < 0)
		goto out;
	n = git_status_list_entrycount(st);
	for (i = 0; i < n; i++) {
		const git_status_entry *e = git_status_byindex(st, i);
		const git_diff_delta *d = e->index_to_workdir;

		if (e->status &
		    (GIT_STATUS_INDEX_NEW | GIT_STATUS_INDEX_MODIFIED |
		     GIT_STATUS_INDEX_DELETED | GIT_STATUS_INDEX_RENAMED |
		     GIT_STATUS_INDEX_TYPECHANGE))
			*has_changes = 1;
		if (!d)
			continue;
		if (e->status & GIT_STATUS_WT_NEW) {
			rc = add_workdir_file(u, repo, d->new_file.path);
			untracked = 1;
		} else if (e->status & GIT_STATUS_WT_DELETED) {
			rc = git_index_remove(w, d->old_file.path, 0);
		} else if (e->status & (GIT_STATUS_WT_MODIFIED |
					GIT_STATUS_WT_TYPECHANGE)) {
			rc = add_workdir_file(w, repo, d->new_file.path);
		} else {
			continue;
		}
		if (rc < 0)
			goto out;
		*has_changes = 1;
	}
	if ((rc = git_index_write_tree_to(w_tree, w, repo)) < 0)
		goto out;
	if (untracked)
		rc = git_index_write_tree_to(u_tree, u, repo);
	else
		memset(u_tree, 0, sizeof(*u_tree));
out:
	git_tree_free(t);
	git_index_free(w);
	git_index_free(u);
	git_status_list_free(st);
	return rc;
}

int stash_worktree_tree(git_oid *out, struct ctx *ctx)
{
	git_repository *repo;
	git_index *index = NULL;
	git_oid i_tree, u_tree;
	int rc, changes;

	if ((rc = ctx_repo(&repo, ctx, 1)) < 0)
		return rc;
	if ((rc = git_repository_index(&index, repo)) < 0 ||
	    (rc = git_index_write_tree(&i_tree, index)) < 0 ||
	    (rc = stash_trees(out, &u_tree, &changes, repo, &i_tree, 0)) < 0)
		rc = error_git(&ctx->err, rc,
			       "cannot read the working tree's state");
	git_index_free(index);
	return rc;
}

static int make_commit(git_oid *out, git_repository *repo,
		       const git_signature *sig, const char *msg,
		       const git_oid *tree_id, const git_commit **parents,
		       size_t n)
{
	git_tree *tree = NULL;
	int rc = git_tree_lookup(&tree, repo, tree_id);

	if (!rc)
		rc = git_commit_create(out, repo, NULL, sig, sig, NULL, msg,
				       tree, n, parents);
	git_tree_free(tree);
	return rc;
}

/* Removes the stashed untracked files (and the folders they leave empty) */
static int remove_untracked(git_repository *repo, const git_oid *u_tree)
{
	git_tree *t = NULL;
	git_index *idx = NULL;
	size_t i, n;
	int rc;

	if ((rc = git_tree_lookup(&t, repo, u_tree)) < 0 ||
	    (rc = git_index_new(&idx)) < 0 ||
	    (rc = git_index_read_tree(idx, t)))
		goto out;
	n = git_index_entrycount(idx);
	for (i = 0; i < n; i++) {
		const git_index_entry *e = git_index_get_byindex(idx, i);
		char *full = xasprintf("%s%s", git_repository_workdir(repo),
				       e->path);
		char *slash;

		unlink(full);
		while ((slash = strrchr(full, '/')) &&
		       (size_t)(slash - full) >
			       strlen(git_repository_workdir(repo))) {
			*slash = '\0';
			if (rmdir(full) < 0)
				break;
		}
		free(full);
	}
out:
	git_index_free(idx);
	git_tree_free(t);
	return rc;
}

/* Waits up to 5 s while another process holds the index's lock: the
 * reset writes files first and the index last, so it must not start
 * under a lock it cannot take */
static void wait_index_lock(git_repository *repo)
{
	struct timespec nap = {0, 50 * 1000 * 1000};
	char *lock = xasprintf("%sindex.lock", git_repository_path(repo));
	struct stat st;
	int i;

	for (i = 0; i < 100 && !lstat(lock, &st); i++)
		nanosleep(&nap, NULL);
	free(lock);
}

/* Unlinks the files the stash added to the tracked ones (in w, not in
 * target): a reset the index went first in leaves them untracked */
static int remove_added(git_repository *repo, git_tree *target, git_tree *w)
{
	git_diff *diff = NULL;
	size_t i, n;
	int rc;

	if ((rc = git_diff_tree_to_tree(&diff, repo, target, w, NULL)) < 0)
		return rc;
	n = git_diff_num_deltas(diff);
	for (i = 0; i < n; i++) {
		const git_diff_delta *d = git_diff_get_delta(diff, i);
		char *full;

		if (d->status != GIT_DELTA_ADDED)
			continue;
		full = xasprintf("%s%s", git_repository_workdir(repo),
				 d->new_file.path);
		unlink(full);
		free(full);
	}
	git_diff_free(diff);
	return 0;
}

/* The reset of a save: the working tree and the index to target, as
 * `git reset --hard` does but without moving HEAD (whose lock a live git
 * may hold), then the stashed untracked files removed */
static int reset_to(git_repository *repo, const git_oid *target_id,
		    const git_oid *w_id, const git_oid *u_tree)
{
	git_checkout_options co;
	git_tree *target = NULL, *w = NULL;
	git_commit *stash = NULL;
	git_index *index = NULL;
	int rc;

	wait_index_lock(repo);
	git_checkout_options_init(&co, GIT_CHECKOUT_OPTIONS_VERSION);
	co.checkout_strategy = GIT_CHECKOUT_FORCE;
	if ((rc = git_tree_lookup(&target, repo, target_id)) < 0 ||
	    (rc = git_commit_lookup(&stash, repo, w_id)) < 0 ||
	    (rc = git_commit_tree(&w, stash)) < 0 ||
	    (rc = git_checkout_tree(repo, (git_object *)target, &co)) < 0 ||
	    (rc = git_repository_index(&index, repo)) < 0 ||
	    (rc = git_index_read_tree(index, target)) < 0 ||
	    (rc = git_index_write(index)) < 0 ||
	    (rc = remove_added(repo, target, w)) < 0)
		goto out;
	if (u_tree && !git_oid_is_zero(u_tree))
		rc = remove_untracked(repo, u_tree);
out:
	git_index_free(index);
	git_tree_free(w);
	git_tree_free(target);
	git_commit_free(stash);
	return rc;
}

/* 1 when the working file at path is what a killed reset leaves there: the
 * content of tree a (the stash) or b (the target), or the start of one,
 * or nothing where one of them has no file */
static int left_by_reset(git_repository *repo, const char *path, git_tree *a,
			 git_tree *b)
{
	git_tree *trees[2] = {a, b};
	git_tree_entry *e = NULL;
	int i, ok = 0;

	for (i = 0; i < 2 && !ok; i++) {
		if (!trees[i])
			continue;
		if (git_tree_entry_bypath(&e, trees[i], path) < 0) {
			char *full = xasprintf(
				"%s%s", git_repository_workdir(repo), path);
			struct stat st;

			ok = lstat(full, &st) < 0;
			free(full);
			git_error_clear();
			continue;
		}
		ok = stash_path_holds(repo, path, git_tree_entry_id(e), 1);
		git_tree_entry_free(e);
		e = NULL;
	}
	return ok;
}

/* Paths whose working file holds something a killed save cannot have left
 * (a change made since): the stash's tracked changes (w), its untracked
 * files (u, may be NULL) or the target's content are all it writes */
static int find_changed_since(struct strvec *out, git_repository *repo,
			      git_tree *w, git_tree *u, git_tree *target)
{
	git_status_options so;
	git_status_list *st = NULL;
	size_t i, n;
	int rc;

	git_status_options_init(&so, GIT_STATUS_OPTIONS_VERSION);
	so.show = GIT_STATUS_SHOW_WORKDIR_ONLY;
	so.flags = GIT_STATUS_OPT_EXCLUDE_SUBMODULES;
	if (u)
		so.flags |= GIT_STATUS_OPT_INCLUDE_UNTRACKED |
			    GIT_STATUS_OPT_RECURSE_UNTRACKED_DIRS;
	if ((rc = git_status_list_new(&st, repo, &so)) < 0)
		return rc;
	n = git_status_list_entrycount(st);
	for (i = 0; i < n; i++) {
		const git_status_entry *e = git_status_byindex(st, i);
		const char *path;

		if (!e->index_to_workdir)
			continue;
		path = e->index_to_workdir->new_file.path;
		if (e->status & GIT_STATUS_WT_NEW) {
			git_tree_entry *te = NULL;
			int ours, in_w;

			/* an untracked file the save does not touch stays */
			in_w = !git_tree_entry_bypath(&te, w, path);
			git_tree_entry_free(te);
			te = NULL;
			ours = u && !git_tree_entry_bypath(&te, u, path);
			git_error_clear();
			if (ours &&
			    stash_path_holds(repo, path, git_tree_entry_id(te),
					     1)) {
				git_tree_entry_free(te);
				continue;
			}
			git_tree_entry_free(te);
			if (!ours && !in_w)
				continue;
			if (!ours && left_by_reset(repo, path, w, target))
				continue;
		} else if (left_by_reset(repo, path, w, target)) {
			continue;
		}
		strvec_push(out, path);
	}
	git_status_list_free(st);
	return 0;
}

static int journal_path(char **out, git_repository *repo)
{
	*out = xasprintf("%s" STASH_JOURNAL_SAVE, git_repository_path(repo));
	return 0;
}

/* 1 when refs/campaign/stash/NAME points at hex */
static int names(git_repository *repo, const char *name, const char *hex)
{
	char *refname = xasprintf("%s%s", STASH_REF_PREFIX, name);
	git_oid id;
	char got[GIT_OID_HEXSZ + 1] = "";

	if (!git_reference_name_to_id(&id, repo, refname))
		git_oid_tostr(got, sizeof(got), &id);
	git_error_clear();
	free(refname);
	return !strcmp(got, hex);
}

/* Takes the guard of stash saves: one at a time, and the locks a killed
 * one left (on the refs of refname or of the stash the journal names, or
 * on the index) are ours to remove */
static int save_guard(struct ownlock **out, struct ctx *ctx,
		      git_repository *repo, const char *refname,
		      const char *journal)
{
	const char *common = git_repository_commondir(repo);
	char *dir = xasprintf("%scampaign", common);
	char *locks[6] = {NULL, NULL, NULL, NULL, NULL, NULL};
	struct stash_journal j;
	int rc, i;

	locks[0] = xasprintf("%s%s.lock", common, refname);
	locks[1] = xasprintf("%slogs/%s.lock", common, refname);
	locks[2] = xasprintf("%sindex.lock", git_repository_path(repo));
	if (!stash_journal_read(&j, journal) && *j.name) {
		locks[3] = xasprintf("%s%s%s.lock", common, STASH_REF_PREFIX,
				     j.name);
		locks[4] = xasprintf("%slogs/%s%s.lock", common,
				     STASH_REF_PREFIX, j.name);
	}
	stash_journal_release(&j);
	rc = ownlock_acquire(out, NULL, dir, "stash-save",
			     (const char *const *)locks, &ctx->err);
	for (i = 0; i < 5; i++)
		free(locks[i]);
	free(dir);
	return rc;
}

/* Finishes the save journal j names: the stash exists, the reset was cut
 * off. Refuses (nothing written) when a path holds a change made since. */
static int finish_save(git_oid *out, struct ctx *ctx, git_repository *repo,
		       const struct stash_journal *j, const char *journal)
{
	git_commit *stash = NULL, *u_commit = NULL;
	git_tree *w = NULL, *u = NULL, *target = NULL;
	struct strvec changed = STRVEC_INIT;
	struct buf list = BUF_INIT;
	git_oid id, target_id, u_tree;
	size_t i;
	int rc;

	memset(&u_tree, 0, sizeof(u_tree));
	if ((rc = git_oid_fromstr(&id, j->id)) < 0 ||
	    (rc = git_oid_fromstr(&target_id, j->target)) < 0 ||
	    (rc = git_commit_lookup(&stash, repo, &id)) < 0 ||
	    (rc = git_commit_tree(&w, stash)) < 0 ||
	    (rc = git_tree_lookup(&target, repo, &target_id)) < 0)
		goto git_fail;
	if (git_commit_parentcount(stash) == 3) {
		if ((rc = git_commit_parent(&u_commit, stash, 2)) < 0 ||
		    (rc = git_commit_tree(&u, u_commit)) < 0)
			goto git_fail;
		git_oid_cpy(&u_tree, git_tree_id(u));
	}
	if ((rc = find_changed_since(&changed, repo, w, u, target)) < 0)
		goto git_fail;
	if (changed.nr) {
		for (i = 0; i < changed.nr && i < 5; i++)
			buf_addf(&list, "%s'%s'", i ? ", " : "", changed.v[i]);
		if (changed.nr > 5)
			buf_addf(&list, " and %zu more", changed.nr - 5);
		rc = error_set(&ctx->err, GCAMP_EREFUSED,
			       "cannot finish saving stash '%s': %s changed "
			       "since it was stopped",
			       j->name, list.ptr);
		error_hint(&ctx->err,
			   "the stash holds the saved changes; move those "
			   "changes away and run it again, or 'git campaign "
			   "stash pop %s' puts the stash back",
			   j->name);
		goto out;
	}
	if ((rc = reset_to(repo, &target_id, &id, &u_tree)) < 0) {
		rc = error_git(&ctx->err, rc,
			       "saved stash '%s' but cannot reset the working "
			       "tree",
			       j->name);
		goto out;
	}
	unlink(journal);
	if (out)
		git_oid_cpy(out, &id);
	goto out;
git_fail:
	rc = error_git(&ctx->err, rc, "cannot finish saving stash '%s'",
		       j->name);
out:
	buf_release(&list);
	strvec_clear(&changed);
	git_tree_free(target);
	git_tree_free(u);
	git_tree_free(w);
	git_commit_free(u_commit);
	git_commit_free(stash);
	return rc;
}

int stash_save_undo(int *undone, struct ctx *ctx, const char *name, int pop)
{
	git_repository *repo;
	struct stash_journal j;
	git_commit *stash = NULL, *i_commit = NULL, *u_commit = NULL;
	git_tree *w = NULL, *u = NULL, *i_tree = NULL, *target = NULL;
	git_index *index = NULL;
	git_checkout_options co;
	struct strvec changed = STRVEC_INIT;
	struct ownlock *guard = NULL;
	char *journal = NULL, *refname = NULL;
	git_oid id, target_id;
	int rc;

	*undone = 0;
	memset(&j, 0, sizeof(j));
	if ((rc = ctx_repo(&repo, ctx, 1)) < 0)
		return rc;
	journal_path(&journal, repo);
	if (stash_journal_read(&j, journal) < 0 || strcmp(j.name, name) ||
	    !j.target[0] || !names(repo, j.name, j.id))
		goto out;
	/* it undoes the killed save: that save's locks are its to remove */
	refname = xasprintf("%s%s", STASH_REF_PREFIX, name);
	if ((rc = save_guard(&guard, ctx, repo, refname, journal)) < 0)
		goto out;
	if ((rc = git_oid_fromstr(&id, j.id)) < 0 ||
	    (rc = git_oid_fromstr(&target_id, j.target)) < 0 ||
	    (rc = git_commit_lookup(&stash, repo, &id)) < 0 ||
	    (rc = git_commit_tree(&w, stash)) < 0 ||
	    (rc = git_commit_parent(&i_commit, stash, 1)) < 0 ||
	    (rc = git_commit_tree(&i_tree, i_commit)) < 0 ||
	    (rc = git_tree_lookup(&target, repo, &target_id)) < 0 ||
	    (git_commit_parentcount(stash) == 3 &&
	     ((rc = git_commit_parent(&u_commit, stash, 2)) < 0 ||
	      (rc = git_commit_tree(&u, u_commit)) < 0)))
		goto git_fail;
	if ((rc = find_changed_since(&changed, repo, w, u, target)) < 0)
		goto git_fail;
	if (changed.nr) {
		rc = error_set(&ctx->err, GCAMP_EREFUSED,
			       "cannot put stash '%s' back: '%s'%s changed "
			       "since its save was stopped",
			       name, changed.v[0],
			       changed.nr > 1 ? " and more" : "");
		error_hint(&ctx->err, "move those changes away first; the "
				      "stash is kept");
		goto out;
	}
	/* every path holds the stash's content or the target's: the
	 * stash's tracked changes forced back, the index as it was */
	wait_index_lock(repo);
	git_checkout_options_init(&co, GIT_CHECKOUT_OPTIONS_VERSION);
	co.checkout_strategy =
		GIT_CHECKOUT_FORCE | GIT_CHECKOUT_DONT_UPDATE_INDEX;
	co.baseline = target;
	if ((rc = git_checkout_tree(repo, (git_object *)w, &co)) < 0 ||
	    (rc = git_repository_index(&index, repo)) < 0 ||
	    (rc = git_index_read_tree(index, i_tree)) < 0 ||
	    (rc = git_index_write(index)) < 0)
		goto git_fail;
	if (u && ((rc = remove_untracked(repo, git_tree_id(u))) < 0 ||
		  (rc = repo_write_missing(repo, u)) < 0))
		goto git_fail;
	unlink(journal);
	*undone = 1;
	if (pop)
		rc = stash_drop(NULL, ctx, name, j.id);
	goto out;
git_fail:
	rc = error_git(&ctx->err, rc, "cannot put stash '%s' back", name);
out:
	ownlock_release(guard);
	free(refname);
	strvec_clear(&changed);
	git_index_free(index);
	git_tree_free(target);
	git_tree_free(i_tree);
	git_tree_free(u);
	git_tree_free(w);
	git_commit_free(u_commit);
	git_commit_free(i_commit);
	git_commit_free(stash);
	stash_journal_release(&j);
	free(journal);
	return rc;
}

int stash_save(git_oid *out, struct ctx *ctx, const char *name, const char *msg,
	       unsigned flags)
{
	git_repository *repo;
	struct gitcfg *cfg;
	git_signature *sig = NULL;
	git_commit *head = NULL, *i_commit = NULL, *u_commit = NULL;
	git_index *index = NULL;
	git_reference *ref = NULL;
	struct ownlock *guard = NULL;
	const git_commit *parents[3];
	struct buf refname = BUF_INIT, text = BUF_INIT;
	struct stash_journal j;
	char *branch = NULL, shortid[GIT_OID_HEXSZ + 1], *journal = NULL;
	git_oid i_tree, w_tree, u_tree, i_id, w_id, u_id, target;
	int rc, changes;

	memset(&j, 0, sizeof(j));
	if ((rc = stash_ref_name(&refname, ctx, name)) < 0 ||
	    (rc = ctx_repo(&repo, ctx, 1)) < 0 ||
	    (rc = ctx_config(&cfg, ctx)) < 0)
		goto out;
	journal_path(&journal, repo);
	if ((rc = save_guard(&guard, ctx, repo, refname.ptr, journal)) < 0)
		goto out;
	if (!stash_journal_read(&j, journal)) {
		if (names(repo, j.name, j.id) && j.target[0]) {
			if (!strcmp(j.name, name)) {
				rc = finish_save(out, ctx, repo, &j, journal);
				goto out;
			}
			rc = error_set(&ctx->err, GCAMP_EREFUSED,
				       "saving stash '%s' was stopped half way",
				       j.name);
			error_hint(&ctx->err,
				   "'git campaign stash save %s' finishes it",
				   j.name);
			goto out;
		}
		/* the name was never made: nothing was reset */
		unlink(journal);
		stash_journal_release(&j);
	}
	if (!git_reference_lookup(&ref, repo, refname.ptr)) {
		rc = error_set(&ctx->err, GCAMP_EEXISTS,
			       "a stash named '%s' exists already", name);
		error_hint(&ctx->err,
			   "pick another name, or drop it with "
			   "'git campaign stash drop %s'",
			   name);
		goto out;
	}
	if ((rc = head_commit(&head, &branch, ctx, repo)) < 0)
		goto out;
	if ((rc = git_repository_index(&index, repo)) < 0) {
		rc = error_git(&ctx->err, rc, "cannot read the index");
		goto out;
	}
	if (git_index_has_conflicts(index)) {
		rc = error_set(&ctx->err, GCAMP_EREFUSED,
			       "cannot stash: the index has unmerged paths");
		error_hint(&ctx->err, "resolve them and 'git add' first");
		goto out;
	}
	if ((rc = git_index_write_tree(&i_tree, index)) < 0 ||
	    (rc = stash_trees(&w_tree, &u_tree, &changes, repo, &i_tree,
			      flags)) < 0) {
		rc = error_git(&ctx->err, rc, "cannot record the changes");
		goto out;
	}
	if (!changes) {
		rc = flags & STASH_IF_ANY
			     ? 1
			     : error_set(&ctx->err, GCAMP_EREFUSED,
					 "no local changes to save");
		goto out;
	}
	if ((rc = signature_now(&sig, cfg, SIG_COMMITTER, &ctx->err)) < 0)
		goto out;

	git_oid_tostr(shortid, 8, git_commit_id(head));
	buf_addf(&text, "index on %s: %s %s\n", branch, shortid,
		 git_commit_summary(head));
	parents[0] = head;
	if ((rc = make_commit(&i_id, repo, sig, text.ptr, &i_tree, parents,
			      1)) < 0 ||
	    (rc = git_commit_lookup(&i_commit, repo, &i_id)) < 0)
		goto git_fail;
	parents[1] = i_commit;
	if (!git_oid_is_zero(&u_tree)) {
		buf_reset(&text);
		buf_addf(&text, "untracked files on %s: %s %s\n", branch,
			 shortid, git_commit_summary(head));
		if ((rc = make_commit(&u_id, repo, sig, text.ptr, &u_tree, NULL,
				      0)) < 0 ||
		    (rc = git_commit_lookup(&u_commit, repo, &u_id)) < 0)
			goto git_fail;
		parents[2] = u_commit;
	}
	buf_reset(&text);
	if (msg)
		buf_addf(&text, "On %s: %s\n", branch, msg);
	else
		buf_addf(&text, "WIP on %s: %s %s\n", branch, shortid,
			 git_commit_summary(head));
	if ((rc = make_commit(&w_id, repo, sig, text.ptr, &w_tree, parents,
			      u_commit ? 3 : 2)) < 0)
		goto git_fail;

	/* the journal first: once the name exists, a kill anywhere in the
	 * reset is finished by running the save again */
	git_oid_cpy(&target, flags & STASH_KEEP_INDEX
				     ? &i_tree
				     : git_commit_tree_id(head));
	git_oid_tostr(j.id, sizeof(j.id), &w_id);
	git_oid_tostr(j.target, sizeof(j.target), &target);
	j.name = xstrdup(name);
	j.verb = xstrdup("save");
	if (stash_journal_write(journal, &j) < 0) {
		rc = error_set(&ctx->err, GCAMP_EFATAL, "cannot write '%s': %s",
			       journal, strerror(errno));
		goto out;
	}
	/* the changes are saved once the ref exists; only then reset */
	buf_reset(&text);
	buf_addf(&text, "campaign stash save %s", name);
	if ((rc = stash_name_ref(ctx, repo, name, &w_id, text.ptr)) < 0) {
		unlink(journal);
		goto out;
	}
	if (out)
		git_oid_cpy(out, &w_id);
	if ((rc = reset_to(repo, &target, &w_id, u_commit ? &u_tree : NULL)) <
	    0) {
		rc = error_git(&ctx->err, rc,
			       "saved stash '%s' but cannot reset the working "
			       "tree",
			       name);
		error_hint(&ctx->err,
			   "your changes are safe in the stash; run the save "
			   "again to finish it, or 'git campaign stash pop "
			   "%s' to bring them back",
			   name);
		goto out;
	}
	unlink(journal);
	goto out;
git_fail:
	rc = error_git(&ctx->err, rc, "cannot write the stash commit");
out:
	ownlock_release(guard);
	stash_journal_release(&j);
	git_reference_free(ref);
	git_index_free(index);
	git_commit_free(u_commit);
	git_commit_free(i_commit);
	git_commit_free(head);
	git_signature_free(sig);
	free(branch);
	free(journal);
	buf_release(&refname);
	buf_release(&text);
	return rc;
}
