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
	HOOK_FOREIGN,	   /* someone else's hook */
};

/* The state of hook name in w->dir. */
enum hook_state hooks_state(const struct hooks_where *w, const char *name);

/* Installs every hook into w->dir: an existing foreign hook is renamed to
 * NAME.campaign-orig and run first by ours; ours are rewritten. Checks
 * everything before changing anything: GCAMP_EEXISTS when a foreign hook
 * is there together with a NAME.campaign-orig. */
int hooks_install(const struct hooks_where *w, struct error *err);
/* Removes our hooks and renames each NAME.campaign-orig back, exactly as
 * it was. A foreign hook is left alone. */
int hooks_uninstall(const struct hooks_where *w, struct error *err);

/* The `repo: local` block for .pre-commit-config.yaml that runs our hooks
 * through the pre-commit framework, appended to out. */
void hooks_framework_snippet(struct buf *out, const struct hooks_where *w);
/* 0 when the framework's config at path reads as one (a top-level
 * "repos:"), else GCAMP_EFATAL saying why. */
int hooks_framework_check(const char *path, struct error *err);

#endif
