/* The A/B's modes: A's kept worktree, the stash procedure made safe, and
 * build outputs kept aside by tree id. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/ab/ab_int.h"
#include "core/records/journal.h"
#include "core/stash/stash.h"
#include "io/proc.h"
#include "io/repo.h"
#include "util/xalloc.h"

static int git_cmd(struct ctx *ctx, const char *const *argv)
{
	struct proc_result r = PROC_RESULT_INIT;
	struct buf last = BUF_INIT;
	int rc = proc_run(&r, argv, NULL, &ctx->err);

	if (!rc && r.status) {
		proc_last_line(&last, r.err.ptr);
		rc = error_set(&ctx->err, GCAMP_EFATAL,
			       "'git %s %s' failed: %s", argv[1], argv[2],
			       last.ptr);
	}
	buf_release(&last);
	proc_result_release(&r);
	return rc;
}

/* A's worktree: $GIT_COMMON_DIR/campaign/worktrees/<key>, at commit id,
 * built again only when its tree or the build command changed since the
 * build recorded in <key>.built */
int ab_prepare_worktree(struct ctx *ctx, git_repository *repo,
			const struct ab_opts *o, const git_oid *commit,
			const char *key, struct arm *a, char **out_dir)
{
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

		if ((rc = git_cmd(ctx, co)) < 0)
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
		if (isatty(STDERR_FILENO))
			fprintf(stderr, "A is built already (tree %.12s)\n",
				hex);
		goto out;
	}
	unlink(stamp_path);
	if ((rc = ab_build(ctx, o->build, a, "base worktree")) < 0)
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
	if (stash_apply(ctx, name, 1, NULL) < 0) {
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

/* Saves the change as stash name, runs fn(s, arm) on the bare HEAD, then
 * applies and drops the stash; on any failure the change is put back */
static int without_change(struct schedule *s, struct db *db, long long op,
			  const char *name,
			  int (*fn)(struct schedule *s, struct db *db,
				    long long op, const struct arm *a),
			  const struct arm *a)
{
	int rc;

	if ((rc = ab_step(s->ctx, db, op, "stash")) < 0 ||
	    (rc = stash_save(NULL, s->ctx, name, "A/B: the change under test",
			     0)) < 0 ||
	    (rc = fn(s, db, op, a)) < 0 ||
	    (rc = ab_step(s->ctx, db, op, "restore")) < 0) {
		put_back(s->ctx, name);
		return rc;
	}
	return stash_apply(s->ctx, name, 1, NULL);
}

static int build_and_measure(struct schedule *s, struct db *db, long long op,
			     const struct arm *arm)
{
	char build_step[] = "build-A", measure_step[] = "measure-A";
	int rc;

	build_step[6] = measure_step[8] = arm->name;
	if ((rc = ab_step(s->ctx, db, op, build_step)) < 0 ||
	    (rc = ab_build(s->ctx, s->o->build, arm,
			   arm->name == 'A' ? "HEAD" : "working tree")) < 0 ||
	    (rc = ab_step(s->ctx, db, op, measure_step)) < 0)
		return rc;
	return ab_run_block(s, 0, s->res->npoints, arm);
}

int ab_run_stash_mode(struct schedule *s, struct db *db, long long op)
{
	struct arm a = {'A', NULL, NULL}, b = {'B', NULL, NULL};
	char *name = ab_stash_name(op);
	int rc = without_change(s, db, op, name, build_and_measure, &a);

	if (!rc)
		rc = build_and_measure(s, db, op, &b);
	free(name);
	return rc;
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
	    (rc = ab_build(s->ctx, s->o->build, arm,
			   arm->name == 'A' ? "HEAD" : "working tree")) < 0)
		return rc;
	return keep_artifact(s->ctx, s->o, arm->artifact, arm->name);
}

/* Artifact mode: each arm's build output is kept under
 * $GIT_COMMON_DIR/campaign/builds/<tree id>, so an arm whose tree was
 * built before is not built again, and both exist at once for
 * interleaved runs */
int ab_run_artifact_mode(struct schedule *s, struct db *db, long long op,
			 git_repository *repo, const git_oid *a_tree)
{
	struct arm a = {'A', NULL, NULL}, b = {'B', NULL, NULL};
	char hex_a[GIT_OID_HEXSZ + 1], hex_b[GIT_OID_HEXSZ + 1];
	char *dir_a, *dir_b, *builds, *name = ab_stash_name(op);
	git_oid b_tree;
	unsigned seed = s->o->seed;
	size_t per = 1 + s->o->ncontrols, i;
	int rc;

	if ((rc = stash_worktree_tree(&b_tree, s->ctx)) < 0) {
		free(name);
		return rc;
	}
	git_oid_tostr(hex_a, sizeof(hex_a), a_tree);
	git_oid_tostr(hex_b, sizeof(hex_b), &b_tree);
	builds = xasprintf("%scampaign/builds", git_repository_commondir(repo));
	mkdir(builds, 0777);
	a.artifact = dir_a = xasprintf("%s/%s", builds, hex_a);
	b.artifact = dir_b = xasprintf("%s/%s", builds, hex_b);
	if (!cached(s->o, dir_a))
		rc = git_oid_equal(a_tree, &b_tree)
			     ? build_artifact(s, db, op, &a)
			     : without_change(s, db, op, name, build_artifact,
					      &a);
	if (!rc && !cached(s->o, dir_b))
		rc = build_artifact(s, db, op, &b);
	if (!rc)
		rc = ab_step(s->ctx, db, op, "measure");
	for (i = 0; i < s->res->npoints && !rc; i += per) {
		if (s->o->order != AB_ORDER_BLOCKED)
			rc = ab_run_interleaved(s, i, i + per, &a, &b, &seed);
		else if (!(rc = ab_run_block(s, i, i + per, &a)))
			rc = ab_run_block(s, i, i + per, &b);
	}
	free(builds);
	free(dir_a);
	free(dir_b);
	free(name);
	return rc;
}
