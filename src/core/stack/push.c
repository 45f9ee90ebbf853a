/* The push of stack submit: the branches of a stack in one run of git push,
 * each with its lease, and what went through. */
#include "core/stack/push.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/proc.h"
#include "io/repo.h"
#include "util/buf.h"
#include "util/trace.h"
#include "util/xalloc.h"

#define BACKUP_PREFIX "refs/campaign/backup/"

/* How far back the branch's reflog is searched for a remote tip */
#define REFLOG_DEPTH 1000

struct backup_walk {
	git_repository *repo;
	const char *branch;
	git_oid want;
};

/* 1 when tip is want or has it in its history */
static int includes(git_repository *repo, const git_oid *tip,
		    const git_oid *want)
{
	return git_oid_equal(tip, want) ||
	       git_graph_descendant_of(repo, tip, want) == 1;
}

/* BACKUP_PREFIX OP/BRANCH holding the commit looked for: 1 stops the
 * walk */
static int backup_has(const char *refname, const char *oid, void *data)
{
	const struct backup_walk *w = data;
	const char *slash = strchr(refname + strlen(BACKUP_PREFIX), '/');
	git_oid tip;

	return slash && !strcmp(slash + 1, w->branch) &&
	       git_oid_fromstr(&tip, oid) == 0 &&
	       includes(w->repo, &tip, &w->want);
}

/*
 * git push --force-if-includes, with the restack's backups besides: the
 * remote tip oid is ours to replace when the branch once was at it or
 * past it, that is when an entry of its reflog (the newest REFLOG_DEPTH)
 * or one of its restack backups is oid or has it in its history. A tip
 * we never had (someone else's push) is in neither.
 */
static int ours_to_replace(git_repository *repo, const char *branch,
			   const git_oid *oid)
{
	struct backup_walk w;
	struct refs refs;
	git_reflog *log = NULL;
	char *ref = xasprintf("refs/heads/%s", branch);
	size_t i, n;
	int found = 0;

	if (git_reflog_read(&log, repo, ref) == 0) {
		n = git_reflog_entrycount(log);
		for (i = 0; i < n && i < REFLOG_DEPTH && !found; i++) {
			const git_reflog_entry *e =
				git_reflog_entry_byindex(log, i);

			found = includes(repo, git_reflog_entry_id_new(e), oid);
		}
	}
	git_reflog_free(log);
	free(ref);
	if (found)
		return 1;
	w.repo = repo;
	w.branch = branch;
	git_oid_cpy(&w.want, oid);
	repo_refs(&refs, repo);
	return refs_for_each_prefix(&refs, BACKUP_PREFIX, backup_has, &w) == 1;
}

/* how one branch goes into the push: left out when the remote has its tip;
 * the lease names the remote tip last seen (none seen: the branch must not
 * exist there yet), and only a tip the branch once included may be
 * overwritten */
static int plan_push(struct strvec *leases, struct strvec *specs, int *forced,
		     struct ctx *ctx, git_repository *repo, const char *remote,
		     const struct stack_branch *b)
{
	struct buf tracking = BUF_INIT, s = BUF_INIT;
	char hex[GIT_OID_HEXSZ + 1] = "";
	git_oid seen;
	int rc = 0, have;

	*forced = -1;
	buf_addf(&tracking, "refs/remotes/%s/%s", remote, b->name);
	have = git_reference_name_to_id(&seen, repo, tracking.ptr) == 0;
	if (have && git_oid_equal(&seen, &b->tip))
		goto out;
	*forced = 0;
	if (have) {
		git_oid_tostr(hex, sizeof(hex), &seen);
		*forced = !git_graph_descendant_of(repo, &b->tip, &seen);
	}
	if (*forced && !ours_to_replace(repo, b->name, &seen)) {
		rc = error_set(&ctx->err, GCAMP_EREFUSED,
			       "'%s' on '%s' (%.7s) has commits that "
			       "are not in the local branch",
			       b->name, remote, hex);
		error_hint(&ctx->err,
			   "'git log %s..%s/%s' shows them; merge or drop "
			   "them, then submit again",
			   b->name, remote, b->name);
		goto out;
	}
	buf_addf(&s, "--force-with-lease=refs/heads/%s:%s", b->name, hex);
	strvec_push(leases, s.ptr);
	buf_reset(&s);
	buf_addf(&s, "refs/heads/%s:refs/heads/%s", b->name, b->name);
	strvec_push(specs, s.ptr);
out:
	buf_release(&tracking);
	buf_release(&s);
	return rc;
}

/* the summary of the porcelain line for refs/heads/name, or NULL; the
 * flag ('!' rejected) into *flag */
static const char *push_outcome(const char *porcelain, const char *name,
				char *flag, struct buf *summary)
{
	const char *line = porcelain, *tab, *end;
	struct buf want = BUF_INIT;

	buf_addf(&want, ":refs/heads/%s\t", name);
	for (; line && *line; line = end ? end + 1 : NULL) {
		end = strchr(line, '\n');
		tab = strstr(line, want.ptr);
		if (line[0] && line[1] == '\t' && tab && (!end || tab < end)) {
			tab += want.len;
			buf_reset(summary);
			buf_add(summary, tab,
				end ? (size_t)(end - tab) : strlen(tab));
			*flag = line[0];
			buf_release(&want);
			return summary->ptr;
		}
	}
	buf_release(&want);
	return NULL;
}

/* What git push did to each branch, from its porcelain output: "pushed B"
 * into lines per branch that went through; the first refused one (or a
 * failed run) is the error */
static int read_outcomes(struct strvec *lines, struct ctx *ctx,
			 const struct stack_push_req *req, const int *forced,
			 const struct proc_result *res)
{
	struct buf summary = BUF_INIT, last = BUF_INIT;
	size_t k;
	int rc = 0, failed = 0;

	for (k = 0; k < req->n && !failed; k++) {
		const char *name = req->b[req->order[k]].name, *what;
		char flag = 0;

		if (forced[k] < 0)
			continue;
		what = push_outcome(res->out.ptr, name, &flag, &summary);
		if (what && flag != '!') {
			strvec_push_owned(
				lines,
				xasprintf("pushed %s%s", name,
					  forced[k] ? " (restacked: forced "
						      "with a lease)"
						    : ""));
			continue;
		}
		failed = 1;
		if (!what) {
			proc_last_line(&last, res->err.ptr);
			what = last.ptr;
		}
		rc = error_set(&ctx->err, GCAMP_EFATAL,
			       "cannot push '%s' to '%s': %s", name,
			       req->remote, what);
		if (strstr(what, "stale info"))
			error_hint(&ctx->err,
				   "someone else pushed to it; fetch, look, "
				   "then submit again");
	}
	if (!failed && res->status) {
		proc_last_line(&last, res->err.ptr);
		rc = error_set(&ctx->err, GCAMP_EFATAL,
			       "cannot push to '%s': %s", req->remote,
			       last.ptr);
	}
	buf_release(&summary);
	buf_release(&last);
	return rc;
}

/* git pushes each ref on its own: the porcelain output says which went
 * through; those are reported, and the first refused one is the error */
int stack_push(struct strvec *lines, struct ctx *ctx, git_repository *repo,
	       const struct stack_push_req *req)
{
	const struct stack_branch *b = req->b;
	const size_t *order = req->order;
	size_t n = req->n, k;
	struct proc_result res = PROC_RESULT_INIT;
	struct strvec argv = STRVEC_INIT, leases = STRVEC_INIT,
		      specs = STRVEC_INIT;
	int *forced = xcalloc(n + 1, sizeof(*forced));
	int rc = 0;

	for (k = 0; k < n; k++)
		if ((rc = plan_push(&leases, &specs, &forced[k], ctx, repo,
				    req->remote, &b[order[k]])) < 0)
			goto out;
	if (!specs.nr)
		goto out;
	if (req->dry_run) {
		for (k = 0; k < n; k++)
			if (forced[k] >= 0)
				strvec_push_owned(
					lines,
					xasprintf("would push %s%s",
						  b[order[k]].name,
						  forced[k] ? " (restacked: "
							      "with a lease)"
							    : ""));
		goto out;
	}
	strvec_push(&argv, "push");
	strvec_push(&argv, "--porcelain");
	for (k = 0; k < leases.nr; k++)
		strvec_push(&argv, leases.v[k]);
	strvec_push(&argv, req->remote);
	for (k = 0; k < specs.nr; k++)
		strvec_push(&argv, specs.v[k]);
	trace_printf("submit: run git push");
	if ((rc = proc_git(&res, (const char *const *)argv.v, NULL,
			   &ctx->err)) < 0)
		goto out;
	rc = read_outcomes(lines, ctx, req, forced, &res);
out:
	proc_result_release(&res);
	strvec_clear(&argv);
	strvec_clear(&leases);
	strvec_clear(&specs);
	free(forced);
	return rc;
}
