/* git campaign stash: named stashes that cannot be confused with one
 * another and are never lost. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cmd/cmd.h"
#include "core/stash/apply.h"
#include "core/stash/stash.h"
#include "util/clock.h"
#include "util/options.h"

SUB_USAGE(save_usage, "git campaign stash save NAME [-m MSG] [-u] "
		      "[--keep-index]");
SUB_USAGE(list_usage, "git campaign stash list [--json]");
SUB_USAGE(show_usage, "git campaign stash show NAME [-p]");
SUB_USAGE(apply_usage, "git campaign stash apply NAME");
SUB_USAGE(pop_usage, "git campaign stash pop NAME");
SUB_USAGE(drop_usage, "git campaign stash drop NAME [--expect ID]");
SUB_USAGE(recover_usage, "git campaign stash recover [--json]",
	  "git campaign stash recover ID --as NAME");

static void short_hex(char out[13], const git_oid *id)
{
	git_oid_tostr(out, 13, id);
}

static cJSON *info_json(const struct stash_info *s)
{
	cJSON *o = cJSON_CreateObject();
	char hex[GIT_OID_HEXSZ + 1], date[32];

	git_oid_tostr(hex, sizeof(hex), &s->id);
	clock_iso(date, (time_t)s->when);
	if (s->name)
		cJSON_AddStringToObject(o, "name", s->name);
	cJSON_AddStringToObject(o, "id", hex);
	cJSON_AddStringToObject(o, "date", date);
	cJSON_AddStringToObject(o, "branch", s->branch);
	cJSON_AddStringToObject(o, "message", s->message);
	cJSON_AddBoolToObject(o, "untracked", s->has_untracked);
	return o;
}

static void print_infos(const struct stash_info *v, size_t n, int json)
{
	char hex[13], date[32];
	cJSON *arr;
	size_t i;

	if (json) {
		arr = cJSON_CreateArray();
		for (i = 0; i < n; i++)
			cJSON_AddItemToArray(arr, info_json(&v[i]));
		cmd_print_json(arr);
		return;
	}
	for (i = 0; i < n; i++) {
		short_hex(hex, &v[i].id);
		clock_iso(date, (time_t)v[i].when);
		if (v[i].name)
			printf("%-16s ", v[i].name);
		printf("%s  %s  %s: %s\n", hex, date, v[i].branch,
		       v[i].message);
	}
}

/* exactly want operands, else a usage error */
static int operands(int n, int want, const char *const *usage,
		    const struct option *opts)
{
	if (n < 0)
		return parse_options_status(n);
	if (n != want)
		return usage_error(usage, opts,
				   n < want ? "NAME is missing"
					    : "too many arguments");
	return 0;
}

static int stash_save_cmd(int argc, const char **argv, struct ctx *ctx)
{
	const char *msg = NULL;
	int untracked = 0, keep = 0, rc;
	char hex[13];
	git_oid id;
	const struct option opts[] = {
		OPT_STRING('m', "message", &msg, "MSG", "describe the stash"),
		OPT_BOOL('u', "include-untracked", &untracked,
			 "save untracked files too"),
		OPT_BOOL(0, "keep-index", &keep,
			 "leave the staged changes in place"),
		OPT_END(),
	};
	int n = parse_options(argc, argv, opts, save_usage);

	if ((rc = operands(n, 1, save_usage, opts)))
		return rc;
	if (stash_save(&id, ctx, argv[0], msg,
		       (untracked ? STASH_INCLUDE_UNTRACKED : 0) |
			       (keep ? STASH_KEEP_INDEX : 0)) < 0)
		return cmd_fail(ctx);
	short_hex(hex, &id);
	cmd_say("saved stash '%s' (%s)\n", argv[0], hex);
	return 0;
}

static int stash_list_cmd(int argc, const char **argv, struct ctx *ctx)
{
	struct stash_info *v;
	size_t n;
	int json = 0, rc;
	const struct option opts[] = {
		OPT_BOOL(0, "json", &json, "print JSON"),
		OPT_END(),
	};
	int k = parse_options(argc, argv, opts, list_usage);

	if ((rc = operands(k, 0, list_usage, opts)))
		return rc;
	if (stash_list(&v, &n, ctx) < 0)
		return cmd_fail(ctx);
	print_infos(v, n, json);
	stash_infos_free(v, n);
	return 0;
}

static int stash_show_cmd(int argc, const char **argv, struct ctx *ctx)
{
	struct buf out = BUF_INIT;
	int patch = 0, rc;
	const struct option opts[] = {
		OPT_BOOL('p', "patch", &patch, "show the whole patch"),
		OPT_END(),
	};
	int n = parse_options(argc, argv, opts, show_usage);

	if ((rc = operands(n, 1, show_usage, opts)))
		return rc;
	if (stash_diff(&out, ctx, argv[0], patch) < 0) {
		buf_release(&out);
		return cmd_fail(ctx);
	}
	fputs(out.ptr, stdout);
	buf_release(&out);
	return 0;
}

static int apply_or_pop(int argc, const char **argv, struct ctx *ctx, int pop)
{
	const char *const *usage = pop ? pop_usage : apply_usage;
	struct strvec conflicts = STRVEC_INIT;
	size_t i;
	int rc, n = parse_options(argc, argv, NULL, usage);

	if ((rc = operands(n, 1, usage, NULL)))
		return rc;
	if (stash_apply(ctx, argv[0], pop, &conflicts) < 0) {
		for (i = 0; i < conflicts.nr; i++)
			fprintf(stderr, "conflict: %s\n", conflicts.v[i]);
		strvec_clear(&conflicts);
		return cmd_fail(ctx);
	}
	cmd_say(pop ? "applied and dropped stash '%s'\n"
		    : "applied stash '%s'\n",
		argv[0]);
	return 0;
}

static int stash_apply_cmd(int argc, const char **argv, struct ctx *ctx)
{
	return apply_or_pop(argc, argv, ctx, 0);
}

static int stash_pop_cmd(int argc, const char **argv, struct ctx *ctx)
{
	return apply_or_pop(argc, argv, ctx, 1);
}

static int stash_drop_cmd(int argc, const char **argv, struct ctx *ctx)
{
	const char *expect = NULL;
	char hex[13];
	git_oid id;
	int rc;
	const struct option opts[] = {
		OPT_STRING(0, "expect", &expect, "ID",
			   "drop only if the stash is still this commit"),
		OPT_END(),
	};
	int n = parse_options(argc, argv, opts, drop_usage);

	if ((rc = operands(n, 1, drop_usage, opts)))
		return rc;
	if (stash_drop(&id, ctx, argv[0], expect) < 0)
		return cmd_fail(ctx);
	short_hex(hex, &id);
	cmd_say("dropped stash '%s' (%s); 'git campaign stash recover %s "
		"--as %s' brings it back\n",
		argv[0], hex, hex, argv[0]);
	return 0;
}

static int stash_recover_cmd(int argc, const char **argv, struct ctx *ctx)
{
	const char *as = NULL;
	struct stash_info *v;
	char hex[13];
	git_oid id;
	size_t count;
	int json = 0;
	const struct option opts[] = {
		OPT_STRING(0, "as", &as, "NAME", "name the stash ID"),
		OPT_BOOL(0, "json", &json, "print JSON"),
		OPT_END(),
	};
	int n = parse_options(argc, argv, opts, recover_usage);

	if (n < 0)
		return parse_options_status(n);
	if (n > 1)
		return usage_error(recover_usage, opts, "too many arguments");
	if (n == 1 && !as)
		return usage_error(recover_usage, opts, "--as NAME is missing");
	if (as && (!n || json))
		return usage_error(
			recover_usage, opts,
			json ? "--json lists; it does not go with --as"
			     : "ID is missing");
	if (as) {
		if (stash_restore_as(&id, ctx, argv[0], as) < 0)
			return cmd_fail(ctx);
		short_hex(hex, &id);
		cmd_say("recovered %s as stash '%s'\n", hex, as);
		return 0;
	}
	if (stash_find_lost(&v, &count, ctx) < 0)
		return cmd_fail(ctx);
	print_infos(v, count, json);
	if (!json && !count)
		fprintf(stderr, "no lost stashes\n");
	stash_infos_free(v, count);
	return 0;
}

int cmd_stash(int argc, const char **argv, struct ctx *ctx)
{
	static const struct subcommand subs[] = {
		{"save", stash_save_cmd, save_usage, 0},
		{"list", stash_list_cmd, list_usage, 0},
		{"show", stash_show_cmd, show_usage, 0},
		{"apply", stash_apply_cmd, apply_usage, 0},
		{"pop", stash_pop_cmd, pop_usage, 0},
		{"drop", stash_drop_cmd, drop_usage, 0},
		{"recover", stash_recover_cmd, recover_usage, 0},
		{NULL},
	};

	return cmd_subcommand(argc, argv, ctx, subs, NULL, "list");
}
