/* Named stashes: save, list, apply, drop and recover stash commits under
 * refs/campaign/stash/. The commits have the shape `git stash` gives them
 * (parents: HEAD, the index commit, optionally the untracked-files commit)
 * so that git's own tools read them, but refs/stash is never touched. */
#include "core/stash/stash.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/ownlock.h"
#include "io/repo.h"
#include "io/signature.h"
#include "util/buf.h"
#include "util/xalloc.h"

void stash_info_release(struct stash_info *s)
{
	if (!s)
		return;
	free(s->name);
	free(s->branch);
	free(s->message);
	memset(s, 0, sizeof(*s));
}

void stash_infos_free(struct stash_info *s, size_t n)
{
	size_t i;

	for (i = 0; s && i < n; i++)
		stash_info_release(&s[i]);
	free(s);
}

static int stash_refname(struct buf *out, struct ctx *ctx, const char *name)
{
	int valid = 0;

	buf_reset(out);
	buf_addf(out, "%s%s", STASH_REF_PREFIX, name);
	if (!*name || *name == '-' ||
	    git_reference_name_is_valid(&valid, out->ptr) < 0 || !valid)
		return error_set(&ctx->err, GCAMP_EUSAGE,
				 "'%s' is not a valid stash name", name);
	return 0;
}

/* "WIP on topic: 1a2b3c4 subject" -> "topic" */
static char *branch_of(const char *msg)
{
	const char *p = NULL, *colon;

	if (!strncmp(msg, "WIP on ", 7))
		p = msg + 7;
	else if (!strncmp(msg, "On ", 3))
		p = msg + 3;
	if (!p || !(colon = strstr(p, ": ")))
		return xstrdup("");
	return xstrndup(p, (size_t)(colon - p));
}

/* A stash commit as `git stash` makes it: "WIP on"/"On" with 2 or 3
 * parents, the second an "index on" commit. */
static int stash_shaped(git_commit *c)
{
	const char *msg = git_commit_message(c);
	git_commit *idx = NULL;
	unsigned n = git_commit_parentcount(c);
	int ok;

	if (n < 2 || n > 3 || !msg ||
	    (strncmp(msg, "WIP on ", 7) && strncmp(msg, "On ", 3)))
		return 0;
	if (git_commit_parent(&idx, c, 1) < 0)
		return 0;
	ok = git_commit_message(idx) &&
	     !strncmp(git_commit_message(idx), "index on ", 9);
	git_commit_free(idx);
	return ok;
}

static void fill_info(struct stash_info *out, git_commit *c, const char *name)
{
	const char *summary = git_commit_summary(c), *colon;

	/* "On topic: MSG" -> "MSG": the branch has its own field */
	if (summary && (colon = strstr(summary, ": ")))
		summary = colon + 2;
	memset(out, 0, sizeof(*out));
	out->name = name ? xstrdup(name) : NULL;
	git_oid_cpy(&out->id, git_commit_id(c));
	out->branch = branch_of(git_commit_message(c));
	out->message = xstrdup(summary ? summary : "");
	out->when = git_commit_time(c);
	out->has_untracked = git_commit_parentcount(c) == 3;
}

/* Makes sure refname keeps a reflog: libgit2, like git, logs updates of
 * refs outside refs/heads only when the log file already exists. */
static int ensure_reflog(git_repository *repo, const char *refname)
{
	git_reflog *log = NULL;
	int rc = git_reflog_read(&log, repo, refname);

	if (!rc && !git_reflog_entrycount(log))
		rc = git_reflog_write(log);
	git_reflog_free(log);
	return rc;
}

/* Points the stash log at id with a reflog line naming what happened: the
 * log's reflog is what keeps every saved and dropped stash recoverable. */
static int log_stash(struct ctx *ctx, git_repository *repo, const git_oid *id,
		     const char *what)
{
	const char *common = git_repository_commondir(repo);
	git_reference *ref = NULL;
	git_reflog *log = NULL;
	git_signature *sig = NULL;
	struct ownlock *guard = NULL;
	struct gitcfg *cfg;
	char *dir = xasprintf("%scampaign", common);
	char *locks[3] = {xasprintf("%s%s.lock", common, STASH_LOG_REF),
			  xasprintf("%slogs/%s.lock", common, STASH_LOG_REF),
			  NULL};
	int rc;

	/* the guard lets a run of ours remove the locks a killed one left */
	if ((rc = ownlock_acquire(&guard, NULL, dir, "stash-log",
				  (const char *const *)locks, &ctx->err)) < 0) {
		guard = NULL;
		goto done;
	}
	if ((rc = ensure_reflog(repo, STASH_LOG_REF)) < 0)
		goto out;
	if (!git_reference_lookup(&ref, repo, STASH_LOG_REF) &&
	    git_reference_target(ref) &&
	    !git_oid_cmp(git_reference_target(ref), id)) {
		/* an update to the same id writes no reflog line: add it */
		if ((rc = ctx_config(&cfg, ctx)) < 0 ||
		    (rc = signature_now(&sig, cfg, SIG_COMMITTER, &ctx->err)) <
			    0)
			goto out;
		if ((rc = git_reflog_read(&log, repo, STASH_LOG_REF)) < 0 ||
		    (rc = git_reflog_append(log, id, sig, what)) < 0)
			goto out;
		rc = git_reflog_write(log);
		goto out;
	}
	git_reference_free(ref);
	ref = NULL;
	rc = git_reference_create(&ref, repo, STASH_LOG_REF, id, 1, what);
out:
	if (rc < 0)
		rc = error_git(&ctx->err, rc, "cannot write '%s'",
			       STASH_LOG_REF);
	ownlock_release(guard);
done:
	git_signature_free(sig);
	git_reflog_free(log);
	git_reference_free(ref);
	free(locks[0]);
	free(locks[1]);
	free(dir);
	return rc;
}

/* Creates refs/campaign/stash/NAME at id, never over an existing one,
 * with a reflog entry, and logs it in the stash log */
static int name_stash(struct ctx *ctx, git_repository *repo, const char *name,
		      const git_oid *id, const char *what)
{
	struct buf refname = BUF_INIT;
	git_reference *ref = NULL;
	int rc;

	if ((rc = stash_refname(&refname, ctx, name)) < 0)
		goto out;
	if ((rc = ensure_reflog(repo, refname.ptr)) < 0 ||
	    (rc = git_reference_create(&ref, repo, refname.ptr, id, 0, what)) <
		    0) {
		rc = rc == GIT_EEXISTS
			     ? error_set(&ctx->err, GCAMP_EEXISTS,
					 "a stash named '%s' exists already",
					 name)
			     : error_git(&ctx->err, rc, "cannot write '%s'",
					 refname.ptr);
		goto out;
	}
	rc = log_stash(ctx, repo, id, what);
out:
	git_reference_free(ref);
	buf_release(&refname);
	return rc;
}

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

int stash_save(git_oid *out, struct ctx *ctx, const char *name, const char *msg,
	       unsigned flags)
{
	git_repository *repo;
	struct gitcfg *cfg;
	git_signature *sig = NULL;
	git_commit *head = NULL, *i_commit = NULL, *u_commit = NULL;
	git_index *index = NULL;
	git_reference *ref = NULL;
	git_object *target = NULL;
	git_checkout_options co;
	const git_commit *parents[3];
	struct buf refname = BUF_INIT, text = BUF_INIT;
	char *branch = NULL, shortid[GIT_OID_HEXSZ + 1];
	git_oid i_tree, w_tree, u_tree, i_id, w_id, u_id;
	int rc, changes;

	if ((rc = stash_refname(&refname, ctx, name)) < 0 ||
	    (rc = ctx_repo(&repo, ctx, 1)) < 0 ||
	    (rc = ctx_config(&cfg, ctx)) < 0)
		goto out;
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

	/* the changes are saved once the ref exists; only then reset */
	buf_reset(&text);
	buf_addf(&text, "campaign stash save %s", name);
	if ((rc = name_stash(ctx, repo, name, &w_id, text.ptr)) < 0)
		goto out;
	if (out)
		git_oid_cpy(out, &w_id);

	git_checkout_options_init(&co, GIT_CHECKOUT_OPTIONS_VERSION);
	co.checkout_strategy = GIT_CHECKOUT_FORCE;
	if (flags & STASH_KEEP_INDEX) {
		if ((rc = git_object_lookup(&target, repo, &i_tree,
					    GIT_OBJECT_TREE)) < 0 ||
		    (rc = git_checkout_tree(repo, target, &co)) < 0)
			goto reset_fail;
	} else if ((rc = git_reset(repo, (git_object *)head, GIT_RESET_HARD,
				   &co)) < 0) {
		goto reset_fail;
	}
	if (u_commit && (rc = remove_untracked(repo, &u_tree)) < 0)
		goto reset_fail;
	goto out;

reset_fail:
	rc = error_git(&ctx->err, rc,
		       "saved stash '%s' but cannot reset the working tree",
		       name);
	error_hint(&ctx->err,
		   "your changes are safe in the stash; "
		   "'git campaign stash apply %s' brings them back",
		   name);
	goto out;
git_fail:
	rc = error_git(&ctx->err, rc, "cannot write the stash commit");
out:
	git_object_free(target);
	git_reference_free(ref);
	git_index_free(index);
	git_commit_free(u_commit);
	git_commit_free(i_commit);
	git_commit_free(head);
	git_signature_free(sig);
	free(branch);
	buf_release(&refname);
	buf_release(&text);
	return rc;
}

struct list_walk {
	git_repository *repo;
	struct stash_info *v;
	size_t n, alloc;
};

static int list_one(const char *refname, const char *oid, void *data)
{
	struct list_walk *w = data;
	git_object *o = NULL, *c = NULL;
	git_oid id;

	if (git_oid_fromstr(&id, oid) == 0 &&
	    git_object_lookup(&o, w->repo, &id, GIT_OBJECT_ANY) == 0 &&
	    git_object_peel(&c, o, GIT_OBJECT_COMMIT) == 0) {
		if (w->n == w->alloc) {
			w->alloc = w->alloc ? 2 * w->alloc : 8;
			w->v = xrealloc(w->v, w->alloc * sizeof(*w->v));
		}
		fill_info(&w->v[w->n++], (git_commit *)c,
			  refname + strlen(STASH_REF_PREFIX));
	}
	git_error_clear();
	git_object_free(c);
	git_object_free(o);
	return 0;
}

int stash_list(struct stash_info **out, size_t *out_n, struct ctx *ctx)
{
	struct list_walk w = {NULL, NULL, 0, 0};
	struct refs refs;
	int rc;

	*out = NULL;
	*out_n = 0;
	if ((rc = ctx_repo(&w.repo, ctx, 0)) < 0)
		return rc;
	repo_refs(&refs, w.repo);
	if ((rc = refs_for_each_prefix(&refs, STASH_REF_PREFIX, list_one, &w)) <
	    0) {
		stash_infos_free(w.v, w.n);
		return error_set(&ctx->err, rc, "cannot list named stashes");
	}
	*out = w.v;
	*out_n = w.n;
	return 0;
}

int stash_lookup(struct stash_info *out, struct ctx *ctx, const char *name)
{
	git_repository *repo;
	git_reference *ref = NULL;
	git_commit *c = NULL;
	struct buf refname = BUF_INIT;
	int rc;

	memset(out, 0, sizeof(*out));
	if ((rc = stash_refname(&refname, ctx, name)) < 0 ||
	    (rc = ctx_repo(&repo, ctx, 0)) < 0)
		goto out;
	rc = git_reference_lookup(&ref, repo, refname.ptr);
	if (rc == GIT_ENOTFOUND) {
		rc = error_set(&ctx->err, GCAMP_ENOTFOUND,
			       "no stash named '%s'", name);
		error_hint(&ctx->err, "'git campaign stash list' shows the "
				      "names; 'git campaign stash recover' "
				      "finds dropped ones");
		goto out;
	}
	if (rc < 0 || (rc = git_reference_peel((git_object **)&c, ref,
					       GIT_OBJECT_COMMIT)) < 0) {
		rc = error_git(&ctx->err, rc, "cannot read stash '%s'", name);
		goto out;
	}
	fill_info(out, c, name);
out:
	git_commit_free(c);
	git_reference_free(ref);
	buf_release(&refname);
	return rc;
}

int stash_drop(git_oid *out, struct ctx *ctx, const char *name,
	       const char *expect)
{
	git_repository *repo;
	git_reference *ref = NULL;
	struct buf refname = BUF_INIT, what = BUF_INIT;
	char hex[GIT_OID_HEXSZ + 1];
	struct stash_info info;
	int rc;

	if ((rc = stash_lookup(&info, ctx, name)) < 0)
		return rc;
	git_oid_tostr(hex, sizeof(hex), &info.id);
	if (expect &&
	    (strlen(expect) < 4 || strncasecmp(hex, expect, strlen(expect)))) {
		rc = error_set(&ctx->err, GCAMP_EREFUSED,
			       "stash '%s' is %.12s, not %s: not dropped", name,
			       hex, expect);
		error_hint(&ctx->err,
			   "someone saved over it; "
			   "'git campaign stash show %s' shows it",
			   name);
		goto out;
	}
	if ((rc = ctx_repo(&repo, ctx, 0)) < 0 ||
	    (rc = stash_refname(&refname, ctx, name)) < 0)
		goto out;
	/* log first: once the ref is gone its own reflog is gone too */
	buf_addf(&what, "campaign stash drop %s", name);
	if ((rc = log_stash(ctx, repo, &info.id, what.ptr)) < 0)
		goto out;
	if ((rc = git_reference_lookup(&ref, repo, refname.ptr)) < 0 ||
	    git_oid_cmp(git_reference_target(ref), &info.id)) {
		rc = error_set(&ctx->err, GCAMP_EREFUSED,
			       "stash '%s' moved while dropping: not dropped",
			       name);
		goto out;
	}
	/* libgit2 deletes a loose or packed ref only if it still holds the
	 * id it was read with: a compare-and-swap */
	if ((rc = git_reference_delete(ref)) < 0) {
		rc = error_git(&ctx->err, rc, "cannot drop stash '%s'", name);
		goto out;
	}
	if (out)
		git_oid_cpy(out, &info.id);
out:
	git_reference_free(ref);
	stash_info_release(&info);
	buf_release(&refname);
	buf_release(&what);
	return rc;
}

/* A set of commit ids, open addressing on the id's first bytes */
struct oidset {
	git_oid *v;
	unsigned char *used;
	size_t n, cap;
};

static size_t oidset_slot(const struct oidset *s, const git_oid *id)
{
	size_t h;

	memcpy(&h, id->id, sizeof(h));
	h &= s->cap - 1;
	while (s->used[h] && git_oid_cmp(&s->v[h], id))
		h = (h + 1) & (s->cap - 1);
	return h;
}

static int oidset_has(const struct oidset *s, const git_oid *id)
{
	return s->cap && s->used[oidset_slot(s, id)];
}

static void oidset_add(struct oidset *s, const git_oid *id)
{
	size_t i, h;

	if (2 * (s->n + 1) > s->cap) {
		struct oidset big = {NULL, NULL, 0, s->cap ? 2 * s->cap : 1024};

		big.v = xcalloc(big.cap, sizeof(*big.v));
		big.used = xcalloc(big.cap, 1);
		for (i = 0; i < s->cap; i++)
			if (s->used[i])
				oidset_add(&big, &s->v[i]);
		free(s->v);
		free(s->used);
		*s = big;
	}
	h = oidset_slot(s, id);
	if (!s->used[h]) {
		s->used[h] = 1;
		git_oid_cpy(&s->v[h], id);
		s->n++;
	}
}

static void oidset_clear(struct oidset *s)
{
	free(s->v);
	free(s->used);
	memset(s, 0, sizeof(*s));
}

struct lost_walk {
	git_repository *repo;
	git_odb *odb;
	git_revwalk *walk;
	struct oidset reachable;
	struct stash_info *v;
	size_t n, alloc;
};

/* Pushes every ref and every reflog entry, as `git fsck` counts them
 * reachable; the stash log is left out, so that dropped stashes, which
 * only it keeps, count as lost. */
static int push_roots(struct lost_walk *w)
{
	git_reference_iterator *it = NULL;
	git_reference *ref = NULL;
	git_reflog *log = NULL;
	size_t i;
	int rc;

	if ((rc = git_reference_iterator_new(&it, w->repo)) < 0)
		return rc;
	while (!(rc = git_reference_next(&ref, it))) {
		const char *name = git_reference_name(ref);
		git_object *o = NULL;

		if (strcmp(name, STASH_LOG_REF)) {
			if (!git_reference_peel(&o, ref, GIT_OBJECT_COMMIT))
				git_revwalk_push(w->walk, git_object_id(o));
			git_object_free(o);
			if (!git_reflog_read(&log, w->repo, name)) {
				for (i = 0; i < git_reflog_entrycount(log);
				     i++) {
					const git_reflog_entry *e =
						git_reflog_entry_byindex(log,
									 i);
					/* a missing or non-commit id is
					 * skipped, as fsck would */
					git_revwalk_push(
						w->walk,
						git_reflog_entry_id_new(e));
				}
				git_reflog_free(log);
				log = NULL;
			}
		}
		git_reference_free(ref);
		ref = NULL;
	}
	git_reference_iterator_free(it);
	if (!git_reflog_read(&log, w->repo, "HEAD")) {
		for (i = 0; i < git_reflog_entrycount(log); i++)
			git_revwalk_push(
				w->walk,
				git_reflog_entry_id_new(
					git_reflog_entry_byindex(log, i)));
		git_reflog_free(log);
	}
	return rc == GIT_ITEROVER ? 0 : rc;
}

static int check_object(const git_oid *id, void *payload)
{
	struct lost_walk *w = payload;
	git_object_t type;
	git_commit *c = NULL;
	size_t len;

	if (oidset_has(&w->reachable, id))
		return 0;
	if (git_odb_read_header(&len, &type, w->odb, id) < 0 ||
	    type != GIT_OBJECT_COMMIT)
		return 0;
	if (git_commit_lookup(&c, w->repo, id) < 0)
		return 0;
	if (stash_shaped(c)) {
		if (w->n == w->alloc) {
			w->alloc = w->alloc ? 2 * w->alloc : 8;
			w->v = xrealloc(w->v, w->alloc * sizeof(*w->v));
		}
		fill_info(&w->v[w->n++], c, NULL);
	}
	git_commit_free(c);
	/* a pack can hold an object twice; list it once */
	oidset_add(&w->reachable, id);
	return 0;
}

static int newest_first(const void *pa, const void *pb)
{
	const struct stash_info *a = pa, *b = pb;

	if (a->when != b->when)
		return a->when < b->when ? 1 : -1;
	return git_oid_cmp(&a->id, &b->id);
}

int stash_find_lost(struct stash_info **out, size_t *out_n, struct ctx *ctx)
{
	struct lost_walk w;
	git_oid id;
	int rc;

	memset(&w, 0, sizeof(w));
	*out = NULL;
	*out_n = 0;
	if ((rc = ctx_repo(&w.repo, ctx, 0)) < 0)
		return rc;
	if ((rc = git_revwalk_new(&w.walk, w.repo)) < 0 ||
	    (rc = push_roots(&w)) < 0)
		goto git_fail;
	git_error_clear();
	while (!(rc = git_revwalk_next(&id, w.walk)))
		oidset_add(&w.reachable, &id);
	if (rc != GIT_ITEROVER)
		goto git_fail;
	if ((rc = git_repository_odb(&w.odb, w.repo)) < 0 ||
	    (rc = git_odb_foreach(w.odb, check_object, &w)) < 0)
		goto git_fail;
	if (w.n)
		qsort(w.v, w.n, sizeof(*w.v), newest_first);
	*out = w.v;
	*out_n = w.n;
	w.v = NULL;
	rc = 0;
	goto out;
git_fail:
	rc = error_git(&ctx->err, rc, "cannot search for lost stashes");
out:
	stash_infos_free(w.v, w.n);
	git_odb_free(w.odb);
	git_revwalk_free(w.walk);
	oidset_clear(&w.reachable);
	return rc;
}

int stash_restore_as(git_oid *out, struct ctx *ctx, const char *rev,
		     const char *name)
{
	git_repository *repo;
	git_object *o = NULL;
	struct buf refname = BUF_INIT, what = BUF_INIT;
	int rc;

	if ((rc = stash_refname(&refname, ctx, name)) < 0 ||
	    (rc = ctx_repo(&repo, ctx, 0)) < 0)
		goto out;
	if (git_revparse_single(&o, repo, rev) < 0 ||
	    git_object_type(o) != GIT_OBJECT_COMMIT ||
	    !stash_shaped((git_commit *)o)) {
		rc = error_set(&ctx->err, GCAMP_ENOTFOUND,
			       "'%s' is not a stash commit", rev);
		error_hint(&ctx->err, "'git campaign stash recover' lists "
				      "the lost ones");
		goto out;
	}
	buf_addf(&what, "campaign stash recover %s", name);
	if ((rc = name_stash(ctx, repo, name, git_object_id(o), what.ptr)) < 0)
		goto out;
	if (out)
		git_oid_cpy(out, git_object_id(o));
out:
	git_object_free(o);
	buf_release(&refname);
	buf_release(&what);
	return rc;
}
