/* libgit2 repository access and error translation. */
/* realpath is XSI */
#define _XOPEN_SOURCE 700

#include "io/repo.h"

#include <cjson/cJSON.h>
#include <dirent.h>
#include <stdarg.h>
#include <stdint.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "io/gitlite.h"
#include "io/indexfile.h"
#include "util/buf.h"
#include "util/strvec.h"
#include "util/xalloc.h"

static int lib_ready;

/* GIT_CONFIG_NOSYSTEM as git reads it, a boolean (libgit2 ignores it) */
static int no_system_config(void)
{
	static const char *const no[] = {"", "0", "false", "no", "off"};
	const char *nosys = getenv("GIT_CONFIG_NOSYSTEM");
	size_t i;

	if (!nosys)
		return 0;
	for (i = 0; i < sizeof(no) / sizeof(*no); i++)
		if (!strcasecmp(nosys, no[i]))
			return 0;
	return 1;
}

int error_no_repo(struct error *err)
{
	error_set(err, GCAMP_ENOREPO,
		  "not a git repository (or any of the parent directories)");
	error_hint(err, "run it inside a git repository, or use 'git -C DIR "
			"campaign ...'");
	return GCAMP_ENOREPO;
}

void repo_lib_init(void)
{
	if (lib_ready)
		return;
	lib_ready = 1;
	git_libgit2_init();
	if (no_system_config())
		git_libgit2_opts(GIT_OPT_SET_SEARCH_PATH,
				 GIT_CONFIG_LEVEL_SYSTEM, "/nonexistent");
}

void repo_lib_shutdown(void)
{
	if (!lib_ready)
		return;
	lib_ready = 0;
	git_libgit2_shutdown();
}

int error_git(struct error *err, int rc, const char *fmt, ...)
{
	const git_error *e = git_error_last();
	char what[512];
	va_list ap;
	int code = rc == GIT_ENOTFOUND ? GCAMP_ENOTFOUND : GCAMP_EFATAL;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (e && e->message && *e->message)
		return error_set(err, code, "%s: %s", what, e->message);
	/* libgit2 leaves no message for a failed write of an object */
	if (errno == ENOSPC)
		return error_set(err, code, "%s: no space left on device",
				 what);
	return error_set(err, code, "%s: libgit2 error %d", what, rc);
}

/*
 * libgit2 1.5 answers GIT_WORK_TREE with "unimplemented", so `git
 * --work-tree=DIR campaign` needs this: the repository from GIT_DIR (or
 * found from the current directory, within GIT_CEILING_DIRECTORIES), then
 * the work tree set by hand, as git does.
 */
/* 1 when workdir (absolute, with a final slash, or NULL) is dir */
static int same_dir(const char *workdir, const char *dir)
{
	char *real = workdir ? realpath(dir, NULL) : NULL;
	size_t n = real ? strlen(real) : 0;
	int same = real && !strncmp(workdir, real, n) &&
		   (!strcmp(workdir + n, "/") || (n == 1 && !workdir[1]));

	free(real);
	return same;
}

static int open_with_work_tree(git_repository **out, const char *wt)
{
	const char *gd = getenv("GIT_DIR");
	int rc;

	if (gd && *gd)
		rc = git_repository_open_ext(
			out, gd, GIT_REPOSITORY_OPEN_NO_SEARCH, NULL);
	else
		rc = git_repository_open_ext(out, ".", 0,
					     getenv("GIT_CEILING_DIRECTORIES"));
	if (rc < 0)
		return rc;
	/* libgit2 1.5 leaks its path buffer when asked for the work tree the
	 * repository already has, which is the usual case */
	if (same_dir(git_repository_workdir(*out), wt))
		return 0;
	rc = git_repository_set_workdir(*out, wt, 0);
	if (rc < 0) {
		git_repository_free(*out);
		*out = NULL;
	}
	return rc;
}

int repo_open(git_repository **out, struct error *err)
{
	const char *wt;
	int rc;

	*out = NULL;
	repo_lib_init();
	if ((wt = getenv("GIT_WORK_TREE")) && *wt)
		rc = open_with_work_tree(out, wt);
	else
		rc = git_repository_open_ext(
			out, NULL, GIT_REPOSITORY_OPEN_FROM_ENV, NULL);
	if (rc == GIT_ENOTFOUND)
		return error_no_repo(err);
	if (rc < 0)
		return error_git(err, rc, "cannot open the repository");
	return 0;
}

static int lg_resolve(char out[REFS_HEX_SIZE], void *store, const char *refname)
{
	git_oid id;

	if (git_reference_name_to_id(&id, store, refname) < 0) {
		git_error_clear();
		return GCAMP_ENOTFOUND;
	}
	git_oid_tostr(out, REFS_HEX_SIZE, &id);
	return 0;
}

static int lg_head_branch(char **out, void *store, struct error *err)
{
	git_reference *head = NULL;
	const char *target;
	int rc;

	*out = NULL;
	rc = git_reference_lookup(&head, store, "HEAD");
	if (rc < 0)
		return error_git(err, rc, "cannot read HEAD");
	if (git_reference_type(head) == GIT_REFERENCE_SYMBOLIC) {
		target = git_reference_symbolic_target(head);
		if (!strncmp(target, "refs/heads/", 11))
			*out = xstrdup(target + 11);
	}
	git_reference_free(head);
	return 0;
}

/* libgit2 yields loose refs before packed ones; the interface promises the
 * order of names, so "NAME OID" lines are gathered and sorted first (no
 * ref name holds a space or a byte below it) */
static int lg_for_each_prefix(void *store, const char *prefix,
			      int (*fn)(const char *refname, const char *oid,
					void *data),
			      void *data)
{
	git_reference_iterator *it = NULL;
	git_reference *ref = NULL;
	struct strvec names = STRVEC_INIT;
	char *glob = xasprintf("%s*", prefix), hex[REFS_HEX_SIZE];
	size_t i, n = strlen(prefix);
	int rc;

	if (git_reference_iterator_glob_new(&it, store, glob) < 0) {
		rc = GCAMP_EFATAL;
		goto out;
	}
	while (!(rc = git_reference_next(&ref, it))) {
		const char *name = git_reference_name(ref);

		/* a glob's specials in prefix would match more */
		if (git_reference_type(ref) == GIT_REFERENCE_DIRECT &&
		    !strncmp(name, prefix, n)) {
			git_oid_tostr(hex, sizeof(hex),
				      git_reference_target(ref));
			strvec_push_owned(&names,
					  xasprintf("%s %s", name, hex));
		}
		git_reference_free(ref);
		ref = NULL;
	}
	if (rc != GIT_ITEROVER) {
		rc = GCAMP_EFATAL;
		goto out;
	}
	strvec_sort(&names);
	for (i = 0, rc = 0; i < names.nr && !rc; i++) {
		char *sp = strrchr(names.v[i], ' ');

		*sp = '\0';
		rc = fn(names.v[i], sp + 1, data);
	}
out:
	git_error_clear();
	git_reference_iterator_free(it);
	strvec_clear(&names);
	free(glob);
	return rc;
}

/* A short first-parent walk answers for the usual stacked branch (linear,
 * a few commits above its parent) without the merge-base walk. */
static int lg_is_ancestor(void *store, const char *ancestor,
			  const char *descendant)
{
	git_commit *c = NULL;
	git_oid a, d, id;
	size_t n;
	int rc;

	if (git_oid_fromstr(&a, ancestor) < 0 ||
	    git_oid_fromstr(&d, descendant) < 0)
		return GCAMP_EFATAL;
	for (id = d, n = 0; n < 64; n++) {
		if (git_oid_equal(&id, &a)) {
			git_commit_free(c);
			return 1;
		}
		git_commit_free(c);
		c = NULL;
		if (git_commit_lookup(&c, store, &id) < 0 ||
		    git_commit_parentcount(c) == 0)
			break;
		id = *git_commit_parent_id(c, 0);
	}
	git_commit_free(c);
	rc = git_graph_descendant_of(store, &d, &a);
	git_error_clear();
	return rc < 0 ? GCAMP_EFATAL : rc;
}

static const struct refs_backend libgit2_backend = {
	.name = "libgit2",
	.resolve = lg_resolve,
	.head_branch = lg_head_branch,
	.for_each_prefix = lg_for_each_prefix,
	.is_ancestor = lg_is_ancestor,
};

void repo_refs(struct refs *out, git_repository *repo)
{
	out->be = &libgit2_backend;
	out->store = repo;
}

int repo_check_state(git_repository *repo, struct error *err)
{
	static const char *const names[] = {
		[GIT_REPOSITORY_STATE_MERGE] = "a merge",
		[GIT_REPOSITORY_STATE_REVERT] = "a revert",
		[GIT_REPOSITORY_STATE_REVERT_SEQUENCE] = "a revert",
		[GIT_REPOSITORY_STATE_CHERRYPICK] = "a cherry-pick",
		[GIT_REPOSITORY_STATE_CHERRYPICK_SEQUENCE] = "a cherry-pick",
		[GIT_REPOSITORY_STATE_BISECT] = "a bisect",
		[GIT_REPOSITORY_STATE_REBASE] = "a rebase",
		[GIT_REPOSITORY_STATE_REBASE_INTERACTIVE] = "a rebase",
		[GIT_REPOSITORY_STATE_REBASE_MERGE] = "a rebase",
		[GIT_REPOSITORY_STATE_APPLY_MAILBOX] = "a 'git am'",
		[GIT_REPOSITORY_STATE_APPLY_MAILBOX_OR_REBASE] = "a rebase",
	};
	int s = git_repository_state(repo);

	if (s == GIT_REPOSITORY_STATE_NONE)
		return 0;
	error_set(err, GCAMP_EFATAL, "the repository is in the middle of %s",
		  s > 0 && (size_t)s < sizeof(names) / sizeof(*names) &&
				  names[s]
			  ? names[s]
			  : "another git operation");
	error_hint(err, "finish it (or abort it) with git first");
	return GCAMP_EFATAL;
}

/* Appends up to 5 paths of diff to b; 1 when it has any. */
static int diff_paths(struct buf *b, size_t *shown, git_diff *diff)
{
	size_t i, n = git_diff_num_deltas(diff);

	for (i = 0; i < n && *shown < 5; i++, ++*shown)
		buf_addf(b, "%s'%s'", b->len ? " " : "",
			 git_diff_get_delta(diff, i)->new_file.path);
	return n > 0;
}

/*
 * 1 when every file of the index still has the stat data the index
 * recorded (size, mtime, ctime, inode), none of it as new as the index
 * file itself (racily clean): then the work tree matches the index without
 * a file read or a directory walk, as git's own refresh assumes. 0 when a
 * file may differ; the caller then compares for real.
 */
static int stat_clean(git_repository *repo, git_index *index)
{
	const char *wd = git_repository_workdir(repo);
	struct buf p = BUF_INIT;
	struct stat ist, st;
	size_t i, n = git_index_entrycount(index);
	int clean = 0;

	buf_addf(&p, "%sindex", git_repository_path(repo));
	if (!wd || stat(p.ptr, &ist) < 0)
		goto out;
	for (i = 0; i < n; i++) {
		const git_index_entry *e = git_index_get_byindex(index, i);

		if (git_index_entry_stage(e) ||
		    (e->flags_extended & GIT_INDEX_ENTRY_EXTENDED_FLAGS))
			goto out;
		if (e->mode == GIT_FILEMODE_COMMIT)
			continue;
		buf_reset(&p);
		buf_addf(&p, "%s%s", wd, e->path);
		if (lstat(p.ptr, &st) < 0 ||
		    (uint32_t)st.st_size != e->file_size ||
		    (uint32_t)st.st_ino != e->ino ||
		    (int32_t)st.st_mtime != e->mtime.seconds ||
		    (int32_t)st.st_ctime != e->ctime.seconds ||
		    (e->mtime.nanoseconds &&
		     (uint32_t)st.st_mtim.tv_nsec != e->mtime.nanoseconds) ||
		    st.st_mtime >= ist.st_mtime)
			goto out;
	}
	clean = 1;
out:
	buf_release(&p);
	return clean;
}

/* index entries from *i on match tree (whose path is p) in order: 1 while
 * they do, 0 at the first difference, a negative code on a read error */
static int index_matches(git_repository *repo, git_index *index, size_t *i,
			 const git_tree *tree, struct buf *p)
{
	size_t k, n = git_tree_entrycount(tree), at = p->len;
	int rc = 1;

	for (k = 0; k < n && rc == 1; k++) {
		const git_tree_entry *te = git_tree_entry_byindex(tree, k);
		const git_index_entry *e;

		buf_setlen(p, at);
		buf_puts(p, git_tree_entry_name(te));
		if (git_tree_entry_type(te) == GIT_OBJECT_TREE) {
			git_tree *sub = NULL;

			if ((rc = git_tree_lookup(&sub, repo,
						  git_tree_entry_id(te))) < 0)
				break;
			buf_putc(p, '/');
			rc = index_matches(repo, index, i, sub, p);
			git_tree_free(sub);
			continue;
		}
		e = git_index_get_byindex(index, *i);
		rc = e && !git_index_entry_stage(e) &&
		     !(e->flags_extended & GIT_INDEX_ENTRY_INTENT_TO_ADD) &&
		     !strcmp(e->path, p->ptr) &&
		     git_oid_equal(&e->id, git_tree_entry_id(te)) &&
		     e->mode == (uint32_t)git_tree_entry_filemode(te);
		++*i;
	}
	buf_setlen(p, at);
	return rc;
}

int repo_index_tree(git_oid *out, git_index *index)
{
	unsigned char sum[20];
	char hex[REFS_HEX_SIZE];
	const git_oid *read_sum = git_index_checksum(index);
	size_t i, n = git_index_entrycount(index);

	for (i = 0; i < n; i++) {
		const git_index_entry *e = git_index_get_byindex(index, i);

		/* git's cache-tree leaves intent-to-add entries out */
		if (git_index_entry_stage(e) ||
		    (e->flags_extended & GIT_INDEX_ENTRY_EXTENDED_FLAGS))
			return GCAMP_ENOTFOUND;
	}
	/* the file must be the one libgit2 read */
	if (!git_index_path(index) || !read_sum ||
	    indexfile_tree(hex, sum, git_index_path(index)) < 0 ||
	    memcmp(sum, read_sum->id, sizeof(sum)) ||
	    git_oid_fromstr(out, hex) < 0)
		return GCAMP_ENOTFOUND;
	return 0;
}

/*
 * 1 when the index holds exactly tree's files, unconflicted: a walk of
 * both in their common order (git sorts a folder as its name and a '/'),
 * which reads no blob and costs far less than libgit2's tree-to-index
 * diff; the index's cache-tree, when whole, answers without reading a
 * tree. 0 when they may differ: the diff then says how.
 */
static int index_is_tree(git_repository *repo, git_index *index,
			 const git_tree *tree)
{
	struct buf p = BUF_INIT;
	git_oid id;
	size_t i;
	int rc;

	if (repo_index_tree(&id, index) == 0)
		return git_oid_equal(&id, git_tree_id(tree));
	for (i = 0; i < git_index_entrycount(index); i++) {
		const git_index_entry *e = git_index_get_byindex(index, i);

		if (git_index_entry_stage(e) ||
		    (e->flags_extended & GIT_INDEX_ENTRY_EXTENDED_FLAGS))
			return 0;
	}
	i = 0;
	rc = index_matches(repo, index, &i, tree, &p);

	buf_release(&p);
	git_error_clear();
	return rc == 1 && i == git_index_entrycount(index);
}

int repo_worktree_dirty(git_repository *repo, char **paths, struct error *err)
{
	git_diff_options opts;
	git_diff *staged = NULL, *unstaged = NULL;
	git_reference *head = NULL;
	git_tree *tree = NULL;
	git_index *index = NULL;
	struct buf b = BUF_INIT;
	size_t shown = 0;
	int rc, dirty;

	if (paths)
		*paths = NULL;
	/* two diffs rather than a status: no rename detection, and no walk
	 * for untracked files, which do not count */
	git_diff_options_init(&opts, GIT_DIFF_OPTIONS_VERSION);
	opts.flags = GIT_DIFF_IGNORE_SUBMODULES;
	if ((rc = git_repository_index(&index, repo)) < 0 ||
	    (rc = git_repository_head(&head, repo)) < 0 ||
	    (rc = git_reference_peel((git_object **)&tree, head,
				     GIT_OBJECT_TREE)) < 0 ||
	    (!index_is_tree(repo, index, tree) &&
	     (rc = git_diff_tree_to_index(&staged, repo, tree, index, &opts)) <
		     0) ||
	    (!stat_clean(repo, index) &&
	     (rc = git_diff_index_to_workdir(&unstaged, repo, index, &opts)) <
		     0)) {
		rc = error_git(err, rc, "cannot read the work tree's status");
		goto out;
	}
	dirty = staged && diff_paths(&b, &shown, staged);
	if (unstaged)
		dirty |= diff_paths(&b, &shown, unstaged);
	if (paths && dirty)
		*paths = buf_detach(&b);
	rc = dirty;
out:
	buf_release(&b);
	git_diff_free(staged);
	git_diff_free(unstaged);
	git_tree_free(tree);
	git_reference_free(head);
	git_index_free(index);
	return rc;
}

/* 1 when the HEAD of the worktree whose git directory is git_dir is
 * refs/heads/BRANCH, read through the files backend */
/* 1 when file DIR/name's first line is want (git's head-name and
 * BISECT_START) */
static int first_line_is(const char *dir, const char *name, const char *want)
{
	char *path = xasprintf("%s%s", dir, name), line[4096];
	FILE *fp = fopen(path, "r");
	int is = 0;

	if (fp && fgets(line, sizeof(line), fp)) {
		line[strcspn(line, "\n")] = 0;
		is = !strcmp(line, want);
	}
	if (fp)
		fclose(fp);
	free(path);
	return is;
}

/* 1 when the work tree of git_dir has branch: checked out, or in a rebase
 * or a bisect that started from it (HEAD is detached then), as git's own
 * "is checked out at" check counts them */
static int head_is(const char *git_dir, const char *common, const char *branch)
{
	struct error ignored = ERROR_INIT;
	struct gitlite g;
	struct refs r;
	char *cur = NULL, *ref = xasprintf("refs/heads/%s", branch);
	int is;

	is = first_line_is(git_dir, "rebase-merge/head-name", ref) ||
	     first_line_is(git_dir, "rebase-apply/head-name", ref) ||
	     first_line_is(git_dir, "BISECT_START", branch) ||
	     first_line_is(git_dir, "BISECT_START", ref);
	free(ref);
	if (is)
		return 1;
	gitlite_open_dirs(&g, git_dir, common);
	gitlite_refs(&r, &g);
	is = refs_head_branch(&cur, &r, &ignored) == 0 && cur &&
	     !strcmp(cur, branch);
	error_clear(&ignored);
	free(cur);
	gitlite_release(&g);
	return is;
}

void repo_branch_elsewhere(char **out, git_repository *repo, const char *branch)
{
	const char *common = git_repository_commondir(repo);
	const char *mine = git_repository_path(repo);
	struct buf p = BUF_INIT;
	struct dirent *de;
	DIR *dir;

	*out = NULL;
	/* the main work tree's HEAD (and its rebase state) is in the common
	 * dir */
	if (strcmp(common, mine) && head_is(common, common, branch) &&
	    !git_repository_is_bare(repo))
		*out = xstrdup("the main work tree");
	buf_addf(&p, "%sworktrees", common);
	dir = opendir(p.ptr);
	while (!*out && dir && (de = readdir(dir))) {
		char gd[4096];
		FILE *fp;

		if (de->d_name[0] == '.')
			continue;
		buf_reset(&p);
		buf_addf(&p, "%sworktrees/%s/", common, de->d_name);
		if (!strcmp(p.ptr, mine) || !head_is(p.ptr, common, branch))
			continue;
		buf_reset(&p);
		buf_addf(&p, "%sworktrees/%s/gitdir", common, de->d_name);
		*out = xstrdup(de->d_name);
		if ((fp = fopen(p.ptr, "r"))) {
			if (fgets(gd, sizeof(gd), fp)) {
				char *slash;

				gd[strcspn(gd, "\n")] = 0;
				if ((slash = strrchr(gd, '/')))
					*slash = 0;
				free(*out);
				*out = xstrdup(gd);
			}
			fclose(fp);
		}
	}
	if (dir)
		closedir(dir);
	buf_release(&p);
}

cJSON *repo_oid_json(const git_oid *id)
{
	char hex[GIT_OID_HEXSZ + 1];

	git_oid_tostr(hex, sizeof(hex), id);
	return cJSON_CreateString(hex);
}

int repo_oid_from_json(git_oid *out, const cJSON *j)
{
	if (!cJSON_IsString(j) || git_oid_fromstr(out, j->valuestring) < 0) {
		git_error_clear();
		return GCAMP_EFATAL;
	}
	return 0;
}

int repo_write_missing(git_repository *repo, git_tree *untracked)
{
	git_checkout_options co;
	git_treebuilder *tb = NULL;
	git_tree *empty = NULL;
	git_oid empty_id;
	int rc;

	if ((rc = git_treebuilder_new(&tb, repo, NULL)) < 0 ||
	    (rc = git_treebuilder_write(&empty_id, tb)) < 0 ||
	    (rc = git_tree_lookup(&empty, repo, &empty_id)) < 0)
		goto out;
	git_checkout_options_init(&co, GIT_CHECKOUT_OPTIONS_VERSION);
	co.checkout_strategy =
		GIT_CHECKOUT_SAFE | GIT_CHECKOUT_DONT_UPDATE_INDEX;
	co.baseline = empty;
	rc = git_checkout_tree(repo, (git_object *)untracked, &co);
out:
	git_tree_free(empty);
	git_treebuilder_free(tb);
	return rc;
}
