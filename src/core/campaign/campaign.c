/* Campaign settings, base and forge detection, init. */
#include "core/campaign/campaign.h"

#include <ctype.h>
#include <errno.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/base/forge_url.h"
#include "core/machine/fingerprint.h"
#include "core/measure/notes.h"
#include "io/gitlite.h"
#include "io/proc.h"
#include "io/repo.h"
#include "util/buf.h"
#include "util/clock.h"
#include "util/xalloc.h"

static int check_branch(const char *value, struct error *err)
{
	if (!gitlite_branch_name_valid(value))
		return error_set(err, GCAMP_EUSAGE,
				 "'%s' is not a valid branch name", value);
	return 0;
}

static int check_forge(const char *value, struct error *err)
{
	if (forge_name_valid(value) < 0)
		return error_set(err, GCAMP_EUSAGE, "'%s' is not OWNER/REPO",
				 value);
	return 0;
}

static int check_days(const char *value, struct error *err)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(value, &end, 10);
	if (!isdigit((unsigned char)*value) || *end || errno || n < 0)
		return error_set(err, GCAMP_EUSAGE,
				 "'%s' is not a number of days", value);
	return 0;
}

static int check_issue(const char *value, struct error *err)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(value, &end, 10);
	if (!isdigit((unsigned char)*value) || *end || errno || n <= 0)
		return error_set(err, GCAMP_EUSAGE,
				 "'%s' is not an issue number", value);
	return 0;
}

static int check_seconds(const char *value, struct error *err)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(value, &end, 10);
	if (!isdigit((unsigned char)*value) || *end || errno || n <= 0 ||
	    n > 3600)
		return error_set(err, GCAMP_EUSAGE,
				 "'%s' is not a number of seconds from 1 to "
				 "3600",
				 value);
	return 0;
}

static int check_remote(const char *value, struct error *err)
{
	if (!gitlite_remote_name_valid(value))
		return error_set(err, GCAMP_EUSAGE,
				 "'%s' is not a valid remote name", value);
	return 0;
}

static int check_text(const char *value, struct error *err)
{
	const char *p;

	if (!*value)
		return error_set(err, GCAMP_EUSAGE, "the value is empty");
	for (p = value; *p; p++)
		if ((unsigned char)*p < 0x20)
			return error_set(err, GCAMP_EUSAGE,
					 "the value holds a control character");
	return 0;
}

/* A GitHub login (letters, digits, inner single hyphens, at most 39), or
 * ORG/TEAM for a team: what a review can be requested from. */
static int check_reviewer(const char *value, struct error *err)
{
	const char *p, *slash = strchr(value, '/');
	size_t n = slash ? (size_t)(slash - value) : strlen(value);

	for (p = value; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr("-_./", *p))
			break;
	if (!n || n > 39 || *p || value[0] == '-' || value[n - 1] == '-' ||
	    (slash && (!slash[1] || strchr(slash + 1, '/'))) ||
	    (!slash && (strstr(value, "--") || strpbrk(value, "_."))))
		return error_set(err, GCAMP_EUSAGE,
				 "'%s' is not a GitHub login or ORG/TEAM",
				 value);
	return 0;
}

/* A host name with an optional port, nothing more: the API URL and the
 * credential host are built from it, so userinfo ("a@evil"), a path or a
 * query would send the request and the token elsewhere. */
static int check_host(const char *value, struct error *err)
{
	const char *p = value, *label = value;
	size_t len = 0;

	if (*p == '[') {
		/* an IPv6 address in brackets, as init keeps it */
		len = strspn(p + 1, "0123456789abcdefABCDEF:.");
		if (!len || p[1 + len] != ']')
			goto bad;
		p += len + 2;
		goto port;
	}
	for (; *p && *p != ':'; p++, len++) {
		int alnum = (*p >= 'a' && *p <= 'z') ||
			    (*p >= 'A' && *p <= 'Z') ||
			    (*p >= '0' && *p <= '9') || *p == '_';

		if (*p == '.') {
			if (p == label || p[-1] == '-')
				goto bad;
			label = p + 1;
		} else if (*p == '-') {
			if (p == label)
				goto bad;
		} else if (!alnum || p - label >= 63) {
			goto bad;
		}
	}
	if (!len || len > 253 || p == label || p[-1] == '-')
		goto bad;
port:
	if (*p && *p != ':')
		goto bad;
	if (*p == ':') {
		char *end;
		long port;

		errno = 0;
		port = strtol(p + 1, &end, 10);
		if (!p[1] || *end || errno || port < 1 || port > 65535 ||
		    p[1] < '0' || p[1] > '9')
			goto bad;
	}
	return 0;
bad:
	return error_set(err, GCAMP_EUSAGE,
			 "the value is not a host name with an optional "
			 ":port");
}

static int check_bool(const char *value, struct error *err)
{
	static const char *const ok[] = {"true", "false", "yes", "no",
					 "on",	 "off",	  "1",	 "0"};
	size_t i;

	for (i = 0; i < sizeof(ok) / sizeof(*ok); i++)
		if (!strcasecmp(value, ok[i]))
			return 0;
	return error_set(err, GCAMP_EUSAGE, "'%s' is not a boolean", value);
}

static int check_regex(const char *value, struct error *err)
{
	regex_t re;

	if (regcomp(&re, value, REG_EXTENDED | REG_ICASE | REG_NOSUB) != 0)
		return error_set(err, GCAMP_EUSAGE,
				 "'%s' is not an extended regular expression",
				 value);
	regfree(&re);
	return 0;
}

const struct setting campaign_settings[] = {
	{"campaign.name", "string", NULL,
	 "the campaign's name, shown by status and in texts", check_text},
	{"campaign.base", "string", NULL,
	 "the base branch: the root of every stack, where PRs go",
	 check_branch},
	{"campaign.remote", "string", "origin",
	 "the remote that holds the forge repository", check_remote},
	{"campaign.forge", "string", NULL, "the forge repository as OWNER/REPO",
	 check_forge},
	{"campaign.forgeHost", "string", "github.com",
	 "the forge's host name (a GitHub Enterprise host, for one)",
	 check_host},
	{"campaign.github.timeout", "integer", "20",
	 "seconds a GitHub request may take, its tries again included",
	 check_seconds},
	{"campaign.github.reviewers", "multi", NULL,
	 "a login (or ORG/TEAM) stack submit asks to review each PR, once "
	 "(repeatable)",
	 check_reviewer},
	{"campaign.github.labels", "multi", NULL,
	 "a label stack submit adds to each PR, once (repeatable)", check_text},
	{"campaign.backend", "string", NULL,
	 "the runtime backend measured (opencl, ptx, spirv, ...): part of "
	 "the environment id",
	 fingerprint_check_backend},
	{"campaign.backends", "multi", NULL,
	 "a backend the project supports: 'pr body' lists those no "
	 "measurement ran on as not tested (repeatable)",
	 fingerprint_check_backend},
	{"campaign.umbrella", "integer", NULL,
	 "the umbrella issue's number: the campaign's shared memory",
	 check_issue},
	{"campaign.umbrella.auto", "boolean", "false",
	 "update the umbrella at the end of every command that changes what "
	 "it shows (set by init --umbrella)",
	 check_bool},
	{"campaign.requireFlag", "multi", NULL,
	 "a flag every measured A/B command must hold (repeatable)",
	 check_text},
	{"campaign.requireControl", "boolean", "false",
	 "refuse an A/B that runs no control workload", check_bool},
	{"campaign.forbidFlag", "multi", NULL,
	 "a flag no measured A/B command may hold unless labelled "
	 "profiler=on (repeatable)",
	 check_text},
	{"campaign.gc.abDays", "integer", NULL,
	 "gc prunes A/B worktrees and builds unused this many days "
	 "(default: gc's --days)",
	 check_days},
	{"campaign.hooks.enabled", "boolean", "true",
	 "false turns every check of the git hooks off", check_bool},
	{"campaign.hooks.base", "boolean", "true",
	 "refuse commits on the base branch and pushes to it", check_bool},
	{"campaign.hooks.openPr", "boolean", "true",
	 "refuse commits onto a branch whose PR is open, unless they belong",
	 check_bool},
	{"campaign.hooks.oneLine", "boolean", "true",
	 "commit messages are one line, no body", check_bool},
	{"campaign.hooks.attribution", "boolean", "true",
	 "refuse commit messages that credit an AI tool or a bot", check_bool},
	{"campaign.hooks.denyPattern", "multi", NULL,
	 "a regular expression no commit message line may match (repeatable)",
	 check_regex},
	{"campaign.hooks.restack", "boolean", "true",
	 "refuse pushing a stacked branch that needs a restack", check_bool},
	{"campaign.flaky", "multi", NULL,
	 "a test class known to be flaky, kept apart by 'tests diff' "
	 "(repeatable)",
	 check_text},
	{NULL, NULL, NULL, NULL, NULL},
};

const struct setting *setting_find(const char *key)
{
	const struct setting *s;

	for (s = campaign_settings; s->key; s++)
		if (!strcasecmp(s->key, key) ||
		    !strcasecmp(s->key + strlen("campaign."), key))
			return s;
	return NULL;
}

void campaign_release(struct campaign *c)
{
	if (!c)
		return;
	free(c->name);
	free(c->base);
	free(c->remote);
	free(c->forge);
	free(c->forge_host);
	memset(c, 0, sizeof(*c));
}

static char *cfg_dup(struct gitcfg *cfg, const char *key, const char *def)
{
	const char *v;

	if (gitcfg_get(&v, cfg, key) == 0)
		return xstrdup(v);
	return def ? xstrdup(def) : NULL;
}

/* A hand-edited value that the settings table would refuse is refused on
 * reading too: a control character in a name would reach a prompt. */
static int check_loaded(struct ctx *ctx, struct gitcfg *cfg,
			const struct setting *s)
{
	struct error why = ERROR_INIT;
	const char *v;

	if (gitcfg_get(&v, cfg, s->key) < 0)
		return 0;
	if (s->check(v, &why) < 0) {
		error_set(&ctx->err, GCAMP_EFATAL, "bad %s in git config: %s",
			  s->key, why.msg);
		error_hint(&ctx->err,
			   "fix it with 'git campaign config %s VALUE'",
			   s->key + strlen("campaign."));
		return GCAMP_EFATAL;
	}
	return 0;
}

int campaign_load(struct campaign *out, struct ctx *ctx)
{
	const struct setting *s;
	struct gitcfg *cfg;
	const char *v;
	int rc;

	memset(out, 0, sizeof(*out));
	if ((rc = ctx_config(&cfg, ctx)) < 0)
		return rc;
	for (s = campaign_settings; s->key; s++)
		if ((rc = check_loaded(ctx, cfg, s)) < 0)
			return rc;
	if (gitcfg_get(&v, cfg, "campaign.name") < 0) {
		error_set(&ctx->err, GCAMP_ENOTINIT,
			  "no campaign in this repository");
		error_hint(&ctx->err, "start one with 'git campaign init'");
		return GCAMP_ENOTINIT;
	}
	out->name = xstrdup(v);
	if (gitcfg_get(&v, cfg, "campaign.base") < 0) {
		error_set(&ctx->err, GCAMP_ENOTINIT,
			  "campaign '%s' has no base branch", out->name);
		error_hint(&ctx->err,
			   "set it with 'git campaign config base BRANCH'");
		campaign_release(out);
		return GCAMP_ENOTINIT;
	}
	out->base = xstrdup(v);
	out->remote = cfg_dup(cfg, "campaign.remote", "origin");
	out->forge = cfg_dup(cfg, "campaign.forge", NULL);
	/* GH_HOST only where the campaign recorded no host, as gh uses it */
	out->forge_host =
		out->forge ? cfg_dup(cfg, "campaign.forgehost",
				     getenv("GH_HOST") && *getenv("GH_HOST")
					     ? getenv("GH_HOST")
					     : "github.com")
			   : NULL;
	if (gitcfg_get(&v, cfg, "campaign.umbrella") == 0)
		out->umbrella = strtol(v, NULL, 10);
	/* checked above with every setting */
	if (gitcfg_get(&v, cfg, "campaign.github.timeout") == 0)
		out->github_timeout = strtol(v, NULL, 10);
	if (gitcfg_get(&v, cfg, "campaign.umbrella.auto") == 0)
		out->umbrella_auto = !strcasecmp(v, "true") ||
				     !strcasecmp(v, "yes") ||
				     !strcasecmp(v, "on") || !strcmp(v, "1");
	return 0;
}

int campaign_branch_known(struct ctx *ctx, const char *remote, const char *name)
{
	git_repository *repo;
	struct refs refs;
	char tip[REFS_HEX_SIZE];

	if (ctx_repo(&repo, ctx, 0) < 0)
		return 0;
	repo_refs(&refs, repo);
	return refs_branch_tip(tip, &refs, remote, name) == 0;
}

/* The branch refs/remotes/REMOTE/HEAD points at, or NULL. */
static char *remote_default(git_repository *repo, const char *remote)
{
	struct buf ref = BUF_INIT, prefix = BUF_INIT;
	git_reference *head = NULL;
	char *out = NULL;

	buf_addf(&ref, "refs/remotes/%s/HEAD", remote);
	buf_addf(&prefix, "refs/remotes/%s/", remote);
	if (git_reference_lookup(&head, repo, ref.ptr) == 0 &&
	    git_reference_type(head) == GIT_REFERENCE_SYMBOLIC &&
	    !strncmp(git_reference_symbolic_target(head), prefix.ptr,
		     prefix.len))
		out = xstrdup(git_reference_symbolic_target(head) + prefix.len);
	git_error_clear();
	git_reference_free(head);
	buf_release(&ref);
	buf_release(&prefix);
	return out;
}

int campaign_detect_base(char **out, struct ctx *ctx, const char *remote)
{
	static const char *const usual[] = {"main", "master"};
	git_repository *repo;
	struct refs refs;
	char *current = NULL, tip[REFS_HEX_SIZE];
	size_t i;
	int rc;

	*out = NULL;
	if ((rc = ctx_repo(&repo, ctx, 0)) < 0)
		return rc;
	repo_refs(&refs, repo);
	if (campaign_branch_known(ctx, remote, "develop")) {
		*out = xstrdup("develop");
		return 0;
	}
	if ((*out = remote_default(repo, remote)))
		return 0;
	for (i = 0; i < 2; i++)
		if (refs_branch_tip(tip, &refs, NULL, usual[i]) == 0) {
			*out = xstrdup(usual[i]);
			return 0;
		}
	if ((rc = refs_head_branch(&current, &refs, &ctx->err)) < 0)
		return rc;
	if (current && git_repository_head_unborn(repo) == 1) {
		*out = current;
		return 0;
	}
	free(current);
	error_set(&ctx->err, GCAMP_ENOTFOUND,
		  "cannot tell the base branch: no 'develop', no default "
		  "branch of '%s', no 'main' or 'master'",
		  remote);
	error_hint(&ctx->err, "name it with 'git campaign init --base BRANCH'");
	return GCAMP_ENOTFOUND;
}

static int remote_exists(git_repository *repo, const char *name)
{
	git_remote *r = NULL;
	int found = git_remote_lookup(&r, repo, name) == 0;

	git_error_clear();
	git_remote_free(r);
	return found;
}

/* The host an SSH alias stands for, as the ssh git connects with resolves
 * it (`ssh -G`, through GIT_SSH_COMMAND when set, as git runs it: the
 * "hostname" of ssh_config's Host block), lower case; NULL when ssh is
 * not there or says nothing else. The caller frees it. */
static char *ssh_real_host(const char *alias)
{
	const char *cmd = getenv("GIT_SSH_COMMAND");
	char *script = xasprintf("%s -G -- \"$1\"", cmd && *cmd ? cmd : "ssh");
	const char *argv[] = {"sh", "-c", script, "sh", alias, NULL};
	struct proc_opts po = {
		.stdin_null = 1, .cap = 65536, .timeout_ms = 5000};
	struct proc_result r = PROC_RESULT_INIT;
	struct error err = ERROR_INIT;
	char *line, *host = NULL, *p;

	if (!proc_on_path("ssh") || proc_run(&r, argv, &po, &err) < 0 ||
	    r.status)
		goto out;
	for (line = r.out.ptr; line && *line; line = strchr(line, '\n')) {
		if (*line == '\n')
			line++;
		if (!strncmp(line, "hostname ", 9)) {
			host = xstrndup(line + 9, strcspn(line + 9, "\n\r "));
			break;
		}
	}
	for (p = host; p && *p; p++)
		*p = (char)tolower((unsigned char)*p);
	if (host && (!*host || !strcasecmp(host, alias))) {
		free(host);
		host = NULL;
	}
out:
	proc_result_release(&r);
	free(script);
	return host;
}

/* Fills the forge from the remote's URL when it names OWNER/REPO; the
 * host of an SSH URL is resolved as ssh resolves it (an alias such as
 * github-work for a second github.com key is github.com). */
static void forge_from_remote(struct campaign *c, git_repository *repo)
{
	git_remote *r = NULL;
	struct forge_url u;

	if (git_remote_lookup(&r, repo, c->remote) < 0 || !git_remote_url(r)) {
		git_error_clear();
		git_remote_free(r);
		return;
	}
	if (forge_url_parse(&u, git_remote_url(r)) == 0) {
		c->forge = xasprintf("%s/%s", u.owner, u.repo);
		c->forge_host = u.ssh ? ssh_real_host(u.host) : NULL;
		if (!c->forge_host)
			c->forge_host = xstrdup(u.host);
		forge_url_release(&u);
	}
	git_remote_free(r);
}

static char *folder_name(git_repository *repo)
{
	const char *wd = git_repository_workdir(repo);
	size_t n = strlen(wd);
	const char *p;

	while (n > 1 && wd[n - 1] == '/')
		n--;
	for (p = wd + n; p > wd && p[-1] != '/'; p--)
		;
	return xstrndup(p, (size_t)(wd + n - p));
}

/* Validates the options and fills c; writes nothing. */
static int init_plan(struct campaign *c, struct ctx *ctx,
		     const struct init_opts *o, git_repository *repo)
{
	const char *v;
	struct gitcfg *cfg;
	int rc;

	if ((rc = ctx_config(&cfg, ctx)) < 0)
		return rc;
	if (gitcfg_get(&v, cfg, "campaign.name") == 0 && !o->force) {
		error_set(&ctx->err, GCAMP_EEXISTS,
			  "campaign '%s' is already set up in this repository",
			  v);
		error_hint(&ctx->err, "change it with 'git campaign config', "
				      "or start over with 'init --force'");
		return GCAMP_EEXISTS;
	}
	if (o->name)
		c->name = xstrdup(o->name);
	else
		c->name = folder_name(repo);
	if ((rc = setting_find("name")->check(c->name, &ctx->err)) < 0)
		return rc;
	c->remote = xstrdup(o->remote ? o->remote : "origin");
	if ((rc = check_remote(c->remote, &ctx->err)) < 0)
		return rc;
	if (o->remote && !remote_exists(repo, o->remote)) {
		error_set(&ctx->err, GCAMP_ENOTFOUND, "no remote '%s'",
			  o->remote);
		error_hint(&ctx->err, "'git remote -v' lists the remotes");
		return GCAMP_ENOTFOUND;
	}
	if (o->base) {
		if ((rc = check_branch(o->base, &ctx->err)) < 0)
			return rc;
		if (!campaign_branch_known(ctx, c->remote, o->base)) {
			struct refs refs;
			char *cur = NULL;
			int unborn_here;

			repo_refs(&refs, repo);
			unborn_here =
				refs_head_branch(&cur, &refs, &ctx->err) == 0 &&
				cur && !strcmp(cur, o->base);

			free(cur);
			if (!unborn_here) {
				error_set(&ctx->err, GCAMP_ENOTFOUND,
					  "no branch '%s' here or on '%s'",
					  o->base, c->remote);
				return GCAMP_ENOTFOUND;
			}
		}
		c->base = xstrdup(o->base);
	} else if ((rc = campaign_detect_base(&c->base, ctx, c->remote)) < 0) {
		return rc;
	}
	forge_from_remote(c, repo);
	if (o->forge) {
		if ((rc = check_forge(o->forge, &ctx->err)) < 0)
			return rc;
		free(c->forge);
		c->forge = xstrdup(o->forge);
		if (!c->forge_host)
			c->forge_host = xstrdup("github.com");
	}
	if (o->umbrella) {
		if ((rc = check_issue(o->umbrella, &ctx->err)) < 0)
			return rc;
		c->umbrella = strtol(o->umbrella, NULL, 10);
	}
	return 0;
}

/* The campaign's name, and when it was first started (kept across a
 * second init) */
static int record_created(struct db *db, const char *name, struct error *err)
{
	char now[CLOCK_ISO_SIZE], *have = NULL;
	int rc;

	if ((rc = db_meta_set(db, "campaign", name, 0, err)) < 0)
		return rc;
	rc = db_meta_get(&have, db, "created_at", err);
	free(have);
	if (rc != GCAMP_ENOTFOUND)
		return rc;
	error_clear(err);
	clock_now_iso(now);
	return db_meta_set(db, "created_at", now, 0, err);
}

/* On re-initialisation, settings the new campaign does not have must not
 * survive from the old one. */
static int unset_stale(struct gitcfg *cfg, const struct campaign *c,
		       struct error *err)
{
	const char *keys[4] = {NULL, NULL, NULL, NULL};
	size_t i;
	int rc;

	if (!c->forge) {
		keys[0] = "campaign.forge";
		keys[1] = "campaign.forgeHost";
	}
	if (!c->umbrella) {
		keys[2] = "campaign.umbrella";
		keys[3] = "campaign.umbrella.auto";
	}
	for (i = 0; i < 4; i++) {
		if (!keys[i])
			continue;
		rc = gitcfg_unset(cfg, keys[i], err);
		if (rc == GCAMP_ENOTFOUND)
			error_clear(err);
		else if (rc < 0)
			return rc;
	}
	return 0;
}

int campaign_init(struct campaign *out, struct ctx *ctx,
		  const struct init_opts *o)
{
	git_repository *repo;
	struct gitcfg *cfg;
	struct db *db;
	char num[32];
	int rc;

	memset(out, 0, sizeof(*out));
	if ((rc = ctx_repo(&repo, ctx, 1)) < 0 ||
	    (rc = ctx_config(&cfg, ctx)) < 0)
		return rc;
	if ((rc = init_plan(out, ctx, o, repo)) < 0)
		goto fail;
	/* the database first: if it cannot be made, no setting is written */
	if ((rc = ctx_db(&db, ctx, DB_CREATE)) < 0 ||
	    (rc = record_created(db, out->name, &ctx->err)) < 0)
		goto fail;
	/* campaign.name is what makes a campaign: it is written last, so that
	 * an init stopped half-way leaves none and can simply be run again */
	if ((rc = gitcfg_set(cfg, "campaign.base", out->base, &ctx->err)) < 0 ||
	    (rc = gitcfg_set(cfg, "campaign.remote", out->remote, &ctx->err)) <
		    0)
		goto fail;
	if (out->forge && ((rc = gitcfg_set(cfg, "campaign.forge", out->forge,
					    &ctx->err)) < 0 ||
			   (rc = gitcfg_set(cfg, "campaign.forgeHost",
					    out->forge_host, &ctx->err)) < 0))
		goto fail;
	if (out->umbrella) {
		snprintf(num, sizeof(num), "%ld", out->umbrella);
		if ((rc = gitcfg_set(cfg, "campaign.umbrella", num,
				     &ctx->err)) < 0 ||
		    (rc = gitcfg_set(cfg, "campaign.umbrella.auto", "true",
				     &ctx->err)) < 0)
			goto fail;
	}
	if (o->force && (rc = unset_stale(cfg, out, &ctx->err)) < 0)
		goto fail;
	if ((rc = gitcfg_ensure(cfg, "notes.rewriteRef", "refs/notes/campaign",
				&ctx->err)) < 0 ||
	    (rc = notes_start(ctx, repo)) < 0)
		goto fail;
	if ((rc = gitcfg_set(cfg, "campaign.name", out->name, &ctx->err)) < 0)
		goto fail;
	return 0;
fail:
	campaign_release(out);
	return rc;
}
