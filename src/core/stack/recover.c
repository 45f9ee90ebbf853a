/* Taking up what a kill leaves: files already written, stale locks,
 * index copies. */
#include "core/stack/recover.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/json.h"
#include "util/xalloc.h"

/* git's hint for a lock that is in the way, naming its file */
void stack_recover_lock_hint(struct error *err, const char *dir,
			     const char *path)
{
	char *lock = xasprintf("%s%s.lock", dir, path);
	struct stat st;

	if (lstat(lock, &st) == 0)
		error_hint(err,
			   "if no other git is running, a git process "
			   "crashed: remove '%s' and run it again",
			   lock);
	free(lock);
}

enum {
	FILE_OTHER,	/* neither: in the way */
	FILE_TARGET,	/* already the new tip's version (or both lack it) */
	FILE_TRUNCATED, /* a start of the new tip's version: a cut write */
};

/* The new tip's version of a blob entry e as the work tree holds it
 * (filters applied), in *out. */
static int worktree_form(git_buf *out, git_repository *repo,
			 const git_tree_entry *e, const char *path)
{
	git_blob_filter_options fo;
	git_blob *blob = NULL;
	int rc;

	git_blob_filter_options_init(&fo, GIT_BLOB_FILTER_OPTIONS_VERSION);
	fo.flags = 0;
	if ((rc = git_blob_lookup(&blob, repo, git_tree_entry_id(e))) == 0)
		rc = git_blob_filter(out, blob, path, &fo);
	git_blob_free(blob);
	return rc;
}

/* What the work-tree file path holds against tree's version of it (its
 * content as git hashes it, and its executable bit) */
static int file_state(git_repository *repo, git_tree *tree, const char *path)
{
	git_tree_entry *e = NULL;
	const char *wd = git_repository_workdir(repo);
	char *full = xasprintf("%s%s", wd ? wd : "", path);
	git_buf want = GIT_BUF_INIT;
	struct stat st;
	git_oid id;
	int has = git_tree_entry_bypath(&e, tree, path) == 0, on_disk;
	int state = FILE_OTHER;

	git_error_clear();
	on_disk = lstat(full, &st) == 0;
	if (!has || !on_disk) {
		state = !has && !on_disk ? FILE_TARGET : FILE_OTHER;
		goto out;
	}
	if (git_tree_entry_filemode(e) != GIT_FILEMODE_BLOB &&
	    git_tree_entry_filemode(e) != GIT_FILEMODE_BLOB_EXECUTABLE)
		goto out;
	if (!S_ISREG(st.st_mode))
		goto out;
	if (((st.st_mode & 0100) != 0) == (git_tree_entry_filemode(e) ==
					   GIT_FILEMODE_BLOB_EXECUTABLE) &&
	    git_repository_hashfile(&id, repo, full, GIT_OBJECT_BLOB, NULL) ==
		    0 &&
	    git_oid_equal(&id, git_tree_entry_id(e))) {
		state = FILE_TARGET;
		goto out;
	}
	/* a write cut by a kill leaves the first bytes of the new version */
	if (worktree_form(&want, repo, e, path) == 0 &&
	    (size_t)st.st_size < want.size) {
		FILE *f = fopen(full, "rb");
		char *have = xmalloc((size_t)st.st_size + 1);

		if (f &&
		    fread(have, 1, (size_t)st.st_size, f) ==
			    (size_t)st.st_size &&
		    !memcmp(have, want.ptr, (size_t)st.st_size))
			state = FILE_TRUNCATED;
		if (f)
			fclose(f);
		free(have);
	}
out:
	git_error_clear();
	git_buf_dispose(&want);
	git_tree_entry_free(e);
	free(full);
	return state;
}

/* Writes the new tip's version of a cut file whole (through a temporary
 * file renamed into place, so that a second kill cannot cut it again). */
static int finish_file(git_repository *repo, git_tree *tree, const char *path)
{
	git_tree_entry *e = NULL;
	git_buf want = GIT_BUF_INIT;
	const char *wd = git_repository_workdir(repo);
	char *full = xasprintf("%s%s", wd ? wd : "", path);
	char *tmp = xasprintf("%s.campaign-tmp", full);
	FILE *f = NULL;
	int rc = -1;

	if (git_tree_entry_bypath(&e, tree, path) < 0 ||
	    worktree_form(&want, repo, e, path) < 0 || !(f = fopen(tmp, "wb")))
		goto out;
	if (fwrite(want.ptr, 1, want.size, f) != want.size) {
		fclose(f);
		goto out;
	}
	if (fclose(f) != 0 ||
	    chmod(tmp,
		  git_tree_entry_filemode(e) == GIT_FILEMODE_BLOB_EXECUTABLE
			  ? 0755
			  : 0644) < 0 ||
	    rename(tmp, full) < 0)
		goto out;
	rc = 0;
out:
	if (rc < 0)
		unlink(tmp);
	git_error_clear();
	git_buf_dispose(&want);
	git_tree_entry_free(e);
	free(full);
	free(tmp);
	return rc;
}

/*
 * A checkout that a kill cut short leaves files already written with the
 * new tip's content (and one cut in the middle of its write) while the
 * index still holds the old one: those are not in the way, they are done
 * (the cut one is written whole). Their index entries are brought to the
 * new tip (with the files' stat data), and they leave paths, so that the
 * checkout takes up only what is left.
 */
int stack_recover_done_paths(struct strvec *paths, git_repository *repo,
			     git_commit *commit, git_index *index)
{
	struct strvec left = STRVEC_INIT;
	git_tree *tree = NULL;
	size_t i, taken = 0;
	int rc;

	if ((rc = git_commit_tree(&tree, commit)) < 0)
		return rc;
	for (i = 0; i < paths->nr; i++) {
		const char *path = paths->v[i];
		git_tree_entry *e = NULL;
		int state = file_state(repo, tree, path);

		if (state == FILE_TRUNCATED && finish_file(repo, tree, path))
			state = FILE_OTHER;
		if (state == FILE_OTHER) {
			strvec_push(&left, path);
			continue;
		}
		if (git_tree_entry_bypath(&e, tree, path) == 0)
			rc = git_index_add_bypath(index, path);
		else
			rc = git_index_remove_bypath(index, path);
		git_tree_entry_free(e);
		git_error_clear();
		if (rc < 0)
			strvec_push(&left, path);
		else
			taken++;
	}
	rc = taken ? git_index_write(index) : 0;
	if (rc == 0) {
		strvec_clear(paths);
		*paths = left;
		memset(&left, 0, sizeof(left));
	}
	strvec_clear(&left);
	git_tree_free(tree);
	return rc;
}

/* 1 when the work-tree entry at path, which index does not track, is in
 * the way of tree's version */
static int untracked_in_way(git_repository *repo, git_tree *tree,
			    git_index *index, const char *path)
{
	const char *wd = git_repository_workdir(repo);
	char *full = xasprintf("%s%s", wd ? wd : "", path);
	struct stat st;
	int ignored = 0, in_way = 0;

	if (lstat(full, &st) == 0 && !git_index_get_bypath(index, path, 0) &&
	    (git_ignore_path_is_ignored(&ignored, repo, path) < 0 || !ignored))
		in_way = S_ISDIR(st.st_mode) ||
			 file_state(repo, tree, path) != FILE_TARGET;
	git_error_clear();
	free(full);
	return in_way;
}

int stack_recover_untracked_in_way(struct strvec *out, git_repository *repo,
				   git_commit *commit, git_index *index)
{
	git_tree *tree = NULL;
	git_diff *diff = NULL;
	size_t i, n;
	int rc;

	if (git_repository_is_bare(repo))
		return 0;
	if ((rc = git_commit_tree(&tree, commit)) < 0 ||
	    (rc = git_diff_tree_to_index(&diff, repo, tree, index, NULL)) < 0)
		goto out;
	n = git_diff_num_deltas(diff);
	for (i = 0; i < n; i++) {
		const git_diff_delta *d = git_diff_get_delta(diff, i);
		const char *path = d->old_file.path;
		char *prefix = xstrdup(path), *slash;

		/* the tree has it, the index does not */
		if (d->status != GIT_DELTA_DELETED) {
			free(prefix);
			continue;
		}
		/* a file where a folder on its way is, else the path */
		for (slash = strchr(prefix, '/'); slash;
		     slash = strchr(slash + 1, '/')) {
			struct stat st;
			char *full;

			*slash = 0;
			full = xasprintf("%s%s", git_repository_workdir(repo),
					 prefix);
			if (lstat(full, &st) == 0 && !S_ISDIR(st.st_mode) &&
			    untracked_in_way(repo, tree, index, prefix)) {
				free(full);
				break;
			}
			free(full);
			*slash = '/';
		}
		if (slash || untracked_in_way(repo, tree, index, path))
			strvec_push(out, prefix);
		free(prefix);
	}
out:
	git_diff_free(diff);
	git_tree_free(tree);
	return rc;
}

/* path.lock removed when it is there and was made since op started (its
 * process is gone: stack_op_unfinished refuses a live one), named in
 * removed */
static void drop_lock(struct strvec *removed, const struct stack_op *op,
		      const char *dir, const char *path)
{
	char *lock = xasprintf("%s%s.lock", dir, path);
	struct stat st;

	if (lstat(lock, &st) == 0 && S_ISREG(st.st_mode) &&
	    (long long)st.st_mtime + 1 >= op->started && unlink(lock) == 0)
		strvec_push_owned(removed,
				  xasprintf("removed '%s', left by the "
					    "killed %s #%lld",
					    lock, op->kind, op->id));
	free(lock);
}

int stack_op_drop_stale_locks(struct strvec *removed, struct stack_op *op,
			      struct ctx *ctx)
{
	const char *git_dir, *common;
	git_repository *repo;
	const cJSON *e, *refs;
	size_t i;
	int rc;

	if ((rc = ctx_repo(&repo, ctx, 1)) < 0)
		return rc;
	if (!op->started)
		return 0;
	git_dir = git_repository_path(repo);
	common = git_repository_commondir(repo);
	for (i = 0; i < op->n; i++) {
		char *ref = xasprintf("refs/heads/%s", op->b[i].name);

		drop_lock(removed, op, common, ref);
		free(ref);
		if (op->name) {
			ref = xasprintf("refs/campaign/backup/%s/%s", op->name,
					op->b[i].name);
			drop_lock(removed, op, common, ref);
			free(ref);
		}
	}
	refs = op->apply ? cJSON_GetObjectItemCaseSensitive(op->apply, "refs")
			 : NULL;
	cJSON_ArrayForEach(e, refs) {
		const char *ref = json_get_str(e, "ref");

		if (ref && strncmp(ref, "refs/heads/", 11))
			drop_lock(removed, op, common, ref);
	}
	drop_lock(removed, op, common, "refs/notes/campaign");
	drop_lock(removed, op, common, "packed-refs");
	drop_lock(removed, op, common, "config");
	drop_lock(removed, op, git_dir, "index");
	drop_lock(removed, op, git_dir, "HEAD");
	return 0;
}

/* The index copy of operation id, whose name the lost plan held
 * ("campaign-STAMP-ID.index" in the git dir), removed. */
void stack_recover_drop_index_copies(git_repository *repo, long long id)
{
	char *suffix = xasprintf("-%lld.index", id);
	size_t n = strlen(suffix);
	DIR *d = opendir(git_repository_path(repo));
	struct dirent *e;

	while (d && (e = readdir(d))) {
		size_t k = strlen(e->d_name);

		/* the copy, or its lock that a kill in the copy left */
		if (k > 5 && !strcmp(e->d_name + k - 5, ".lock"))
			k -= 5;
		if (!strncmp(e->d_name, "campaign-", 9) && k > n + 9 &&
		    !strncmp(e->d_name + k - n, suffix, n)) {
			char *path = xasprintf(
				"%s%s", git_repository_path(repo), e->d_name);

			unlink(path);
			free(path);
		}
	}
	if (d)
		closedir(d);
	free(suffix);
}
