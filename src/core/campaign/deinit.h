/* Undoing init: the campaign's settings, and on request its local data
 * (the campaign folder, its notes and refs), leaving the remote alone. */
#ifndef GCAMP_CAMPAIGN_DEINIT_H
#define GCAMP_CAMPAIGN_DEINIT_H

#include "core/base/ctx.h"
#include "util/strvec.h"

struct deinit_result {
	struct strvec keys; /* the config keys removed */
	char *folder;	    /* $GIT_COMMON_DIR/campaign */
	int folder_exists;  /* it is there (kept, or removed with all) */
	struct strvec refs; /* refs/notes/campaign and refs/campaign/..., kept
			       or removed with all */
};

/*
 * Removes the campaign's settings from the repository's own config: every
 * campaign.* key, branch.*.campaignParent and campaignParentTip, and the
 * notes.rewriteRef value init added (other values kept). With all, also
 * removes the campaign folder (the database, caches, scratch) and the
 * local refs/notes/campaign and refs/campaign/...; without it they are
 * listed in out and kept. Nothing on a remote is touched. GCAMP_ENOTINIT
 * when campaign.name is not set here. Release out with
 * deinit_result_release().
 */
int campaign_deinit(struct deinit_result *out, struct ctx *ctx, int all);
void deinit_result_release(struct deinit_result *r);

#endif
