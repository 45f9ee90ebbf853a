/* The replay engine of restack: each branch's own commits replayed in
 * memory with libgit2 (no work tree, no index), the conflict shown when one
 * stops it, and the updates applied together at the end. */
#include "core/stack/replay.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/stack/graph.h"
#include "core/stack/op.h"
#include "core/stack/recover.h"
#include "core/stack/restack.h"
#include "core/stack/rewrite.h"
#include "core/stack/sign.h"
#include "core/stack/treediff.h"
#include "core/stack/worktrees.h"
#include "io/repo.h"
#include "io/signature.h"
#include "util/buf.h"
#include "util/json.h"
#include "util/trace.h"
#include "util/xalloc.h"

/* "1234567 subject" of commit id */
char *restack_describe(git_repository *repo, const git_oid *id)
{
	git_commit *c = NULL;
	char hex[8];
	char *s;

	git_oid_tostr(hex, sizeof(hex), id);
	if (git_commit_lookup(&c, repo, id) < 0) {
		git_error_clear();
		return xstrdup(hex);
	}
	s = xasprintf("%s %s", hex, git_commit_summary(c));
	git_commit_free(c);
	return s;
}

/* The commits of upstream..tip, oldest first, in a new array; merges are
 * refused, since replaying them is not supported. */
static int range(git_oid **out, size_t *out_n, git_repository *repo,
		 const git_oid *upstream, const git_oid *tip,
		 const char *branch, struct error *err)
{
	git_revwalk *w = NULL;
	git_oid id, *list = NULL;
	size_t n = 0, alloc = 0;
	int rc;

	*out = NULL;
	*out_n = 0;
	if ((rc = git_revwalk_new(&w, repo)) < 0 ||
	    (rc = git_revwalk_sorting(w, GIT_SORT_TOPOLOGICAL |
						 GIT_SORT_REVERSE)) < 0 ||
	    (rc = git_revwalk_push(w, tip)) < 0 ||
	    (rc = git_revwalk_hide(w, upstream)) < 0) {
		rc = error_git(err, rc, "cannot list the commits of '%s'",
			       branch);
		goto out;
	}
	while ((rc = git_revwalk_next(&id, w)) == 0) {
		git_commit *c = NULL;
		unsigned parents;

		if ((rc = git_commit_lookup(&c, repo, &id)) < 0) {
			rc = error_git(err, rc, "cannot read a commit of '%s'",
				       branch);
			goto out;
		}
		parents = git_commit_parentcount(c);
		git_commit_free(c);
		if (parents != 1) {
			char hex[8];

			git_oid_tostr(hex, sizeof(hex), &id);
			rc = error_set(err, GCAMP_EFATAL,
				       "'%s' holds merge commit %s; restack "
				       "replays only linear branches",
				       branch, hex);
			goto out;
		}
		if (n == alloc) {
			alloc = alloc ? 2 * alloc : 16;
			list = xrealloc(list, alloc * sizeof(*list));
		}
		list[n++] = id;
	}
	if (rc != GIT_ITEROVER) {
		rc = error_git(err, rc, "cannot list the commits of '%s'",
			       branch);
		goto out;
	}
	rc = 0;
	*out = list;
	*out_n = n;
	list = NULL;
out:
	free(list);
	git_revwalk_free(w);
	return rc;
}

int restack_check_linear(git_repository *repo, const git_oid *upstream,
			 const git_oid *tip, const char *branch,
			 struct error *err)
{
	git_oid *list = NULL;
	size_t n;
	int rc = range(&list, &n, repo, upstream, tip, branch, err);

	free(list);
	if (rc < 0 && strstr(err->msg, "merge commit"))
		error_hint(err, "flatten it with 'git rebase' onto its parent "
				"first: nothing was restacked");
	return rc;
}

/* The patch id of commit id's change to its first parent (git patch-id's
 * sense: the same change made anywhere has the same id); -1 for a merge or
 * a root commit, or when it cannot be read. */
static int commit_patchid(git_oid *out, git_repository *repo, const git_oid *id)
{
	struct tree_changes ch = TREE_CHANGES_INIT;
	git_commit *c = NULL, *p = NULL;
	git_tree *tc = NULL, *tp = NULL;
	git_diff_options dopts;
	git_diff *diff = NULL;
	int rc = -1;

	git_diff_options_init(&dopts, GIT_DIFF_OPTIONS_VERSION);
	if (git_commit_lookup(&c, repo, id) < 0 ||
	    git_commit_parentcount(c) != 1 || git_commit_parent(&p, c, 0) < 0 ||
	    git_commit_tree(&tc, c) < 0 || git_commit_tree(&tp, p) < 0)
		goto out;
	/* the diff limited to the files that changed (an exact path list,
	 * which libgit2's iterators follow without reading other folders)
	 * has the whole diff's patch id */
	if (stack_tree_changes(&ch, repo, tp, tc) == 0 && ch.paths.nr) {
		dopts.flags |= GIT_DIFF_DISABLE_PATHSPEC_MATCH;
		dopts.pathspec.strings = ch.paths.v;
		dopts.pathspec.count = ch.paths.nr;
	}
	if (git_diff_tree_to_tree(&diff, repo, tp, tc, &dopts) < 0 ||
	    git_diff_patchid(out, diff, NULL) < 0)
		goto out;
	rc = 0;
out:
	git_error_clear();
	stack_tree_changes_release(&ch);
	git_diff_free(diff);
	git_tree_free(tc);
	git_tree_free(tp);
	git_commit_free(c);
	git_commit_free(p);
	return rc;
}

/* At most this many commits of the new base are compared by patch id. */
#define PATCHID_CAP 1000

/* Patch ids already made in one run, by commit: the branches of a stack
 * share most of the new base's commits. */
struct patchid_cache {
	git_oid *commit, *pid;
	int *ok;
	size_t n, alloc;
};

static void patchid_cache_release(struct patchid_cache *pc)
{
	free(pc->commit);
	free(pc->pid);
	free(pc->ok);
	memset(pc, 0, sizeof(*pc));
}

static int cached_patchid(git_oid *out, struct patchid_cache *pc,
			  git_repository *repo, const git_oid *id)
{
	size_t i;

	for (i = 0; i < pc->n; i++)
		if (git_oid_equal(&pc->commit[i], id)) {
			*out = pc->pid[i];
			return pc->ok[i] ? 0 : -1;
		}
	if (pc->n == pc->alloc) {
		pc->alloc = pc->alloc ? 2 * pc->alloc : 64;
		pc->commit =
			xrealloc(pc->commit, pc->alloc * sizeof(*pc->commit));
		pc->pid = xrealloc(pc->pid, pc->alloc * sizeof(*pc->pid));
		pc->ok = xrealloc(pc->ok, pc->alloc * sizeof(*pc->ok));
	}
	pc->commit[pc->n] = *id;
	pc->ok[pc->n] = commit_patchid(&pc->pid[pc->n], repo, id) == 0;
	*out = pc->pid[pc->n];
	return pc->ok[pc->n++] ? 0 : -1;
}

/*
 * As git rebase does, drops from list (in place) the commits whose change
 * is already in base, by patch id: a commit of base's first-parent line
 * since its merge base with the branch (tip) that makes the same change.
 * Returns how many were dropped. Only the newest PATCHID_CAP commits of
 * that line are compared.
 */
static size_t drop_already_in(struct patchid_cache *pc, git_repository *repo,
			      const git_oid *base, const git_oid *tip,
			      git_oid *list, size_t *n)
{
	git_commit *c = NULL;
	git_oid mb, id, *ids = NULL;
	size_t nids = 0, i, k, steps, dropped = 0;

	if (!*n || git_merge_base(&mb, repo, base, tip) < 0)
		goto out;
	ids = xcalloc(PATCHID_CAP + 1, sizeof(*ids));
	for (id = *base, steps = 0;
	     steps < PATCHID_CAP && !git_oid_equal(&id, &mb); steps++) {
		if (cached_patchid(&ids[nids], pc, repo, &id) == 0)
			nids++;
		git_commit_free(c);
		c = NULL;
		if (git_commit_lookup(&c, repo, &id) < 0 ||
		    git_commit_parentcount(c) == 0)
			break;
		id = *git_commit_parent_id(c, 0);
	}
	if (!nids)
		goto out;
	for (i = k = 0; i < *n; i++) {
		git_oid pid;
		size_t j;
		int hit = 0;

		if (commit_patchid(&pid, repo, &list[i]) == 0)
			for (j = 0; j < nids && !hit; j++)
				hit = git_oid_equal(&pid, &ids[j]);
		if (hit)
			dropped++;
		else
			list[k++] = list[i];
	}
	*n = k;
out:
	git_error_clear();
	git_commit_free(c);
	free(ids);
	return dropped;
}

cJSON *oid_pair_json(const git_oid *a, const git_oid *b)
{
	cJSON *p = cJSON_CreateArray();

	cJSON_AddItemToArray(p, repo_oid_json(a));
	cJSON_AddItemToArray(p, repo_oid_json(b));
	return p;
}

/* 1 when tree entry e (NULL: none) is the file id, mode (exists 0: none) */
static int same_entry(const git_tree_entry *e, const git_oid *id,
		      git_filemode_t mode, int exists)
{
	if (!e || !exists)
		return !e && !exists;
	return git_oid_equal(git_tree_entry_id(e), id) &&
	       git_tree_entry_filemode(e) == mode;
}

/*
 * The fast path of a cherry-pick, after git-branchless: only the paths the
 * commit changes (from its parent's tree tp to its tree tc, found without
 * reading the subtrees they share) are looked at in the base tree tb.
 * Where the base still has the parent's version, the commit's version is
 * taken; where it already has the commit's, it stays. The new tree is tb
 * with those paths updated (git_tree_create_updated writes only the
 * subtrees on their way). Any other case (both sides changed a path, a
 * file where a folder is) returns 1: the caller merges the whole trees
 * instead.
 */
static int replay_paths(git_oid *out, git_repository *repo, git_tree *tp,
			git_tree *tb, git_tree *tc)
{
	struct tree_changes ch = TREE_CHANGES_INIT;
	git_tree_update *up = NULL;
	size_t i, nup = 0;
	int rc;

	if ((rc = stack_tree_changes(&ch, repo, tp, tc)) < 0)
		goto out;
	up = xcalloc(ch.n + 1, sizeof(*up));
	for (i = 0; i < ch.n; i++) {
		const struct tree_change *d = &ch.v[i];
		git_tree_entry *e = NULL;

		rc = git_tree_entry_bypath(&e, tb, d->path);
		if (rc < 0 && rc != GIT_ENOTFOUND)
			goto fallback;
		git_error_clear();
		if (same_entry(e, &d->old_id, d->old_mode, d->had)) {
			up[nup].action = d->has ? GIT_TREE_UPDATE_UPSERT
						: GIT_TREE_UPDATE_REMOVE;
			up[nup].id = d->new_id;
			up[nup].filemode = d->new_mode;
			up[nup].path = d->path;
			nup++;
		} else if (!same_entry(e, &d->new_id, d->new_mode, d->has)) {
			git_tree_entry_free(e);
			goto fallback;
		}
		git_tree_entry_free(e);
	}
	if (git_tree_create_updated(out, repo, tb, nup, up) < 0)
		goto fallback;
	rc = 0;
	goto out;
fallback:
	git_error_clear();
	rc = 1;
out:
	free(up);
	stack_tree_changes_release(&ch);
	return rc;
}

/*
 * Replays one commit onto *base, as a cherry-pick in memory: the merge of
 * (its parent's tree, base's tree, its tree). When base's tree is its
 * parent's tree the commit keeps its tree untouched. Author, committer
 * (with their dates), message and encoding are kept. A commit that becomes
 * empty is dropped, as git rebase does. On a conflict, 1 with the merge
 * index in *conflict; else *base is the new commit.
 */
static int replay_one(git_oid *base, size_t *dropped, git_index **conflict,
		      git_repository *repo, const git_oid *id, cJSON *notes,
		      const git_signature *committer,
		      const struct stack_signer *signer, struct error *err)
{
	git_commit *c = NULL, *p = NULL, *b = NULL;
	git_tree *tp = NULL, *tb = NULL, *tc = NULL, *tn = NULL;
	git_index *idx = NULL;
	git_merge_options mo;
	git_note *note = NULL;
	git_oid tree, out;
	int rc;

	*conflict = NULL;
	git_merge_options_init(&mo, GIT_MERGE_OPTIONS_VERSION);
	if ((rc = git_commit_lookup(&c, repo, id)) < 0 ||
	    (rc = git_commit_parent(&p, c, 0)) < 0) {
		rc = error_git(err, rc, "cannot read a commit to replay");
		goto out;
	}
	if (git_oid_equal(git_commit_id(p), base)) {
		/* already on base: the commit stays as it is */
		*base = *id;
		goto out;
	}
	if ((rc = git_commit_lookup(&b, repo, base)) < 0) {
		rc = error_git(err, rc, "cannot read the new base");
		goto out;
	}
	if (git_oid_equal(git_commit_tree_id(p), git_commit_tree_id(b))) {
		tree = *git_commit_tree_id(c);
	} else {
		if ((rc = git_commit_tree(&tp, p)) < 0 ||
		    (rc = git_commit_tree(&tb, b)) < 0 ||
		    (rc = git_commit_tree(&tc, c)) < 0 ||
		    (rc = replay_paths(&tree, repo, tp, tb, tc)) < 0) {
			rc = error_git(err, rc, "cannot replay a commit");
			goto out;
		}
		if (rc == 1 &&
		    (rc = git_merge_trees(&idx, repo, tp, tb, tc, &mo)) < 0) {
			rc = error_git(err, rc, "cannot replay a commit");
			goto out;
		}
		if (idx && git_index_has_conflicts(idx)) {
			*conflict = idx;
			idx = NULL;
			rc = 1;
			goto out;
		}
		if (idx &&
		    (rc = git_index_write_tree_to(&tree, idx, repo)) < 0) {
			rc = error_git(err, rc, "cannot write a tree");
			goto out;
		}
		if (git_oid_equal(&tree, git_commit_tree_id(b)) &&
		    !git_oid_equal(git_commit_tree_id(c),
				   git_commit_tree_id(p))) {
			++*dropped;
			goto out;
		}
	}
	if ((rc = git_tree_lookup(&tn, repo, &tree)) < 0) {
		rc = error_git(err, rc, "cannot write a commit");
		goto out;
	}
	if ((rc = stack_signer_commit(&out, signer, repo, git_commit_author(c),
				      committer, git_commit_message_encoding(c),
				      git_commit_message_raw(c), tn, b, err)) <
	    0)
		goto out;
	/* every rewrite, for the notes and the post-rewrite hook */
	cJSON_AddItemToArray(notes, oid_pair_json(id, &out));
	*base = out;
out:
	git_note_free(note);
	git_index_free(idx);
	git_tree_free(tp);
	git_tree_free(tb);
	git_tree_free(tc);
	git_tree_free(tn);
	git_commit_free(c);
	git_commit_free(p);
	git_commit_free(b);
	return rc;
}

static cJSON *list_json(const git_oid *list, size_t n)
{
	cJSON *a = cJSON_CreateArray();
	size_t i;

	for (i = 0; i < n; i++)
		cJSON_AddItemToArray(a, repo_oid_json(&list[i]));
	return a;
}

static git_oid *list_from_json(size_t *out_n, const cJSON *a)
{
	git_oid *list =
		xcalloc((size_t)cJSON_GetArraySize(a) + 1, sizeof(*list));
	const cJSON *e;
	size_t n = 0;

	cJSON_ArrayForEach(e, a) {
		if (repo_oid_from_json(&list[n], e) == 0)
			n++;
	}
	*out_n = n;
	return list;
}

void restack_conflict_paths(struct strvec *out, git_index *idx)
{
	git_index_conflict_iterator *it = NULL;
	const git_index_entry *a, *o, *t;

	if (git_index_conflict_iterator_new(&it, idx) < 0) {
		git_error_clear();
		return;
	}
	while (git_index_conflict_next(&a, &o, &t, it) == 0)
		strvec_push(out, o ? o->path : t ? t->path : a->path);
	git_index_conflict_iterator_free(it);
}

/* Makes index ri (at the base, after checkout) hold the merge result
 * merged, conflicts included, keeping the stat data of unchanged entries. */
static int take_index(git_index *ri, git_index *merged)
{
	git_index_conflict_iterator *it = NULL;
	const git_index_entry *e, *a, *o, *t;
	size_t i;
	int rc = 0;

	/* paths the merge does not have at all go */
	for (i = git_index_entrycount(ri); i-- > 0;) {
		e = git_index_get_byindex(ri, i);
		if (!git_index_get_bypath(merged, e->path, 0) &&
		    !git_index_get_bypath(merged, e->path, 1) &&
		    !git_index_get_bypath(merged, e->path, 2) &&
		    !git_index_get_bypath(merged, e->path, 3) &&
		    (rc = git_index_remove(ri, e->path, 0)) < 0)
			return rc;
	}
	for (i = 0; i < git_index_entrycount(merged); i++) {
		const git_index_entry *have;

		e = git_index_get_byindex(merged, i);
		if (git_index_entry_stage(e) != 0)
			continue;
		have = git_index_get_bypath(ri, e->path, 0);
		if (have && git_oid_equal(&have->id, &e->id) &&
		    have->mode == e->mode)
			continue;
		if ((rc = git_index_add(ri, e)) < 0)
			return rc;
	}
	if ((rc = git_index_conflict_iterator_new(&it, merged)) < 0)
		return rc;
	while ((rc = git_index_conflict_next(&a, &o, &t, it)) == 0)
		if ((rc = git_index_conflict_add(ri, a, o, t)) < 0)
			break;
	git_index_conflict_iterator_free(it);
	return rc == GIT_ITEROVER ? 0 : rc;
}

/* The replay of one branch's commits: what its steps share. */
struct replay {
	struct stack_op *op;
	struct ctx *ctx;
	struct restack_result *out;
	size_t branch;	 /* its index in op->b */
	cJSON *notes;	 /* [old, new] pairs of the commits with a note */
	int no_checkout; /* a conflict is only listed, never checked out */
	size_t dropped;	 /* commits that became empty */
	git_signature *committer; /* who rewrites, and when: now */
	struct stack_signer signer;
	struct patchid_cache patchids;
};

/* The message of the commit that stopped, where `git commit` looks for
 * one (MERGE_MSG), so that committing the resolution by hand keeps it */
static void write_merge_msg(git_repository *repo, const git_oid *id)
{
	git_commit *c = NULL;
	char *path = xasprintf("%sMERGE_MSG", git_repository_path(repo));
	FILE *f;

	if (git_commit_lookup(&c, repo, id) == 0 && (f = fopen(path, "w"))) {
		fputs(git_commit_message(c), f);
		fclose(f);
	}
	git_error_clear();
	git_commit_free(c);
	free(path);
}

/* A stack's root that conflicts with its unstacked parent may have landed
 * there with edits (a squash merge a reviewer changed), which no graph
 * tells: the way on, moving what is on it, named; NULL when nothing is */
static char *landed_hint(const struct stack_op *op, size_t i)
{
	size_t k;

	if (op->b[i].pidx >= 0)
		return NULL;
	for (k = 0; k < op->n; k++)
		if (op->b[k].pidx == (int)i)
			return xasprintf(
				"if '%s' has landed in '%s' (a squash merge "
				"with edits), move what is on it instead: 'git "
				"campaign stack abort', then 'git campaign "
				"stack move %s --onto %s'",
				op->b[i].name, op->b[i].parent_new,
				op->b[k].name, op->b[i].parent_new);
	return NULL;
}

/* 1 when an untracked file is in the way of checking out the conflict
 * (the base onto, then the merge of commit at), named in r's notes */
static int conflict_in_way(struct replay *r, const git_oid *onto,
			   const git_oid *at)
{
	struct strvec paths = STRVEC_INIT;
	struct buf list = BUF_INIT;
	git_repository *repo;
	git_commit *c = NULL;
	git_index *index = NULL;
	size_t k;
	int rc;

	if ((rc = ctx_repo(&repo, r->ctx, 1)) < 0)
		return rc;
	if ((rc = git_repository_index(&index, repo)) < 0 ||
	    (rc = git_index_read(index, 0)) < 0)
		goto out;
	for (k = 0; k < 2 && rc == 0; k++) {
		git_commit_free(c);
		c = NULL;
		if ((rc = git_commit_lookup(&c, repo, k ? at : onto)) == 0)
			rc = stack_recover_untracked_in_way(&paths, repo, c,
							    index);
	}
	if (rc < 0)
		goto out;
	strvec_sort(&paths);
	for (k = 0; k < paths.nr; k++)
		if (!k || strcmp(paths.v[k], paths.v[k - 1]))
			buf_addf(&list, "%s%s", k ? ", " : "", paths.v[k]);
	if (paths.nr)
		strvec_push_owned(&r->out->notes,
				  xasprintf("the conflict is not checked out: "
					    "untracked files would be "
					    "overwritten: %s",
					    list.ptr));
	rc = paths.nr > 0;
out:
	if (rc < 0)
		rc = error_git(&r->ctx->err, rc, "cannot read the work tree");
	buf_release(&list);
	strvec_clear(&paths);
	git_commit_free(c);
	git_index_free(index);
	return rc;
}

/*
 * Shows a conflict: journals it (with the rest of the branch's commits),
 * then, when allowed and the work tree is clean, detaches HEAD at the base
 * and writes the conflicted index and files with markers; otherwise only
 * lists the paths. at[0] is the commit that stopped on onto, at[1..n-1]
 * the rest.
 */
static int present_conflict(struct replay *r, const git_oid *onto,
			    git_index *merged, const git_oid *at, size_t n)
{
	struct stack_op *op = r->op;
	struct ctx *ctx = r->ctx;
	struct restack_result *out = r->out;
	size_t i = r->branch;
	git_checkout_options co;
	git_repository *repo;
	git_commit *oc = NULL;
	git_index *ri = NULL;
	char *label = NULL;
	cJSON *d;
	int rc, checkout = op->may_checkout && !r->no_checkout;

	git_checkout_options_init(&co, GIT_CHECKOUT_OPTIONS_VERSION);
	if ((rc = ctx_repo(&repo, ctx, 1)) < 0)
		return rc;
	if (checkout && !op->touched) {
		if ((rc = repo_worktree_dirty(repo, NULL, &ctx->err)) < 0)
			return rc;
		checkout = !rc;
	}
	if (checkout && (rc = conflict_in_way(r, onto, at)) != 0) {
		if (rc < 0)
			return rc;
		checkout = 0;
	}
	/* abort gives back the index that goes with the files as they are
	 * now, which a stash since the start may have changed */
	if (checkout && !op->touched && (rc = stack_op_save_index(op, ctx)) < 0)
		return rc;
	d = cJSON_CreateObject();
	cJSON_AddNumberToObject(d, "i", (double)i);
	cJSON_AddItemToObject(d, "commit", repo_oid_json(at));
	cJSON_AddItemToObject(d, "onto", repo_oid_json(onto));
	cJSON_AddItemToObject(d, "rest", list_json(at + 1, n - 1));
	cJSON_AddItemReferenceToObject(d, "notes", r->notes);
	cJSON_AddBoolToObject(d, "checkout", checkout);
	if ((rc = stack_op_step(op, ctx, "conflict", d)) < 0)
		return rc;
	op->conflict = 1;
	op->touched |= checkout;
	out->conflict = 1;
	out->conflict_branch = xstrdup(op->b[i].name);
	out->conflict_commit = restack_describe(repo, at);
	out->checked_out = checkout;
	out->conflict_hint = landed_hint(op, i);
	restack_conflict_paths(&out->conflict_paths, merged);
	if (!checkout)
		return stack_op_step(op, ctx, "stopped", NULL);
	if ((rc = git_commit_lookup(&oc, repo, onto)) < 0 ||
	    (rc = git_repository_index(&ri, repo)) < 0)
		goto git_fail;
	/* to the base first (only the paths that differ), then the merge */
	co.checkout_strategy = GIT_CHECKOUT_SAFE;
	co.baseline_index = ri;
	if ((rc = git_checkout_tree(repo, (git_object *)oc, &co)) < 0 ||
	    (rc = git_repository_set_head_detached(repo, onto)) < 0)
		goto git_fail;
	label = xasprintf("%s", out->conflict_commit);
	co.checkout_strategy = GIT_CHECKOUT_SAFE |
			       GIT_CHECKOUT_ALLOW_CONFLICTS |
			       GIT_CHECKOUT_CONFLICT_STYLE_MERGE;
	co.baseline_index = NULL;
	co.our_label = op->b[i].pidx >= 0 ? op->b[op->b[i].pidx].name
					  : op->b[i].parent_new;
	co.their_label = label;
	if ((rc = git_checkout_index(repo, merged, &co)) < 0 ||
	    (rc = take_index(ri, merged)) < 0 || (rc = git_index_write(ri)) < 0)
		goto git_fail;
	write_merge_msg(repo, at);
	rc = stack_op_step(op, ctx, "stopped", NULL);
	goto out;
git_fail:
	rc = error_git(&ctx->err, rc, "cannot check out the conflict");
out:
	free(label);
	git_commit_free(oc);
	git_index_free(ri);
	return rc;
}

/* Replays list onto *base for r's branch; 1 when it stopped at a
 * conflict */
static int replay_list(struct replay *r, git_oid *base, const git_oid *list,
		       size_t n)
{
	git_repository *repo;
	git_index *merged = NULL;
	size_t k;
	int rc;

	if ((rc = ctx_repo(&repo, r->ctx, 1)) < 0)
		return rc;
	for (k = 0; k < n; k++) {
		git_oid onto = *base;

		rc = replay_one(base, &r->dropped, &merged, repo, &list[k],
				r->notes, r->committer, &r->signer,
				&r->ctx->err);
		if (rc == 1) {
			rc = present_conflict(r, &onto, merged, list + k,
					      n - k);
			git_index_free(merged);
			return rc < 0 ? rc : 1;
		}
		if (rc < 0)
			return rc;
	}
	return 0;
}

static const git_oid *new_base(const struct stack_op *op, size_t i)
{
	const struct op_branch *b = &op->b[i];

	return b->pidx >= 0 ? &op->b[b->pidx].new : &b->onto;
}

static void done_line(struct restack_result *out, const struct op_branch *b,
		      size_t n, size_t dropped, size_t already)
{
	char o[8], w[8], in[64] = "";

	/* a branch that ends where it was changed nothing: no line */
	if (git_oid_equal(&b->old, &b->new))
		return;
	git_oid_tostr(o, sizeof(o), &b->old);
	git_oid_tostr(w, sizeof(w), &b->new);
	if (already)
		snprintf(in, sizeof(in), ", %zu already upstream, dropped",
			 already);
	strvec_push_owned(&out->done,
			  xasprintf("%s: %s -> %s (%zu commit%s%s%s)", b->name,
				    o, w, n, n == 1 ? "" : "s", in,
				    dropped ? ", empty ones dropped" : ""));
}

static int record_replay(struct stack_op *op, struct ctx *ctx, size_t i,
			 const git_oid *tip, cJSON *notes)
{
	cJSON *d = cJSON_CreateObject();

	op->b[i].done = 1;
	op->b[i].new = *tip;
	cJSON_Delete(op->b[i].notes);
	op->b[i].notes = cJSON_Duplicate(notes, 1);
	op->partial = 0;
	op->conflict = 0;
	cJSON_AddNumberToObject(d, "i", (double)i);
	cJSON_AddItemToObject(d, "new", repo_oid_json(tip));
	cJSON_AddItemReferenceToObject(d, "notes", notes);
	return stack_op_step(op, ctx, "replay", d);
}

/* Builds the updates of a restack: branch refs, the notes refs (one notes
 * commit per copied note, on top of each ref's current notes), the
 * records. */
static int build_apply(cJSON **out, struct stack_op *op, struct ctx *ctx)
{
	git_repository *repo;
	cJSON *j = cJSON_CreateObject(), *refs, *cfg, *e;
	int rc = 0;
	size_t i;

	*out = NULL;
	if ((rc = ctx_repo(&repo, ctx, 1)) < 0)
		goto out;
	refs = cJSON_AddArrayToObject(j, "refs");
	cfg = cJSON_AddArrayToObject(j, "cfg");
	for (i = 0; i < op->n; i++) {
		const struct op_branch *b = &op->b[i];
		char *ref;

		if (!b->done)
			continue;
		if (!git_oid_equal(&b->new, &b->old)) {
			ref = xasprintf("refs/heads/%s", b->name);
			e = cJSON_CreateObject();
			cJSON_AddStringToObject(e, "ref", ref);
			cJSON_AddStringToObject(e, "branch", b->name);
			cJSON_AddItemToObject(e, "old", repo_oid_json(&b->old));
			cJSON_AddItemToObject(e, "new", repo_oid_json(&b->new));
			cJSON_AddItemToArray(refs, e);
			free(ref);
		}
		e = cJSON_CreateObject();
		cJSON_AddStringToObject(e, "branch", b->name);
		cJSON_AddItemToObject(
			e, "parent_old",
			b->parent_old ? cJSON_CreateString(b->parent_old)
				      : cJSON_CreateNull());
		cJSON_AddItemToObject(e, "tip_old",
				      b->tip_old
					      ? cJSON_CreateString(b->tip_old)
					      : cJSON_CreateNull());
		cJSON_AddStringToObject(e, "parent_new", b->parent_new);
		cJSON_AddItemToObject(e, "tip_new",
				      repo_oid_json(new_base(op, i)));
		cJSON_AddItemToArray(cfg, e);
	}
	/* notes, as git rebase copies them: libgit2's rewrites do not */
	if ((rc = stack_rewrite_notes(refs, op, ctx)) < 0)
		goto out;
	*out = j;
	j = NULL;
out:
	cJSON_Delete(j);
	return rc;
}

/*
 * Before any ref moves, as git rebase refuses before it starts: an
 * untracked file that the checkout of HEAD's new tip (in apply) would
 * overwrite refuses the operation, the file named. One that has touched
 * nothing yet is closed, with nothing changed; one that has (a conflict
 * was checked out) stays, for continue once the file is moved aside.
 */
static int check_in_way(struct stack_op *op, struct ctx *ctx,
			const cJSON *apply)
{
	struct strvec paths = STRVEC_INIT;
	struct buf list = BUF_INIT;
	git_repository *repo;
	git_commit *commit = NULL;
	git_index *index = NULL;
	struct stack_wt_move *moves = NULL;
	const struct stack_wt_move *where = NULL;
	const cJSON *e;
	char *ref;
	git_oid to;
	size_t k, nm;
	int rc, found = 0;

	if ((rc = ctx_repo(&repo, ctx, 1)) < 0)
		return rc;
	nm = stack_op_wt_moves(&moves, op);
	for (k = 0; k < nm && !paths.nr; k++) {
		if ((rc = stack_wt_in_way(&paths, moves[k].path, &moves[k].new,
					  &ctx->err)) < 0)
			goto out;
		if (paths.nr)
			where = &moves[k];
	}
	if (paths.nr)
		goto refuse;
	if (!op->head)
		goto out;
	ref = xasprintf("refs/heads/%s", op->head);
	cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(apply, "refs")) {
		const char *name = json_get_str(e, "ref");

		if (name && !strcmp(name, ref) &&
		    repo_oid_from_json(&to, cJSON_GetObjectItemCaseSensitive(
						    e, "new")) == 0)
			found = 1;
	}
	free(ref);
	if (!found)
		goto out;
	if ((rc = git_commit_lookup(&commit, repo, &to)) < 0 ||
	    (rc = git_repository_index(&index, repo)) < 0 ||
	    (rc = git_index_read(index, 0)) < 0 ||
	    (rc = stack_recover_untracked_in_way(&paths, repo, commit, index)) <
		    0) {
		rc = error_git(&ctx->err, rc,
			       "cannot read the work tree of '%s'", op->head);
		goto out;
	}
	if (!paths.nr)
		goto out;
refuse:
	for (k = 0; k < paths.nr; k++)
		buf_addf(&list, "%s%s", k ? ", " : "", paths.v[k]);
	if (!op->touched) {
		stack_op_drop_backups(repo, op);
		if ((rc = stack_op_finish(op, ctx, 0)) < 0)
			goto out;
	}
	if (where)
		rc = error_set(&ctx->err, GCAMP_EFATAL,
			       "untracked files in the work tree of '%s' (%s) "
			       "would be overwritten: %s; %s",
			       where->branch, where->path, list.ptr,
			       op->touched ? "no branch was moved yet"
					   : "nothing was restacked");
	else
		rc = error_set(&ctx->err, GCAMP_EFATAL,
			       "untracked files in the work tree of '%s' would "
			       "be overwritten: %s; %s",
			       op->head, list.ptr,
			       op->touched ? "no branch was moved yet"
					   : "nothing was restacked");
	if (op->touched)
		error_hint(&ctx->err, "move them aside, then run 'git campaign "
				      "stack continue'");
	else
		error_hint(&ctx->err, "move them aside, then run it again");
out:
	free(moves);
	buf_release(&list);
	strvec_clear(&paths);
	git_commit_free(commit);
	git_index_free(index);
	return rc;
}

/* From the apply step on: move the refs, write the records, update the
 * work tree, close the journal. */
int restack_finish_op(struct stack_op *op, struct ctx *ctx,
		      struct restack_result *out)
{
	cJSON *apply = NULL;
	int rc;

	if (!op->apply) {
		if (op->fixed)
			apply = cJSON_Duplicate(op->fixed, 1);
		else if ((rc = build_apply(&apply, op, ctx)) < 0)
			return rc;
		if ((rc = check_in_way(op, ctx, apply)) < 0) {
			cJSON_Delete(apply);
			return rc;
		}
		op->apply = apply;
		if ((rc = stack_op_step(op, ctx, "apply",
					cJSON_Duplicate(apply, 1))) < 0)
			return rc;
		trace_printf("restack: updates built");
	}
	if (!op->applied) {
		if ((rc = stack_op_apply_refs(op, ctx, 0, NULL)) < 0)
			return rc;
		op->applied = 1;
		if ((rc = stack_op_step(op, ctx, "applied", NULL)) < 0)
			return rc;
		trace_printf("restack: refs and records updated");
	}
	if ((rc = stack_op_checkout(op, ctx)) < 0)
		return rc;
	trace_printf("restack: work tree updated");
	out->op_id = op->id;
	if ((rc = stack_op_finish(op, ctx, 1)) < 0)
		return rc;
	/* as after git rebase: undo and delete rewrite no commit */
	if (!op->fixed)
		stack_rewrite_hook(op, ctx);
	return 0;
}

/* The commits one branch replays, and how many were already upstream */
struct queued {
	git_oid *list;
	size_t n, already;
};

/*
 * The commits of every branch still to replay, into a new array of op->n
 * (NULL lists for the others). All listed before anything is written:
 * libgit2 rescans the object database after each new object it writes,
 * which makes the next walk of commits read the commit-graph file again
 * (and check its whole hash), once per branch otherwise. The ranges read
 * old commits only, and a root's new base is an old commit too.
 */
static int list_queue(struct queued **out, struct stack_op *op,
		      struct replay *r)
{
	struct queued *q = xcalloc(op->n + 1, sizeof(*q));
	git_repository *repo;
	size_t i;
	int rc;

	*out = q;
	if ((rc = ctx_repo(&repo, r->ctx, 1)) < 0)
		return rc;
	for (i = 0; i < op->n; i++) {
		struct op_branch *b = &op->b[i];

		if (b->done || b->skipped)
			continue;
		if ((rc = range(&q[i].list, &q[i].n, repo, &b->upstream,
				&b->old, b->name, &r->ctx->err)) < 0)
			return rc;
		/* a branch whose parent is replayed here sits on commits
		 * that were its parent's own: only a root's new base brings
		 * changes from elsewhere (one that still matches below
		 * becomes empty, and is dropped so) */
		if (b->pidx < 0)
			q[i].already =
				drop_already_in(&r->patchids, repo, &b->onto,
						&b->old, q[i].list, &q[i].n);
	}
	return 0;
}

/* restack_run_queue's work, with the committer in r */
static int run_queue(struct replay *r)
{
	struct stack_op *op = r->op;
	struct ctx *ctx = r->ctx;
	struct restack_result *out = r->out;
	struct queued *q = NULL;
	git_repository *repo;
	git_oid *list = NULL;
	size_t i, n;
	int rc;

	if ((rc = ctx_repo(&repo, ctx, 1)) < 0)
		return rc;
	if (op->partial) {
		git_oid base = op->p_new;

		r->branch = i = op->pi;
		r->dropped = 0;
		r->notes = cJSON_Duplicate(op->p_notes, 1);
		list = list_from_json(&n, op->p_rest);
		rc = replay_list(r, &base, list, n);
		if (rc == 0 &&
		    (rc = record_replay(op, ctx, i, &base, r->notes)) == 0)
			done_line(out, &op->b[i], n + 1, r->dropped, 0);
		free(list);
		list = NULL;
		cJSON_Delete(r->notes);
		r->notes = NULL;
		if (rc)
			return rc < 0 ? rc : 0;
	}
	if ((rc = list_queue(&q, op, r)) < 0)
		goto out;
	for (i = 0; i < op->n; i++) {
		struct op_branch *b = &op->b[i];
		git_oid base;

		if (b->pidx >= 0 && op->b[b->pidx].skipped)
			b->skipped = 1; /* its parent stays: so does it */
		if (b->done || b->skipped)
			continue;
		base = *new_base(op, i);
		r->branch = i;
		r->dropped = 0;
		r->notes = cJSON_CreateArray();
		rc = replay_list(r, &base, q[i].list, q[i].n);
		if (rc == 0 &&
		    (rc = record_replay(op, ctx, i, &base, r->notes)) == 0)
			done_line(out, b, q[i].n, r->dropped, q[i].already);
		cJSON_Delete(r->notes);
		r->notes = NULL;
		if (rc) {
			rc = rc < 0 ? rc : 0;
			goto out;
		}
	}
	rc = restack_finish_op(op, ctx, out);
out:
	for (i = 0; q && i < op->n; i++)
		free(q[i].list);
	free(q);
	return rc;
}

/* Replays every branch not yet done, parents first, then finishes. */
int restack_run_queue(struct stack_op *op, struct ctx *ctx,
		      struct restack_result *out, int no_checkout)
{
	struct replay r = {op,		ctx, out,  0,	NULL,
			   no_checkout, 0,   NULL, {0}, {0}};
	int rc;

	/* as git rebase: the committer is who rewrites, and the time now;
	 * commit.gpgSign signs */
	if ((rc = ctx_signature(&r.committer, ctx, SIG_COMMITTER)) < 0)
		return rc;
	if ((rc = stack_signer_load(&r.signer, ctx, r.committer)) == 0)
		rc = run_queue(&r);
	stack_signer_release(&r.signer);
	patchid_cache_release(&r.patchids);
	git_signature_free(r.committer);
	return rc;
}

int stack_op_run_fixed(struct stack_op *op, struct ctx *ctx,
		       struct restack_result *out, const char *summary)
{
	int rc;

	if ((rc = stack_op_begin(op, ctx, summary)) < 0 ||
	    (rc = stack_op_backup(op, ctx)) < 0)
		return rc;
	out->op_id = op->id;
	return restack_finish_op(op, ctx, out);
}
