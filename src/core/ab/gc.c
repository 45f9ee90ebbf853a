/* Pruning the A/B worktrees and artifact builds that have gone unused,
 * and the space they hold. */
#define _XOPEN_SOURCE 700
#include "core/ab/gc.h"

#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <utime.h>

#include "io/gitcfg.h"
#include "io/proc.h"
#include "util/xalloc.h"

void ab_kept_touch(const char *dir)
{
	char *stamp = xasprintf("%s.built", dir);

	/* a stamp that is not there: the folder's own time counts */
	if (utime(stamp, NULL) < 0)
		utime(dir, NULL);
	free(stamp);
}

void ab_size_text(char *out, size_t len, uint64_t bytes)
{
	static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
	double v = (double)bytes;
	int u = 0;

	while (v >= 1024 && u < 4) {
		v /= 1024;
		u++;
	}
	snprintf(out, len, u ? "%.1f %s" : "%.0f %s", v, units[u]);
}

/* nftw cannot pass a pointer through: the sum of one walk at a time */
static uint64_t walk_bytes;

static int add_size(const char *path, const struct stat *st, int flag,
		    struct FTW *f)
{
	(void)path;
	(void)flag;
	(void)f;
	walk_bytes += (uint64_t)st->st_blocks * 512;
	return 0;
}

static uint64_t tree_size(const char *dir)
{
	walk_bytes = 0;
	nftw(dir, add_size, 16, FTW_PHYS);
	return walk_bytes;
}

/* "$GIT_COMMON_DIR/campaign/" + what */
static int kept_root(char **out, struct ctx *ctx, const char *what)
{
	git_repository *repo;
	int rc;

	*out = NULL;
	if ((rc = ctx_repo(&repo, ctx, 0)) < 0)
		return rc;
	*out = xasprintf("%scampaign/%s", git_repository_commondir(repo), what);
	return 0;
}

int ab_kept_size(uint64_t *out, struct ctx *ctx)
{
	static const char *const roots[] = {"worktrees", "builds"};
	char *dir;
	size_t i;
	int rc;

	*out = 0;
	for (i = 0; i < 2; i++) {
		struct stat st;

		if ((rc = kept_root(&dir, ctx, roots[i])) < 0)
			return rc;
		if (!stat(dir, &st))
			*out += tree_size(dir);
		free(dir);
	}
	return 0;
}

/* When dir was last used: its stamp's time, else its own */
static time_t last_use(const char *dir)
{
	char *stamp = xasprintf("%s.built", dir);
	struct stat st;
	time_t t = 0;

	if (!stat(stamp, &st) || !stat(dir, &st))
		t = st.st_mtime;
	free(stamp);
	return t;
}

static int run_quiet(struct ctx *ctx, const char *const *argv)
{
	struct proc_result r = PROC_RESULT_INIT;
	int rc = proc_run(&r, argv, NULL, &ctx->err);

	if (!rc && r.status)
		rc = 1;
	proc_result_release(&r);
	return rc;
}

/* Removes one kept folder and its stamp: a worktree through git, so that
 * `git worktree list` forgets it too */
static int remove_kept(struct ctx *ctx, const char *dir, int worktree)
{
	const char *wt[] = {"git",     "worktree", "remove", "--force",
			    "--force", dir,	   NULL};
	const char *rm[] = {"rm", "-rf", dir, NULL};
	const char *prune[] = {"git", "worktree", "prune", NULL};
	char *stamp = xasprintf("%s.built", dir);
	int rc = 1;

	if (worktree && (rc = run_quiet(ctx, wt)) < 0)
		goto out;
	/* not a worktree git knows (any more): the folder goes anyway */
	if (rc && (rc = run_quiet(ctx, rm)) != 0) {
		if (rc > 0)
			rc = error_set(&ctx->err, GCAMP_EFATAL,
				       "cannot remove '%s'", dir);
		goto out;
	}
	if (worktree && (rc = run_quiet(ctx, prune)) > 0)
		rc = 0;
	if (rc >= 0 && unlink(stamp) < 0 && errno != ENOENT)
		rc = error_set(&ctx->err, GCAMP_EFATAL,
			       "cannot remove '%s': %s", stamp,
			       strerror(errno));
out:
	free(stamp);
	return rc < 0 ? rc : 0;
}

static int prune_root(struct strvec *out, struct ctx *ctx, const char *what,
		      const char *label, long days, int dry_run)
{
	char *root = NULL, *dir, size[32];
	struct dirent *e;
	struct stat st;
	time_t now = time(NULL);
	DIR *d;
	int rc;

	if ((rc = kept_root(&root, ctx, what)) < 0)
		return rc;
	if (!(d = opendir(root))) {
		free(root);
		return 0;
	}
	while (!rc && (e = readdir(d))) {
		size_t len = strlen(e->d_name);

		if (e->d_name[0] == '.' ||
		    (len > 6 && !strcmp(e->d_name + len - 6, ".built")) ||
		    strstr(e->d_name, ".tmp-"))
			continue;
		dir = xasprintf("%s/%s", root, e->d_name);
		if (!stat(dir, &st) && S_ISDIR(st.st_mode) &&
		    now - last_use(dir) >= (time_t)days * 86400) {
			ab_size_text(size, sizeof(size), tree_size(dir));
			if (!dry_run)
				rc = remove_kept(ctx, dir,
						 !strcmp(what, "worktrees"));
			if (!rc)
				strvec_push_owned(
					out, xasprintf("%s A/B %s %s (%s)",
						       dry_run ? "would prune"
							       : "pruned",
						       label, e->d_name, size));
		}
		free(dir);
	}
	closedir(d);
	free(root);
	return rc;
}

int ab_gc(struct strvec *out, struct ctx *ctx, long days, int dry_run)
{
	int rc;

	if ((rc = prune_root(out, ctx, "worktrees", "worktree", days,
			     dry_run)) < 0)
		return rc;
	return prune_root(out, ctx, "builds", "build", days, dry_run);
}

int ab_gc_days(long *out, struct ctx *ctx, long days)
{
	struct gitcfg *cfg;
	const char *v = NULL;
	char *end;
	int rc;

	*out = days;
	if ((rc = ctx_config(&cfg, ctx)) < 0)
		return rc;
	if (gitcfg_get(&v, cfg, "campaign.gc.abDays") < 0 || !v)
		return 0;
	*out = strtol(v, &end, 10);
	if (end == v || *end || *out < 0)
		return error_set(&ctx->err, GCAMP_EUSAGE,
				 "campaign.gc.abDays must be 0 or more days, "
				 "not '%s'",
				 v);
	return 0;
}
