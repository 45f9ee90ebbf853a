/* A branch's rename, as an operation applies it (git branch -m, HEAD
 * following), and one made by `git branch -m`, found through the reflogs. */
#include "core/stack/renamed.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "io/proc.h"
#include "io/repo.h"
#include "util/json.h"
#include "util/xalloc.h"

/* The name old was renamed to, in one branch's reflog; NULL when none */
static char *renamed_in(git_repository *repo, const char *ref,
			const char *prefix)
{
	git_reflog *log = NULL;
	char *to = NULL;
	size_t i, n;

	if (git_reflog_read(&log, repo, ref) < 0) {
		git_error_clear();
		return NULL;
	}
	n = git_reflog_entrycount(log);
	for (i = 0; i < n && !to; i++) {
		const char *m = git_reflog_entry_message(
			git_reflog_entry_byindex(log, i));

		if (m && !strncasecmp(m, prefix, strlen(prefix)) &&
		    !strncmp(m + strlen(prefix), "refs/heads/", 11))
			to = xstrndup(m + strlen(prefix) + 11,
				      strcspn(m + strlen(prefix) + 11, "\n"));
	}
	git_reflog_free(log);
	return to;
}

/* One step: the name old went to, from any local branch's reflog */
static char *renamed_once(git_repository *repo, const char *old)
{
	git_branch_iterator *it = NULL;
	git_reference *ref;
	git_branch_t type;
	char *prefix = xasprintf("Branch: renamed refs/heads/%s to ", old);
	char *to = NULL;

	if (git_branch_iterator_new(&it, repo, GIT_BRANCH_LOCAL) < 0) {
		git_error_clear();
		free(prefix);
		return NULL;
	}
	while (!to && git_branch_next(&ref, &type, it) == 0) {
		to = renamed_in(repo, git_reference_name(ref), prefix);
		git_reference_free(ref);
	}
	git_error_clear();
	git_branch_iterator_free(it);
	free(prefix);
	return to;
}

int stack_branch_exists(git_repository *repo, const char *name)
{
	git_reference *ref = NULL;
	int rc = git_branch_lookup(&ref, repo, name, GIT_BRANCH_LOCAL);

	git_reference_free(ref);
	git_error_clear();
	return rc == 0;
}

void stack_renamed_to(char **out, git_repository *repo, const char *old)
{
	char *cur = xstrdup(old), *to;
	int steps;

	*out = NULL;
	/* s2 -> s2a -> s2b: follow the renames to a branch that exists */
	for (steps = 0; steps < 16 && (to = renamed_once(repo, cur)); steps++) {
		free(cur);
		cur = to;
		if (stack_branch_exists(repo, cur)) {
			*out = cur;
			return;
		}
	}
	free(cur);
}

/* HEAD (this work tree's) onto refs/heads/to when it names from */
int stack_head_follow(git_repository *repo, const char *from, const char *to,
		      struct error *err)
{
	git_reference *head = NULL;
	char *want = xasprintf("refs/heads/%s", from);
	char *dest = xasprintf("refs/heads/%s", to);
	int rc = 0;

	if (git_reference_lookup(&head, repo, "HEAD") == 0 &&
	    git_reference_type(head) == GIT_REFERENCE_SYMBOLIC &&
	    !strcmp(git_reference_symbolic_target(head), want) &&
	    (rc = git_repository_set_head(repo, dest)) < 0)
		rc = error_git(err, rc, "cannot point HEAD at '%s'", to);
	git_error_clear();
	git_reference_free(head);
	free(want);
	free(dest);
	return rc;
}

int stack_rename_apply(struct ctx *ctx, git_repository *repo,
		       const cJSON *apply, int inverse)
{
	const cJSON *r = cJSON_GetObjectItemCaseSensitive(apply, "rename");
	const char *from, *to;
	struct proc_result pr = PROC_RESULT_INIT;
	const char *args[] = {"branch", "-m", NULL, NULL, NULL};
	int rc;

	if (!cJSON_IsObject(r))
		return 0;
	from = json_get_str(r, inverse ? "new" : "old");
	to = json_get_str(r, inverse ? "old" : "new");
	if (!from || !to)
		return error_set(&ctx->err, GCAMP_EFATAL,
				 "a rename without its names");
	if (!stack_branch_exists(repo, from) && stack_branch_exists(repo, to))
		return stack_head_follow(repo, from, to, &ctx->err); /* done */
	args[2] = from;
	args[3] = to;
	/* git's own rename: the ref, its whole reflog, its branch.NAME.*
	 * section (the campaign's records with it) and every work tree's
	 * HEAD that names it (libgit2's git_branch_move starts a new
	 * reflog) */
	if ((rc = proc_git(&pr, args, NULL, &ctx->err)) == 0 && pr.status) {
		const char *e = pr.err.ptr ? pr.err.ptr : "";

		rc = error_set(&ctx->err, GCAMP_EFATAL,
			       "cannot rename '%s' to '%s': %.*s", from, to,
			       (int)strcspn(e, "\n"), e);
	}
	proc_result_release(&pr);
	if (rc == 0)
		rc = stack_head_follow(repo, from, to, &ctx->err);
	return rc;
}

int stack_head_apply(struct ctx *ctx, git_repository *repo, const cJSON *apply,
		     int inverse)
{
	const cJSON *h = cJSON_GetObjectItemCaseSensitive(apply, "head");
	const char *from, *to;

	if (!cJSON_IsObject(h))
		return 0;
	from = json_get_str(h, inverse ? "new" : "old");
	to = json_get_str(h, inverse ? "old" : "new");
	if (!from || !to)
		return error_set(&ctx->err, GCAMP_EFATAL,
				 "a HEAD move without its branches");
	return stack_head_follow(repo, from, to, &ctx->err);
}
