/* git campaign config: read and write campaign.* in git config. */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "cmd/cmd.h"
#include "core/campaign/campaign.h"
#include "util/options.h"
#include "util/suggest.h"

static const char *const config_usage[] = {
	"git campaign config [--json]",
	"git campaign config KEY [VALUE]",
	"git campaign config --unset KEY",
	NULL,
};

static int unknown_key(struct ctx *ctx, const char *key)
{
	const char *word = strncasecmp(key, "campaign.", 9) ? key : key + 9;
	const char *names[32], *best[1];
	size_t n;

	/* compare the part after "campaign.": "bsae" against "base" */
	for (n = 0; n < 32 && campaign_settings[n].key; n++)
		names[n] = campaign_settings[n].key + 9;
	error_set(&ctx->err, GCAMP_EUSAGE, "unknown setting '%s'", key);
	if (suggest_closest(best, 1, word, names, n))
		error_hint(&ctx->err, "did you mean 'campaign.%s'?", best[0]);
	else
		error_hint(&ctx->err, "'git campaign config' lists them");
	return cmd_fail(ctx);
}

/* A repeatable setting: every value, one line (or array member) each */
static void list_multi(struct gitcfg *cfg, const struct setting *s, cJSON *arr,
		       struct error *err)
{
	struct strvec all = STRVEC_INIT;
	size_t i;

	gitcfg_get_all(&all, cfg, s->key, err);
	if (arr) {
		cJSON *e = cJSON_CreateObject(), *vals;

		cJSON_AddStringToObject(e, "key", s->key);
		vals = cJSON_AddArrayToObject(e, "value");
		for (i = 0; i < all.nr; i++)
			cJSON_AddItemToArray(vals,
					     cJSON_CreateString(all.v[i]));
		cJSON_AddNullToObject(e, "default");
		cJSON_AddStringToObject(e, "type", s->kind);
		cJSON_AddStringToObject(e, "help", s->help);
		cJSON_AddItemToArray(arr, e);
	} else if (!all.nr) {
		printf("%-20s (unset)\n", s->key);
	}
	for (i = 0; !arr && i < all.nr; i++)
		printf("%-20s %s\n", s->key, all.v[i]);
	strvec_clear(&all);
}

static int list(struct ctx *ctx, int json)
{
	struct gitcfg *cfg;
	const struct setting *s;
	cJSON *arr = NULL;

	if (ctx_config(&cfg, ctx) < 0)
		return cmd_fail(ctx);
	if (json)
		arr = cJSON_CreateArray();
	for (s = campaign_settings; s->key; s++) {
		const char *v = NULL;

		if (!strcmp(s->kind, "multi")) {
			list_multi(cfg, s, arr, &ctx->err);
			continue;
		}
		gitcfg_get(&v, cfg, s->key);
		if (json) {
			cJSON *e = cJSON_CreateObject();

			cJSON_AddStringToObject(e, "key", s->key);
			if (v)
				cJSON_AddStringToObject(e, "value", v);
			else
				cJSON_AddNullToObject(e, "value");
			if (s->def)
				cJSON_AddStringToObject(e, "default", s->def);
			else
				cJSON_AddNullToObject(e, "default");
			cJSON_AddStringToObject(e, "type", s->kind);
			cJSON_AddStringToObject(e, "help", s->help);
			cJSON_AddItemToArray(arr, e);
		} else if (v) {
			printf("%-20s %s\n", s->key, v);
		} else {
			printf("%-20s (unset%s%s)\n", s->key,
			       s->def ? ", default " : "",
			       s->def ? s->def : "");
		}
	}
	if (json)
		cmd_print_json(arr);
	return 0;
}

int cmd_config(int argc, const char **argv, struct ctx *ctx)
{
	int json = 0, unset = 0;
	const struct setting *s;
	struct gitcfg *cfg;
	const char *v;
	const struct option opts[] = {
		OPT_BOOL(0, "json", &json, "list the settings as JSON"),
		OPT_BOOL(0, "unset", &unset, "remove KEY"),
		OPT_END(),
	};
	int n = parse_options(argc, argv, opts, config_usage);

	if (n < 0)
		return parse_options_status(n);
	if (n > 2 || (unset && n != 1) || (json && n))
		return usage_error(config_usage, opts,
				   "wrong number of arguments");
	if (n == 0)
		return list(ctx, json);
	if (!(s = setting_find(argv[0])))
		return unknown_key(ctx, argv[0]);
	if (ctx_config(&cfg, ctx) < 0)
		return cmd_fail(ctx);
	if (unset) {
		/* unsetting what is not set is a "no", as reading it is */
		if (gitcfg_unset(cfg, s->key, &ctx->err) == GCAMP_ENOTFOUND)
			ctx->err.code = GCAMP_EREFUSED;
		return ctx->err.code ? cmd_fail(ctx) : 0;
	}
	if (n == 1 && !strcmp(s->kind, "multi")) {
		struct strvec all = STRVEC_INIT;
		size_t i;

		gitcfg_get_all(&all, cfg, s->key, &ctx->err);
		for (i = 0; i < all.nr; i++)
			printf("%s\n", all.v[i]);
		n = all.nr ? 0 : 1; /* unset: a "no" */
		strvec_clear(&all);
		return n;
	}
	if (n == 1) {
		if (gitcfg_get(&v, cfg, s->key) < 0)
			return 1; /* unset: like git config, a "no" */
		printf("%s\n", v);
		return 0;
	}
	/* a repeatable setting gains the value; others are replaced */
	if (s->check(argv[1], &ctx->err) < 0 ||
	    (!strcmp(s->kind, "multi")
		     ? gitcfg_ensure(cfg, s->key, argv[1], &ctx->err)
		     : gitcfg_set(cfg, s->key, argv[1], &ctx->err)) < 0)
		return cmd_fail(ctx);
	return 0;
}
