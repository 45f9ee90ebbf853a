/* The stack on GitHub: stack submit pushes each stacked branch and opens or
 * updates its PR (based on its parent, a marked "Stacked on" section in its
 * body); stack sync refreshes the PR cache and retargets the children of
 * merged parents. */
#ifndef GCAMP_SUBMIT_H
#define GCAMP_SUBMIT_H

#include "core/base/ctx.h"
#include "core/stack/restack.h"
#include "util/buf.h"
#include "util/strvec.h"

#define STACK_MARKER "<!-- git-campaign:stack -->"

struct submit_opts {
	const char *branch; /* the stack holding it; NULL: the current one */
	int all;	    /* every stacked branch */
	int draft;	    /* open new PRs as drafts */
	int dry_run;	    /* push nothing, write nothing to GitHub */
};

struct submit_result {
	struct strvec lines;	 /* what was done (or would be), one a line */
	struct restack_result r; /* stack sync: the moves' restack */
	int moved;		 /* stack sync: restack_start ran */
	int requests;		 /* HTTP requests made */
};

void submit_result_release(struct submit_result *r);

/*
 * For the chosen stack, parents first: pushes, in one run of the git
 * program, every branch whose remote-tracking tip is not its own, each
 * with --force-with-lease=refs/heads/B:<that tip> (empty: not there yet);
 * a remote tip that is not an ancestor is refused unless it is one of the
 * branch's restack backups. Then finds the PRs in one conditional list of
 * the open ones (a cached number not open any more: one GET), opens the
 * missing ones (base: the parent branch, the campaign base for the bottom;
 * title: the first commit's subject) with their numbers predicted from
 * github_newest_number, and keeps the section between STACK_MARKER lines
 * of each body ("Stacked on #N" and the stack's list), PATCHing base and
 * body only when they differ (a race that broke a prediction). Each PR is
 * recorded in the database's pr table. A branch that needs a restack, is
 * missing or has no parent is refused (GCAMP_EREFUSED) before anything is
 * pushed.
 */
int stack_submit(struct submit_result *out, struct ctx *ctx,
		 const struct submit_opts *o);

/*
 * Refreshes the PR of every stacked branch into the pr table; for each
 * open PR whose parent's PR has merged, retargets it to the parent PR's
 * base (before anything else), then re-parents the branch onto its
 * parent's parent with restack_start (out->r tells how that went; a
 * conflict stops there). PRs in a native GitHub stack are reported, not
 * retargeted; closed-unmerged parents are reported, not acted on.
 */
int stack_sync(struct submit_result *out, struct ctx *ctx);

/* The stack section of branch idx's PR body (LF line ends), from the
 * numbers in nums (0: no PR yet; its own is left out, unknown until
 * the PR is opened), exposed for the tests. order holds the
 * n indexes of the stack, parents first. */
struct stack_graph;
void submit_render_section(struct buf *out, const struct stack_graph *g,
			   const size_t *order, size_t n, const long *nums,
			   size_t idx);

#endif
