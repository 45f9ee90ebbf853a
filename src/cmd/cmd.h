/* The commands' entry points, and what they share: printing errors and
 * JSON. Each cmd_NAME parses its own options, so that -h works anywhere,
 * and returns the process exit status. */
#ifndef GCAMP_CMD_H
#define GCAMP_CMD_H

#include <cjson/cJSON.h>
#include <git2.h>

#include "core/base/ctx.h"
#include "util/buf.h"
#include "util/options.h"

int cmd_ab(int argc, const char **argv, struct ctx *ctx);
int cmd_belongs(int argc, const char **argv, struct ctx *ctx);
int cmd_config(int argc, const char **argv, struct ctx *ctx);
int cmd_env(int argc, const char **argv, struct ctx *ctx);
int cmd_finding(int argc, const char **argv, struct ctx *ctx);
int cmd_gc(int argc, const char **argv, struct ctx *ctx);
int cmd_hook(int argc, const char **argv, struct ctx *ctx);
int cmd_hooks(int argc, const char **argv, struct ctx *ctx);
int cmd_hypo(int argc, const char **argv, struct ctx *ctx);
int cmd_deinit(int argc, const char **argv, struct ctx *ctx);
int cmd_doctor(int argc, const char **argv, struct ctx *ctx);
int cmd_init(int argc, const char **argv, struct ctx *ctx);
int cmd_measure(int argc, const char **argv, struct ctx *ctx);
int cmd_ncu(int argc, const char **argv, struct ctx *ctx);
int cmd_pr(int argc, const char **argv, struct ctx *ctx);
int cmd_report(int argc, const char **argv, struct ctx *ctx);
int cmd_resume(int argc, const char **argv, struct ctx *ctx);
int cmd_scratch(int argc, const char **argv, struct ctx *ctx);
int cmd_stack(int argc, const char **argv, struct ctx *ctx);
int cmd_stash(int argc, const char **argv, struct ctx *ctx);
int cmd_status(int argc, const char **argv, struct ctx *ctx);
int cmd_sync(int argc, const char **argv, struct ctx *ctx);
int cmd_template(int argc, const char **argv, struct ctx *ctx);
int cmd_tests(int argc, const char **argv, struct ctx *ctx);
int cmd_umbrella(int argc, const char **argv, struct ctx *ctx);
int cmd_undo(int argc, const char **argv, struct ctx *ctx);

/* What main.c does around a command (its row in commands[]), and
 * cmd_subcommand around a subcommand (its row in the command's table). */
enum cmd_flags {
	/* no libgit2 start: the command reads refs and config through
	 * io/gitlite and opens libgit2 only when it must */
	CMD_LITE = 1 << 0,
	/* cmd_umbrella_auto on the exit status once the command ran */
	CMD_UMBRELLA_AUTO = 1 << 1,
};

/* One subcommand of a command with several ("stash save", "stack new"):
 * its name, its entry point, which parses its own options (one table per
 * subcommand), its synopsis lines (NULL-terminated; the command's -h lists
 * every subcommand's), and its cmd_flags. The name "" is the command's own
 * form ("ab --build ..."): it runs, with the command's argv, when argv[1] is
 * missing or an option. */
struct subcommand {
	const char *name;
	int (*fn)(int argc, const char **argv, struct ctx *ctx);
	const char *const *usage;
	unsigned flags;
};

/* The synopsis lines of one subcommand: SUB_USAGE(save_usage, "git ..."). */
#define SUB_USAGE(name, ...)                                                   \
	static const char *const name[] = {__VA_ARGS__, NULL}

/* Runs the subcommand argv[1] names with argv + 1 (so its argv[0] is its
 * name), then cmd_umbrella_auto when its flags say so; returns the exit
 * status (at most 32 subcommands and 64 usage lines are read). No subcommand
 * runs def (NULL: a usage error); "-h" and "--help" show the command's usage or
 * manual; an unknown name is a usage error with the closest names suggested
 * (parse_subcommand). usage is the command's synopsis; NULL: the subcommands'
 * usage lines in table order. subs ends with a {NULL} row. */
int cmd_subcommand(int argc, const char **argv, struct ctx *ctx,
		   const struct subcommand *subs, const char *const *usage,
		   const char *def);

/* The commit rev (NULL: HEAD) names, into out: 0, GCAMP_ENOTFOUND "unknown
 * commit", or another negative code with ctx's error set. */
int cmd_commit_arg(git_oid *out, struct ctx *ctx, const char *rev);
/* 0 in a campaign, else GCAMP_ENOTINIT with a hint (campaign_load's
 * error): a campaign must exist before numbers are attached or read. Call
 * it after the options are parsed, so that -h and usage errors come
 * first. */
int cmd_need_campaign(struct ctx *ctx);

/* Runs hook argv[1] with argv[2..] and prints its report on stderr;
 * returns the exit status (see hooks_run). The entry of both `git campaign
 * hook` and git-campaign-hook; it never loads libgit2. */
int cmd_hook_exec(int argc, const char **argv);

/* Runs `man PAGE` on our terminal and waits for it: 0 when it showed the
 * page, -1 when man could not be run (said on stderr as "warning: cannot
 * run 'man': ...") or has no such page (man said so). What --help calls
 * (options_set_man), in both binaries: it never loads libgit2. */
int cmd_show_man(const char *page);

/* Prints ctx's error (fatal:/error: and hint: lines) and returns its exit
 * status. */
int cmd_fail(struct ctx *ctx);
/* The umbrella's automatic update (umbrella_auto_update) at the end of a
 * command that may change what it shows: runs it when status is 0 or 1
 * (the command did its work), prints a warning and a hint on stderr when
 * the update was queued, and returns status unchanged: a command never
 * fails for it. CMD_UMBRELLA_AUTO in a command's or a subcommand's row
 * calls it; call it by hand only where a flag cannot say when (a dry run
 * of the same subcommand). */
int cmd_umbrella_auto(struct ctx *ctx, int status);
/* Appends the text of file path ("-": standard input) to out: a file over
 * CMD_TEXT_MAX bytes or with a NUL byte is GCAMP_EUSAGE, one that cannot
 * be read GCAMP_EFATAL. */
#define CMD_TEXT_MAX (4u << 20)
int cmd_read_text(struct buf *out, const char *path, struct error *err);
/* 1 when standard output reaches a person: a terminal, or the pager git
 * or main.c started for one (GIT_PAGER_IN_USE), as git decides whether to
 * draw for a terminal. */
int cmd_stdout_is_terminal(void);
/* Opens path (a file or a URL) with xdg-open where there is a display
 * (DISPLAY or WAYLAND_DISPLAY set): 1 when it was started, else 0 and the
 * caller prints it. */
int cmd_open_url(const char *path);
/* What the exporting commands print (--format FMT beside --json): the
 * names, in enum order, for OPT_CHOICE. */
enum cmd_format { CMD_FORMAT_TEXT, CMD_FORMAT_JSON, CMD_FORMAT_CSV };
extern const char *const cmd_format_names[];
#define CMD_FORMAT_HELP "text, json or csv (a header row, then a row each)"
/* The format asked for into *format, which holds --format's index or -1
 * when it was not given; json is --json's flag. Returns 0, or prints a
 * usage error and returns 129 when --json and another --format meet. */
int cmd_format_resolve(int *format, int json, const char *const *usage,
		       const struct option *opts);
/* printf to stdout of a confirmation or an information line ("recorded 1
 * measurement ...", "saved stash ..."), left out after -q/--quiet
 * (options_quiet), as git's porcelain leaves them out; errors and the
 * data asked for are printed with printf. */
void cmd_say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The same on stderr, for progress ("waiting 30 s for ...") and notes. */
void cmd_say_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "hint: MESSAGE" on stderr (fmt without the prefix or a final newline),
 * yellow where colour is on for stderr, as git colours its hints. */
void cmd_hint(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Prints j to stdout as indented JSON with a final newline, and frees it. */
void cmd_print_json(cJSON *j);
/* cmd_print_json into out. */
void cmd_render_json(struct buf *out, cJSON *j);

#endif
