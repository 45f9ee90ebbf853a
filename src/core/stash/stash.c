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
#include <time.h>
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

int stash_ref_name(struct buf *out, struct ctx *ctx, const char *name)
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

/* A ref's lock held by another process is waited for this long, as the
 * database waits for its lock, before the command gives up */
#define LOCK_WAIT_MS 5000

/* 1 (after a nap) while rc says a lock is held and the wait is not over */
static int wait_locked(int rc, int *waited_ms)
{
	struct timespec nap = {0, 50 * 1000 * 1000};

	if (rc != GIT_ELOCKED || *waited_ms >= LOCK_WAIT_MS)
		return 0;
	nanosleep(&nap, NULL);
	*waited_ms += 50;
	git_error_clear();
	return 1;
}

/* Makes sure refname keeps a reflog: libgit2, like git, logs updates of
 * refs outside refs/heads only when the log file already exists. */
static int ensure_reflog(git_repository *repo, const char *refname)
{
	git_reflog *log = NULL;
	int rc = git_reflog_read(&log, repo, refname), waited = 0;

	if (!rc && !git_reflog_entrycount(log))
		while (wait_locked(rc = git_reflog_write(log), &waited))
			;
	git_reflog_free(log);
	return rc;
}

/* The error of a ref update that failed: a lock still held after the wait
 * is named, with the way out when its holder is gone */
static int ref_error(struct ctx *ctx, git_repository *repo, int rc,
		     const char *refname)
{
	if (rc != GIT_ELOCKED)
		return error_git(&ctx->err, rc, "cannot write '%s'", refname);
	error_set(&ctx->err, GCAMP_EFATAL,
		  "cannot write '%s': another process holds its lock", refname);
	error_hint(&ctx->err,
		   "nothing was changed; if no other git is running, remove "
		   "a stale '%s%s.lock' (or its reflog's) and run it again",
		   git_repository_commondir(repo), refname);
	return GCAMP_EFATAL;
}

/* Points the stash log at id with a reflog line naming what happened: the
 * log's reflog is what keeps every saved and dropped stash recoverable. */
int stash_log(struct ctx *ctx, git_repository *repo, const git_oid *id,
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
	int rc, waited = 0;

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
		while (wait_locked(rc = git_reflog_write(log), &waited))
			;
		goto out;
	}
	git_reference_free(ref);
	ref = NULL;
	while (wait_locked(rc = git_reference_create(&ref, repo, STASH_LOG_REF,
						     id, 1, what),
			   &waited))
		;
out:
	if (rc < 0)
		rc = ref_error(ctx, repo, rc, STASH_LOG_REF);
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

int stash_name_ref(struct ctx *ctx, git_repository *repo, const char *name,
		   const git_oid *id, const char *what)
{
	struct buf refname = BUF_INIT;
	git_reference *ref = NULL;
	int rc, waited = 0;

	if ((rc = stash_ref_name(&refname, ctx, name)) < 0)
		goto out;
	if (!git_reference_lookup(&ref, repo, refname.ptr)) {
		rc = GIT_EEXISTS;
		goto fail;
	}
	/* logged first: a failed update leaves no name, so a retry works */
	if ((rc = stash_log(ctx, repo, id, what)) < 0)
		goto out;
	if ((rc = ensure_reflog(repo, refname.ptr)) < 0)
		goto fail;
	while (wait_locked(
		rc = git_reference_create(&ref, repo, refname.ptr, id, 0, what),
		&waited))
		;
fail:
	if (rc == GIT_EEXISTS)
		rc = error_set(&ctx->err, GCAMP_EEXISTS,
			       "a stash named '%s' exists already", name);
	else if (rc < 0)
		rc = ref_error(ctx, repo, rc, refname.ptr);
out:
	git_reference_free(ref);
	buf_release(&refname);
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
	if ((rc = stash_ref_name(&refname, ctx, name)) < 0 ||
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
	    (rc = stash_ref_name(&refname, ctx, name)) < 0)
		goto out;
	/* log first: once the ref is gone its own reflog is gone too */
	buf_addf(&what, "campaign stash drop %s", name);
	if ((rc = stash_log(ctx, repo, &info.id, what.ptr)) < 0)
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

	if ((rc = stash_ref_name(&refname, ctx, name)) < 0 ||
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
	if ((rc = stash_name_ref(ctx, repo, name, git_object_id(o), what.ptr)) <
	    0)
		goto out;
	if (out)
		git_oid_cpy(out, git_object_id(o));
out:
	git_object_free(o);
	buf_release(&refname);
	buf_release(&what);
	return rc;
}
