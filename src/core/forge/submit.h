/* The stack on GitHub: stack submit pushes each stacked branch and opens or
 * updates its PR (based on its parent, a marked "Stacked on" section in its
 * body); and what it shares with stack sync (core/forge/stack_sync.h): the
 * walk over the stacks, the reading of their PRs and the PR cache. */
#ifndef GCAMP_SUBMIT_H
#define GCAMP_SUBMIT_H

#include <stddef.h>

#include "core/base/ctx.h"
#include "core/campaign/campaign.h"
#include "core/stack/graph.h"
#include "io/github/api.h"
#include "io/github/client.h"
#include "util/buf.h"
#include "util/strvec.h"

#define STACK_MARKER "<!-- git-campaign:stack -->"

struct submit_opts {
	const char *branch; /* the stack holding it; NULL: the current one */
	int all;	    /* every stacked branch */
	int draft;	    /* open new PRs as drafts */
	int dry_run;	    /* push nothing, write nothing to GitHub */
	github_wait_fn on_wait; /* told of each rate-limit wait; NULL: none */
	int allow_placeholders; /* send the placeholders `pr body` leaves */
	/* the body a person wrote for branch (NULL: the one `pr body`
	 * renders), sent as it is with the stack section */
	const char *body_text;
};

struct submit_result {
	struct strvec lines; /* what was done (or would be), one a line */
	int requests;	     /* HTTP requests made */
};

/* Frees what r holds and zeroes it; accepts NULL. */
void submit_result_release(struct submit_result *r);

/*
 * For the chosen stack, parents first: pushes, in one run of the git
 * program, every branch whose remote-tracking tip is not its own, each
 * with --force-with-lease=refs/heads/B:<that tip> (empty: not there yet);
 * a remote tip that is not an ancestor is refused unless the branch once
 * included it (its reflog or a restack backup; see stack_push). Then finds the
 * PRs in one conditional list of the open ones (a cached number not open any
 * more: one GET), opens the missing ones (base: the parent branch, the campaign
 * base for the bottom; title: the first commit's subject) with their numbers
 * predicted from github_newest_number, and keeps the section between
 * STACK_MARKER lines of each body ("Stacked on #N" and the stack's list),
 * PATCHing base and body only when they differ (a race that broke a
 * prediction). Each PR is recorded in the database's pr table. A branch that
 * needs a restack, is missing or has no parent is refused (GCAMP_EREFUSED)
 * before anything is pushed.
 */
int stack_submit(struct submit_result *out, struct ctx *ctx,
		 const struct submit_opts *o);

/* The PRs a stack submit was opening when it was stopped (killed) before
 * it ended, "#3 s3, #4 s4" (the numbers its bodies named for them), into
 * *out (the caller frees it), NULL when none was: the next stack submit
 * opens them or PATCHes the numbers out. */
int submit_unfinished(char **out, struct ctx *ctx);
/* Forgets it (stack submit does once its bodies name only open PRs). */
void submit_unfinished_clear(struct ctx *ctx);

/* Every stacked branch outside a cycle into order (room for g->n), stack
 * by stack, each parents first; *n is how many. */
void submit_order_all(size_t *order, size_t *n, const struct stack_graph *g);

/*
 * The PRs of the n branches of order into prs (g->n entries, zeroed; by
 * graph index): one list of the repository's open PRs (a 304 when nothing
 * changed), matched by head OWNER:BRANCH (OWNER from forge, "OWNER/REPO");
 * a branch whose cached PR is not open any more is read by its number, and
 * left without one when GitHub no longer has it. A branch without either
 * has no PR (prs[i].number 0). The caller releases every entry with
 * github_pr_release, on failure too.
 */
int submit_fetch_prs(struct github_pr *prs, struct ctx *ctx, struct github *gh,
		     const char *forge, const struct stack_graph *g,
		     const size_t *order, size_t n);

/* The pr table's state of p: "merged", "draft", "open" or "closed" (a
 * static string). */
const char *submit_pr_state(const struct github_pr *p);

/* Records p as branch's PR in the database's pr table (its number, state,
 * base, url and update time), opening the database when needed. */
int submit_record_pr(struct ctx *ctx, const char *branch,
		     const struct github_pr *p);

/* forge_open, except that a campaign without campaign.forge is
 * GCAMP_ENOTFOUND "the campaign has no forge repository". *out is the
 * caller's, to free with github_close. */
int submit_open_forge(struct github **out, struct ctx *ctx,
		      const struct campaign *c);

/* The stack section of branch idx's PR body (LF line ends), from the
 * numbers in nums (0: no PR yet; its own is left out, unknown until
 * the PR is opened), exposed for the tests. order holds the
 * n indexes of the stack, parents first. */
void submit_render_section(struct buf *out, const struct stack_graph *g,
			   const size_t *order, size_t n, const long *nums,
			   size_t idx);

/* submit_render_section with the stack's merged PRs first in its list
 * (landed: "#N `NAME`" each, oldest first; NULL: none), written as they
 * were while open, so that a merge changes no other PR's section than its
 * child's. */
void submit_render_section_landed(struct buf *out, const struct stack_graph *g,
				  const size_t *order, size_t n,
				  const long *nums, size_t idx,
				  const struct strvec *landed);

/* The git config key of branch's merged ancestors, multi-valued, oldest
 * first: stack sync adds them as it takes them out of the stack, and
 * submit lists them. The caller frees it. */
char *submit_landed_key(const char *branch);

#endif
