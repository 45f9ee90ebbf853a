/* Installing the hooks: the effective hooks directory, chaining the hooks
 * already there, the pre-commit framework. */
#ifndef GCAMP_HOOKS_INSTALL_H
#define GCAMP_HOOKS_INSTALL_H

#include "core/base/ctx.h"
#include "util/buf.h"
#include "util/error.h"

/* Where and how the hooks are installed (install.c, with libgit2;
 * only the main program uses it). */
struct hooks_where {
	char *dir;	    /* the effective hooks directory */
	int from_hookspath; /* core.hooksPath set it */
	int outside;	    /* dir is outside the repository */
	char *framework;    /* the work tree's .pre-commit-config.yaml, or
			       NULL */
	char *hook_bin;	    /* the git-campaign-hook our scripts run */
};

/* Finds the effective hooks directory (core.hooksPath, -c overrides
 * included, relative to the work tree; else $GIT_COMMON_DIR/hooks) and
 * the pre-commit framework's config. Release with hooks_where_release. */
int hooks_locate(struct hooks_where *out, struct ctx *ctx);
void hooks_where_release(struct hooks_where *w);

enum hook_state {
	HOOK_ABSENT,
	HOOK_OURS,	   /* ours, alone */
	HOOK_OURS_CHAINED, /* ours, running NAME.campaign-orig first */
	HOOK_OURS_LEGACY,  /* ours as NAME.legacy, which the pre-commit
			      framework's script at NAME runs first */
	HOOK_FRAMEWORK,	   /* the pre-commit framework's script, ours not
			      among it */
	HOOK_FOREIGN,	   /* someone else's hook */
};

/* The state of hook name in w->dir. */
enum hook_state hooks_state(const struct hooks_where *w, const char *name);
/* The program our hook name runs (a link's target, or the script's),
 * for the caller to free; NULL when ours is not installed there. */
char *hooks_program(const struct hooks_where *w, const char *name);

/* Installs every hook into w->dir as a script that refuses, saying so,
 * when its program is gone: an existing foreign hook is renamed to
 * NAME.campaign-orig and run first by ours; where the pre-commit
 * framework's script is NAME, ours goes to NAME.legacy, which the
 * framework runs first (a NAME.legacy there before is chained as
 * NAME.campaign-orig); ours are rewritten. Checks everything before
 * changing anything: GCAMP_EEXISTS when a foreign hook to chain is there
 * together with a NAME.campaign-orig. */
int hooks_install(const struct hooks_where *w, struct error *err);
/* Removes our hooks (NAME.legacy included) and renames each
 * NAME.campaign-orig back to where ours was, exactly as it was. A foreign
 * hook, and the framework's script, are left alone. */
int hooks_uninstall(const struct hooks_where *w, struct error *err);

/* The `repo: local` block for .pre-commit-config.yaml that runs our hooks
 * through the pre-commit framework, appended to out. */
void hooks_framework_snippet(struct buf *out, const struct hooks_where *w);
/* 1 when the framework's config at path has a hook "id:
 * git-campaign-NAME", else 0. */
int hooks_framework_has(const char *path, const char *name);
/* 0 when the framework's config at path reads as one (a top-level
 * "repos:"), else GCAMP_EFATAL saying why. */
int hooks_framework_check(const char *path, struct error *err);

#endif
