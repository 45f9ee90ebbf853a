/* git campaign status: one screen on where the campaign stands. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "core/base/outcache.h"
#include "core/views/status.h"
#include "util/buf.h"
#include "util/color.h"
#include "util/json.h"
#include "util/options.h"

static const char *const status_usage[] = {
	"git campaign status [--json | --short]",
	NULL,
};

static size_t count_restack(const struct status *st)
{
	size_t i, n = 0;

	for (i = 0; i < st->nstack; i++)
		n += st->stack[i].needs_restack && !st->stack[i].landed;
	return n;
}

/* where a stopped stack operation stands: git status's "You are
 * currently rebasing" and its unmerged paths */
static void render_conflict(struct buf *out, const struct stack_conflict *c)
{
	size_t i;

	buf_addf(out, "          stopped at a conflict in '%s' replaying %s\n",
		 c->branch, c->commit ? c->commit : "?");
	if (!c->checked_out) {
		buf_addf(out, "          the conflict is not checked out here; "
			      "with a clean work tree, continue checks it "
			      "out\n");
		return;
	}
	for (i = 0; i < c->paths.nr; i++)
		buf_addf(out, "          conflict: %s\n", c->paths.v[i]);
	if (c->paths.nr)
		buf_addf(out, "          resolve the files and 'git add' "
			      "them, then continue\n");
	else
		buf_addf(out, "          every conflict is resolved: "
			      "continue\n");
}

/* the base's local branch behind its remote-tracking branch */
static void render_base_behind(struct buf *out, const struct status *st)
{
	const struct campaign *c = &st->campaign;

	if (!st->base_behind)
		return;
	buf_addf(out,
		 "          '%s' is %zu commit%s behind '%s/%s': git fetch "
		 "%s %s:%s, then git campaign stack restack\n",
		 c->base, st->base_behind, st->base_behind == 1 ? "" : "s",
		 c->remote, c->base, c->remote, c->base, c->base);
}

static int has_children(const struct status *st, const char *branch)
{
	size_t i;

	for (i = 0; i < st->nstack; i++)
		if (!strcmp(st->stack[i].parent, branch))
			return 1;
	return 0;
}

static void render_text(struct buf *out, const struct status *st)
{
	const struct campaign *c = &st->campaign;
	struct buf line = BUF_INIT;
	size_t i, restack = count_restack(st);

	buf_addf(out, "campaign  %s\n", c->name);
	buf_addf(&line, "%s", c->base);
	if (c->forge)
		buf_addf(&line, " on %s", c->forge);
	if (c->umbrella)
		buf_addf(&line, ", umbrella #%ld", c->umbrella);
	buf_addf(out, "base      %s\n", line.ptr);
	render_base_behind(out, st);
	buf_reset(&line);
	buf_puts(&line, st->branch ? st->branch : "(detached HEAD)");
	if (!st->head[0])
		buf_puts(&line, " (no commits yet)");
	else if (!st->base_found)
		buf_addf(&line, " (base '%s' not found)", c->base);
	else
		buf_addf(&line, " (%zu ahead, %zu behind %s)", st->ahead,
			 st->behind, c->base);
	buf_addf(out, "branch    %s\n", line.ptr);
	buf_reset(&line);
	status_stack_line(&line, st);
	buf_addf(out, "stack     %s\n", line.ptr);
	if (restack) {
		buf_reset(&line);
		for (i = 0; i < st->nstack; i++)
			if (st->stack[i].needs_restack && !st->stack[i].landed)
				buf_addf(&line, " %s", st->stack[i].branch);
		buf_puts(out, "          ");
		color_add(out, 1, COLOR_YELLOW, "needs restack:");
		buf_addf(out, "%s\n", line.ptr);
	}
	for (i = 0; i < st->nstack; i++)
		if (st->stack[i].landed)
			buf_addf(out, "          landed in %s: %s (%s)\n",
				 st->stack[i].parent, st->stack[i].branch,
				 has_children(st, st->stack[i].branch)
					 ? "'git campaign stack restack' "
					   "moves what is on it"
					 : "'git campaign stack delete' "
					   "takes it out");
	if (!st->nstashes)
		buf_addf(out, "stashes   none\n");
	for (i = 0; i < st->nstashes; i++)
		buf_addf(out, "%s %s (%.12s)\n", i ? "         " : "stashes  ",
			 st->stashes[i].name, st->stashes[i].id);
	if (st->last_ab.id)
		buf_addf(out, "last ab   #%lld %s: %s (%s)\n", st->last_ab.id,
			 st->last_ab.verdict, st->last_ab.workload,
			 st->last_ab.at);
	else
		buf_addf(out, "last ab   none\n");
	if (st->has_next_hypo) {
		const struct hypo *h = &st->next_hypo;

		buf_puts(out, "next hypo ");
		if (st->has_next_hypo == 2)
			buf_addf(out, "none marked; %zu open, the oldest: ",
				 st->open_hypos);
		buf_addf(out, "#%lld %s %g%s%s: %s\n", h->id, h->metric,
			 h->predicted, h->unit ? " " : "",
			 h->unit ? h->unit : "", h->text);
	} else {
		buf_addf(out, "next hypo none\n");
	}
	if (st->nfindings)
		buf_addf(out, "finding   #%lld %s: %s\n", st->findings[0].id,
			 st->findings[0].kind, st->findings[0].title);
	else
		buf_addf(out, "finding   none\n");
	if (st->has_umbrella_pending)
		buf_addf(out,
			 "umbrella  #%ld %supdate pending%s since %s (%d "
			 "tries): %s\n",
			 st->umbrella_pending.number,
			 color_get(1, COLOR_YELLOW), color_get(1, COLOR_RESET),
			 st->umbrella_pending.since, st->umbrella_pending.tries,
			 st->umbrella_pending.error);
	if (!st->nops)
		buf_addf(out, "unfinished none\n");
	for (i = 0; i < st->nops; i++) {
		const struct journal_op *op = &st->ops[i];

		color_add(out, 1, COLOR_YELLOW, "unfinished");
		buf_addf(out, " %s", op->kind);
		if (op->id)
			buf_addf(out, " #%lld", op->id);
		buf_addf(out, ": %s (since %s%s%s)\n", op->summary,
			 op->started_at ? op->started_at : "?",
			 op->last_step ? ", last step " : "",
			 op->last_step ? op->last_step : "");
		if (op->id && op->id == st->conflict.op_id)
			render_conflict(out, &st->conflict);
		buf_addf(out, "          finish it: %s\n", op->continue_cmd);
		if (op->abort_cmd)
			buf_addf(out, "          undo it:   %s\n",
				 op->abort_cmd);
	}
	buf_release(&line);
}

/* branch ahead/behind, a star when a restack or an operation is pending */
static void render_short(struct buf *out, const struct status *st)
{
	size_t restack = count_restack(st);

	buf_addf(out, "%s %s", st->campaign.name,
		 st->branch ? st->branch : "HEAD");
	if (st->base_found && st->head[0])
		buf_addf(out, " +%zu -%zu", st->ahead, st->behind);
	if (restack)
		buf_addf(out, " restack:%zu", restack);
	if (st->nstashes)
		buf_addf(out, " stashes:%zu", st->nstashes);
	if (st->nops)
		buf_addf(out, " unfinished:%zu", st->nops);
	if (st->has_umbrella_pending)
		buf_addf(out, " umbrella:pending");
	buf_putc(out, '\n');
}

static void add_conflict_json(cJSON *e, const struct stack_conflict *c)
{
	cJSON *o = cJSON_AddObjectToObject(e, "conflict"), *a;
	size_t i;

	json_add_str_or_null(o, "branch", c->branch);
	json_add_str_or_null(o, "commit", c->commit);
	cJSON_AddBoolToObject(o, "checked_out", c->checked_out);
	a = cJSON_AddArrayToObject(o, "paths");
	for (i = 0; i < c->paths.nr; i++)
		cJSON_AddItemToArray(a, cJSON_CreateString(c->paths.v[i]));
}

static void render_json(struct buf *out, const struct status *st)
{
	const struct campaign *c = &st->campaign;
	cJSON *j = cJSON_CreateObject(), *o, *a, *e;
	size_t i;

	o = cJSON_AddObjectToObject(j, "campaign");
	json_add_str_or_null(o, "name", c->name);
	json_add_str_or_null(o, "base", c->base);
	json_add_str_or_null(o, "remote", c->remote);
	json_add_str_or_null(o, "forge", c->forge);
	json_add_str_or_null(o, "forge_host", c->forge_host);
	if (c->umbrella)
		cJSON_AddNumberToObject(o, "umbrella", (double)c->umbrella);
	else
		cJSON_AddNullToObject(o, "umbrella");
	json_add_str_or_null(j, "branch", st->branch);
	json_add_str_or_null(j, "head", st->head[0] ? st->head : NULL);
	if (st->base_found && st->head[0]) {
		cJSON_AddNumberToObject(j, "ahead", (double)st->ahead);
		cJSON_AddNumberToObject(j, "behind", (double)st->behind);
	} else {
		cJSON_AddNullToObject(j, "ahead");
		cJSON_AddNullToObject(j, "behind");
	}
	a = cJSON_AddArrayToObject(j, "stack");
	for (i = 0; i < st->nstack; i++) {
		e = cJSON_CreateObject();
		json_add_str_or_null(e, "branch", st->stack[i].branch);
		json_add_str_or_null(e, "parent", st->stack[i].parent);
		cJSON_AddBoolToObject(e, "needs_restack",
				      st->stack[i].needs_restack);
		cJSON_AddBoolToObject(e, "landed", st->stack[i].landed);
		cJSON_AddBoolToObject(e, "parent_missing",
				      st->stack[i].parent_missing);
		if (st->stack[i].has_pr) {
			o = cJSON_AddObjectToObject(e, "pr");
			cJSON_AddNumberToObject(o, "number",
						(double)st->stack[i].pr.number);
			cJSON_AddStringToObject(o, "state",
						st->stack[i].pr.state);
		} else {
			cJSON_AddNullToObject(e, "pr");
		}
		cJSON_AddItemToArray(a, e);
	}
	a = cJSON_AddArrayToObject(j, "stashes");
	for (i = 0; i < st->nstashes; i++) {
		e = cJSON_CreateObject();
		json_add_str_or_null(e, "name", st->stashes[i].name);
		json_add_str_or_null(e, "id", st->stashes[i].id);
		cJSON_AddItemToArray(a, e);
	}
	if (st->last_ab.id) {
		cJSON *ab = cJSON_AddObjectToObject(j, "last_ab");

		cJSON_AddNumberToObject(ab, "id", (double)st->last_ab.id);
		cJSON_AddStringToObject(ab, "at", st->last_ab.at);
		cJSON_AddStringToObject(ab, "workload", st->last_ab.workload);
		cJSON_AddStringToObject(ab, "verdict", st->last_ab.verdict);
	} else {
		cJSON_AddNullToObject(j, "last_ab");
	}
	if (st->has_next_hypo) {
		o = cJSON_AddObjectToObject(j, "next_hypo");
		cJSON_AddNumberToObject(o, "id", (double)st->next_hypo.id);
		cJSON_AddStringToObject(o, "metric", st->next_hypo.metric);
		cJSON_AddNumberToObject(o, "predicted",
					st->next_hypo.predicted);
		json_add_str_or_null(o, "unit", st->next_hypo.unit);
		cJSON_AddStringToObject(o, "text", st->next_hypo.text);
		cJSON_AddBoolToObject(o, "marked", st->has_next_hypo == 1);
	} else {
		cJSON_AddNullToObject(j, "next_hypo");
	}
	cJSON_AddNumberToObject(j, "open_hypotheses", (double)st->open_hypos);
	if (st->nfindings) {
		o = cJSON_AddObjectToObject(j, "top_finding");
		cJSON_AddNumberToObject(o, "id", (double)st->findings[0].id);
		cJSON_AddStringToObject(o, "kind", st->findings[0].kind);
		cJSON_AddStringToObject(o, "title", st->findings[0].title);
	} else {
		cJSON_AddNullToObject(j, "top_finding");
	}
	if (st->has_umbrella_pending) {
		const struct umbrella_pending *u = &st->umbrella_pending;

		o = cJSON_AddObjectToObject(j, "umbrella_pending");
		cJSON_AddNumberToObject(o, "issue", (double)u->number);
		cJSON_AddStringToObject(o, "since", u->since);
		cJSON_AddNumberToObject(o, "tries", u->tries);
		cJSON_AddStringToObject(o, "error", u->error);
	} else {
		cJSON_AddNullToObject(j, "umbrella_pending");
	}
	a = cJSON_AddArrayToObject(j, "unfinished");
	for (i = 0; i < st->nops; i++) {
		e = status_op_json(&st->ops[i]);
		if (st->ops[i].id == st->conflict.op_id)
			add_conflict_json(e, &st->conflict);
		cJSON_AddItemToArray(a, e);
	}
	if (st->base_remote[0])
		cJSON_AddNumberToObject(j, "base_behind_remote",
					(double)st->base_behind);
	else
		cJSON_AddNullToObject(j, "base_behind_remote");
	cmd_render_json(out, j);
}

int cmd_status(int argc, const char **argv, struct ctx *ctx)
{
	struct outcache oc = OUTCACHE_INIT;
	struct buf facts = BUF_INIT, text = BUF_INIT;
	int json = 0, brief = 0, rc = 0;
	struct status st;
	const struct option opts[] = {
		OPT_BOOL(0, "json", &json, "print JSON for scripts"),
		OPT_BOOL('s', "short", &brief, "one line, for prompts"),
		OPT_END(),
	};
	int n = parse_options(argc, argv, opts, status_usage);

	if (n < 0)
		return parse_options_status(n);
	if (n > 0)
		return usage_error(status_usage, opts,
				   "status takes no arguments");
	if (json && brief)
		return usage_error(status_usage, opts,
				   "--json and --short cannot be combined");
	if (status_collect_repo(&st, ctx) < 0)
		return cmd_fail(ctx);
	/* the database's part is read only when no rendering was kept for
	 * these facts and this database (src/core/base/outcache.h) */
	status_facts(&facts, &st);
	outcache_begin(&oc, ctx,
		       json	     ? "status --json"
		       : brief	     ? "status --short"
		       : color_on(1) ? "status --color"
				     : "status",
		       facts.ptr);
	if (!outcache_get(&oc, &text)) {
		if (status_collect_records(&st, ctx) < 0) {
			rc = cmd_fail(ctx);
			goto out;
		}
		if (json)
			render_json(&text, &st);
		else if (brief)
			render_short(&text, &st);
		else
			render_text(&text, &st);
		ctx_db_close(ctx);
		outcache_put(&oc, text.ptr, text.len);
	}
	fwrite(text.ptr, 1, text.len, stdout);
	status_release(&st);
out:
	outcache_release(&oc);
	buf_release(&facts);
	buf_release(&text);
	return rc;
}
