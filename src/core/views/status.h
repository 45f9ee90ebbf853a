/* What `status` shows, gathered without printing: the campaign, the
 * current branch against the base, the stack, named stashes and unfinished
 * operations. Later parts of the tool add their sections here. */
#ifndef GCAMP_STATUS_H
#define GCAMP_STATUS_H

#include <stddef.h>

#include "core/campaign/campaign.h"
#include "core/stack/conflict.h"
#include "core/records/journal.h"
#include "core/records/finding.h"
#include "core/records/hypo.h"
#include "core/records/ab_run.h"
#include "core/records/pr.h"
#include "core/records/umbrella_state.h"
#include "util/buf.h"

struct stack_link {
	char *branch;
	char *parent;
	int needs_restack;  /* the parent moved since campaignParentTip */
	int parent_missing; /* the parent branch no longer exists */
	/* a root that needs a restack may have landed in its parent: its
	 * tip, the parent's and the recorded tip, for status_facts, and the
	 * answer (core/stack/landed.h), read with the records */
	int may_have_landed;
	char tip[41], parent_tip[41];
	char *recorded;
	int landed;
	int has_pr; /* the PR cache has the branch's PR */
	struct pr_cached pr;
};

struct named_stash {
	char *name;  /* "ab/3" for refs/campaign/stash/ab/3 */
	char id[41]; /* the stash commit */
};

/* The open findings status_collect_records reads, at most */
#define STATUS_FINDINGS 5

struct status {
	struct campaign campaign;
	char *branch;		  /* NULL when HEAD is detached */
	char head[41];		  /* "" when HEAD is unborn */
	int base_found;		  /* the base branch resolves to a commit */
	char base[41];		  /* that commit */
	size_t ahead;		  /* commits of HEAD not in the base */
	size_t behind;		  /* commits of the base not in HEAD */
	struct stack_link *stack; /* every recorded relation, by branch */
	size_t nstack;
	struct named_stash *stashes;
	size_t nstashes;
	struct journal_op *ops; /* unfinished operations */
	size_t nops;
	struct ab_run_last last_ab; /* from table ab_run */
	int has_next_hypo;	    /* 1: marked next; 2: none marked, the
				     * oldest open one */
	struct hypo next_hypo;	    /* the hypothesis to do next */
	size_t open_hypos;	    /* open hypotheses in all */
	struct finding *findings;   /* open findings by rank, the top first,
				     * at most STATUS_FINDINGS */
	size_t nfindings;
	size_t open_findings; /* open findings in all */
	int has_umbrella_pending;
	/* an automatic update of the umbrella GitHub did not take yet */
	struct umbrella_pending umbrella_pending;
	/* the stack operation stopped at a conflict (op_id 0: none) */
	struct stack_conflict conflict;
	/* the base's local branch behind its remote-tracking branch */
	char base_remote[41]; /* refs/remotes/REMOTE/BASE, "" when none */
	char *index_path;     /* the index, a fact while HEAD is detached */
	size_t base_behind;   /* commits of it not in the local base */
};

/* Gathers the status of the campaign in ctx in two steps: what the
 * repository's files say (the campaign, branch, HEAD, base, stack and named
 * stashes, read through gitlite), then what the database and the object
 * database add (ahead and behind, operations, PRs, records). Release with
 * status_release(); on failure each releases out. GCAMP_ENOTINIT without a
 * campaign. */
int status_collect_repo(struct status *out, struct ctx *ctx);
int status_collect_records(struct status *out, struct ctx *ctx);
/* Appends what status_collect_repo gathered, a fact a line: what a
 * rendering of the status depends on besides the database. */
void status_facts(struct buf *out, const struct status *st);
void status_release(struct status *st);

struct cJSON;
/* One unfinished operation as status --json and resume --format json both
 * show it (id, kind, summary, worktree, started_at, updated_at, last_step,
 * continue, abort; null where unset). The caller owns the object. */
struct cJSON *status_op_json(const struct journal_op *op);

/* The chain from the base to branch through recorded parents (base first,
 * branch last) as indexes into st->stack, in *out (caller frees); *out_n is
 * 0 when branch is not stacked. A cycle stops the walk. */
void status_chain(size_t **out, size_t *out_n, const struct status *st,
		  const char *branch);

/* Appends the stack line of the current branch: "develop -> a -> *b*"
 * (the current branch starred, "(needs restack)" or "(parent gone)" after
 * a branch), "none" without a stack, or "b is not stacked (3 stacked
 * branches)". */
void status_stack_line(struct buf *out, const struct status *st);

#endif
