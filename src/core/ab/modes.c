/* The A/B's modes: A's kept worktree, the stash procedure made safe, and
 * build outputs kept aside by tree id, each as a table of operations. */
#include "core/ab/modes.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/ab/gc.h"
#include "core/records/journal.h"
#include "core/stash/reinstate.h"
#include "core/stash/stash.h"
#include "io/ownlock.h"
#include "io/proc.h"
#include "io/repo.h"
#include "util/xalloc.h"

static int git_cmd(struct ctx *ctx, const char *const *argv)
{
	struct proc_result r = PROC_RESULT_INIT;
	struct buf last = BUF_INIT;
	int rc = proc_run(&r, argv, NULL, &ctx->err);

	if (!rc && r.status) {
		const char *fatal = strstr(r.err.ptr, "fatal: ");

		/* git's first fatal line names what failed (a lock's path);
		 * its advice comes after it */
		if (fatal && (fatal == r.err.ptr || fatal[-1] == '\n'))
			buf_add(&last, fatal + 7, strcspn(fatal + 7, "\n"));
		else
			proc_last_line(&last, r.err.ptr);
		rc = error_set(&ctx->err, GCAMP_EFATAL,
			       "'git %s %s' failed: %s", argv[1], argv[2],
			       last.ptr);
	}
	buf_release(&last);
	proc_result_release(&r);
	return rc;
}

/* The admin folder git keeps for the worktree at dir (its .git file's
 * "gitdir: PATH"), or NULL */
static char *admin_dir(const char *dir)
{
	char *dotgit = xasprintf("%s/.git", dir), line[4096];
	FILE *f = fopen(dotgit, "r");
	char *out = NULL;

	free(dotgit);
	if (!f)
		return NULL;
	if (fgets(line, sizeof(line), f) && !strncmp(line, "gitdir: ", 8)) {
		line[strcspn(line, "\n")] = '\0';
		out = xstrdup(line + 8);
	}
	fclose(f);
	return out;
}

/* Runs the checkout co in A's kept worktree at dir under a guard of ours:
 * only our runs write that worktree, so with the guard held, a lock file
 * of it that stays is a killed run's and is removed */
static int checkout_kept(struct ctx *ctx, git_repository *repo, const char *dir,
			 const char *const *co)
{
	char *admin = admin_dir(dir), *guard_dir, *locks[3] = {NULL};
	struct ownlock *guard = NULL;
	int rc;

	guard_dir = xasprintf("%scampaign", git_repository_commondir(repo));
	if (admin) {
		locks[0] = xasprintf("%s/index.lock", admin);
		locks[1] = xasprintf("%s/HEAD.lock", admin);
	}
	if ((rc = ownlock_acquire(&guard, NULL, guard_dir, "ab-worktree",
				  (const char *const *)locks, &ctx->err)) < 0)
		goto out;
	if (admin)
		ownlock_clear_stale((const char *const *)locks);
	rc = git_cmd(ctx, co);
	ownlock_release(guard);
out:
	free(locks[0]);
	free(locks[1]);
	free(admin);
	free(guard_dir);
	return rc;
}

/* A's worktree: $GIT_COMMON_DIR/campaign/worktrees/<key>, at commit id,
 * built again only when its tree or the build command changed since the
 * build recorded in <key>.built */
static int prepare_worktree(struct schedule *s, git_repository *repo,
			    const git_oid *commit, const char *key,
			    struct arm *a, char **out_dir)
{
	struct ctx *ctx = s->ctx;
	const struct ab_opts *o = s->o;
	char hex[GIT_OID_HEXSZ + 1], *dir, *stamp_path, stamp[512] = "";
	struct buf want = BUF_INIT;
	git_commit *c = NULL;
	struct stat st;
	FILE *fp;
	int rc;

	git_oid_tostr(hex, sizeof(hex), commit);
	dir = xasprintf("%scampaign/worktrees/%s",
			git_repository_commondir(repo), key);
	stamp_path = xasprintf("%s.built", dir);
	*out_dir = dir;
	a->dir = dir;
	if (stat(dir, &st) < 0) {
		const char *add[] = {"git", "worktree", "add", "--detach",
				     "-q",  dir,	hex,   NULL};
		char *parent = xasprintf("%scampaign/worktrees",
					 git_repository_commondir(repo));

		mkdir(parent, 0777);
		free(parent);
		if ((rc = git_cmd(ctx, add)) < 0)
			goto out;
	} else {
		const char *co[] = {"git",	"-C", dir, "checkout",
				    "--detach", "-q", hex, NULL};

		if ((rc = checkout_kept(ctx, repo, dir, co)) < 0)
			goto out;
	}
	if ((rc = git_commit_lookup(&c, repo, commit)) < 0) {
		rc = error_git(&ctx->err, rc, "cannot read %s", hex);
		goto out;
	}
	git_oid_tostr(hex, sizeof(hex), git_commit_tree_id(c));
	buf_addf(&want, "%s %s\n", hex, o->build);
	if ((fp = fopen(stamp_path, "r"))) {
		size_t n = fread(stamp, 1, sizeof(stamp) - 1, fp);

		stamp[n] = '\0';
		fclose(fp);
	}
	if (!strcmp(stamp, want.ptr)) {
		struct ab_progress ev = {.what = AB_PROGRESS_BUILT,
					 .arm = a->name,
					 .workload = hex};

		if (s->progress)
			s->progress(s->data, &ev);
		goto out;
	}
	unlink(stamp_path);
	if ((rc = ab_build(s, a, "base worktree")) < 0)
		goto out;
	if ((fp = fopen(stamp_path, "w"))) {
		fputs(want.ptr, fp);
		fclose(fp);
	}
out:
	git_commit_free(c);
	buf_release(&want);
	free(stamp_path);
	return rc;
}

char *ab_stash_name(long long op)
{
	return xasprintf("ab/%lld", op);
}

int ab_step(struct ctx *ctx, struct db *db, long long op, const char *what)
{
	return journal_step(db, op, what, NULL, &ctx->err);
}

/* Puts the change saved as stash name back into the working tree, after
 * what is recorded in ctx->err stopped the A/B; the outcome becomes that
 * error's hint. No stash: the change never left the working tree (a stash
 * is written before the tree is reset). */
static void put_back(struct ctx *ctx, const char *name)
{
	struct error keep = ctx->err, why;
	struct stash_info info;

	error_clear(&ctx->err);
	if (stash_lookup(&info, ctx, name) < 0) {
		ctx->err = keep;
		return;
	}
	stash_info_release(&info);
	if (stash_reinstate(ctx, name, 1, NULL) < 0) {
		why = ctx->err;
		ctx->err = keep;
		error_hint(&ctx->err, "your change is kept in stash '%s': %s",
			   name, why.msg);
	} else {
		ctx->err = keep;
		error_hint(&ctx->err,
			   "the working tree holds your change again");
	}
}

static int build_and_measure(struct schedule *s, struct db *db, long long op,
			     const struct arm *arm)
{
	char build_step[] = "build-A", measure_step[] = "measure-A";
	int rc;

	build_step[6] = measure_step[8] = arm->name;
	if ((rc = ab_step(s->ctx, db, op, build_step)) < 0 ||
	    (rc = ab_build(s, arm,
			   arm->name == 'A' ? "HEAD" : "working tree")) < 0 ||
	    (rc = ab_step(s->ctx, db, op, measure_step)) < 0)
		return rc;
	return ab_run_block(s, 0, s->res->npoints, arm);
}

/* Saves the change as stash m->stash and resets the working tree to HEAD;
 * from here until unstash_change, a failure has stash_restore put the
 * change back */
static int stash_change(struct ab_arms *m)
{
	int rc;

	m->in_stash = 1;
	if ((rc = ab_step(m->s->ctx, m->db, m->op, "stash")) < 0)
		return rc;
	return stash_save(NULL, m->s->ctx, m->stash,
			  "A/B: the change under test", 0);
}

/* Applies and drops the stash: the working tree and the index hold the
 * change again, staged as it was */
static int unstash_change(struct ab_arms *m)
{
	int rc;

	if ((rc = ab_step(m->s->ctx, m->db, m->op, "restore")) < 0)
		return rc;
	m->in_stash = 0;
	return stash_reinstate(m->s->ctx, m->stash, 1, NULL);
}

static void stash_restore(struct ab_arms *m)
{
	if (m->in_stash)
		put_back(m->s->ctx, m->stash);
}

/* Stash mode: the change is saved as stash ab/OP, A is HEAD built and
 * measured in place, then the stash is applied and dropped, and B built and
 * measured */
static int stash_run(struct ab_arms *m)
{
	int rc;

	if ((rc = build_and_measure(m->s, m->db, m->op, &m->a)) < 0 ||
	    (rc = unstash_change(m)) < 0)
		return rc;
	return build_and_measure(m->s, m->db, m->op, &m->b);
}

/* What made the copy in dir: DIR.built holds the build command and the
 * artifact path, so another build of the same tree is not taken for it */
static char *stamp_of(const struct ab_opts *o)
{
	return xasprintf("%s\n%s\n", o->build, o->artifact);
}

static int cached(const struct ab_opts *o, const char *dir)
{
	char *path = xasprintf("%s.built", dir), *want = stamp_of(o);
	char got[4096];
	struct stat st;
	size_t n = 0;
	FILE *fp = fopen(path, "r");

	if (fp) {
		n = fread(got, 1, sizeof(got) - 1, fp);
		fclose(fp);
	}
	got[n] = '\0';
	n = fp && !strcmp(got, want) && !stat(dir, &st);
	free(path);
	free(want);
	return (int)n;
}

static void write_stamp(const struct ab_opts *o, const char *dir)
{
	char *path = xasprintf("%s.built", dir), *stamp = stamp_of(o);
	FILE *fp = fopen(path, "w");

	if (fp) {
		fputs(stamp, fp);
		fclose(fp);
	}
	free(path);
	free(stamp);
}

/* Copies the build's output src into dest (renamed into place, so a
 * stopped copy is never taken for a build; an older copy of another build
 * of the same tree is replaced) */
static int keep_artifact(struct ctx *ctx, const struct ab_opts *o,
			 const char *dest, char arm)
{
	const char *src = o->artifact;
	const char *rm[] = {"rm", "-rf", dest, NULL};
	const char *argv[] = {"cp", "-a", src, NULL, NULL};
	struct proc_result r = PROC_RESULT_INIT;
	struct stat st;
	char *tmp = xasprintf("%s.tmp-%ld", dest, (long)getpid());
	int rc;

	if (stat(src, &st) < 0) {
		free(tmp);
		return error_set(&ctx->err, GCAMP_EFATAL,
				 "the build of %c made no '%s' (--artifact)",
				 arm, src);
	}
	argv[3] = tmp;
	rc = proc_run(&r, argv, NULL, &ctx->err);
	if (!rc && r.status)
		rc = error_set(&ctx->err, GCAMP_EFATAL,
			       "cannot copy '%s' aside: %s", src,
			       r.err.len ? r.err.ptr : "cp failed");
	proc_result_release(&r);
	if (!rc && !(rc = proc_run(&r, rm, NULL, &ctx->err)) && r.status)
		rc = error_set(&ctx->err, GCAMP_EFATAL,
			       "cannot replace the old build in '%s'", dest);
	if (!rc && rename(tmp, dest) < 0)
		rc = error_set(&ctx->err, GCAMP_EFATAL,
			       "cannot keep the build of %c in '%s': %s", arm,
			       dest, strerror(errno));
	if (!rc)
		write_stamp(o, dest);
	proc_result_release(&r);
	free(tmp);
	return rc;
}

static int build_artifact(struct schedule *s, struct db *db, long long op,
			  const struct arm *arm)
{
	char build_step[] = "build-A";
	int rc;

	build_step[6] = arm->name;
	if ((rc = ab_step(s->ctx, db, op, build_step)) < 0 ||
	    (rc = ab_build(s, arm,
			   arm->name == 'A' ? "HEAD" : "working tree")) < 0)
		return rc;
	return keep_artifact(s->ctx, s->o, arm->artifact, arm->name);
}

/* Runs the points, interleaved in the order asked for, or blocked: each
 * round runs every point once per arm, so a control that takes no count
 * runs once per round whatever the number of counts */
static int measure(struct ab_arms *m)
{
	struct schedule *s = m->s;
	unsigned seed = s->o->seed;
	size_t np = s->res->npoints;
	int rc = ab_step(s->ctx, m->db, m->op, "measure");

	if (!rc && s->o->order != AB_ORDER_BLOCKED)
		rc = ab_run_interleaved(s, 0, np, &m->a, &m->b, &seed);
	else if (!rc && !(rc = ab_run_block(s, 0, np, &m->a)))
		rc = ab_run_block(s, 0, np, &m->b);
	return rc;
}

/* Artifact mode: each arm's build output is kept under
 * $GIT_COMMON_DIR/campaign/builds/<tree id>, so an arm whose tree was
 * built before is not built again, and both exist at once for
 * interleaved runs */
static int artifact_prepare(struct ab_arms *m)
{
	struct schedule *s = m->s;
	char hex_a[GIT_OID_HEXSZ + 1], hex_b[GIT_OID_HEXSZ + 1];
	char *builds;
	int rc = 0;

	git_oid_tostr(hex_a, sizeof(hex_a), m->a_tree);
	git_oid_tostr(hex_b, sizeof(hex_b), &s->res->b_tree);
	builds = xasprintf("%scampaign/builds",
			   git_repository_commondir(m->repo));
	mkdir(builds, 0777);
	m->a.artifact = m->dir_a = xasprintf("%s/%s", builds, hex_a);
	m->b.artifact = m->dir_b = xasprintf("%s/%s", builds, hex_b);
	free(builds);
	if (!cached(s->o, m->dir_a)) {
		if (git_oid_equal(m->a_tree, &s->res->b_tree))
			rc = build_artifact(s, m->db, m->op, &m->a);
		/* A is HEAD without the change, built as in stash mode */
		else if ((rc = stash_change(m)) >= 0 &&
			 (rc = build_artifact(s, m->db, m->op, &m->a)) >= 0)
			rc = unstash_change(m);
	}
	if (!rc && !cached(s->o, m->dir_b))
		rc = build_artifact(s, m->db, m->op, &m->b);
	if (!rc) {
		/* used now: gc keeps them */
		ab_kept_touch(m->dir_a);
		ab_kept_touch(m->dir_b);
	}
	return rc;
}

/* Worktree mode: A is built in its kept worktree, named after the branch
 * (or A's commit when --base names it or HEAD is detached), B in place */
static int worktree_prepare(struct ab_arms *m)
{
	struct schedule *s = m->s;
	struct refs refs;
	char *branch = NULL, hex[13];
	size_t i;
	int rc;

	git_oid_tostr(hex, sizeof(hex), m->a_commit);
	repo_refs(&refs, m->repo);
	if (refs_head_branch(&branch, &refs, &s->ctx->err) < 0)
		branch = NULL;
	if (!branch || s->o->base)
		branch = (free(branch), xstrdup(hex));
	for (i = 0; branch[i]; i++)
		if (branch[i] == '/')
			branch[i] = '-';
	if ((rc = ab_step(s->ctx, m->db, m->op, "build-A")) < 0 ||
	    (rc = prepare_worktree(s, m->repo, m->a_commit, branch, &m->a,
				   &m->dir_a)) < 0 ||
	    (rc = ab_step(s->ctx, m->db, m->op, "build-B")) < 0)
		goto out;
	/* used now: gc keeps it */
	ab_kept_touch(m->dir_a);
	rc = ab_build(s, &m->b, "working tree");
out:
	free(branch);
	return rc;
}

static const struct ab_mode_ops worktree_ops = {
	0, 1, 0, worktree_prepare, measure, NULL,
};
static const struct ab_mode_ops stash_ops = {
	1, 0, 1, stash_change, stash_run, stash_restore,
};
static const struct ab_mode_ops artifact_ops = {
	0, 0, 0, artifact_prepare, measure, stash_restore,
};

const struct ab_mode_ops *ab_mode_ops(enum ab_mode m)
{
	return m == AB_MODE_STASH      ? &stash_ops
	       : m == AB_MODE_ARTIFACT ? &artifact_ops
				       : &worktree_ops;
}

void ab_arms_init(struct ab_arms *m, struct schedule *s, struct db *db,
		  long long op, git_repository *repo, const git_commit *a)
{
	struct arm arm_a = {'A', NULL, NULL}, arm_b = {'B', NULL, NULL};

	memset(m, 0, sizeof(*m));
	m->s = s;
	m->db = db;
	m->op = op;
	m->repo = repo;
	m->a_commit = git_commit_id(a);
	m->a_tree = git_commit_tree_id(a);
	m->a = arm_a;
	m->b = arm_b;
	m->stash = ab_stash_name(op);
}

void ab_arms_release(struct ab_arms *m)
{
	if (!m)
		return;
	free(m->stash);
	free(m->dir_a);
	free(m->dir_b);
	memset(m, 0, sizeof(*m));
}
