/* Applying a named stash: a three-way merge of the stash's changes into the
 * index's tree, written to the working tree only after every path it
 * touches was checked to hold no local change, then its untracked files;
 * an apply killed half way is finished by running it again. */
#include "core/stash/apply.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/stash/journal.h"
#include "core/stash/stash.h"
#include "io/repo.h"
#include "util/buf.h"
#include "util/xalloc.h"

static int holds(git_repository *repo, const char *path, const git_oid *id)
{
	return stash_path_holds(repo, path, id, 0);
}

static int holds_start(git_repository *repo, const char *path,
		       const git_oid *id)
{
	return stash_path_holds(repo, path, id, 1);
}

/* 1 when nothing is at path in the working tree */
static int absent(git_repository *repo, const char *path)
{
	char *full = xasprintf("%s%s", git_repository_workdir(repo), path);
	struct stat st;
	int none = lstat(full, &st) < 0;

	free(full);
	return none;
}

/*
 * Adds to at_risk every path the merge would write over a local change,
 * and to touched every path it writes. A working file is at risk when it
 * differs from the index (or is untracked where the merge puts one) and
 * does not already hold what the merge writes there: a path that does was
 * written by an apply of this stash that was killed half way, so running
 * the command again finishes it, and only those paths are written.
 */
static int find_at_risk(struct strvec *at_risk, struct strvec *touched,
			git_repository *repo, git_tree *ours, git_index *merged,
			int resuming)
{
	git_diff *diff = NULL;
	size_t i, n;
	int rc;

	if ((rc = git_diff_tree_to_index(&diff, repo, ours, merged, NULL)) < 0)
		return rc;
	n = git_diff_num_deltas(diff);
	for (i = 0; i < n; i++) {
		const git_diff_delta *d = git_diff_get_delta(diff, i);
		const char *path = d->new_file.path;
		const git_index_entry *e;
		unsigned int flags = 0;

		strvec_push(touched, path);
		if (git_status_file(&flags, repo, path) < 0)
			continue; /* e.g. a path that is a folder now */
		if (!(flags & (GIT_STATUS_WT_MODIFIED | GIT_STATUS_WT_DELETED |
			       GIT_STATUS_WT_TYPECHANGE | GIT_STATUS_WT_NEW)))
			continue;
		e = git_index_get_bypath(merged, path, 0);
		if (e ? holds(repo, path, &e->id) ||
				    (resuming &&
				     holds_start(repo, path, &e->id))
		      : d->status == GIT_DELTA_DELETED && absent(repo, path))
			continue;
		strvec_push(at_risk, path);
	}
	git_diff_free(diff);
	return 0;
}

/* Paths of the untracked-files tree that exist in the working tree with
 * other content; those with the stash's own content (what a killed apply
 * left) go to done, to be written again */
static int find_existing(struct strvec *exist, struct strvec *done,
			 git_repository *repo, git_tree *untracked,
			 int resuming)
{
	git_index *idx = NULL;
	size_t i, n;
	int rc;

	if ((rc = git_index_new(&idx)) < 0 ||
	    (rc = git_index_read_tree(idx, untracked)) < 0)
		goto out;
	n = git_index_entrycount(idx);
	for (i = 0; i < n; i++) {
		const git_index_entry *e = git_index_get_byindex(idx, i);

		if (absent(repo, e->path))
			continue;
		strvec_push(holds(repo, e->path, &e->id) ||
					    (resuming &&
					     holds_start(repo, e->path, &e->id))
				    ? done
				    : exist,
			    e->path);
	}
out:
	git_index_free(idx);
	return rc;
}

static int refuse_paths(struct ctx *ctx, const struct strvec *paths,
			const char *name, const char *why)
{
	struct buf list = BUF_INIT;
	size_t i;

	for (i = 0; i < paths->nr && i < 5; i++)
		buf_addf(&list, "%s'%s'", i ? ", " : "", paths->v[i]);
	if (paths->nr > 5)
		buf_addf(&list, " and %zu more", paths->nr - 5);
	error_set(&ctx->err, GCAMP_EREFUSED,
		  "cannot apply stash '%s': it would overwrite %s %s", name,
		  why, list.ptr);
	error_hint(&ctx->err, "commit or stash those changes first; nothing "
			      "was changed and the stash is kept");
	buf_release(&list);
	return GCAMP_EREFUSED;
}

/* Stages the paths the stash added, as `git stash apply` does, so that a
 * new file does not come back as an untracked one */
static int stage_added(git_repository *repo, git_index *index, git_tree *ours,
		       git_index *merged)
{
	git_diff *diff = NULL;
	size_t i, n;
	int rc, added = 0;

	if ((rc = git_diff_tree_to_index(&diff, repo, ours, merged, NULL)) < 0)
		return rc;
	n = git_diff_num_deltas(diff);
	for (i = 0; i < n && !rc; i++) {
		const git_diff_delta *d = git_diff_get_delta(diff, i);

		if (d->status == GIT_DELTA_ADDED) {
			rc = git_index_add_bypath(index, d->new_file.path);
			added = 1;
		}
	}
	git_diff_free(diff);
	if (!rc && added)
		rc = git_index_write(index);
	return rc;
}

/* Makes dst hold what src holds, conflicts included */
static int copy_index(git_index *dst, git_index *src)
{
	git_index_conflict_iterator *it = NULL;
	const git_index_entry *anc, *our, *their;
	size_t i, n = git_index_entrycount(src);
	int rc;

	if ((rc = git_index_clear(dst)) < 0)
		return rc;
	for (i = 0; i < n && !rc; i++) {
		const git_index_entry *e = git_index_get_byindex(src, i);

		if (!git_index_entry_stage(e))
			rc = git_index_add(dst, e);
	}
	if (rc || (rc = git_index_conflict_iterator_new(&it, src)) < 0)
		return rc;
	while (!rc && !git_index_conflict_next(&anc, &our, &their, it))
		rc = git_index_conflict_add(dst, anc, our, their);
	git_index_conflict_iterator_free(it);
	return rc;
}

static void list_conflicts(struct strvec *out, git_index *merged)
{
	git_index_conflict_iterator *it = NULL;
	const git_index_entry *anc, *our, *their;

	if (git_index_conflict_iterator_new(&it, merged) < 0)
		return;
	while (!git_index_conflict_next(&anc, &our, &their, it))
		strvec_push(out, our	 ? our->path
				 : their ? their->path
					 : anc->path);
	git_index_conflict_iterator_free(it);
}

/* A named stash's trees: the commit it was made on, the stash, and its
 * untracked files (NULL when it has none) */
struct stash_trees {
	struct stash_info info;
	git_tree *base, *w, *u;
};

static void stash_trees_release(struct stash_trees *t)
{
	git_tree_free(t->base);
	git_tree_free(t->w);
	git_tree_free(t->u);
	stash_info_release(&t->info);
}

static int stash_trees_load(struct stash_trees *t, struct ctx *ctx,
			    git_repository *repo, const char *name)
{
	git_commit *stash = NULL, *base = NULL, *u = NULL;
	int rc;

	memset(t, 0, sizeof(*t));
	if ((rc = stash_lookup(&t->info, ctx, name)) < 0)
		return rc;
	if ((rc = git_commit_lookup(&stash, repo, &t->info.id)) < 0 ||
	    (rc = git_commit_parent(&base, stash, 0)) < 0 ||
	    (rc = git_commit_tree(&t->base, base)) < 0 ||
	    (rc = git_commit_tree(&t->w, stash)) < 0 ||
	    (t->info.has_untracked &&
	     ((rc = git_commit_parent(&u, stash, 2)) < 0 ||
	      (rc = git_commit_tree(&t->u, u)) < 0)))
		rc = error_git(&ctx->err, rc, "cannot read stash '%s'", name);
	git_commit_free(u);
	git_commit_free(base);
	git_commit_free(stash);
	if (rc < 0)
		stash_trees_release(t);
	return rc;
}

/* 1 when the apply journal at path names stash commit hex */
static int journal_names(const char *path, const char *hex)
{
	struct stash_journal j;
	int same;

	if (stash_journal_read(&j, path) < 0)
		return 0;
	same = !strcmp(j.id, hex);
	stash_journal_release(&j);
	return same;
}

/* Writes the journal: the stash commit being applied, its name, the verb */
static int journal_write(const char *path, const char *hex, const char *name,
			 int pop)
{
	struct stash_journal j;

	memset(&j, 0, sizeof(j));
	memcpy(j.id, hex, GIT_OID_HEXSZ);
	j.name = (char *)name;
	j.verb = (char *)(pop ? "pop" : "apply");
	return stash_journal_write(path, &j);
}

int stash_apply(struct ctx *ctx, const char *name, int pop,
		struct strvec *conflicts)
{
	git_repository *repo;
	struct stash_trees t;
	git_tree *ours = NULL;
	git_index *index = NULL, *merged = NULL;
	git_merge_options mo;
	git_checkout_options co;
	struct strvec risk = STRVEC_INIT, touched = STRVEC_INIT,
		      redo = STRVEC_INIT;
	char *journal = NULL;
	int resuming;
	size_t i;
	char hex[GIT_OID_HEXSZ + 1];
	git_oid ours_id;
	int rc;

	if ((rc = ctx_repo(&repo, ctx, 1)) < 0 ||
	    (rc = stash_save_undo(&resuming, ctx, name, pop)) < 0 || resuming)
		return rc;
	if ((rc = stash_trees_load(&t, ctx, repo, name)) < 0)
		return rc;
	git_oid_tostr(hex, sizeof(hex), &t.info.id);
	/* per work tree: in its own git folder */
	journal =
		xasprintf("%s" STASH_JOURNAL_APPLY, git_repository_path(repo));
	resuming = journal_names(journal, hex);
	if ((rc = git_repository_index(&index, repo)) < 0)
		goto git_fail;
	if (git_index_has_conflicts(index)) {
		rc = error_set(&ctx->err, GCAMP_EREFUSED,
			       "cannot apply stash '%s': the index has "
			       "unmerged paths",
			       name);
		goto out;
	}
	git_merge_options_init(&mo, GIT_MERGE_OPTIONS_VERSION);
	git_checkout_options_init(&co, GIT_CHECKOUT_OPTIONS_VERSION);
	if ((rc = git_index_write_tree(&ours_id, index)) < 0 ||
	    (rc = git_tree_lookup(&ours, repo, &ours_id)) < 0 ||
	    (rc = git_merge_trees(&merged, repo, t.base, ours, t.w, &mo)) < 0 ||
	    (rc = find_at_risk(&risk, &touched, repo, ours, merged, resuming)) <
		    0)
		goto git_fail;
	if (risk.nr) {
		rc = refuse_paths(ctx, &risk, name, "local changes to");
		goto out;
	}
	if (t.u) {
		if ((rc = find_existing(&risk, &redo, repo, t.u, resuming)) < 0)
			goto git_fail;
		if (risk.nr) {
			rc = refuse_paths(ctx, &risk, name, "untracked files");
			goto out;
		}
	}

	/* from here on a kill leaves files half written: the journal says
	 * whose, so that running the command again takes them for ours */
	if (!resuming && journal_write(journal, hex, name, pop) < 0) {
		rc = error_set(&ctx->err, GCAMP_EFATAL, "cannot write '%s': %s",
			       journal, strerror(errno));
		goto out;
	}
	/* an untracked file a killed apply wrote is the stash's own: it is
	 * written again, and checkout does not take it for someone's */
	for (i = 0; i < redo.nr; i++) {
		char *full = xasprintf("%s%s", git_repository_workdir(repo),
				       redo.v[i]);

		unlink(full);
		free(full);
	}
	/* every path written below was checked: nothing local is lost, so
	 * exactly those paths are forced (a killed apply left some of them
	 * written already) */
	co.checkout_strategy = GIT_CHECKOUT_FORCE |
			       GIT_CHECKOUT_ALLOW_CONFLICTS |
			       GIT_CHECKOUT_DONT_UPDATE_INDEX |
			       GIT_CHECKOUT_DISABLE_PATHSPEC_MATCH;
	co.baseline = ours;
	co.our_label = "Updated upstream";
	co.their_label = "Stashed changes";
	co.paths.strings = touched.v;
	co.paths.count = touched.nr;
	if ((touched.nr && (rc = git_checkout_index(repo, merged, &co)) < 0) ||
	    (t.u && (rc = repo_write_missing(repo, t.u)) < 0))
		goto git_fail;
	if (git_index_has_conflicts(merged)) {
		/* as git does: the index records the conflicts */
		list_conflicts(conflicts, merged);
		if ((rc = copy_index(index, merged)) < 0 ||
		    (rc = git_index_write(index)) < 0)
			goto git_fail;
		unlink(journal);
		rc = error_set(&ctx->err, GCAMP_EREFUSED,
			       "stash '%s' applied with conflicts in %zu "
			       "file%s; the stash is kept",
			       name, conflicts->nr,
			       conflicts->nr == 1 ? "" : "s");
		error_hint(&ctx->err,
			   "resolve them, 'git add' the files, "
			   "then 'git campaign stash drop %s'",
			   name);
		goto out;
	}
	if ((rc = stage_added(repo, index, ours, merged)) < 0)
		goto git_fail;
	if (pop && (rc = stash_drop(NULL, ctx, name, hex)) < 0)
		goto out;
	unlink(journal);
	/* a save of this stash stopped half way is undone now */
	free(journal);
	journal = xasprintf("%s" STASH_JOURNAL_SAVE, git_repository_path(repo));
	if (journal_names(journal, hex))
		unlink(journal);
	goto out;
git_fail:
	rc = error_git(&ctx->err, rc, "cannot apply stash '%s'", name);
out:
	strvec_clear(&risk);
	strvec_clear(&touched);
	strvec_clear(&redo);
	free(journal);
	git_index_free(merged);
	git_index_free(index);
	git_tree_free(ours);
	stash_trees_release(&t);
	return rc;
}

static int print_line(const git_diff_delta *d, const git_diff_hunk *h,
		      const git_diff_line *l, void *payload)
{
	struct buf *out = payload;

	(void)d;
	(void)h;
	if (l->origin == GIT_DIFF_LINE_CONTEXT ||
	    l->origin == GIT_DIFF_LINE_ADDITION ||
	    l->origin == GIT_DIFF_LINE_DELETION)
		buf_putc(out, l->origin);
	buf_add(out, l->content, l->content_len);
	return 0;
}

int stash_diff(struct buf *out, struct ctx *ctx, const char *name, int patch)
{
	git_repository *repo;
	struct stash_trees t;
	git_diff *diff = NULL;
	git_diff_stats *stats = NULL;
	git_buf text = GIT_BUF_INIT;
	git_index *idx = NULL;
	size_t i;
	int rc;

	if ((rc = ctx_repo(&repo, ctx, 0)) < 0 ||
	    (rc = stash_trees_load(&t, ctx, repo, name)) < 0)
		return rc;
	if ((rc = git_diff_tree_to_tree(&diff, repo, t.base, t.w, NULL)) < 0)
		goto git_fail;
	if (patch) {
		rc = git_diff_print(diff, GIT_DIFF_FORMAT_PATCH, print_line,
				    out);
	} else if (!(rc = git_diff_get_stats(&stats, diff)) &&
		   !(rc = git_diff_stats_to_buf(&text, stats,
						GIT_DIFF_STATS_FULL, 80))) {
		buf_add(out, text.ptr, text.size);
	}
	if (rc < 0)
		goto git_fail;
	if (t.u) {
		if ((rc = git_index_new(&idx)) < 0 ||
		    (rc = git_index_read_tree(idx, t.u)) < 0)
			goto git_fail;
		for (i = 0; i < git_index_entrycount(idx); i++)
			buf_addf(out, "untracked: %s\n",
				 git_index_get_byindex(idx, i)->path);
	}
	goto out;
git_fail:
	rc = error_git(&ctx->err, rc, "cannot show stash '%s'", name);
out:
	git_index_free(idx);
	git_buf_dispose(&text);
	git_diff_stats_free(stats);
	git_diff_free(diff);
	stash_trees_release(&t);
	return rc;
}
