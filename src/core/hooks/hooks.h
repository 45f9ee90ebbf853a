/* The git hooks that keep a campaign's branch discipline: the checks
 * (hooks.c, hookmsg.c), which never load libgit2 so that a hook costs the
 * user's commit a few milliseconds, and their installation
 * (hooks_install.c). */
#ifndef GCAMP_HOOKS_H
#define GCAMP_HOOKS_H

#include <stdio.h>

#include "core/base/ctx.h"
#include "util/buf.h"
#include "util/error.h"
#include "util/strvec.h"

/* The hooks the tool installs, in order; NULL-terminated. */
extern const char *const hooks_names[];

/*
 * Runs hook name ("pre-commit", "commit-msg", "pre-push", "post-rewrite",
 * "post-commit") with git's arguments args[0..nargs-1]; in is the hook's
 * standard input (pre-push, post-rewrite read it). What the user must see
 * is appended to report as whole lines ("error: ", "hint: ", "warning: ",
 * "fatal: "); the caller prints it on stderr. Returns the exit status: 0
 * to let git go on (also outside a campaign, silently), 1 when a rule
 * refuses, 128 when the tool itself fails in a hook that can stop git
 * (the report then says so and how to bypass it), 129 for an unknown
 * name. The post- hooks always return 0: their failures are warnings.
 */
int hooks_run(struct buf *report, const char *name, int nargs,
	      const char **args, FILE *in);

/* Allows the next commit on the current branch into PR number (see
 * git-campaign-belongs(1)): records it in $GIT_DIR/campaign/belongs; the
 * post-commit hook forgets it. *branch_out gets the branch (caller frees),
 * *cached whether the PR cache holds number as the branch's open PR.
 * GCAMP_EREFUSED when it holds another open PR for the branch;
 * GCAMP_ENOTINIT outside a campaign; GCAMP_EFATAL when HEAD is detached. */
int hooks_belongs(char **branch_out, int *cached, long number,
		  struct error *err);

/* How the commit-msg hook cleans a message before judging it: as git
 * commit's --cleanup modes. */
enum msg_cleanup {
	MSG_STRIP,	/* comments, blank runs and outer blank lines */
	MSG_WHITESPACE, /* as strip, comments kept */
	MSG_VERBATIM,
	MSG_SCISSORS, /* whitespace, and cut at the scissors line */
};

/* Appends to out the message text[0..len) as `git commit` would store it
 * under mode, comment_char starting comment lines (core.commentChar). */
void hooks_msg_cleanup(struct buf *out, const char *text, size_t len,
		       enum msg_cleanup mode, char comment_char);

struct msg_rules {
	int one_line;		   /* a subject and nothing else */
	int attribution;	   /* no line crediting an AI tool or bot */
	int merge;		   /* a merge commit: its body is git's */
	const struct strvec *deny; /* extended regexes, any case, per line */
};

/*
 * Judges a cleaned message. 0 when it passes; GCAMP_EREFUSED with the
 * reason, quoting the offending line, in err (and a hint); GCAMP_EUSAGE
 * when a deny pattern is not a valid regular expression. "fixup!" and
 * "squash!" messages keep their bodies (git folds them in at rebase
 * --autosquash); the body of an "amend!" message, which replaces the
 * amended commit's message, is judged as a message.
 */
int hooks_msg_check(const char *msg, const struct msg_rules *rules,
		    struct error *err);

/* 1 when text[0..len) is valid UTF-8; else 0 with the 1-based line of
 * the first bad byte in *line. */
int hooks_utf8_valid(const char *text, size_t len, size_t *line);

/* Where and how the hooks are installed (hooks_install.c, with libgit2;
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
