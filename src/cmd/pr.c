/* git campaign pr body|lint: a campaign PR's body rendered from the
 * branch's records, and the lint of a body (a file, the standard input,
 * or a PR on GitHub) for the seven sections. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd/cmd.h"
#include "core/campaign/campaign.h"
#include "core/forge/open.h"
#include "core/records/pr.h"
#include "core/views/prbody.h"
#include "core/views/prlint.h"
#include "io/github/api.h"
#include "io/github/client.h"
#include "io/repo.h"
#include "util/buf.h"
#include "util/json.h"
#include "util/options.h"
#include "util/strvec.h"
#include "util/xalloc.h"

SUB_USAGE(body_usage, "git campaign pr body [BRANCH] [--json]");
SUB_USAGE(view_usage, "git campaign pr view [BRANCH] [--web] [--json]");
SUB_USAGE(lint_usage, "git campaign pr lint [FILE | --pr N | BRANCH] "
		      "[--kind perf|fix|docs] [--base NAME] [--json]");

static int pr_body_cmd(int argc, const char **argv, struct ctx *ctx)
{
	struct buf out = BUF_INIT;
	cJSON *data = NULL;
	int json = 0;
	const struct option opts[] = {
		OPT_BOOL(0, "json", &json,
			 "print the data the template is rendered with"),
		OPT_END(),
	};
	int n = parse_options(argc, argv, opts, body_usage);

	if (n < 0)
		return parse_options_status(n);
	if (n > 1)
		return usage_error(body_usage, opts, "too many arguments");
	if (json) {
		if (prbody_data(&data, ctx, n ? argv[0] : NULL) < 0)
			return cmd_fail(ctx);
		cmd_print_json(data);
		return 0;
	}
	if (prbody_render(ctx, n ? argv[0] : NULL, &out, NULL) < 0)
		return cmd_fail(ctx);
	fputs(out.ptr, stdout);
	buf_release(&out);
	return 0;
}

static void say_wait(long wait_ms, const char *why)
{
	cmd_say_err("waiting %ld s for %s\n", (wait_ms + 999) / 1000, why);
}

/* The PR number of branch in the PR cache, 0 when none */
static long cached_pr(struct ctx *ctx, const char *branch)
{
	struct pr_cached pr;
	struct db *db;

	if (ctx_db(&db, ctx, 0) < 0 ||
	    pr_get(&pr, db_handle(db), branch, &ctx->err) < 0) {
		error_clear(&ctx->err);
		return 0;
	}
	return pr.number;
}

/* The body of PR number on the campaign's forge, into out */
static int fetch_body(struct buf *out, struct ctx *ctx,
		      const struct campaign *c, long number)
{
	struct github *gh = NULL;
	struct github_pr pr;
	int rc;

	memset(&pr, 0, sizeof(pr));
	if (!c->forge) {
		error_set(&ctx->err, GCAMP_EUSAGE,
			  "the campaign has no forge repository");
		error_hint(&ctx->err,
			   "git campaign config forge OWNER/REPO sets it");
		return GCAMP_EUSAGE;
	}
	if ((rc = forge_open(&gh, ctx, c)) < 0)
		goto out;
	github_on_wait(gh, say_wait);
	if ((rc = github_pr_get(&pr, gh, number, &ctx->err)) < 0)
		goto out;
	buf_puts(out, pr.body ? pr.body : "");
out:
	github_pr_release(&pr);
	github_close(gh);
	return rc;
}

/* FILE, "-", or else a local branch: its PR's body */
static int lint_source(struct buf *out, struct ctx *ctx,
		       const struct campaign *c, const char *arg, long pr)
{
	git_repository *repo;
	struct refs refs;
	char *cur = NULL, tip[REFS_HEX_SIZE];
	struct stat sb;
	int rc;

	if (pr)
		return fetch_body(out, ctx, c, pr);
	if (arg && (!strcmp(arg, "-") || !stat(arg, &sb)))
		return cmd_read_text(out, arg, &ctx->err);
	if ((rc = ctx_repo(&repo, ctx, 0)) < 0)
		return rc;
	repo_refs(&refs, repo);
	if (!arg) {
		if ((rc = refs_head_branch(&cur, &refs, &ctx->err)) < 0)
			return rc;
		if (!cur)
			return error_set(&ctx->err, GCAMP_EUSAGE,
					 "HEAD is detached: name a file, a "
					 "branch or --pr N");
		arg = cur;
	} else if (refs_branch_tip(tip, &refs, NULL, arg) < 0) {
		return error_set(&ctx->err, GCAMP_ENOTFOUND,
				 "no file or branch '%s'", arg);
	}
	if (!(pr = cached_pr(ctx, arg))) {
		rc = error_set(&ctx->err, GCAMP_ENOTFOUND,
			       "branch '%s' has no PR yet", arg);
		error_hint(&ctx->err,
			   "'git campaign pr body %s | git campaign pr lint -' "
			   "lints the body it would get",
			   arg);
	} else {
		rc = fetch_body(out, ctx, c, pr);
	}
	free(cur);
	return rc;
}

/* 1 when branch (NULL: the checked-out one) has A/B runs among its
 * records: its PR is a performance claim */
static int branch_has_ab(struct ctx *ctx, const char *branch)
{
	int has;

	if (prbody_has_ab(&has, ctx, branch) < 0)
		error_clear(&ctx->err);
	return has;
}

/* The checkstyle configuration Testing must say passed: the value of
 * campaign.lint.checkstyle (false: none), else the first tracked file named
 * *checkstyle*.xml. NULL outside a repository; the caller frees. */
static char *checkstyle_config(struct ctx *ctx)
{
	git_repository *repo;
	git_index *idx = NULL;
	struct gitcfg *cfg;
	const char *v;
	char *found = NULL;
	size_t i, n;

	if (ctx_config(&cfg, ctx) == 0 &&
	    gitcfg_get(&v, cfg, "campaign.lint.checkstyle") == 0)
		return gitcfg_bool(v) == 0 ? NULL : xstrdup(v);
	error_clear(&ctx->err);
	if (ctx_repo(&repo, ctx, 0) < 0 ||
	    git_repository_index(&idx, repo) < 0) {
		error_clear(&ctx->err);
		return NULL;
	}
	n = git_index_entrycount(idx);
	for (i = 0; i < n && !found; i++) {
		const git_index_entry *e = git_index_get_byindex(idx, i);
		const char *base = strrchr(e->path, '/');
		char low[256];
		size_t len, k;

		base = base ? base + 1 : e->path;
		len = strlen(base);
		if (len >= sizeof(low))
			continue;
		for (k = 0; k <= len; k++)
			low[k] = (char)tolower((unsigned char)base[k]);
		if (strstr(low, "checkstyle") && len > 4 &&
		    !strcmp(low + len - 4, ".xml"))
			found = xstrdup(e->path);
	}
	git_index_free(idx);
	return found;
}

static int pr_lint_cmd(int argc, const char **argv, struct ctx *ctx)
{
	struct prlint l = PRLINT_INIT;
	struct campaign c;
	struct buf body = BUF_INIT;
	const char *base = NULL;
	long pr = 0;
	int json = 0, have_campaign, rc = 0, kind = PRLINT_AUTO, is_file = 0;
	int missing = 0;
	char *checkstyle = NULL;
	size_t i;
	struct stat sb;
	const struct option opts[] = {
		OPT_INT(0, "pr", &pr, "N", "lint the body of PR N on GitHub"),
		OPT_CHOICE(0, "kind", &kind, prlint_kind_names, "KIND",
			   "what the PR is: perf, fix or docs (default: "
			   "judged from the body and the branch's A/B runs)"),
		OPT_STRING(0, "base", &base, "NAME",
			   "the base branch the Testing section names "
			   "(default: the campaign's, else develop, main or "
			   "master)"),
		OPT_BOOL(0, "json", &json, "print the problems as JSON"),
		OPT_END(),
	};
	int n = parse_options(argc, argv, opts, lint_usage);

	if (n < 0)
		return parse_options_status(n);
	if (n > 1 || (n && pr))
		return usage_error(lint_usage, opts,
				   "one of FILE, --pr N and BRANCH");
	if (pr < 0)
		return usage_error(lint_usage, opts, "--pr wants a PR number");
	memset(&c, 0, sizeof(c));
	is_file = !pr && n && (!strcmp(argv[0], "-") || !stat(argv[0], &sb));
	/* a file lints outside a campaign too, the base unknown */
	have_campaign = campaign_load(&c, ctx) == 0;
	if (!have_campaign) {
		if (!is_file) {
			rc = cmd_fail(ctx);
			goto out;
		}
		error_clear(&ctx->err);
	}
	if (lint_source(&body, ctx, &c, n ? argv[0] : NULL, pr) < 0) {
		rc = cmd_fail(ctx);
		goto out;
	}
	l.base = base ? base : have_campaign ? c.base : NULL;
	l.kind = (enum prlint_kind)kind;
	if (have_campaign && !is_file && !pr && l.kind == PRLINT_AUTO)
		l.has_ab = branch_has_ab(ctx, n ? argv[0] : NULL);
	l.checkstyle = checkstyle = checkstyle_config(ctx);
	prlint_check(&l, body.ptr ? body.ptr : "");
	if (json) {
		cJSON *j = cJSON_CreateObject();
		cJSON *arr = cJSON_AddArrayToObject(j, "problems");
		cJSON *notes;

		cJSON_AddBoolToObject(j, "ok", !l.problems.nr);
		cJSON_AddStringToObject(j, "kind", prlint_kind_names[l.kind]);
		cJSON_AddStringToObject(j, "kind_reason", l.kind_why);
		for (i = 0; i < l.problems.nr; i++)
			cJSON_AddItemToArray(
				arr, cJSON_CreateString(l.problems.v[i]));
		notes = cJSON_AddArrayToObject(j, "notes");
		for (i = 0; i < l.notes.nr; i++)
			cJSON_AddItemToArray(notes,
					     cJSON_CreateString(l.notes.v[i]));
		cmd_print_json(j);
	} else {
		for (i = 0; i < l.problems.nr; i++)
			printf("%s\n", l.problems.v[i]);
		for (i = 0; i < l.notes.nr; i++)
			fprintf(stderr, "note: %s\n", l.notes.v[i]);
		for (i = 0; i < l.problems.nr && !missing; i++)
			missing =
				strstr(l.problems.v[i], "' is missing") != NULL;
		/* which parts are required depends on the kind judged */
		if (missing && l.kind_guessed)
			fprintf(stderr,
				"note: linted as a %s PR: %s (--kind says "
				"otherwise)\n",
				l.kind == PRLINT_PERF  ? "performance"
				: l.kind == PRLINT_FIX ? "correctness-fix"
						       : "docs",
				l.kind_why);
	}
	rc = l.problems.nr ? 1 : 0;
out:
	if (have_campaign)
		campaign_release(&c);
	prlint_release(&l);
	free(checkstyle);
	buf_release(&body);
	return rc;
}

/* BRANCH (NULL: the current one) and its PR number in the cache, or an
 * error that names the command that opens one */
static int view_target(const char **branch, long *number, char **cur,
		       struct ctx *ctx)
{
	git_repository *repo;
	struct refs refs;
	char tip[REFS_HEX_SIZE];
	int rc;

	if ((rc = ctx_repo(&repo, ctx, 0)) < 0)
		return rc;
	repo_refs(&refs, repo);
	if (!*branch) {
		if ((rc = refs_head_branch(cur, &refs, &ctx->err)) < 0)
			return rc;
		if (!*cur)
			return error_set(&ctx->err, GCAMP_EUSAGE,
					 "HEAD is detached: name a branch");
		*branch = *cur;
	} else if (refs_branch_tip(tip, &refs, NULL, *branch) < 0) {
		return error_set(&ctx->err, GCAMP_ENOTFOUND, "no branch '%s'",
				 *branch);
	}
	if (!(*number = cached_pr(ctx, *branch))) {
		error_set(&ctx->err, GCAMP_ENOTFOUND,
			  "branch '%s' has no PR yet", *branch);
		error_hint(&ctx->err, "'git campaign stack submit' opens it");
		return GCAMP_ENOTFOUND;
	}
	return 0;
}

static int pr_view_cmd(int argc, const char **argv, struct ctx *ctx)
{
	struct campaign c;
	struct github *gh = NULL;
	struct github_pr pr;
	const char *branch = NULL;
	char *cur = NULL;
	long number = 0;
	int web = 0, json = 0, rc = 0;
	const struct option opts[] = {
		OPT_BOOL(0, "web", &web,
			 "open the PR in a browser (xdg-open), or print its "
			 "URL where there is no display"),
		OPT_BOOL(0, "json", &json, "print the PR as JSON"),
		OPT_END(),
	};
	int n = parse_options(argc, argv, opts, view_usage);

	if (n < 0)
		return parse_options_status(n);
	if (n > 1)
		return usage_error(view_usage, opts, "one BRANCH at most");
	memset(&pr, 0, sizeof(pr));
	if (campaign_load(&c, ctx) < 0)
		return cmd_fail(ctx);
	branch = n ? argv[0] : NULL;
	if (view_target(&branch, &number, &cur, ctx) < 0)
		goto fail;
	if (!c.forge) {
		error_set(&ctx->err, GCAMP_EUSAGE,
			  "the campaign has no forge repository");
		error_hint(&ctx->err,
			   "git campaign config forge OWNER/REPO sets it");
		goto fail;
	}
	if (forge_open(&gh, ctx, &c) < 0)
		goto fail;
	github_on_wait(gh, say_wait);
	if (github_pr_get(&pr, gh, number, &ctx->err) < 0)
		goto fail;
	if (web) {
		if (!pr.html_url)
			printf("#%ld has no web address\n", number);
		else if (!cmd_open_url(pr.html_url))
			printf("%s\n", pr.html_url);
	} else if (json) {
		cJSON *j = cJSON_CreateObject();

		cJSON_AddNumberToObject(j, "number", (double)pr.number);
		cJSON_AddStringToObject(j, "branch", branch);
		json_add_str_or_null(j, "title", pr.title);
		cJSON_AddStringToObject(j, "state",
					pr.merged  ? "merged"
					: pr.draft ? "draft"
					: pr.state ? pr.state
						   : "");
		json_add_str_or_null(j, "base", pr.base);
		json_add_str_or_null(j, "url", pr.html_url);
		json_add_str_or_null(j, "updated_at", pr.updated_at);
		json_add_str_or_null(j, "body", pr.body);
		cmd_print_json(j);
	} else {
		printf("#%ld %s\n", pr.number, pr.title ? pr.title : "");
		printf("%s · %s into %s · updated %s\n",
		       pr.merged  ? "merged"
		       : pr.draft ? "draft"
		       : pr.state ? pr.state
				  : "?",
		       branch, pr.base ? pr.base : "?",
		       pr.updated_at ? pr.updated_at : "?");
		if (pr.html_url)
			printf("%s\n", pr.html_url);
		if (pr.body && *pr.body)
			printf("\n%s%s", pr.body,
			       pr.body[strlen(pr.body) - 1] == '\n' ? ""
								    : "\n");
	}
	goto out;
fail:
	rc = cmd_fail(ctx);
out:
	github_pr_release(&pr);
	github_close(gh);
	campaign_release(&c);
	free(cur);
	return rc;
}

int cmd_pr(int argc, const char **argv, struct ctx *ctx)
{
	static const struct subcommand subs[] = {
		{"body", pr_body_cmd, body_usage, 0},
		{"lint", pr_lint_cmd, lint_usage, 0},
		{"view", pr_view_cmd, view_usage, 0},
		{NULL},
	};

	return cmd_subcommand(argc, argv, ctx, subs, NULL, NULL);
}
