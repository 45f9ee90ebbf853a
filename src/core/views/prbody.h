/* A campaign PR's body: the seven sections (the bug and its cost, cause,
 * change, numbers, testing, backends and OS tested, negatives) rendered
 * with template pr-body.md from the branch's records. */
#ifndef GCAMP_PRBODY_H
#define GCAMP_PRBODY_H

#include <cjson/cJSON.h>

#include "core/base/ctx.h"
#include "util/buf.h"

/*
 * Builds the data of branch's PR body (NULL: the checked-out branch) into
 * *data (caller frees with cJSON_Delete); its fields are documented in
 * git-campaign-pr(1). The branch's commits are those of
 * merge-base(campaign.base, branch)..branch; what belongs to it: A/B runs
 * (table ab_run) whose change's tree is the tree of one of those commits,
 * hypotheses decided by such a run or commit, findings of those commits
 * or of the branch's PR (the PR cache), the notes on the commits (and
 * profiles on the merge base), and per environment the test results of
 * the newest tested commit of the branch and of the merge base or its
 * nearest tested first-parent ancestor, on that same environment.
 * GCAMP_ENOTINIT outside a campaign, GCAMP_ENOTFOUND for an unknown
 * branch or base, GCAMP_EUSAGE on a detached HEAD with branch NULL.
 */
int prbody_data(cJSON **data, struct ctx *ctx, const char *branch);

/*
 * What the umbrella's PR list says of branch: *title, the subject of its
 * first commit (the title `stack submit` gives its PR; NULL when it has
 * none), and *claim, the newest of the branch's A/B runs (as prbody_data
 * finds them) in words, "faster, B/A 0.950 [0.947, 0.953] on `WORKLOAD`
 * (A/B #3)" (NULL when none was judged). The caller frees both. Errors as
 * prbody_data's.
 */
/* *has: 1 when an A/B run's B was the tree of one of branch's own commits
 * (as prbody_data gathers them), else 0; without gathering the rest. */
int prbody_has_ab(int *has, struct ctx *ctx, const char *branch);

int prbody_claim(char **title, char **claim, struct ctx *ctx,
		 const char *branch);

/*
 * Renders branch's PR body (prbody_data, then the repository's
 * .campaign/templates/pr-body.md or the built-in template) and appends it
 * to out. When data is not NULL, *data gets the data rendered (caller
 * frees); else it is freed. On error out is left as it was and *data is
 * NULL. This is what `pr body` prints and what a PR is opened with.
 */
int prbody_render(struct ctx *ctx, const char *branch, struct buf *out,
		  cJSON **data);

#endif
