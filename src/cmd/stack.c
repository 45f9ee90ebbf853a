/* git campaign stack (new, adopt, show, restack, continue, abort,
 * skip-branch, move, delete, undo, submit, sync), git campaign undo and git
 * campaign gc. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/stack_verbs.h"
#include "core/ab/gc.h"
#include "core/forge/remote.h"
#include "core/forge/stack_sync.h"
#include "core/forge/submit.h"
#include "core/stack/graph.h"
#include "core/stack/nav.h"
#include "core/stack/restack.h"
#include "core/stack/undo.h"
#include "util/buf.h"
#include "util/color.h"
#include "util/json.h"
#include "util/options.h"

SUB_USAGE(new_usage, "git campaign stack new NAME [--on PARENT]");
SUB_USAGE(adopt_usage, "git campaign stack adopt BRANCH --on PARENT");
SUB_USAGE(show_usage, "git campaign stack show [--remote] [--json]");
SUB_USAGE(restack_usage, "git campaign stack restack [BRANCH | --all] "
			 "[--no-checkout] [--autostash]");
SUB_USAGE(continue_usage, "git campaign stack continue [--no-checkout]");
SUB_USAGE(abort_usage, "git campaign stack abort");
SUB_USAGE(skip_usage, "git campaign stack skip-branch");
SUB_USAGE(move_usage, "git campaign stack move BRANCH --onto NEWPARENT "
		      "[--no-checkout] [--autostash]");
SUB_USAGE(delete_usage, "git campaign stack delete BRANCH [--branch]");
SUB_USAGE(stack_undo_usage, "git campaign stack undo [--steps N]");
SUB_USAGE(submit_usage,
	  "git campaign stack submit [BRANCH | --all] [--draft] [--dry-run] "
	  "[--allow-placeholders] [--body-file FILE]");
SUB_USAGE(sync_usage, "git campaign stack sync");

static const char *const undo_usage[] = {
	"git campaign undo [--steps N]",
	NULL,
};

static const char *const gc_usage[] = {
	"git campaign gc [--days N] [--dry-run]",
	NULL,
};

static void print_lines(const struct strvec *v, const char *prefix)
{
	size_t i;

	for (i = 0; i < v->nr; i++)
		cmd_say("%s%s\n", prefix, v->v[i]);
}

/* The outcome of an operation that may stop at a conflict. */
static int report(struct ctx *ctx, int rc, struct restack_result *r,
		  const char *verb)
{
	size_t i;

	if (rc < 0) {
		restack_result_release(r);
		return cmd_fail(ctx);
	}
	print_lines(&r->notes, "");
	if (r->conflict) {
		printf("%sstopped at a conflict%s in '%s' replaying %s\n",
		       color_get(1, COLOR_RED), color_get(1, COLOR_RESET),
		       r->conflict_branch, r->conflict_commit);
		for (i = 0; i < r->conflict_paths.nr; i++)
			printf("  %sconflict:%s %s\n", color_get(1, COLOR_RED),
			       color_get(1, COLOR_RESET),
			       r->conflict_paths.v[i]);
		if (r->checked_out)
			cmd_hint("resolve the files, 'git add' them, then "
				 "run 'git campaign stack continue'");
		else
			cmd_hint(
				"the conflict is not checked out (local "
				"changes or --no-checkout); with a clean work "
				"tree, 'git campaign stack continue' checks it "
				"out");
		if (r->conflict_hint)
			cmd_hint("%s", r->conflict_hint);
		cmd_hint("or 'git campaign stack skip-branch' to leave '%s' "
			 "for later, or 'git campaign stack abort' to put "
			 "everything back",
			 r->conflict_branch);
		restack_result_release(r);
		return 1;
	}
	if (r->nothing)
		cmd_say("nothing to %s\n", verb);
	print_lines(&r->done, "restacked ");
	restack_result_release(r);
	return 0;
}

/* the base behind its remote-tracking branch: restack cannot see what
 * the local base lacks */
static void hint_base_behind(struct ctx *ctx)
{
	char *remote = NULL, *base = NULL;
	size_t behind = 0;

	if (stack_base_behind(&behind, &remote, &base, ctx) == 0 && behind)
		fprintf(stderr,
			"hint: '%s' is %zu commit%s behind '%s': git fetch "
			"%.*s %s:%s, then git campaign stack restack\n",
			base, behind, behind == 1 ? "" : "s", remote,
			(int)strcspn(remote, "/"), remote, base, base);
	free(remote);
	free(base);
	error_clear(&ctx->err);
}

static int has_pr(const struct stack_branch *b)
{
	return b->pr_number > 0;
}

static void show_details(const struct stack_graph *g, size_t i)
{
	const struct stack_branch *b = &g->b[i];

	printf(" (");
	if (!b->exists)
		printf("branch missing");
	else
		printf("%zu commit%s", b->own, b->own == 1 ? "" : "s");
	/* what needs doing yellow, what is broken red, a landed PR green */
	if (!b->parent_found && b->renamed_to)
		printf(", %sparent renamed to %s%s: git campaign stack rename "
		       "%s %s",
		       color_get(1, COLOR_YELLOW), b->renamed_to,
		       color_get(1, COLOR_RESET), b->parent, b->renamed_to);
	else if (!b->parent_found)
		printf(", %sparent gone%s", color_get(1, COLOR_RED),
		       color_get(1, COLOR_RESET));
	else if (b->landed)
		printf(", %slanded in %s%s", color_get(1, COLOR_GREEN),
		       b->parent, color_get(1, COLOR_RESET));
	else if (b->needs_restack)
		printf(", %sneeds restack%s", color_get(1, COLOR_YELLOW),
		       color_get(1, COLOR_RESET));
	if (has_pr(b))
		printf(", %s#%d %s%s",
		       b->pr_state && !strcmp(b->pr_state, "merged")
			       ? color_get(1, COLOR_GREEN)
			       : "",
		       b->pr_number, b->pr_state,
		       b->pr_state && !strcmp(b->pr_state, "merged")
			       ? color_get(1, COLOR_RESET)
			       : "");
	printf(")\n");
}

static void add_branch_json(cJSON *a, const struct stack_graph *g, size_t i,
			    int depth)
{
	const struct stack_branch *b = &g->b[i];
	cJSON *e = cJSON_CreateObject(), *p;

	cJSON_AddStringToObject(e, "branch", b->name);
	cJSON_AddStringToObject(e, "parent", b->parent);
	cJSON_AddNumberToObject(e, "depth", depth);
	cJSON_AddBoolToObject(e, "current",
			      g->current && !strcmp(g->current, b->name));
	cJSON_AddBoolToObject(e, "exists", b->exists);
	cJSON_AddNumberToObject(e, "commits", (double)b->own);
	cJSON_AddBoolToObject(e, "needs_restack",
			      b->needs_restack && b->parent_found);
	cJSON_AddBoolToObject(e, "landed", b->landed);
	cJSON_AddBoolToObject(e, "parent_missing", !b->parent_found);
	json_add_str_or_null(e, "parent_renamed_to", b->renamed_to);
	cJSON_AddBoolToObject(e, "cycle", b->in_cycle);
	if (has_pr(b)) {
		p = cJSON_AddObjectToObject(e, "pr");
		cJSON_AddNumberToObject(p, "number", b->pr_number);
		cJSON_AddStringToObject(p, "state", b->pr_state);
		if (b->pr_url)
			cJSON_AddStringToObject(p, "url", b->pr_url);
		else
			cJSON_AddNullToObject(p, "url");
	} else {
		cJSON_AddNullToObject(e, "pr");
	}
	cJSON_AddItemToArray(a, e);
}

/* Prints (or adds to a) the children of parent name, depth first. */
static void show_children(const struct stack_graph *g, const char *name,
			  int depth, cJSON *a, int *seen)
{
	size_t i;

	for (i = 0; i < g->n; i++) {
		const struct stack_branch *b = &g->b[i];

		if (seen[i] || strcmp(b->parent, name))
			continue;
		seen[i] = 1;
		if (a) {
			add_branch_json(a, g, i, depth);
		} else {
			printf("%s%*s%s",
			       g->current && !strcmp(g->current, b->name)
				       ? "* "
				       : "  ",
			       2 * depth, "", b->name);
			show_details(g, i);
		}
		show_children(g, b->name, depth + 1, a, seen);
	}
}

static void say_wait(long wait_ms, const char *why);

/* "CI failing (1 failing, 2 passing)" */
static void ci_words(struct buf *out, const struct github_ci *ci)
{
	buf_addf(out, "CI %s", remote_ci_state(ci));
	if (ci->failing || ci->pending || ci->passing) {
		buf_puts(out, " (");
		if (ci->failing)
			buf_addf(out, "%d failing", ci->failing);
		if (ci->pending)
			buf_addf(out, "%s%d pending", ci->failing ? ", " : "",
				 ci->pending);
		if (ci->passing)
			buf_addf(out, "%s%d passing",
				 ci->failing || ci->pending ? ", " : "",
				 ci->passing);
		buf_putc(out, ')');
	}
}

/* stack show --remote's part: lines after the tree, or "remote" in j */
static void show_remote(const struct remote_result *r, cJSON *j)
{
	cJSON *a = j ? cJSON_AddArrayToObject(j, "remote") : NULL;
	struct buf line = BUF_INIT;
	size_t i;

	if (!j && r->n)
		printf("on GitHub:\n");
	for (i = 0; i < r->n; i++) {
		const struct remote_pr *e = &r->v[i];
		cJSON *o, *ci;

		buf_reset(&line);
		if (!e->number)
			buf_addf(&line, "%s: no PR", e->branch);
		else
			buf_addf(&line, "#%ld %s: %s", e->number, e->branch,
				 e->state);
		if (e->review)
			buf_addf(&line, ", %s", e->review);
		if (e->ci_read) {
			buf_puts(&line, ", ");
			ci_words(&line, &e->ci);
		}
		if (!a) {
			printf("  %s\n", line.ptr);
			continue;
		}
		o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "branch", e->branch);
		if (e->number)
			cJSON_AddNumberToObject(o, "number", (double)e->number);
		else
			cJSON_AddNullToObject(o, "number");
		if (e->state)
			cJSON_AddStringToObject(o, "state", e->state);
		else
			cJSON_AddNullToObject(o, "state");
		if (e->review)
			cJSON_AddStringToObject(o, "review", e->review);
		else
			cJSON_AddNullToObject(o, "review");
		if (e->ci_read) {
			ci = cJSON_AddObjectToObject(o, "ci");
			cJSON_AddStringToObject(ci, "state",
						remote_ci_state(&e->ci));
			cJSON_AddNumberToObject(ci, "failing", e->ci.failing);
			cJSON_AddNumberToObject(ci, "pending", e->ci.pending);
			cJSON_AddNumberToObject(ci, "passing", e->ci.passing);
			cJSON_AddNumberToObject(ci, "statuses", e->ci.statuses);
			cJSON_AddNumberToObject(ci, "check_runs", e->ci.checks);
		} else {
			cJSON_AddNullToObject(o, "ci");
		}
		cJSON_AddItemToArray(a, o);
	}
	buf_release(&line);
}

/* a stack submit killed midway: its bodies name PRs not opened yet */
static void show_unfinished(struct ctx *ctx, cJSON *j)
{
	char *v = NULL;

	submit_unfinished(&v, ctx);
	if (j && v)
		cJSON_AddStringToObject(j, "unfinished_submit", v);
	else if (!j && v)
		printf("a stack submit was stopped while opening %s: "
		       "'git campaign stack submit' again finishes it\n",
		       v);
	free(v);
}

static int show(struct ctx *ctx, int json, int remote)
{
	struct stack_graph g = {0};
	struct remote_result r = {0};
	cJSON *j = NULL, *a = NULL;
	int *seen;
	size_t i;

	/* GitHub first: an error there comes before any output */
	if (remote && stack_remote(&r, ctx, say_wait) < 0) {
		remote_result_release(&r);
		return cmd_fail(ctx);
	}
	if (stack_graph_load(&g, ctx) < 0) {
		remote_result_release(&r);
		return cmd_fail(ctx);
	}
	seen = calloc(g.n + 1, sizeof(*seen));
	if (json) {
		j = cJSON_CreateObject();
		cJSON_AddStringToObject(j, "base", g.base);
		if (g.current)
			cJSON_AddStringToObject(j, "current", g.current);
		else
			cJSON_AddNullToObject(j, "current");
		a = cJSON_AddArrayToObject(j, "branches");
	} else {
		printf("%s%s\n",
		       g.current && !strcmp(g.current, g.base) ? "* " : "  ",
		       g.base);
	}
	show_children(&g, g.base, 1, a, seen);
	/* stacks rooted on another unstacked branch, then cycles */
	for (i = 0; i < g.n; i++) {
		if (seen[i] || g.b[i].in_cycle ||
		    g.b[i].parent_idx != STACK_NONE)
			continue;
		if (!json)
			printf("%s%s\n",
			       g.current && !strcmp(g.current, g.b[i].parent)
				       ? "* "
				       : "  ",
			       g.b[i].parent);
		show_children(&g, g.b[i].parent, 1, a, seen);
	}
	for (i = 0; i < g.n; i++) {
		if (seen[i])
			continue;
		seen[i] = 1;
		if (json) {
			add_branch_json(a, &g, i, 0);
		} else {
			printf("  %s (cycle in recorded parents: on %s)\n",
			       g.b[i].name, g.b[i].parent);
		}
	}
	if (remote)
		show_remote(&r, j);
	show_unfinished(ctx, j);
	if (json)
		cmd_print_json(j);
	free(seen);
	remote_result_release(&r);
	stack_graph_release(&g);
	return 0;
}

/* the option parsing every verb shares (src/cmd/stack_args.c) */
#define verb_args stack_verb_args

static int stack_new_cmd(int argc, const char **argv, struct ctx *ctx)
{
	const char *on = NULL;
	const struct option opts[] = {
		OPT_STRING(0, "on", &on, "PARENT", "the parent branch"),
		OPT_END(),
	};
	int rc;

	if (verb_args(&rc, argc, argv, opts, new_usage, 1, 1) < 0)
		return rc;
	if (stack_new(ctx, argv[0], on) < 0)
		return cmd_fail(ctx);
	return 0;
}

static int stack_adopt_cmd(int argc, const char **argv, struct ctx *ctx)
{
	const char *on = NULL;
	const struct option opts[] = {
		OPT_STRING(0, "on", &on, "PARENT", "the parent branch"),
		OPT_END(),
	};
	int rc;

	if (verb_args(&rc, argc, argv, opts, adopt_usage, 1, 1) < 0)
		return rc;
	if (!on)
		return usage_error(adopt_usage, opts,
				   "adopt needs --on PARENT");
	if (stack_adopt(ctx, argv[0], on) < 0)
		return cmd_fail(ctx);
	return 0;
}

static int stack_show_cmd(int argc, const char **argv, struct ctx *ctx)
{
	int json = 0, remote = 0, rc;
	const struct option opts[] = {
		OPT_BOOL(0, "remote", &remote,
			 "each PR's state, review decision and CI on GitHub"),
		OPT_BOOL(0, "json", &json, "print JSON for scripts"),
		OPT_END(),
	};

	if (verb_args(&rc, argc, argv, opts, show_usage, 0, 0) < 0)
		return rc;
	return show(ctx, json, remote);
}

#define OPT_AUTOSTASH(v)                                                       \
	OPT_BOOL(0, "autostash", (v),                                          \
		 "stash local changes first, put them back after")

#define OPT_NO_CHECKOUT(v)                                                     \
	OPT_BOOL(0, "no-checkout", (v),                                        \
		 "on a conflict, list the paths; check out nothing")

static int stack_restack_cmd(int argc, const char **argv, struct ctx *ctx)
{
	struct restack_result r;
	struct restack_opts ro = {0};
	char *stash = NULL;
	int n, rc, autostash = 0;
	const struct option opts[] = {
		OPT_BOOL(0, "all", &ro.all, "every stacked branch"),
		OPT_NO_CHECKOUT(&ro.no_checkout),
		OPT_AUTOSTASH(&autostash),
		OPT_END(),
	};

	if ((n = verb_args(&rc, argc, argv, opts, restack_usage, 0, 1)) < 0)
		return rc;
	if (n && ro.all)
		return usage_error(restack_usage, opts,
				   "a branch and --all cannot be combined");
	ro.branch = n ? argv[0] : NULL;
	if (autostash && stack_autostash_save(&stash, ctx) < 0)
		return cmd_fail(ctx);
	rc = restack_start(&r, ctx, &ro);
	stack_autostash_after(ctx, stash, rc, &r);
	if (rc >= 0)
		hint_base_behind(ctx);
	return report(ctx, rc, &r, "restack");
}

static int stack_move_cmd(int argc, const char **argv, struct ctx *ctx)
{
	struct restack_result r;
	struct restack_opts ro = {0};
	char *stash = NULL;
	int rc, autostash = 0;
	const struct option opts[] = {
		OPT_STRING(0, "onto", &ro.onto, "NEWPARENT",
			   "the new parent branch"),
		OPT_NO_CHECKOUT(&ro.no_checkout),
		OPT_AUTOSTASH(&autostash),
		OPT_END(),
	};

	if (verb_args(&rc, argc, argv, opts, move_usage, 1, 1) < 0)
		return rc;
	if (!ro.onto)
		return usage_error(move_usage, opts,
				   "move needs --onto NEWPARENT");
	ro.move = argv[0];
	if (autostash && stack_autostash_save(&stash, ctx) < 0)
		return cmd_fail(ctx);
	rc = restack_start(&r, ctx, &ro);
	stack_autostash_after(ctx, stash, rc, &r);
	return report(ctx, rc, &r, "restack");
}

static int stack_continue_cmd(int argc, const char **argv, struct ctx *ctx)
{
	struct restack_result r;
	int no_checkout = 0, rc;
	const struct option opts[] = {
		OPT_NO_CHECKOUT(&no_checkout),
		OPT_END(),
	};

	if (verb_args(&rc, argc, argv, opts, continue_usage, 0, 0) < 0)
		return rc;
	rc = restack_continue(&r, ctx, no_checkout);
	stack_autostash_resume(ctx, rc, &r);
	return report(ctx, rc, &r, "continue");
}

static int stack_abort_cmd(int argc, const char **argv, struct ctx *ctx)
{
	struct restack_result r;
	size_t i;
	int rc, left = 0;

	if (verb_args(&rc, argc, argv, NULL, abort_usage, 0, 0) < 0)
		return rc;
	rc = restack_abort(&r, ctx);
	stack_autostash_resume(ctx, rc, &r);
	if (rc < 0)
		return cmd_fail(ctx);
	print_lines(&r.notes, "");
	for (i = 0; i < r.notes.nr; i++)
		left |= !strncmp(r.notes.v[i], "left '", 6);
	cmd_say("aborted #%lld: %s\n", r.op_id,
		left ? "the rest is back" : "every branch is back");
	restack_result_release(&r);
	return 0;
}

static int stack_skip_cmd(int argc, const char **argv, struct ctx *ctx)
{
	struct restack_result r;
	int rc;

	if (verb_args(&rc, argc, argv, NULL, skip_usage, 0, 0) < 0)
		return rc;
	rc = restack_skip(&r, ctx);
	stack_autostash_resume(ctx, rc, &r);
	return report(ctx, rc, &r, "continue");
}

static int stack_delete_cmd(int argc, const char **argv, struct ctx *ctx)
{
	struct restack_result r;
	int del_branch = 0, rc;
	const struct option opts[] = {
		OPT_BOOL(0, "branch", &del_branch, "delete the branch too"),
		OPT_END(),
	};

	if (verb_args(&rc, argc, argv, opts, delete_usage, 1, 1) < 0)
		return rc;
	rc = stack_delete(&r, ctx, argv[0], del_branch);
	if (rc == 0)
		cmd_say("removed %s from the stack%s\n", argv[0],
			del_branch ? " and deleted the branch" : "");
	return report(ctx, rc, &r, "delete");
}

/* the undos that went through are said also when a later one refused */
static int report_undo(struct ctx *ctx, int rc, struct restack_result *r)
{
	if (rc < 0)
		print_lines(&r->notes, "");
	return report(ctx, rc, r, "undo");
}

#define OPT_UNDO_STEPS(v)                                                      \
	OPT_INT(0, "steps", (v), "N",                                          \
		"undo the last N operations, newest first (default 1)")

static int stack_undo_cmd(int argc, const char **argv, struct ctx *ctx)
{
	struct restack_result r;
	long steps = 1;
	const struct option opts[] = {
		OPT_UNDO_STEPS(&steps),
		OPT_END(),
	};
	int rc;

	if (verb_args(&rc, argc, argv, opts, stack_undo_usage, 0, 0) < 0)
		return rc;
	if (steps < 1)
		return usage_error(stack_undo_usage, opts,
				   "--steps must be 1 or more");
	rc = stack_undo_steps(&r, ctx, steps);
	return report_undo(ctx, rc, &r);
}

static void say_wait(long wait_ms, const char *why)
{
	cmd_say_err("waiting %ld s for %s\n", (wait_ms + 999) / 1000, why);
}

static int stack_submit_cmd(int argc, const char **argv, struct ctx *ctx)
{
	struct submit_result r;
	struct submit_opts o = {0};
	const char *body_file = NULL;
	const struct option opts[] = {
		OPT_BOOL(0, "all", &o.all, "every stacked branch"),
		OPT_BOOL(0, "draft", &o.draft, "open new PRs as drafts"),
		OPT_BOOL('n', "dry-run", &o.dry_run,
			 "say what would be pushed and sent"),
		OPT_BOOL(0, "allow-placeholders", &o.allow_placeholders,
			 "send the placeholders 'pr body' leaves"),
		OPT_STRING(0, "body-file", &body_file, "FILE",
			   "the branch's PR body, as written ('-': stdin)"),
		OPT_END(),
	};
	struct buf body = BUF_INIT;
	int n, rc;

	if ((n = verb_args(&rc, argc, argv, opts, submit_usage, 0, 1)) < 0)
		return rc;
	if (n && o.all)
		return usage_error(submit_usage, opts,
				   "a branch and --all cannot be combined");
	if (body_file && o.all)
		return usage_error(
			submit_usage, opts,
			"--body-file is one branch's: not with --all");
	if (body_file) {
		if (cmd_read_text(&body, body_file, &ctx->err) < 0) {
			buf_release(&body);
			return cmd_fail(ctx);
		}
		o.body_text = body.ptr ? body.ptr : "";
	}
	o.branch = n ? argv[0] : NULL;
	o.on_wait = say_wait;
	rc = stack_submit(&r, ctx, &o);
	buf_release(&body);
	print_lines(&r.lines, "");
	submit_result_release(&r);
	if (rc < 0)
		return cmd_fail(ctx);
	/* a dry run sends nothing, so the umbrella has nothing new to show */
	return o.dry_run ? 0 : cmd_umbrella_auto(ctx, 0);
}

static int stack_sync_cmd(int argc, const char **argv, struct ctx *ctx)
{
	struct stack_sync_result r;
	int rc;

	if (verb_args(&rc, argc, argv, NULL, sync_usage, 0, 0) < 0)
		return rc;
	rc = stack_sync(&r, ctx, say_wait);
	print_lines(&r.lines, "");
	if (rc < 0 || !r.moved) {
		stack_sync_result_release(&r);
		return rc < 0 ? cmd_fail(ctx) : 0;
	}
	strvec_clear(&r.lines);
	rc = report(ctx, 0, &r.r, "restack");
	stack_sync_result_release(&r);
	return rc;
}

int cmd_stack(int argc, const char **argv, struct ctx *ctx)
{
	static const struct subcommand subs[] = {
		{"new", stack_new_cmd, new_usage, 0},
		{"adopt", stack_adopt_cmd, adopt_usage, 0},
		{"show", stack_show_cmd, show_usage, 0},
		{"restack", stack_restack_cmd, restack_usage, 0},
		{"continue", stack_continue_cmd, continue_usage, 0},
		{"abort", stack_abort_cmd, abort_usage, 0},
		{"skip-branch", stack_skip_cmd, skip_usage, 0},
		{"move", stack_move_cmd, move_usage, 0},
		{"delete", stack_delete_cmd, delete_usage, 0},
		{"undo", stack_undo_cmd, stack_undo_usage, 0},
		{"up", stack_up_cmd, stack_up_usage, 0},
		{"down", stack_down_cmd, stack_down_usage, 0},
		{"top", stack_top_cmd, stack_top_usage, 0},
		{"bottom", stack_bottom_cmd, stack_bottom_usage, 0},
		{"rename", stack_rename_cmd, stack_rename_usage, 0},
		{"fold", stack_fold_cmd, stack_fold_usage, 0},
		{"split", stack_split_cmd, stack_split_usage, 0},
		{"submit", stack_submit_cmd, submit_usage, 0},
		{"sync", stack_sync_cmd, sync_usage, CMD_UMBRELLA_AUTO},
		{NULL},
	};

	return cmd_subcommand(argc, argv, ctx, subs, NULL, NULL);
}

int cmd_undo(int argc, const char **argv, struct ctx *ctx)
{
	struct restack_result r;
	long steps = 1;
	const struct option opts[] = {
		OPT_UNDO_STEPS(&steps),
		OPT_END(),
	};
	int n = parse_options(argc, argv, opts, undo_usage), rc;

	if (n < 0)
		return parse_options_status(n);
	if (n > 0)
		return usage_error(undo_usage, opts, "undo takes no arguments");
	if (steps < 1)
		return usage_error(undo_usage, opts,
				   "--steps must be 1 or more");
	rc = stack_undo_steps(&r, ctx, steps);
	return report_undo(ctx, rc, &r);
}

int cmd_gc(int argc, const char **argv, struct ctx *ctx)
{
	struct restack_result r;
	struct strvec ab_lines = STRVEC_INIT;
	long days = 30, ab_days;
	int dry_run = 0, n, rc;
	const struct option opts[] = {
		OPT_INT(0, "days", &days, "N",
			"prune what is older than N days (default 30)"),
		OPT_BOOL('n', "dry-run", &dry_run, "list what would be pruned"),
		OPT_END(),
	};

	n = parse_options(argc, argv, opts, gc_usage);
	if (n < 0)
		return parse_options_status(n);
	if (n > 0)
		return usage_error(gc_usage, opts, "gc takes no arguments");
	if (days < 0)
		return usage_error(gc_usage, opts, "--days must be 0 or more");
	memset(&r, 0, sizeof(r));
	/* A/B worktrees and builds: unused for campaign.gc.abDays days (read
	 * first: a bad value prunes nothing) */
	if ((rc = ab_gc_days(&ab_days, ctx, days)) >= 0 &&
	    (rc = stack_gc(&r, ctx, days, dry_run)) >= 0)
		rc = ab_gc(&ab_lines, ctx, ab_days, dry_run);
	if (rc < 0) {
		restack_result_release(&r);
		strvec_clear(&ab_lines);
		return cmd_fail(ctx);
	}
	if (r.nothing && !ab_lines.nr)
		cmd_say("nothing to prune\n");
	print_lines(&r.done, "");
	print_lines(&ab_lines, "");
	restack_result_release(&r);
	strvec_clear(&ab_lines);
	return 0;
}
