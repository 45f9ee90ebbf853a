/* git-campaign: global options, the command table, exit-code policy and
 * the final check that standard output was written. */
#include <errno.h>
#include <git2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "import/formats.h"
#include "io/db.h"
#include "io/gitlite.h"
#include "io/proc.h"
#include "io/repo.h"
#include "util/color.h"
#include "util/options.h"
#include "util/suggest.h"

#ifndef GCAMP_VERSION
#define GCAMP_VERSION "unknown"
#endif
/* VERSION with the commit it was built from (scripts/version.sh) */
#ifndef GCAMP_BUILD
#define GCAMP_BUILD GCAMP_VERSION
#endif

struct command {
	const char *name;
	int (*fn)(int argc, const char **argv, struct ctx *ctx);
	unsigned flags; /* enum cmd_flags */
	const char *summary;
};

static const struct command commands[] = {
	{"ab", cmd_ab, CMD_UMBRELLA_AUTO,
	 "same-build A/B runs with controls and verdicts"},
	{"belongs", cmd_belongs, 0,
	 "allow the next commit on this branch into its open PR"},
	{"config", cmd_config, 0, "read and write the campaign's settings"},
	{"deinit", cmd_deinit, 0,
	 "undo init: the hooks, the settings, with --all the local data"},
	{"doctor", cmd_doctor, 0,
	 "check the installation and the machine, changing nothing"},
	{"env", cmd_env, 0,
	 "the machine fingerprint: CPU, OS, JDK, GPUs, backend"},
	{"finding", cmd_finding, CMD_UMBRELLA_AUTO,
	 "findings ranked: wrong answer, then crash, then slow"},
	{"gc", cmd_gc, 0,
	 "prune old stack backups, finished operations and unused A/B "
	 "checkouts"},
	{"hook", cmd_hook, 0, "run one git hook's checks"},
	{"hooks", cmd_hooks, 0, "install, remove or show the git hooks"},
	{"hypo", cmd_hypo, CMD_UMBRELLA_AUTO,
	 "hypotheses as numbers: add, list, confirm, falsify, next"},
	{"init", cmd_init, 0, "start a campaign in this repository"},
	{"measure", cmd_measure, 0,
	 "numbers attached to commits: add, import, show, log, compare"},
	{"ncu", cmd_ncu, 0,
	 "one named kernel under Nsight Compute, classified and recorded"},
	{"pr", cmd_pr, 0,
	 "a PR's body from the branch's records, and its lint"},
	{"report", cmd_report, 0,
	 "the campaign as one HTML page: histories, A/Bs, stack, hypotheses"},
	{"resume", cmd_resume, CMD_LITE,
	 "the resume pointer: one screen to carry on from"},
	{"scratch", cmd_scratch, 0, "print the campaign's folder for probes"},
	{"stack", cmd_stack, 0,
	 "stacked branches: new, show, restack, move, up, rename, fold, split"},
	{"stash", cmd_stash, 0, "named stashes: save, apply, drop, recover"},
	{"status", cmd_status, CMD_LITE,
	 "where the campaign stands: branch, stack, stashes, unfinished work"},
	{"sync", cmd_sync, 0, "exchange measurements with a remote"},
	{"template", cmd_template, 0,
	 "the templates of PR bodies, the umbrella and resume"},
	{"tests", cmd_tests, CMD_UMBRELLA_AUTO,
	 "test-suite baselines per machine: import, baseline, diff"},
	{"umbrella", cmd_umbrella, 0,
	 "update the umbrella issue on GitHub: its section, result comments"},
	{"undo", cmd_undo, 0,
	 "restore the branches of the last stack operations"},
};

#define NCOMMANDS (sizeof(commands) / sizeof(*commands))

static const char *const main_usage[] = {
	"git campaign [--version] [-h | --help] COMMAND [ARGS]",
	NULL,
};

static void print_usage(FILE *fp)
{
	size_t i;

	fprintf(fp, "usage: %s\n\ncommands:\n", main_usage[0]);
	for (i = 0; i < NCOMMANDS; i++)
		fprintf(fp, "   %-10s %s\n", commands[i].name,
			commands[i].summary);
	fprintf(fp, "\n'git campaign COMMAND -h' lists a command's options; "
		    "'git campaign --help' opens the manual.\n");
}

static const struct command *find_command(const char *name)
{
	size_t i;

	for (i = 0; i < NCOMMANDS; i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

static int unknown_command(const char *name)
{
	const char *names[NCOMMANDS], *best[NCOMMANDS];
	size_t i, n;

	for (i = 0; i < NCOMMANDS; i++)
		names[i] = commands[i].name;
	n = suggest_closest(best, NCOMMANDS, name, names, NCOMMANDS);
	fprintf(stderr, "error: '%s' is not a git campaign command", name);
	for (i = 0; i < n; i++)
		fprintf(stderr, "%s'%s'", i ? ", " : "; did you mean ",
			best[i]);
	fprintf(stderr, n ? "?\n" : "; see 'git campaign -h'\n");
	return 129;
}

/* A write error on stdout (a full disk, a closed pipe) must not pass for
 * success. */
static int check_stdout(int status)
{
	if (fflush(stdout) || ferror(stdout)) {
		if (errno == EPIPE)
			return status;
		fprintf(stderr, "fatal: cannot write to standard output: %s\n",
			strerror(errno));
		return 128;
	}
	return status;
}

/* Says once, after the command, that its opening of the database
 * upgraded the schema and where the old one is kept. */
static void note_backup(const struct ctx *ctx)
{
	if (ctx->db_backup)
		fprintf(stderr,
			"note: upgraded the database from schema %d to %d; "
			"the old one is kept as '%s'\n",
			ctx->db_backup_from, db_schema_version(),
			ctx->db_backup);
}

/* The outputs long enough to page, as git pages log and show: a command,
 * and its subcommand where it has them. */
static const struct {
	const char *cmd, *sub;
} paged[] = {
	{"measure", "show"}, {"measure", "log"},  {"stack", "show"},
	{"resume", NULL},    {"finding", "list"}, {"pr", "body"},
	{"tests", "diff"},
};

/*
 * Starts git's pager for cmd, as git decides for its own commands: only
 * when standard output is a terminal and no pager runs already (git
 * itself may page us, for `git -p campaign` or pager.campaign); for the
 * long outputs above by default, for any command with -p, for none with
 * --no-pager; pager.campaign.CMD (a boolean) says otherwise per command.
 * The pager is git's own choice: `git var GIT_PAGER` (GIT_PAGER,
 * core.pager, PAGER, less), and "cat" means none.
 */
static void start_pager(struct ctx *ctx, const char *cmd, const char *sub,
			int forced)
{
	static const char *const var[] = {"var", "GIT_PAGER", NULL};
	struct proc_result r = PROC_RESULT_INIT;
	struct gitlite *g;
	char key[128];
	size_t i;
	int on = 0;

	if (forced == 0 || !isatty(STDOUT_FILENO) || getenv("GIT_PAGER_IN_USE"))
		return;
	for (i = 0; i < sizeof(paged) / sizeof(*paged); i++)
		if (!strcmp(paged[i].cmd, cmd) &&
		    (!paged[i].sub || (sub && !strcmp(paged[i].sub, sub))))
			on = 1;
	snprintf(key, sizeof(key), "pager.campaign.%s", cmd);
	if (ctx_lite(&g, ctx) == 0)
		on = gitlite_get_bool(g, key, on);
	error_clear(&ctx->err);
	if (forced < 0 && !on)
		return;
	if (proc_git(&r, var, NULL, &ctx->err) == 0 && r.status == 0) {
		proc_last_line(&r.err, r.out.ptr ? r.out.ptr : "");
		if (r.err.len && strcmp(r.err.ptr, "cat") &&
		    proc_pager_start(r.err.ptr, &ctx->err) == 0)
			setenv("GIT_PAGER_IN_USE", "true", 1);
	}
	error_clear(&ctx->err);
	proc_result_release(&r);
}

/* The color.* settings util/color asks for, read as git reads them:
 * through the command's gitlite once it has one, else through our own
 * (whose errors are not the command's). */
static struct gitlite color_lite;
static int color_lite_state = -1; /* -1 not opened, 0 failed, 1 open */

static const char *color_config(const char *key, void *data)
{
	struct ctx *ctx = data;
	struct error err = ERROR_INIT;

	if (ctx->lite)
		return gitlite_get(ctx->lite, key);
	if (color_lite_state < 0)
		color_lite_state = gitlite_open(&color_lite, &err) == 0;
	error_clear(&err);
	return color_lite_state ? gitlite_get(&color_lite, key) : NULL;
}

static int run(int argc, const char **argv)
{
	const struct command *cmd;
	struct ctx ctx = CTX_INIT;
	int status, pager = -1;

	/* git's own: -p/--paginate and --no-pager before the command */
	while (argc > 1 &&
	       (!strcmp(argv[1], "-p") || !strcmp(argv[1], "--paginate") ||
		!strcmp(argv[1], "--no-pager"))) {
		pager = strcmp(argv[1], "--no-pager") != 0;
		argv++;
		argc--;
	}
	if (argc < 2) {
		print_usage(stderr);
		return 129;
	}
	if (!strcmp(argv[1], "-h")) {
		print_usage(stdout);
		return 129;
	}
	/* for the shell completion (contrib/completion/): the names
	 * measure import --format takes, from the one table */
	if (!strcmp(argv[1], "--list-formats")) {
		const struct import_format *f;

		for (f = import_formats; f->name; f++)
			puts(f->name);
		return 0;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) {
		printf("git-campaign version %s\ndatabase schema %d\n",
		       GCAMP_BUILD, db_schema_version());
		return 0;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
		const char *topic = argc > 2 ? argv[2] : NULL;
		char page[128];

		if (topic && !find_command(topic))
			return unknown_command(topic);
		snprintf(page, sizeof(page), "git-campaign%s%s",
			 topic ? "-" : "", topic ? topic : "");
		if (cmd_show_man(page) == 0)
			return 0;
		print_usage(stdout);
		return 129;
	}
	if (argv[1][0] == '-') {
		fprintf(stderr, "error: unknown option '%s'\n", argv[1]);
		print_usage(stderr);
		return 129;
	}
	if (!(cmd = find_command(argv[1])))
		return unknown_command(argv[1]);
	/* a CMD_LITE command reads through gitlite and sqlite, and opens the
	 * repository with libgit2 only when it must (src/core/views/status.c);
	 * the rest may call libgit2 anywhere */
	if (!(cmd->flags & CMD_LITE))
		repo_lib_init();
	start_pager(&ctx, cmd->name, argc > 2 ? argv[2] : NULL, pager);
	color_set_config(color_config, &ctx, cmd->name);
	status = cmd->fn(argc - 1, argv + 1, &ctx);
	if (cmd->flags & CMD_UMBRELLA_AUTO)
		status = cmd_umbrella_auto(&ctx, status);
	note_backup(&ctx);
	if (ctx.warn.len)
		fputs(ctx.warn.ptr, stderr);
	color_set_config(NULL, NULL, NULL);
	ctx_release(&ctx);
	if (color_lite_state == 1)
		gitlite_release(&color_lite);
	return status;
}

int main(int argc, char **argv)
{
	int status;

	options_set_man(cmd_show_man);
	status = run(argc, (const char **)argv);
	repo_lib_shutdown();
	status = check_stdout(status);
	proc_pager_finish();
	return status;
}
