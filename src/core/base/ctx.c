/* Lazily opened resources of one command. */
#include "core/base/ctx.h"

#include "io/signature.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "io/db.h"
#include "io/repo.h"
#include "util/xalloc.h"

int ctx_lite(struct gitlite **out, struct ctx *ctx)
{
	struct gitlite *g;
	int rc;

	*out = NULL;
	if (!ctx->lite) {
		g = xcalloc(1, sizeof(*g));
		rc = gitlite_open_flags(g, GITLITE_NO_GIT, &ctx->err);
		if (rc < 0) {
			free(g);
			if (rc == GCAMP_ENOREPO) {
				error_clear(&ctx->err);
				return error_no_repo(&ctx->err);
			}
			return rc;
		}
		ctx->lite = g;
	}
	*out = ctx->lite;
	return 0;
}

static int refuse_bare(struct ctx *ctx, const char *git_dir)
{
	error_set(&ctx->err, GCAMP_ENOREPO,
		  "this operation must be run in a work tree");
	error_hint(&ctx->err,
		   "'%s' is a bare repository; campaigns need a checkout",
		   git_dir);
	return GCAMP_ENOREPO;
}

int ctx_work_tree(const char **out, struct ctx *ctx)
{
	struct gitlite *g;
	char *dir;
	int rc;

	*out = NULL;
	if ((rc = ctx_lite(&g, ctx)) < 0)
		return rc;
	if (!g->work_tree) {
		dir = xasprintf("%s/", g->git_dir);
		rc = refuse_bare(ctx, dir);
		free(dir);
		return rc;
	}
	*out = g->work_tree;
	return 0;
}

int ctx_repo(git_repository **out, struct ctx *ctx, int need_worktree)
{
	int rc;

	*out = NULL;
	if (!ctx->repo && (rc = repo_open(&ctx->repo, &ctx->err)) < 0)
		return rc;
	if (need_worktree && git_repository_is_bare(ctx->repo))
		return refuse_bare(ctx, git_repository_path(ctx->repo));
	*out = ctx->repo;
	return 0;
}

int ctx_config(struct gitcfg **out, struct ctx *ctx)
{
	git_repository *repo = NULL;
	struct gitlite *g;
	int rc;

	*out = NULL;
	if (!ctx->cfg) {
		if ((rc = ctx_lite(&g, ctx)) < 0)
			return rc;
		/* includes are followed by libgit2 */
		if (g->includes && (rc = ctx_repo(&repo, ctx, 0)) < 0)
			return rc;
		if ((rc = gitcfg_open(&ctx->cfg, g, repo, &ctx->err)) < 0)
			return rc;
	}
	*out = ctx->cfg;
	return 0;
}

int ctx_db_path(char **out, struct ctx *ctx)
{
	struct gitlite *g;
	int rc;

	/* GIT_CAMPAIGN_DB needs no repository */
	if ((*out = db_default_path(NULL)))
		return 0;
	if ((rc = ctx_lite(&g, ctx)) < 0)
		return rc;
	*out = db_default_path(g->common_dir);
	return 0;
}

int ctx_db(struct db **out, struct ctx *ctx, int flags)
{
	const char *bak;
	char *path = NULL;
	int rc;

	*out = NULL;
	if (!ctx->db) {
		if ((rc = ctx_db_path(&path, ctx)) < 0)
			return rc;
		rc = db_open(&ctx->db, path, flags, &ctx->err);
		free(path);
		if (rc < 0)
			return rc;
		if ((bak = db_backup(ctx->db, &ctx->db_backup_from))) {
			free(ctx->db_backup);
			ctx->db_backup = xstrdup(bak);
		}
	}
	*out = ctx->db;
	return 0;
}

int ctx_db_if_any(struct db **out, struct ctx *ctx)
{
	int rc = ctx_db(out, ctx, 0);

	if (rc == GCAMP_ENOTFOUND) {
		error_clear(&ctx->err);
		*out = NULL;
		return 0;
	}
	return rc;
}

int ctx_signature(git_signature **out, struct ctx *ctx, int who)
{
	struct gitcfg *cfg;
	int rc;

	if ((rc = ctx_config(&cfg, ctx)) < 0)
		return rc;
	return signature_now(out, cfg, who, &ctx->err);
}

void ctx_db_close(struct ctx *ctx)
{
	db_close(ctx->db);
	ctx->db = NULL;
}

void ctx_release(struct ctx *ctx)
{
	db_close(ctx->db);
	gitcfg_free(ctx->cfg);
	git_repository_free(ctx->repo);
	if (ctx->lite) {
		gitlite_release(ctx->lite);
		free(ctx->lite);
		ctx->lite = NULL;
	}
	free(ctx->db_backup);
	buf_release(&ctx->warn);
	ctx->db = NULL;
	ctx->db_backup = NULL;
	ctx->cfg = NULL;
	ctx->repo = NULL;
	error_clear(&ctx->err);
}

int ctx_scratch_dir(char **out, struct ctx *ctx)
{
	git_repository *repo;
	char *campaign = NULL;
	int rc;

	*out = NULL;
	if ((rc = ctx_repo(&repo, ctx, 0)) < 0)
		return rc;
	/* commondir ends with a slash */
	campaign = xasprintf("%scampaign", git_repository_commondir(repo));
	*out = xasprintf("%s/scratch/", campaign);
	if ((mkdir(campaign, 0777) < 0 && errno != EEXIST) ||
	    (mkdir(*out, 0777) < 0 && errno != EEXIST)) {
		rc = error_set(&ctx->err, GCAMP_EFATAL,
			       "cannot create '%s': %s", *out, strerror(errno));
		free(*out);
		*out = NULL;
	}
	free(campaign);
	return rc;
}

void ctx_warn(struct ctx *ctx, const char *fmt, ...)
{
	va_list ap;

	buf_puts(&ctx->warn, "warning: ");
	va_start(ap, fmt);
	buf_vaddf(&ctx->warn, fmt, ap);
	va_end(ap);
	buf_puts(&ctx->warn, "\n");
}
