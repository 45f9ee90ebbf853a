/* Opening the campaign's GitHub client, with the hints that name the
 * campaign's settings (io/github knows no campaign). */
#include "core/forge/open.h"

#include <string.h>

#include "io/github/client.h"

int forge_open(struct github **out, struct ctx *ctx, const struct campaign *c)
{
	struct db *db = NULL;
	int rc;

	*out = NULL;
	if (!c->forge || !strchr(c->forge, '/')) {
		rc = error_set(&ctx->err, GCAMP_ENOTFOUND,
			       "the campaign names no forge repository");
		error_hint(&ctx->err, "set it with 'git campaign config forge "
				      "OWNER/REPO'");
		return rc;
	}
	if ((rc = ctx_db(&db, ctx, 0)) < 0 ||
	    (rc = github_open(out, c->forge_host, c->forge, db, &ctx->err)) < 0)
		return rc;
	github_repo_hint(*out, "check campaign.forge and that the token may "
			       "read and write its issues and pull requests");
	github_set_timeout(*out, c->github_timeout, 0);
	return 0;
}
