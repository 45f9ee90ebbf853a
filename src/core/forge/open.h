/* The campaign's forge client: io/github opened with the campaign's
 * repository and host, and with the campaign's words in its hints. */
#ifndef GCAMP_FORGE_OPEN_H
#define GCAMP_FORGE_OPEN_H

#include "core/base/ctx.h"
#include "core/campaign/campaign.h"
#include "io/github/client.h"

/*
 * Opens the GitHub client of c's forge (campaign.forge on
 * campaign.forgeHost) with ctx's database as its cache, as github_open
 * does. A campaign without a forge repository is GCAMP_ENOTFOUND ("the
 * campaign names no forge repository", with a hint to set it), and a 403
 * or 404 from GitHub later hints at campaign.forge and the token's access.
 * *out is the caller's, to free with github_close.
 */
int forge_open(struct github **out, struct ctx *ctx, const struct campaign *c);

#endif
