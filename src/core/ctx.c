/* Lazily opened resources of one command. */
#include "core/ctx.h"

#include "io/signature.h"

#include <stdlib.h>

#include "io/repo.h"
#include "util/xalloc.h"

int ctx_repo(git_repository **out, struct ctx *ctx, int need_worktree)
{
	int rc;

	*out = NULL;
	if (!ctx->repo && (rc = repo_open(&ctx->repo, &ctx->err)) < 0)
		return rc;
	if (need_worktree && git_repository_is_bare(ctx->repo)) {
		error_set(&ctx->err, GCAMP_ENOREPO,
			  "this operation must be run in a work tree");
		error_hint(&ctx->err,
			   "'%s' is a bare repository; campaigns "
			   "need a checkout",
			   git_repository_path(ctx->repo));
		return GCAMP_ENOREPO;
	}
	*out = ctx->repo;
	return 0;
}

int ctx_config(struct gitcfg **out, struct ctx *ctx)
{
	git_repository *repo;
	int rc;

	*out = NULL;
	if (!ctx->cfg) {
		if ((rc = ctx_repo(&repo, ctx, 0)) < 0)
			return rc;
		if ((rc = gitcfg_open(&ctx->cfg, repo, &ctx->err)) < 0)
			return rc;
	}
	*out = ctx->cfg;
	return 0;
}

int ctx_db_path(char **out, struct ctx *ctx)
{
	const char *env = getenv("GIT_CAMPAIGN_DB");
	git_repository *repo;
	int rc;

	*out = NULL;
	if (env && *env) {
		*out = xstrdup(env);
		return 0;
	}
	if ((rc = ctx_repo(&repo, ctx, 0)) < 0)
		return rc;
	/* commondir ends with a slash */
	*out = xasprintf("%scampaign/campaign.db",
			 git_repository_commondir(repo));
	return 0;
}

int ctx_db(struct db **out, struct ctx *ctx, int flags)
{
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

void ctx_release(struct ctx *ctx)
{
	db_close(ctx->db);
	gitcfg_free(ctx->cfg);
	git_repository_free(ctx->repo);
	ctx->db = NULL;
	ctx->cfg = NULL;
	ctx->repo = NULL;
	error_clear(&ctx->err);
}
