/* The campaign itself: its settings (campaign.* in git config, so people
 * can edit them with `git config`), base-branch and forge detection, and
 * init. */
#ifndef GCAMP_CAMPAIGN_H
#define GCAMP_CAMPAIGN_H

#include "core/base/ctx.h"

struct campaign {
	char *name;
	char *base;	     /* the root branch of every stack */
	char *remote;	     /* "origin" unless configured */
	char *forge;	     /* "owner/repo", or NULL */
	char *forge_host;    /* "github.com", or NULL */
	long umbrella;	     /* issue number, 0 when none */
	int umbrella_auto;   /* campaign.umbrella.auto: update it after commands
			      */
	long github_timeout; /* campaign.github.timeout, seconds; 0: unset */
};

/* One campaign.* setting: what `config` accepts and git-campaign-config(5)
 * documents. */
struct setting {
	const char *key;  /* "campaign.base" */
	const char *kind; /* "string", "integer", "boolean", "multi" */
	const char *def;  /* default shown when unset, or NULL */
	const char *help;
	/* 0 or GCAMP_EUSAGE with the message in err */
	int (*check)(const char *value, struct error *err);
};

/* The table of known settings, terminated by a NULL key. */
extern const struct setting campaign_settings[];
/* The setting for key ("base" and "campaign.base" both work,
 * case-insensitively), or NULL. */
const struct setting *setting_find(const char *key);

/* Reads the campaign of the repository in ctx. GCAMP_ENOTINIT (with a
 * hint to run init) when there is none. Release with campaign_release. */
int campaign_load(struct campaign *out, struct ctx *ctx);
void campaign_release(struct campaign *c);

/* The base branch a new campaign gets: "develop" if it exists (locally or
 * on remote), else remote's default branch (refs/remotes/REMOTE/HEAD), else
 * "main" or "master", else the current branch when it is unborn. The
 * caller frees *out. GCAMP_ENOTFOUND when none applies. */
int campaign_detect_base(char **out, struct ctx *ctx, const char *remote);

/* 1 when branch exists as refs/heads/NAME or refs/remotes/REMOTE/NAME. */
int campaign_branch_known(struct ctx *ctx, const char *remote,
			  const char *name);

struct init_opts {
	const char *name;     /* NULL: the work tree's folder name */
	const char *base;     /* NULL: detected */
	const char *remote;   /* NULL: "origin" */
	const char *forge;    /* NULL: from the remote's URL */
	const char *umbrella; /* issue number as given; NULL: none */
	int force;	      /* re-initialise an existing campaign */
};

/* Starts (or with force, re-initialises) the campaign: creates the
 * database, then writes campaign.* and notes.rewriteRef. On success *out
 * holds the campaign as written. Nothing is written when a check fails. */
int campaign_init(struct campaign *out, struct ctx *ctx,
		  const struct init_opts *o);

#endif
