/* stack submit's reviewers and labels (campaign.github.reviewers and
 * campaign.github.labels), asked once a PR. */
#ifndef GCAMP_FORGE_ASK_H
#define GCAMP_FORGE_ASK_H

#include "core/base/ctx.h"
#include "io/github/api.h"
#include "io/github/client.h"
#include "util/strvec.h"

/* campaign.github.reviewers into reviewers (a team ORG/TEAM as "@TEAM", as
 * GitHub lists teams) and campaign.github.labels into labels; unreadable
 * config gives none. */
void submit_wanted(struct strvec *reviewers, struct strvec *labels,
		   struct ctx *ctx);

/*
 * For open PR p of branch name in forge ("OWNER/REPO"): one POST asking
 * for a review the reviewers that are not on it (p->reviewers), not its
 * author and not asked before, and one POST adding the labels it lacks and
 * was not given before; none when there are none. What was asked of the PR
 * is kept in the database (meta "submit.asked OWNER/REPO#N"), so that a
 * reviewer who has reviewed, or a label someone removed, is not asked
 * again. Each request is a line of lines ("asked alice to review #2 s2",
 * "labelled #2 s2: perf"); one GitHub refuses (a login that may not
 * review) or does not answer is a line "could not ...: WHY", not an
 * error, and is asked again next time. With dry_run nothing is sent or
 * kept, and the lines say "would". Returns 0.
 */
int submit_ask(struct strvec *lines, struct ctx *ctx, struct github *gh,
	       const char *forge, const char *name, const struct github_pr *p,
	       const struct strvec *reviewers, const struct strvec *labels,
	       int dry_run);

#endif
