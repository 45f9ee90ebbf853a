/* The few things of a repository the hooks need, read from its files
 * without libgit2 (whose loading alone costs more than a hook may take):
 * where GIT_DIR is, HEAD, refs, and git config as git itself reads it. */
#ifndef GCAMP_GITLITE_H
#define GCAMP_GITLITE_H

#include "util/buf.h"
#include "util/error.h"
#include "util/strvec.h"

struct gitlite {
	char *git_dir;	   /* this worktree's git directory, absolute */
	char *common_dir;  /* the repository's shared git directory */
	struct strvec cfg; /* key, value, ... in git's order, -c last;
			      keys normalised ("branch.Sub.name") */
};

#define GITLITE_INIT                                                           \
	{                                                                      \
		NULL, NULL, STRVEC_INIT                                        \
	}

/*
 * Finds the repository as git does for a hook or a command run here:
 * GIT_DIR (and GIT_COMMON_DIR), else the current directory and its parents
 * (a .git folder, a .git file of a linked worktree, or a bare repository),
 * stopping at GIT_CEILING_DIRECTORIES; then reads its configuration: the
 * system file (unless GIT_CONFIG_NOSYSTEM; GIT_CONFIG_SYSTEM), the global
 * ones (GIT_CONFIG_GLOBAL, else $XDG_CONFIG_HOME/git/config and
 * ~/.gitconfig), the repository's, config.worktree when
 * extensions.worktreeConfig is on, GIT_CONFIG_COUNT/KEY/VALUE and `git -c`
 * (GIT_CONFIG_PARAMETERS). When a file uses include or includeIf, the
 * whole configuration is read from `git config --list` instead, so that
 * includes mean what git says. GCAMP_ENOREPO outside a repository.
 * Release with gitlite_release().
 */
int gitlite_open(struct gitlite *out, struct error *err);
void gitlite_release(struct gitlite *g);

/* The last value of key (any case in section and name), or NULL; borrowed
 * from g. */
const char *gitlite_get(const struct gitlite *g, const char *key);
/* key read as a git boolean; def when unset, and when the value is not one
 * (git would refuse it; a hook must not). */
int gitlite_get_bool(const struct gitlite *g, const char *key, int def);
/* Appends every value of key, in git's order. */
void gitlite_get_all(struct strvec *out, const struct gitlite *g,
		     const char *key);

/* The checked-out branch ("main" for refs/heads/main, also when unborn)
 * in *out, or NULL when HEAD is detached. The caller frees *out. */
int gitlite_head_branch(char **out, const struct gitlite *g, struct error *err);
/* The commit refname ("HEAD", "refs/heads/x") points at, through symbolic
 * refs, from loose refs then packed-refs, as 40 hexadecimal digits in
 * out. 0, or GCAMP_ENOTFOUND (nothing recorded in err). */
int gitlite_resolve(char out[41], const struct gitlite *g, const char *refname);

/* Runs `git ARGS...` (at most 14) for this repository (GIT_DIR set unless
 * it is already), its standard output in out. GCAMP_EFATAL when git
 * cannot run or exits non-zero. */
int gitlite_git(struct buf *out, const struct gitlite *g,
		const char *const *args, struct error *err);

/*
 * Parses the text of one config file, appending key, value pairs
 * (normalised keys; a key without "=" gets "true") to out. *includes is
 * set when the text has an include or includeIf section. Returns 0, or -1
 * at the first line git would refuse (what was read so far is kept).
 */
int gitlite_parse_config(struct strvec *out, const char *text, size_t len,
			 int *includes);

/* Normalises "Section.Sub.Name" to "section.Sub.name" in place; returns -1
 * when key has no dot or an empty part (not a valid config key). */
int gitcfg_normalize_key(char *key);

/* Parses a GIT_CONFIG_PARAMETERS value (both of git's quoting forms) into
 * alternating key, value entries; `-c key` without "=" gives "true".
 * Returns -1 on a quoting error. */
int gitcfg_parse_parameters(struct strvec *out, const char *env);

/* Appends GIT_CONFIG_COUNT/KEY/VALUE then GIT_CONFIG_PARAMETERS (so -c
 * wins, the last value winning), keys normalised. */
void gitcfg_load_env(struct strvec *out);

#endif
