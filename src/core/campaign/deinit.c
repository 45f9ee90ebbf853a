/* Undoing init: the campaign's settings, and on request its local data. */
/* nftw */
#define _XOPEN_SOURCE 700
#include "core/campaign/deinit.h"

#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io/gitcfg.h"
#include "io/gitlite.h"
#include "io/proc.h"
#include "util/xalloc.h"

void deinit_result_release(struct deinit_result *r)
{
	if (!r)
		return;
	strvec_clear(&r->keys);
	strvec_clear(&r->refs);
	free(r->folder);
	memset(r, 0, sizeof(*r));
}

static int collect_key(const char *key, const char *value, void *data)
{
	struct strvec *keys = data;
	size_t i;

	(void)value;
	for (i = 0; i < keys->nr; i++)
		if (!strcmp(keys->v[i], key))
			return 0;
	strvec_push(keys, key);
	return 0;
}

static int remove_one(const char *path, const struct stat *st, int type,
		      struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	return (type == FTW_DP ? rmdir(path) : unlink(path)) < 0 ? -1 : 0;
}

/* The local refs of the campaign, appended to out. */
static int list_refs(struct strvec *out, struct ctx *ctx)
{
	static const char *const args[] = {
		"for-each-ref", "--format=%(refname)", "refs/notes/campaign",
		"refs/campaign/", NULL};
	struct proc_result r = PROC_RESULT_INIT;
	char *line, *save = NULL;
	int rc;

	if ((rc = proc_git(&r, args, NULL, &ctx->err)) < 0)
		goto out;
	if (r.status) {
		rc = error_set(&ctx->err, GCAMP_EFATAL,
			       "git for-each-ref failed: %s",
			       r.err.ptr ? r.err.ptr : "");
		goto out;
	}
	for (line = strtok_r(r.out.ptr ? r.out.ptr : (char *)"", "\n", &save);
	     line; line = strtok_r(NULL, "\n", &save))
		strvec_push(out, line);
out:
	proc_result_release(&r);
	return rc;
}

static int delete_refs(const struct strvec *refs, struct ctx *ctx)
{
	static const char *const args[] = {"update-ref", "--stdin", NULL};
	struct proc_result r = PROC_RESULT_INIT;
	struct proc_opts o = {0};
	struct buf in = BUF_INIT;
	size_t i;
	int rc;

	if (!refs->nr)
		return 0;
	for (i = 0; i < refs->nr; i++)
		buf_addf(&in, "delete %s\n", refs->v[i]);
	o.in = in.ptr;
	o.in_len = in.len;
	rc = proc_git(&r, args, &o, &ctx->err);
	if (rc == 0 && r.status)
		rc = error_set(&ctx->err, GCAMP_EFATAL,
			       "cannot delete the campaign's refs: %s",
			       r.err.ptr ? r.err.ptr : "");
	proc_result_release(&r);
	buf_release(&in);
	return rc;
}

int campaign_deinit(struct deinit_result *out, struct ctx *ctx, int all)
{
	static const char *const rewrite[] = {
		"config",      "--local",	   "--fixed-value",
		"--unset-all", "notes.rewriteRef", "refs/notes/campaign",
		NULL};
	struct proc_result r = PROC_RESULT_INIT;
	struct gitcfg *cfg;
	struct gitlite *g;
	const char *v;
	size_t i;
	int rc;

	memset(out, 0, sizeof(*out));
	if ((rc = ctx_config(&cfg, ctx)) < 0 || (rc = ctx_lite(&g, ctx)) < 0)
		return rc;
	if (gitcfg_get(&v, cfg, "campaign.name") < 0)
		return error_set(&ctx->err, GCAMP_ENOTINIT,
				 "no campaign here: nothing to undo");
	out->folder = xasprintf("%s/campaign", g->common_dir);
	out->folder_exists = access(out->folder, F_OK) == 0;
	if ((rc = list_refs(&out->refs, ctx)) < 0)
		return rc;
	/* everything is read before anything changes */
	if ((rc = gitcfg_foreach(cfg, "campaign.", "", collect_key, &out->keys,
				 &ctx->err)) < 0 ||
	    (rc = gitcfg_foreach(cfg, "branch.", ".campaignparent", collect_key,
				 &out->keys, &ctx->err)) < 0 ||
	    (rc = gitcfg_foreach(cfg, "branch.", ".campaignparenttip",
				 collect_key, &out->keys, &ctx->err)) < 0)
		return rc;
	/* campaign.name last: until it goes, this is still a campaign */
	for (i = out->keys.nr; i-- > 0;) {
		if (!strcmp(out->keys.v[i], "campaign.name"))
			continue;
		rc = gitcfg_unset(cfg, out->keys.v[i], &ctx->err);
		if (rc == GCAMP_ENOTFOUND) /* a global or -c value */
			error_clear(&ctx->err);
		else if (rc < 0)
			return rc;
	}
	if ((rc = proc_git(&r, rewrite, NULL, &ctx->err)) < 0)
		return rc;
	proc_result_release(&r);
	if (all) {
		if ((rc = delete_refs(&out->refs, ctx)) < 0)
			return rc;
		if (out->folder_exists) {
			ctx_db_close(ctx);
			if (nftw(out->folder, remove_one, 16,
				 FTW_DEPTH | FTW_PHYS) < 0)
				return error_set(&ctx->err, GCAMP_EFATAL,
						 "cannot remove '%s': %s",
						 out->folder, strerror(errno));
		}
	}
	if ((rc = gitcfg_unset(cfg, "campaign.name", &ctx->err)) < 0)
		return rc;
	return 0;
}
