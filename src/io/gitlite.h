/* The files backend of io/refs.h, and the repository read from its files
 * without libgit2 (whose loading alone costs more than a hook or a prompt's
 * status may take): discovery of GIT_DIR, HEAD, loose and packed refs,
 * ref-name rules, and git config as git itself reads it. */
#ifndef GCAMP_GITLITE_H
#define GCAMP_GITLITE_H

#include "io/refs.h"
#include "util/buf.h"
#include "util/error.h"
#include "util/strvec.h"

struct gitlite {
	char *git_dir;	   /* this worktree's git directory, absolute */
	char *common_dir;  /* the repository's shared git directory */
	char *work_tree;   /* the top of the work tree, absolute; NULL in a
			      bare repository */
	struct strvec cfg; /* key, value, ... in git's order, -c last;
			      keys normalised ("branch.Sub.name") */
	int flags;	   /* as given to gitlite_open_flags */
	int includes;	   /* a file has include or includeIf sections: with
			      GITLITE_NO_GIT, cfg lacks what they include */
};

#define GITLITE_INIT                                                           \
	{                                                                      \
		NULL, NULL, NULL, STRVEC_INIT, 0, 0                            \
	}

/* gitlite_open_flags: never run git; a configuration with includes is
 * read without them and marked (g->includes), for the caller to read it
 * another way. */
#define GITLITE_NO_GIT 1

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
/* gitlite_open with flags (GITLITE_NO_GIT or 0). */
int gitlite_open_flags(struct gitlite *out, int flags, struct error *err);
void gitlite_release(struct gitlite *g);
/* Reads the configuration again (after a write), as gitlite_open did. */
int gitlite_reload_config(struct gitlite *g, struct error *err);

/* The last value of key (any case in section and name), or NULL; borrowed
 * from g. */
const char *gitlite_get(const struct gitlite *g, const char *key);
/* key read as a git boolean; def when unset, and when the value is not one
 * (git would refuse it; a hook must not). */
int gitlite_get_bool(const struct gitlite *g, const char *key, int def);
/* Appends every value of key, in git's order. */
void gitlite_get_all(struct strvec *out, const struct gitlite *g,
		     const char *key);

/* The files backend over g's refs (this worktree's HEAD and per-worktree
 * refs in git_dir, shared ones and packed-refs in common_dir), in *out:
 * it borrows g, which must outlive it. */
void gitlite_refs(struct refs *out, const struct gitlite *g);
/* A gitlite with the two directories alone and no configuration, for
 * reading the refs of another worktree (git_dir "COMMON/worktrees/NAME")
 * through gitlite_refs(). Release with gitlite_release(). */
void gitlite_open_dirs(struct gitlite *out, const char *git_dir,
		       const char *common_dir);

/* 1 when refname is a valid ref name by git's rules (git
 * check-ref-format): no component that starts with "." or ends with
 * ".lock", no "..", "@{", "//", control character, space or any of
 * ~^:?*[\, no final "/" or ".", not "@". */
int gitlite_refname_valid(const char *refname);
/* 1 when name may name a branch (git check-ref-format --branch): not
 * "HEAD", no leading "-", refs/heads/NAME valid. */
int gitlite_branch_name_valid(const char *name);
/* 1 when name may name a remote: refs/remotes/NAME/test valid. */
int gitlite_remote_name_valid(const char *name);

#endif
