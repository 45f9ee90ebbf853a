/* The repository adapter: opening with git's environment rules, and the one
 * place libgit2's errors are translated. */
#ifndef GCAMP_REPO_H
#define GCAMP_REPO_H

#include <git2.h>

#include "io/refs.h"
#include "util/error.h"

/* Initialises libgit2 once, for this process: the first call to open a
 * repository or write a config file makes it, so that a command that
 * reads only through gitlite never pays for it. repo_lib_shutdown() at
 * exit undoes it when it was made. */
void repo_lib_init(void);
void repo_lib_shutdown(void);

/* Opens the repository the way git would for this process: GIT_DIR,
 * GIT_WORK_TREE, GIT_CEILING_DIRECTORIES and the current directory (so
 * `git -C`, `--git-dir`, subdirectories and linked worktrees work). Outside
 * a repository: GCAMP_ENOREPO. The caller frees *out with
 * git_repository_free(). */
int repo_open(git_repository **out, struct error *err);

/* Records that there is no repository here; GCAMP_ENOREPO. */
int error_no_repo(struct error *err);

/* Records libgit2's last error as "WHAT: message" (a NULL last error, which
 * libgit2 1.5 allows, reads as the return code). Returns GCAMP_EFATAL, or
 * GCAMP_ENOTFOUND when rc is GIT_ENOTFOUND. */
int error_git(struct error *err, int rc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* The libgit2 backend of io/refs.h over repo, in *out: it borrows repo,
 * which must outlive it. */
void repo_refs(struct refs *out, git_repository *repo);

/* Refuses (GCAMP_EFATAL, one line and a hint) a repository in the middle
 * of a rebase, merge, cherry-pick, revert, bisect or `git am` of git's
 * own; 0 when none is under way. */
int repo_check_state(git_repository *repo, struct error *err);

/*
 * The tree index stands for, from the cache-tree extension of the index
 * file that libgit2 read (io/indexfile.h), in *out: 0 when git kept it
 * whole and the index has no conflict and no intent-to-add entry;
 * GCAMP_ENOTFOUND when it cannot be told so (the caller compares the
 * entries). Reads no tree. Records no error.
 */
int repo_index_tree(git_oid *out, git_index *index);

/*
 * "Are there local changes?": 1 when the index or the work tree differs
 * from HEAD for a tracked file (untracked files and submodules do not
 * count, renames are not looked for), 0 when clean, a negative code (in
 * err) when HEAD, the index or the work tree cannot be read (an unborn
 * HEAD among them). When every file still has the stat data the index
 * recorded, the work tree is taken as clean without reading a file. *paths
 * (may be NULL) gets up to 5 of the paths, quoted and space-separated
 * (caller frees; NULL when clean).
 */
int repo_worktree_dirty(git_repository *repo, char **paths, struct error *err);

/* The other work tree that has branch checked out, in *out (caller frees):
 * its path, "the main work tree", or the worktree's name when its gitdir
 * file cannot be read; NULL when no other work tree has it. Each HEAD is
 * read through the files backend of io/refs.h; a branch that a work tree
 * is rebasing or bisecting (rebase-merge/head-name, rebase-apply/head-name,
 * BISECT_START) counts as checked out there, as git counts it. */
void repo_branch_elsewhere(char **out, git_repository *repo,
			   const char *branch);

struct cJSON;
/* The JSON string of a commit id (a new item: the caller or its parent
 * owns it); and an id read back from one (GCAMP_EFATAL when j is not a
 * string holding a full hex id). */
struct cJSON *repo_oid_json(const git_oid *id);
int repo_oid_from_json(git_oid *out, const struct cJSON *j);

/* Writes the files of tree T at the paths where they are missing, as a
 * checkout against an empty baseline: nothing else in the working tree is
 * touched (a stash's untracked files). A libgit2 error code. */
int repo_write_missing(git_repository *repo, git_tree *t);

#endif
