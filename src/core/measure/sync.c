/* git campaign sync: fetch, merge and push measurements (notes) and
 * fingerprints (env refs), with the `git` program for the network and
 * libgit2 for everything else. */
#include "core/measure/sync.h"

#include <dirent.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/measure/notesmerge.h"
#include "io/ownlock.h"
#include "io/proc.h"
#include "io/signature.h"
#include "io/repo.h"
#include "util/strvec.h"
#include "util/trace.h"
#include "util/xalloc.h"

struct syncer {
	struct ctx *ctx;
	git_repository *repo;
	const struct sync_opts *o;
	struct sync_report *rep;
	const char *remote;
	char *tracking_notes; /* refs/notes/remotes/REMOTE/campaign */
	char *tracking_env;   /* refs/campaign/remotes/REMOTE/env/ */
	char *locks[3];	      /* the tracking notes ref's and reflog's .lock */
	struct strvec all_locks; /* those, then the env tracking refs' */
};

void sync_report_release(struct sync_report *r)
{
	struct sync_report empty = SYNC_REPORT_INIT;

	if (!r)
		return;
	free(r->remote);
	*r = empty;
}

static void say(struct syncer *s, int notice, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void say(struct syncer *s, int notice, const char *fmt, ...)
{
	struct buf line = BUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	buf_vaddf(&line, fmt, ap);
	va_end(ap);
	trace_printf("sync: %s", line.ptr);
	if (s->o->say)
		s->o->say(notice, line.ptr, s->o->say_data);
	buf_release(&line);
}

static int starts_with(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

void sync_git_reason(struct buf *out, const char *text)
{
	struct buf line = BUF_INIT, last_error = BUF_INIT;
	const char *p = text, *nl;

	buf_reset(out);
	while (*p) {
		nl = strchr(p, '\n');
		buf_reset(&line);
		buf_add(&line, p, nl ? (size_t)(nl - p) : strlen(p));
		buf_rtrim(&line);
		if (starts_with(line.ptr, "fatal: ")) {
			buf_puts(out, line.ptr + 7);
			goto done;
		}
		if (starts_with(line.ptr, "error: ")) {
			buf_reset(&last_error);
			buf_puts(&last_error, line.ptr + 7);
		}
		if (!nl)
			break;
		p = nl + 1;
	}
	if (last_error.len)
		buf_puts(out, last_error.ptr);
	else
		proc_last_line(out, text);
	if (!out->len)
		buf_puts(out, "git said nothing");
done:
	buf_release(&line);
	buf_release(&last_error);
}

/* Runs `git ARGS...` with stdin closed, as proc_git finds the repository:
 * where we run, with our environment, no GIT_DIR. */
static int run_git(struct proc_result *res, struct syncer *s,
		   const struct strvec *args, int tee)
{
	struct proc_opts po = {.stdin_null = 1, .tee_stderr = tee};

	trace_printf("sync: run git %s", args->v[0]);
	return proc_git(res, (const char *const *)args->v, &po, &s->ctx->err);
}

/* The commit a ref points at, or NULL when the ref does not exist. */
static int ref_commit(const git_oid **out, git_oid *store, struct syncer *s,
		      const char *name)
{
	int rc = git_reference_name_to_id(store, s->repo, name);

	*out = NULL;
	if (rc == GIT_ENOTFOUND)
		return 0;
	if (rc < 0)
		return error_git(&s->ctx->err, rc, "cannot read '%s'", name);
	*out = store;
	return 0;
}

/* 1 when the remote answers and has no refs/notes/campaign, 0 when it has
 * one or cannot be asked */
static int remote_lacks_notes(struct syncer *s)
{
	struct proc_result res = PROC_RESULT_INIT;
	struct strvec args = STRVEC_INIT;
	int lacks;

	strvec_push(&args, "ls-remote");
	strvec_push(&args, "--exit-code");
	strvec_push(&args, s->remote);
	strvec_push(&args, SYNC_NOTES_REF);
	/* --exit-code: 2 when no ref matched */
	lacks = run_git(&res, s, &args, 0) == 0 && res.status == 2;
	proc_result_release(&res);
	strvec_clear(&args);
	error_clear(&s->ctx->err);
	return lacks;
}

static int fetch_once(struct proc_result *res, struct syncer *s, int with_notes)
{
	struct strvec args = STRVEC_INIT;
	struct buf spec = BUF_INIT;
	int rc;

	strvec_push(&args, "fetch");
	strvec_push(&args, "--no-tags");
	strvec_push(&args, "--no-write-fetch-head");
	strvec_push(&args, "--recurse-submodules=no");
	strvec_push(&args, s->o->progress ? "--progress" : "--quiet");
	strvec_push(&args, s->remote);
	if (with_notes) {
		buf_addf(&spec, "+%s:%s", SYNC_NOTES_REF, s->tracking_notes);
		strvec_push(&args, spec.ptr);
		buf_reset(&spec);
	}
	buf_addf(&spec, "+%s*:%s*", SYNC_ENV_PREFIX, s->tracking_env);
	strvec_push(&args, spec.ptr);
	rc = run_git(res, s, &args, s->o->progress);
	strvec_clear(&args);
	buf_release(&spec);
	return rc;
}

/* The .lock files a killed fetch may leave: the tracking notes ref's and
 * its reflog's, and those in the env tracking folder, NULL-terminated */
static const char *const *tracking_locks(struct syncer *s)
{
	char *dir = xasprintf("%s%s", git_repository_commondir(s->repo),
			      s->tracking_env);
	struct dirent *e;
	DIR *d = opendir(dir);
	size_t n;

	strvec_clear(&s->all_locks);
	strvec_push(&s->all_locks, s->locks[0]);
	strvec_push(&s->all_locks, s->locks[1]);
	while (d && (e = readdir(d))) {
		n = strlen(e->d_name);
		if (n > 5 && !strcmp(e->d_name + n - 5, ".lock"))
			strvec_pushf(&s->all_locks, "%s%s", dir, e->d_name);
	}
	if (d)
		closedir(d);
	free(dir);
	return (const char *const *)s->all_locks.v;
}

/* Step 1. A remote without the notes ref fails git's exact refspec; then
 * ls-remote tells a first sync from an unreachable remote. */
static int fetch(struct syncer *s)
{
	struct proc_result res = PROC_RESULT_INIT;
	struct buf why = BUF_INIT;
	int rc;

	say(s, 0, "fetching measurements from '%s'", s->remote);
	if ((rc = fetch_once(&res, s, 1)) < 0)
		goto out;
	s->rep->remote_had_notes = 1;
	if (res.status && remote_lacks_notes(s)) {
		s->rep->remote_had_notes = 0;
		if ((rc = fetch_once(&res, s, 0)) < 0)
			goto out;
	}
	trace_printf("sync: git fetch exited %d after %.3f s", res.status,
		     res.wall_s);
	/* a fetch killed while it held the tracking ref's lock left it:
	 * the fetch was ours, so is the lock */
	if (res.signaled)
		ownlock_clear_stale(tracking_locks(s));
	if (res.status) {
		sync_git_reason(&why, res.err.ptr);
		rc = error_set(&s->ctx->err, GCAMP_EFATAL,
			       "cannot fetch from '%s': %s", s->remote,
			       why.ptr);
		if (!res.signaled && access(s->locks[0], F_OK) == 0)
			error_hint(&s->ctx->err,
				   "if no other git is running, remove a "
				   "stale '%s'",
				   s->locks[0]);
	}
out:
	buf_release(&why);
	proc_result_release(&res);
	return rc;
}

static void backoff(int round);

/* Step 2: merge the fetched notes into ours and move our ref by
 * compare-and-swap; *tip is our notes commit afterwards (NULL: none). */
static int merge(struct syncer *s, const git_oid **tip, git_oid *tip_store,
		 struct notes_merge_result *mr)
{
	git_oid local_store, remote_store;
	const git_oid *local, *remote;
	git_signature *sig = NULL;
	git_reference *ref = NULL;
	struct buf msg = BUF_INIT, log = BUF_INIT;
	int rc, tries;

	buf_addf(&msg, "Notes merged by 'git campaign sync' from '%s'\n",
		 s->remote);
	if ((rc = ctx_signature(&sig, s->ctx, SIG_TOOL)) < 0)
		goto out;
	/* another writer (measure add) may move our ref between read and
	 * swap: then read it again and redo the merge */
	for (tries = 0;; tries++) {
		if ((rc = ref_commit(&local, &local_store, s, SYNC_NOTES_REF)) <
			    0 ||
		    (rc = ref_commit(&remote, &remote_store, s,
				     s->tracking_notes)) < 0 ||
		    (rc = notes_merge(mr, s->repo, local, remote, sig, msg.ptr,
				      &s->ctx->err)) < 0)
			goto out;
		*tip = NULL;
		if (local) {
			git_oid_cpy(tip_store, local);
			*tip = tip_store;
		}
		if (!mr->changed)
			break;
		buf_reset(&log);
		buf_addf(&log, "campaign sync: %s '%s'",
			 mr->merged ? "merge from" : "fast-forward to",
			 s->remote);
		if (local)
			rc = git_reference_create_matching(
				&ref, s->repo, SYNC_NOTES_REF, &mr->commit, 1,
				local, log.ptr);
		else
			rc = git_reference_create(&ref, s->repo, SYNC_NOTES_REF,
						  &mr->commit, 0, log.ptr);
		git_reference_free(ref);
		ref = NULL;
		if (rc == 0) {
			git_oid_cpy(tip_store, &mr->commit);
			*tip = tip_store;
			break;
		}
		if ((rc != GIT_EMODIFIED && rc != GIT_EEXISTS &&
		     rc != GIT_ELOCKED) ||
		    tries + 1 == SYNC_TRIES) {
			rc = error_git(&s->ctx->err, rc, "cannot update '%s'",
				       SYNC_NOTES_REF);
			goto out;
		}
		trace_printf("sync: %s moved meanwhile; merging again",
			     SYNC_NOTES_REF);
		/* a writer holding the ref's lock needs a moment */
		if (rc == GIT_ELOCKED)
			backoff(tries);
	}
	trace_printf("sync: notes %s: %zu notes, %zu lines added, %zu to push",
		     mr->merged		? "merged"
		     : mr->fast_forward ? "fast-forwarded"
					: "kept",
		     mr->notes, mr->lines_added, mr->lines_to_push);
	s->rep->lines_added += mr->lines_added;
	if (mr->merged)
		s->rep->notes = "merged";
	else if (mr->fast_forward)
		s->rep->notes = "fast-forward";
	else if (*tip && strcmp(s->rep->notes, "none") == 0)
		s->rep->notes = "up to date";
out:
	git_signature_free(sig);
	buf_release(&msg);
	buf_release(&log);
	return rc;
}

struct env_walk {
	struct syncer *s;
	struct strvec *ids; /* the ids seen */
};

static int collect_env_id(const char *name, const char *oid, void *data)
{
	struct env_walk *w = data;
	const char *slash = strrchr(name, '/');

	(void)oid;
	strvec_push(w->ids, slash ? slash + 1 : name);
	return 0;
}

/* The ids under prefix (a ref folder ending in '/'), sorted. */
static int env_ids(struct strvec *out, struct syncer *s, const char *prefix)
{
	struct env_walk w = {s, out};
	struct refs refs;
	int rc;

	repo_refs(&refs, s->repo);
	rc = refs_for_each_prefix(&refs, prefix, collect_env_id, &w);
	if (rc < 0)
		return error_set(&s->ctx->err, rc, "cannot list '%s'", prefix);
	strvec_sort(out);
	return 0;
}

static int in_sorted(const struct strvec *v, const char *s)
{
	size_t lo = 0, hi = v->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(v->v[mid], s);

		if (!c)
			return 1;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

/* Step 3: copy the fetched env refs we lack; *to_push gets the local ids
 * the remote lacks. */
static int copy_env(struct syncer *s, struct strvec *to_push)
{
	struct strvec theirs = STRVEC_INIT, ours = STRVEC_INIT;
	struct buf from = BUF_INIT, to = BUF_INIT, log = BUF_INIT;
	git_reference *ref = NULL;
	git_oid id;
	size_t i;
	int rc;

	if ((rc = env_ids(&theirs, s, s->tracking_env)) < 0 ||
	    (rc = env_ids(&ours, s, SYNC_ENV_PREFIX)) < 0)
		goto out;
	buf_addf(&log, "campaign sync: env from '%s'", s->remote);
	for (i = 0; i < theirs.nr; i++) {
		if (in_sorted(&ours, theirs.v[i]))
			continue;
		buf_reset(&from);
		buf_reset(&to);
		buf_addf(&from, "%s%s", s->tracking_env, theirs.v[i]);
		buf_addf(&to, "%s%s", SYNC_ENV_PREFIX, theirs.v[i]);
		if ((rc = git_reference_name_to_id(&id, s->repo, from.ptr)) <
		    0) {
			rc = error_git(&s->ctx->err, rc, "cannot read '%s'",
				       from.ptr);
			goto out;
		}
		/* force 0: an env made here meanwhile is kept as it is */
		rc = git_reference_create(&ref, s->repo, to.ptr, &id, 0,
					  log.ptr);
		git_reference_free(ref);
		ref = NULL;
		if (rc == GIT_EEXISTS)
			continue;
		if (rc < 0) {
			rc = error_git(&s->ctx->err, rc, "cannot create '%s'",
				       to.ptr);
			goto out;
		}
		s->rep->env_copied++;
	}
	for (i = 0; i < ours.nr; i++)
		if (!in_sorted(&theirs, ours.v[i]))
			strvec_push(to_push, ours.v[i]);
	rc = 0;
out:
	strvec_clear(&theirs);
	strvec_clear(&ours);
	buf_release(&from);
	buf_release(&to);
	buf_release(&log);
	return rc;
}

/* The first refusal in `git push --porcelain` output, a line
 * "!<TAB>FROM:TO<TAB>[rejected] (fetch first)": its last field in why.
 * 1 when there is one. */
static int push_refusal(struct buf *why, const char *out)
{
	const char *p = out, *end, *tab;

	for (; *p; p = *end ? end + 1 : end) {
		end = strchr(p, '\n');
		if (!end)
			end = p + strlen(p);
		if (!starts_with(p, "!\t"))
			continue;
		tab = memchr(p + 2, '\t', (size_t)(end - p - 2));
		buf_reset(why);
		if (tab)
			buf_add(why, tab + 1, (size_t)(end - tab - 1));
		else
			buf_puts(why, "refused");
		return 1;
	}
	return 0;
}

/*
 * Step 4. Returns 0 when pushed, 1 when the remote refused one of the refs
 * (`!` in git push --porcelain: moved meanwhile, or a hook said no), with
 * the refusal in why; a push that failed otherwise is an error.
 */
static int push(struct syncer *s, int notes, const struct strvec *env,
		struct buf *why)
{
	struct proc_result res = PROC_RESULT_INIT;
	struct strvec args = STRVEC_INIT;
	struct buf spec = BUF_INIT;
	size_t i;
	int rc;

	say(s, 0, "pushing measurements to '%s'", s->remote);
	strvec_push(&args, "push");
	strvec_push(&args, "--porcelain");
	strvec_push(&args, "--recurse-submodules=no");
	strvec_push(&args, s->o->progress ? "--progress" : "--quiet");
	strvec_push(&args, s->remote);
	if (notes) {
		buf_addf(&spec, "%s:%s", SYNC_NOTES_REF, SYNC_NOTES_REF);
		strvec_push(&args, spec.ptr);
	}
	for (i = 0; i < env->nr; i++) {
		buf_reset(&spec);
		buf_addf(&spec, "%s%s:%s%s", SYNC_ENV_PREFIX, env->v[i],
			 SYNC_ENV_PREFIX, env->v[i]);
		strvec_push(&args, spec.ptr);
	}
	if ((rc = run_git(&res, s, &args, s->o->progress)) < 0 || !res.status)
		goto out;
	if (push_refusal(why, res.out.ptr)) {
		rc = 1;
		goto out;
	}
	sync_git_reason(why, res.err.ptr);
	rc = error_set(&s->ctx->err, GCAMP_EFATAL, "cannot push to '%s': %s",
		       s->remote, why->ptr);
out:
	proc_result_release(&res);
	strvec_clear(&args);
	buf_release(&spec);
	return rc;
}

/* After a push, the remote-tracking refs say what the remote now has, as
 * git push does for branches. */
static int track_pushed(struct syncer *s, const git_oid *tip,
			const struct strvec *env)
{
	struct buf name = BUF_INIT, log = BUF_INIT;
	git_reference *ref = NULL;
	git_oid id;
	size_t i;
	int rc = 0;

	buf_addf(&log, "campaign sync: pushed to '%s'", s->remote);
	if (tip && (rc = git_reference_create(&ref, s->repo, s->tracking_notes,
					      tip, 1, log.ptr)) < 0) {
		if (rc != GIT_ELOCKED) {
			rc = error_git(&s->ctx->err, rc, "cannot update '%s'",
				       s->tracking_notes);
			goto out;
		}
		rc = error_set(&s->ctx->err, GCAMP_EFATAL,
			       "cannot update '%s': another process holds "
			       "its lock",
			       s->tracking_notes);
		error_hint(&s->ctx->err,
			   "the push is done; if no other git is running, "
			   "remove a stale '%s' and sync again",
			   s->locks[0]);
		goto out;
	}
	for (i = 0; i < env->nr; i++) {
		git_reference_free(ref);
		ref = NULL;
		buf_reset(&name);
		buf_addf(&name, "%s%s", SYNC_ENV_PREFIX, env->v[i]);
		if ((rc = git_reference_name_to_id(&id, s->repo, name.ptr)) < 0)
			break;
		buf_reset(&name);
		buf_addf(&name, "%s%s", s->tracking_env, env->v[i]);
		if ((rc = git_reference_create(&ref, s->repo, name.ptr, &id, 1,
					       log.ptr)) < 0)
			break;
	}
	if (rc < 0)
		rc = error_git(&s->ctx->err, rc, "cannot update '%s'",
			       name.ptr);
out:
	git_reference_free(ref);
	buf_release(&name);
	buf_release(&log);
	return rc;
}

static int check_remote(struct syncer *s)
{
	git_remote *r = NULL;
	int valid = 0, rc;

	if (git_remote_name_is_valid(&valid, s->remote) < 0 || !valid) {
		error_set(&s->ctx->err, GCAMP_ENOTFOUND,
			  "'%s' is not a valid remote name", s->remote);
		error_hint(&s->ctx->err, "'git remote -v' lists the remotes");
		return GCAMP_ENOTFOUND;
	}
	rc = git_remote_lookup(&r, s->repo, s->remote);
	git_remote_free(r);
	if (rc == GIT_ENOTFOUND) {
		error_set(&s->ctx->err, GCAMP_ENOTFOUND, "no remote '%s'",
			  s->remote);
		error_hint(
			&s->ctx->err,
			"'git remote -v' lists the remotes; "
			"'git campaign config remote NAME' sets the default");
		return GCAMP_ENOTFOUND;
	}
	if (rc < 0)
		return error_git(&s->ctx->err, rc, "cannot read remote '%s'",
				 s->remote);
	return 0;
}

static void backoff(int round)
{
	long ms = (long)SYNC_BACKOFF_MS << round;
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};

	while (nanosleep(&ts, &ts) < 0)
		;
}

/* One fetch-merge-push round: 0 done, 1 the push was refused (why). */
static int round_trip(struct syncer *s, struct buf *why)
{
	struct notes_merge_result mr;
	struct strvec env = STRVEC_INIT;
	git_oid tip_store, remote_store;
	const git_oid *tip = NULL, *remote = NULL;
	int rc, push_notes;

	if ((rc = fetch(s)) < 0 || (rc = merge(s, &tip, &tip_store, &mr)) < 0 ||
	    (rc = copy_env(s, &env)) < 0 ||
	    (rc = ref_commit(&remote, &remote_store, s, s->tracking_notes)) < 0)
		goto out;
	if (tip)
		git_oid_cpy(&s->rep->tip, tip);
	/* after the merge our notes contain theirs: push unless equal */
	push_notes = tip && (!remote || !git_oid_equal(tip, remote));
	if (!push_notes && !env.nr)
		goto out;
	if ((rc = push(s, push_notes, &env, why)) != 0)
		goto out;
	s->rep->pushed = 1;
	s->rep->lines_pushed = push_notes ? mr.lines_to_push : 0;
	s->rep->env_pushed = env.nr;
	rc = track_pushed(s, push_notes ? tip : NULL, &env);
out:
	strvec_clear(&env);
	return rc;
}

int sync_run(struct sync_report *out, struct ctx *ctx,
	     const struct sync_opts *opts)
{
	struct syncer s = {ctx,	 NULL, opts,   out,	   NULL,
			   NULL, NULL, {NULL}, STRVEC_INIT};
	struct ownlock *guard = NULL;
	char *dir = NULL;
	struct gitcfg *cfg;
	struct buf why = BUF_INIT;
	const char *remote = opts->remote;
	int rc;

	sync_report_release(out);
	if ((rc = ctx_repo(&s.repo, ctx, 0)) < 0)
		goto out;
	if (!remote) {
		if ((rc = ctx_config(&cfg, ctx)) < 0)
			goto out;
		if (gitcfg_get(&remote, cfg, "campaign.remote") < 0)
			remote = "origin";
	}
	s.remote = out->remote = xstrdup(remote);
	if ((rc = check_remote(&s)) < 0)
		goto out;
	s.tracking_notes = xasprintf("refs/notes/remotes/%s/campaign", remote);
	s.tracking_env = xasprintf("refs/campaign/remotes/%s/env/", remote);
	/* one sync at a time; the locks a killed one (or its git) left
	 * on the tracking ref are the next one's to remove */
	dir = xasprintf("%scampaign", git_repository_commondir(s.repo));
	s.locks[0] = xasprintf("%s%s.lock", git_repository_commondir(s.repo),
			       s.tracking_notes);
	s.locks[1] =
		xasprintf("%slogs/%s.lock", git_repository_commondir(s.repo),
			  s.tracking_notes);
	if ((rc = ownlock_acquire(&guard, NULL, dir, "sync", tracking_locks(&s),
				  &ctx->err)) < 0)
		goto out;
	for (out->attempts = 1;; out->attempts++) {
		if ((rc = round_trip(&s, &why)) <= 0)
			break;
		if (out->attempts == SYNC_TRIES) {
			rc = error_set(&ctx->err, GCAMP_EFATAL,
				       "cannot push to '%s': refused %d times,"
				       " last: %s",
				       remote, SYNC_TRIES, why.ptr);
			error_hint(&ctx->err,
				   "what was fetched is merged here and "
				   "nothing local was lost; run 'git campaign "
				   "sync' again later");
			break;
		}
		say(&s, 1, "push refused (%s); trying again in %.1f s", why.ptr,
		    (double)((long)SYNC_BACKOFF_MS << (out->attempts - 1)) /
			    1e3);
		backoff(out->attempts - 1);
	}
out:
	ownlock_release(guard);
	free(dir);
	free(s.locks[0]);
	free(s.locks[1]);
	strvec_clear(&s.all_locks);
	free(s.tracking_notes);
	free(s.tracking_env);
	buf_release(&why);
	return rc;
}
