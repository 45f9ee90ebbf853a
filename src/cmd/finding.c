/* git campaign finding: what the campaign found, ranked by failure mode:
 * a silent wrong answer before a crash before slowness. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "core/records/finding.h"
#include "util/json.h"
#include "util/options.h"

SUB_USAGE(add_usage, "git campaign finding add --kind wrong-answer|crash|slow "
		     "TITLE [--issue URL] [--pr N] [--commit REV]");
SUB_USAGE(list_usage, "git campaign finding list [--json]");
SUB_USAGE(close_usage, "git campaign finding close ID --pr N");

static int finding_add_cmd(int argc, const char **argv, struct ctx *ctx)
{
	const char *kind = NULL, *issue = NULL, *rev = NULL;
	char hex[GIT_OID_HEXSZ + 1];
	long pr = 0;
	long long id;
	git_oid oid;
	const struct option opts[] = {
		OPT_STRING(0, "kind", &kind, "KIND",
			   "wrong-answer, crash or slow"),
		OPT_STRING(0, "issue", &issue, "URL",
			   "the issue that tells it"),
		OPT_INT(0, "pr", &pr, "N", "the PR that fixes it"),
		OPT_STRING(0, "commit", &rev, "REV",
			   "the commit that shows it"),
		OPT_END(),
	};
	int n = parse_options(argc, argv, opts, add_usage);

	if (n < 0)
		return parse_options_status(n);
	if (n != 1)
		return usage_error(add_usage, opts,
				   n ? "too many arguments"
				     : "TITLE is missing");
	if (!kind)
		return usage_error(add_usage, opts, "--kind is missing");
	if (finding_check_kind(kind, &ctx->err) < 0)
		return cmd_fail(ctx);
	if (pr < 0)
		return usage_error(add_usage, opts,
				   "--pr wants a number greater than 0");
	if (cmd_need_campaign(ctx) < 0)
		return cmd_fail(ctx);
	if (rev) {
		if (cmd_commit_arg(&oid, ctx, rev) < 0)
			return cmd_fail(ctx);
		git_oid_tostr(hex, sizeof(hex), &oid);
	}
	if (finding_add(&id, ctx, kind, argv[0], issue, pr, rev ? hex : NULL) <
	    0)
		return cmd_fail(ctx);
	cmd_say("finding %lld (%s): %s\n", id, kind, argv[0]);
	return 0;
}

static cJSON *finding_json(const struct finding *f, int rank)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddNumberToObject(o, "id", (double)f->id);
	if (rank)
		cJSON_AddNumberToObject(o, "rank", rank);
	else
		cJSON_AddNullToObject(o, "rank");
	cJSON_AddStringToObject(o, "kind", f->kind);
	cJSON_AddStringToObject(o, "title", f->title);
	cJSON_AddStringToObject(o, "state", f->state);
	json_add_str_or_null(o, "issue", f->issue);
	if (f->pr)
		cJSON_AddNumberToObject(o, "pr", f->pr);
	else
		cJSON_AddNullToObject(o, "pr");
	json_add_str_or_null(o, "commit", f->commit_id);
	if (f->closed_pr)
		cJSON_AddNumberToObject(o, "closed_by", f->closed_pr);
	else
		cJSON_AddNullToObject(o, "closed_by");
	cJSON_AddStringToObject(o, "created_at", f->created_at);
	json_add_str_or_null(o, "closed_at", f->closed_at);
	return o;
}

static void print_finding(const struct finding *f, int rank)
{
	if (rank)
		printf("%d. #%lld %-12s %s", rank, f->id, f->kind, f->title);
	else
		printf("   #%lld %-12s %s (closed by #%ld)", f->id, f->kind,
		       f->title, f->closed_pr);
	if (f->issue)
		printf(" [%s]", f->issue);
	if (f->pr && rank)
		printf(" [PR #%ld]", f->pr);
	if (f->commit_id)
		printf(" [%.12s]", f->commit_id);
	putchar('\n');
}

static int finding_list_cmd(int argc, const char **argv, struct ctx *ctx)
{
	struct finding *v;
	size_t n, i;
	int json = 0, rank = 0;
	cJSON *arr = NULL;
	const struct option opts[] = {
		OPT_BOOL(0, "json", &json, "print JSON"),
		OPT_END(),
	};
	int k = parse_options(argc, argv, opts, list_usage);

	if (k < 0)
		return parse_options_status(k);
	if (k)
		return usage_error(list_usage, opts, "too many arguments");
	if (cmd_need_campaign(ctx) < 0 || finding_list(&v, &n, ctx) < 0)
		return cmd_fail(ctx);
	if (json)
		arr = cJSON_CreateArray();
	for (i = 0; i < n; i++) {
		int open = !strcmp(v[i].state, "open");

		if (open)
			rank++;
		else if (!json && (!i || !strcmp(v[i - 1].state, "open")))
			printf("closed:\n");
		if (json)
			cJSON_AddItemToArray(
				arr, finding_json(&v[i], open ? rank : 0));
		else
			print_finding(&v[i], open ? rank : 0);
	}
	if (json)
		cmd_print_json(arr);
	else if (!n)
		fprintf(stderr, "no findings\n");
	finding_free(v, n);
	return 0;
}

static int finding_close_cmd(int argc, const char **argv, struct ctx *ctx)
{
	long pr = 0;
	long long id;
	char *end;
	const struct option opts[] = {
		OPT_INT(0, "pr", &pr, "N", "the PR that fixed it"),
		OPT_END(),
	};
	int n = parse_options(argc, argv, opts, close_usage);

	if (n < 0)
		return parse_options_status(n);
	if (n != 1)
		return usage_error(close_usage, opts,
				   n ? "too many arguments" : "ID is missing");
	errno = 0;
	id = strtoll(argv[0], &end, 10);
	if (!*argv[0] || *end || errno || id <= 0)
		return usage_error(close_usage, opts, "ID is a finding number");
	if (pr <= 0)
		return usage_error(close_usage, opts,
				   "--pr N is missing (the PR that fixed it)");
	if (cmd_need_campaign(ctx) < 0 || finding_close(ctx, id, pr) < 0)
		return cmd_fail(ctx);
	cmd_say("finding %lld closed by #%ld\n", id, pr);
	return 0;
}

int cmd_finding(int argc, const char **argv, struct ctx *ctx)
{
	static const struct subcommand subs[] = {
		{"add", finding_add_cmd, add_usage, 0},
		{"list", finding_list_cmd, list_usage, 0},
		{"close", finding_close_cmd, close_usage, 0},
		{NULL},
	};

	return cmd_subcommand(argc, argv, ctx, subs, NULL, "list");
}
