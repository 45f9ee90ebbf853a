/* stack submit: pushes through the git program, PRs through the GitHub
 * client, the PR cache in the database's pr table; and the walks and PR
 * reads it shares with stack sync (core/forge/stack_sync.c). */
#include "core/forge/submit.h"

#include "core/views/prbody.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/campaign/campaign.h"
#include "core/forge/ask.h"
#include "core/forge/open.h"
#include "core/forge/prtext.h"
#include "core/records/pr.h"
#include "core/stack/graph.h"
#include "core/stack/push.h"
#include "io/db.h"
#include "io/gitcfg.h"
#include "io/github/api.h"
#include "io/github/client.h"
#include "io/proc.h"
#include "util/text.h"
#include "util/trace.h"
#include "util/xalloc.h"

void submit_result_release(struct submit_result *r)
{
	if (!r)
		return;
	strvec_clear(&r->lines);
	memset(r, 0, sizeof(*r));
}

/* the bottom of i's stack: follow stacked parents down */
static size_t root_of(const struct stack_graph *g, size_t i)
{
	size_t steps = 0;

	while (g->b[i].parent_idx != STACK_NONE && steps++ < g->n)
		i = g->b[i].parent_idx;
	return i;
}

static void add_children(const struct stack_graph *g, size_t parent,
			 size_t *order, size_t *n)
{
	size_t i;

	for (i = 0; i < g->n; i++) {
		if (g->b[i].in_cycle || g->b[i].parent_idx != parent)
			continue;
		order[(*n)++] = i;
		add_children(g, i, order, n);
	}
}

/* every branch of the stack rooted at root, parents first */
static void stack_order(const struct stack_graph *g, size_t root, size_t *order,
			size_t *n)
{
	order[(*n)++] = root;
	add_children(g, root, order, n);
}

void submit_order_all(size_t *order, size_t *n, const struct stack_graph *g)
{
	size_t i;

	*n = 0;
	for (i = 0; i < g->n; i++)
		if (!g->b[i].in_cycle && g->b[i].parent_idx == STACK_NONE)
			stack_order(g, i, order, n);
}

void submit_render_section(struct buf *out, const struct stack_graph *g,
			   const size_t *order, size_t n, const long *nums,
			   size_t idx)
{
	submit_render_section_landed(out, g, order, n, nums, idx, NULL);
}

char *submit_landed_key(const char *branch)
{
	return xasprintf("branch.%s.campaignlanded", branch);
}

void submit_render_section_landed(struct buf *out, const struct stack_graph *g,
				  const size_t *order, size_t n,
				  const long *nums, size_t idx,
				  const struct strvec *landed)
{
	const struct stack_branch *b = &g->b[idx];
	size_t k;

	buf_reset(out);
	if (b->parent_idx == STACK_NONE)
		buf_addf(out, "Stacked on `%s`.\n", b->parent);
	else if (nums[b->parent_idx])
		buf_addf(out, "Stacked on #%ld (`%s`).\n", nums[b->parent_idx],
			 b->parent);
	else
		buf_addf(out, "Stacked on `%s`.\n", b->parent);
	buf_puts(out, "\nThe stack, bottom first:\n\n");
	for (k = 0; landed && k < landed->nr; k++)
		buf_addf(out, "- %s\n", landed->v[k]);
	for (k = 0; k < n; k++) {
		size_t i = order[k];

		buf_puts(out, "- ");
		/* not its own number: unknown until the PR is opened */
		if (nums[i] && i != idx)
			buf_addf(out, "#%ld ", nums[i]);
		buf_addf(out, "`%s`", g->b[i].name);
		if (i == idx)
			buf_puts(out, " ← this PR");
		buf_puts(out, "\n");
	}
	buf_puts(out, "\n<sub>Written by `git campaign stack submit`; edits "
		      "between the markers are replaced.</sub>\n");
}

const char *submit_pr_state(const struct github_pr *p)
{
	if (p->merged)
		return "merged";
	if (!strcmp(p->state, "open") && p->draft)
		return "draft";
	return !strcmp(p->state, "open") ? "open" : "closed";
}

int submit_record_pr(struct ctx *ctx, const char *branch,
		     const struct github_pr *p)
{
	struct pr_row row = {branch,  p->number,   submit_pr_state(p),
			     p->base, p->html_url, p->updated_at};
	struct db *db;
	int rc;

	if ((rc = ctx_db(&db, ctx, 0)) < 0)
		return rc;
	return pr_record(db, &row, &ctx->err);
}

/* the subject of the oldest commit of b over its parent */
static char *first_subject(struct ctx *ctx, const struct stack_branch *b)
{
	struct proc_result res = PROC_RESULT_INIT;
	struct buf range = BUF_INIT;
	const char *args[] = {"log", "--reverse", "--format=%s",
			      NULL,  "--",	  NULL};
	char *nl, *s = NULL;

	if (!b->parent_found)
		return xstrdup(b->name);
	buf_addf(&range, "refs/heads/%s..refs/heads/%s", b->parent, b->name);
	args[3] = range.ptr;
	trace_printf("submit: run git %s", args[0]);
	if (proc_git(&res, args, NULL, &ctx->err) == 0 && res.status == 0 &&
	    res.out.len) {
		nl = strchr(res.out.ptr, '\n');
		if (nl)
			*nl = '\0';
		s = xstrdup(res.out.ptr);
	}
	error_clear(&ctx->err);
	proc_result_release(&res);
	buf_release(&range);
	return s ? s : xstrdup(b->name);
}

int submit_fetch_prs(struct github_pr *prs, struct ctx *ctx, struct github *gh,
		     const char *forge, const struct stack_graph *g,
		     const size_t *order, size_t n)
{
	struct github_pr *open = NULL;
	size_t nopen = 0, k, j;
	int rc, owner;

	if ((rc = github_pr_list_open(&open, &nopen, gh, &ctx->err)) < 0)
		goto out;
	/* a renamed repository's PRs are headed by its new owner */
	if (github_moved_to(gh))
		forge = github_moved_to(gh);
	owner = (int)strcspn(forge, "/");
	for (k = 0; k < n; k++) {
		const struct stack_branch *b = &g->b[order[k]];
		struct github_pr *p = &prs[order[k]];
		char *label = xasprintf("%.*s:%s", owner, forge, b->name);

		for (j = 0; j < nopen; j++)
			if (open[j].head_label &&
			    !strcmp(open[j].head_label, label))
				break;
		free(label);
		if (j < nopen) {
			*p = open[j];
			memset(&open[j], 0, sizeof(open[j]));
			continue;
		}
		if (b->pr_number <= 0)
			continue;
		rc = github_pr_get(p, gh, b->pr_number, &ctx->err);
		if (rc == 0 && p->head && !strcmp(p->head, b->name))
			continue;
		github_pr_release(p);
		if (rc < 0 && rc != GCAMP_ENOTFOUND)
			goto out;
		error_clear(&ctx->err);
		rc = 0;
	}
out:
	github_prs_free(open, nopen);
	return rc;
}

int submit_open_forge(struct github **gh, struct ctx *ctx,
		      const struct campaign *c)
{
	if (!c->forge)
		return error_set(&ctx->err, GCAMP_ENOTFOUND,
				 "the campaign has no forge repository");
	return forge_open(gh, ctx, c);
}

/* the branches to submit, parents first, into order (g->n room) */
static int choose(size_t *order, size_t *n, struct ctx *ctx,
		  const struct stack_graph *g, const struct submit_opts *o)
{
	const char *name = o->branch ? o->branch : g->current;
	size_t t;

	*n = 0;
	if (o->all) {
		submit_order_all(order, n, g);
		if (!*n)
			return error_set(&ctx->err, GCAMP_ENOTFOUND,
					 "no stacked branches");
		return 0;
	}
	if (!name)
		return error_set(&ctx->err, GCAMP_EUSAGE,
				 "HEAD is detached: name a branch or --all");
	t = stack_find(g, name);
	if (t == STACK_NONE || g->b[t].in_cycle) {
		error_set(&ctx->err, GCAMP_ENOTFOUND,
			  "'%s' is not a stacked branch", name);
		error_hint(&ctx->err,
			   "stack it with 'git campaign stack "
			   "adopt %s --on PARENT'",
			   name);
		return GCAMP_ENOTFOUND;
	}
	stack_order(g, root_of(g, t), order, n);
	return 0;
}

/* refuses when a chosen branch cannot be pushed as it is */
static int check_ready(struct ctx *ctx, const struct stack_graph *g,
		       const size_t *order, size_t n)
{
	struct buf names = BUF_INIT;
	size_t k;
	int rc = 0;

	for (k = 0; k < n; k++) {
		const struct stack_branch *b = &g->b[order[k]];

		if (!b->exists) {
			rc = error_set(&ctx->err, GCAMP_EREFUSED,
				       "branch '%s' is missing", b->name);
			goto out;
		}
		if (!b->parent_found) {
			rc = error_set(&ctx->err, GCAMP_EREFUSED,
				       "the parent of '%s' ('%s') is gone",
				       b->name, b->parent);
			goto out;
		}
		if (b->needs_restack)
			buf_addf(&names, "%s'%s'", names.len ? ", " : "",
				 b->name);
	}
	if (names.len) {
		rc = error_set(&ctx->err, GCAMP_EREFUSED,
			       "%s need%s a restack first", names.ptr,
			       strchr(names.ptr, ',') ? "" : "s");
		error_hint(&ctx->err, "run 'git campaign stack restack', "
				      "then submit again");
	}
out:
	buf_release(&names);
	return rc;
}

struct sub {
	struct ctx *ctx;
	struct github *gh;
	struct stack_graph *g;
	const struct submit_opts *o;
	struct submit_result *out;
	size_t *order;
	size_t n;
	long *nums;	       /* by graph index */
	struct github_pr *prs; /* by graph index */
	char *created;	       /* by graph index: opened by this submit */
	const char *forge;     /* "OWNER/REPO" */
	int wanted_read;       /* reviewers and labels read */
	struct strvec reviewers, labels; /* campaign.github.*, as wanted */
};

/* the merged PRs that were below root, "#N `NAME`" each, oldest first,
 * from git config and the pr table */
static void landed_of(struct strvec *out, struct ctx *ctx, const char *root)
{
	struct strvec names = STRVEC_INIT;
	char *key = submit_landed_key(root);
	struct pr_cached pr;
	struct gitcfg *cfg;
	struct db *db;
	size_t i;

	if (ctx_config(&cfg, ctx) == 0 &&
	    gitcfg_get_all(&names, cfg, key, &ctx->err) == 0 && names.nr &&
	    ctx_db(&db, ctx, 0) == 0)
		for (i = 0; i < names.nr; i++)
			if (pr_get(&pr, db_handle(db), names.v[i], &ctx->err) ==
				    0 &&
			    pr.number > 0)
				strvec_pushf(out, "#%ld `%s`", pr.number,
					     names.v[i]);
	error_clear(&ctx->err);
	strvec_clear(&names);
	free(key);
}

/* the stack section of idx (the indexes of its stack, parents first, and
 * the merged PRs below it), with the marker of the title sent */
static void section_for(struct buf *out, struct sub *s, size_t idx,
			const char *title)
{
	size_t *ord = xcalloc(s->g->n + 1, sizeof(*ord)), n = 0;
	size_t root = root_of(s->g, idx);
	struct strvec landed = STRVEC_INIT;

	stack_order(s->g, root, ord, &n);
	landed_of(&landed, s->ctx, s->g->b[root].name);
	submit_render_section_landed(out, s->g, ord, n, s->nums, idx, &landed);
	prtext_title_marker(out, title);
	strvec_clear(&landed);
	free(ord);
}

/* 1 when the person's body (opts.body_text) is b's */
static int own_body(const struct sub *s, const struct stack_branch *b)
{
	const char *name = s->o->branch ? s->o->branch : s->g->current;

	return s->o->body_text && name && !strcmp(name, b->name);
}

/* the body of b's PR outside the stack section: the person's, or the one
 * `pr body` renders with its placeholders left out (unless allowed) and
 * its sections between hashed markers */
static int generated_body(struct buf *out, struct sub *s,
			  const struct stack_branch *b)
{
	struct buf rendered = BUF_INIT, kept = BUF_INIT;
	int rc;

	buf_reset(out);
	if (own_body(s, b)) {
		buf_puts(out, s->o->body_text);
		return 0;
	}
	if ((rc = prbody_render(s->ctx, b->name, &rendered, NULL)) == 0) {
		if (!s->o->allow_placeholders)
			prtext_strip_placeholders(&kept, rendered.ptr);
		prtext_wrap(out,
			    s->o->allow_placeholders ? rendered.ptr : kept.ptr);
	}
	buf_release(&rendered);
	buf_release(&kept);
	return rc;
}

static const char *base_of(const struct stack_branch *b)
{
	return b->parent;
}

/* opens the PR of branch i with the body `pr body` renders and the stack
 * section naming the numbers in s->nums, some of them predicted; a
 * prediction a race made wrong moves the later ones (the update pass then
 * PATCHes the bodies that named it). A rendered body too long for GitHub
 * is left out: the stack section says how to write it. */
static int create_one(struct sub *s, size_t k)
{
	size_t i = s->order[k], m;
	const struct stack_branch *b = &s->g->b[i];
	struct github_pr *p = &s->prs[i];
	struct buf section = BUF_INIT, body = BUF_INIT, rendered = BUF_INIT;
	char *title = first_subject(s->ctx, b);
	long want = s->nums[i];
	int rc = 0;

	if (s->o->dry_run) {
		strvec_pushf(&s->out->lines,
			     "would open a PR for %s onto %s: %s", b->name,
			     base_of(b), title);
		goto out;
	}
	section_for(&section, s, i, title);
	if ((rc = generated_body(&rendered, s, b)) < 0)
		goto out;
	text_splice_markers(&body, rendered.ptr, STACK_MARKER, STACK_MARKER,
			    section.ptr);
	if (github_body_too_big(body.ptr)) {
		trace_printf("submit: the body of %s is too long; without it",
			     b->name);
		buf_reset(&body);
		buf_reset(&rendered);
		buf_addf(&rendered,
			 "The rendered body is over GitHub's %d characters: "
			 "`git campaign pr body %s` prints it.\n",
			 GITHUB_BODY_MAX_CHARS, b->name);
		text_splice_markers(&body, rendered.ptr, STACK_MARKER,
				    STACK_MARKER, section.ptr);
	}
	if ((rc = github_pr_create(p, s->gh, b->name, base_of(b), title,
				   body.ptr, s->o->draft, &s->ctx->err)) < 0)
		goto out;
	if (want && p->number != want) {
		trace_printf("submit: #%ld predicted for %s, got #%ld", want,
			     b->name, p->number);
		for (m = k + 1; m < s->n; m++)
			if (s->created[s->order[m]])
				s->nums[s->order[m]] += p->number - want;
	}
	s->nums[i] = p->number;
	strvec_pushf(&s->out->lines, "opened #%ld for %s onto %s: %s",
		     p->number, b->name, base_of(b),
		     p->html_url ? p->html_url : "");
	rc = submit_record_pr(s->ctx, b->name, p);
out:
	buf_release(&section);
	buf_release(&body);
	buf_release(&rendered);
	free(title);
	return rc;
}

/* what submit_fetch_prs found, sorted: merged PRs left alone, open ones kept,
 * the others to open, their numbers predicted from the newest one */
static int sort_prs(struct sub *s)
{
	long top = 0, next;
	size_t k, want = 0;
	int rc = 0;

	for (k = 0; k < s->n; k++) {
		size_t i = s->order[k];
		const struct stack_branch *b = &s->g->b[i];
		struct github_pr *p = &s->prs[i];

		if (p->number && p->merged) {
			strvec_pushf(&s->out->lines,
				     "%s: #%ld is merged; left alone", b->name,
				     p->number);
			s->nums[i] = p->number;
			if (!s->o->dry_run &&
			    (rc = submit_record_pr(s->ctx, b->name, p)) < 0)
				return rc;
		} else if (p->number && !strcmp(p->state, "open")) {
			s->nums[i] = p->number;
		} else {
			github_pr_release(p);
			s->created[i] = 1;
			want++;
		}
	}
	if (!want || s->o->dry_run)
		return 0;
	/* PRs and issues share one sequence: the next ones opened get the
	 * numbers after the newest, unless someone opens one meanwhile */
	if (github_newest_number(&top, s->gh, &s->ctx->err) < 0) {
		/* no prediction: the update pass PATCHes the numbers in */
		trace_printf("submit: %s", s->ctx->err.msg);
		error_clear(&s->ctx->err);
		return 0;
	}
	next = top + 1;
	for (k = 0; k < s->n; k++)
		if (s->created[s->order[k]])
			s->nums[s->order[k]] = next++;
	return 0;
}

/* pass 2: base and stack section, PATCHed only when they differ */
static int update_one(struct sub *s, size_t i)
{
	const struct stack_branch *b = &s->g->b[i];
	struct github_pr *p = &s->prs[i], after = {0};
	struct buf section = BUF_INIT, body = BUF_INIT, what = BUF_INIT;
	struct buf fresh = BUF_INIT, mine = BUF_INIT;
	const char *base = NULL, *nbody = NULL, *ntitle = NULL, *from;
	char *title = NULL;
	int rc = 0;

	if (!p->number || p->merged || strcmp(p->state, "open"))
		goto out;
	title = first_subject(s->ctx, b);
	section_for(&section, s, i, title);
	from = p->body ? p->body : "";
	/* the sections nobody edited follow the records; the person's own
	 * body replaces all but the stack section */
	if (generated_body(&fresh, s, b) < 0) {
		trace_printf("submit: %s", s->ctx->err.msg);
		error_clear(&s->ctx->err);
	} else if (own_body(s, b)) {
		from = fresh.ptr;
	} else {
		prtext_refresh(&mine, from, fresh.ptr);
		from = mine.ptr;
	}
	if (text_splice_markers(&body, from, STACK_MARKER, STACK_MARKER,
				section.ptr) < 0) {
		rc = error_set(&s->ctx->err, GCAMP_EFATAL,
			       "#%ld has one '%s' line without a second",
			       p->number, STACK_MARKER);
		error_hint(&s->ctx->err, "fix the body by hand");
		goto out;
	}
	if (strcmp(body.ptr, p->body ? p->body : "")) {
		nbody = body.ptr;
		buf_puts(&what, "body");
	}
	/* a title the person changed on GitHub is theirs */
	if (p->title && strcmp(p->title, title) &&
	    prtext_title_unedited(p->body, p->title) == 1) {
		ntitle = title;
		buf_addf(&what, "%stitle", what.len ? ", " : "");
	}
	if (!p->base || strcmp(p->base, base_of(b))) {
		if (p->stacked) {
			strvec_pushf(&s->out->lines,
				     "#%ld is in a native GitHub stack: its "
				     "base stays "
				     "%s",
				     p->number, p->base ? p->base : "?");
		} else {
			base = base_of(b);
			buf_addf(&what, "%sbase %s", what.len ? ", " : "",
				 base);
		}
	}
	if (!base && !nbody && !ntitle) {
		/* a PR this run opened was said already ("opened #N") */
		if (!s->created[i])
			strvec_pushf(&s->out->lines, "#%ld %s is up to date",
				     p->number, b->name);
		if (!s->o->dry_run)
			rc = submit_record_pr(s->ctx, b->name, p);
		goto out;
	}
	if (s->o->dry_run) {
		strvec_pushf(&s->out->lines, "would update #%ld %s (%s)",
			     p->number, b->name, what.ptr);
		goto out;
	}
	if ((rc = github_pr_update(&after, s->gh, p->number, ntitle, nbody,
				   base, &s->ctx->err)) < 0)
		goto out;
	strvec_pushf(&s->out->lines, "updated #%ld %s (%s)", p->number, b->name,
		     what.ptr);
	rc = submit_record_pr(s->ctx, b->name, &after);
out:
	github_pr_release(&after);
	buf_release(&section);
	buf_release(&body);
	buf_release(&what);
	buf_release(&fresh);
	buf_release(&mine);
	free(title);
	return rc;
}

/*
 * A submit stopped by the PR that failed at order[failed]: the numbers
 * predicted for the PRs not opened belong to nobody yet (the next issue
 * anyone opens takes one), so the PRs that are open are PATCHed to name
 * only PRs that exist; the lines say which exist and what to run. The
 * error that stopped it stays the error.
 */
static void finish_partial(struct sub *s, size_t failed)
{
	struct error saved = s->ctx->err;
	struct buf opened = BUF_INIT, left = BUF_INIT;
	size_t k;

	error_clear(&s->ctx->err);
	for (k = failed; k < s->n; k++)
		if (s->created[s->order[k]] && !s->prs[s->order[k]].number)
			s->nums[s->order[k]] = 0;
	for (k = 0; k < s->n; k++) {
		size_t i = s->order[k];
		const struct stack_branch *b = &s->g->b[i];

		if (!s->prs[i].number) {
			buf_addf(&left, "%s%s", left.len ? ", " : "", b->name);
			continue;
		}
		buf_addf(&opened, "%s#%ld %s", opened.len ? ", " : "",
			 s->prs[i].number, b->name);
		if (update_one(s, i) < 0) {
			trace_printf("submit: %s", s->ctx->err.msg);
			error_clear(&s->ctx->err);
		}
	}
	strvec_pushf(&s->out->lines, "stopped: open %s; not opened %s",
		     opened.len ? opened.ptr : "none", left.ptr);
	if (s->o->all)
		strvec_pushf(&s->out->lines,
			     "once the cause is fixed, 'git campaign stack "
			     "submit --all' opens the rest");
	else
		strvec_pushf(&s->out->lines,
			     "once the cause is fixed, 'git campaign stack "
			     "submit %s' opens the rest",
			     s->g->b[s->order[failed]].name);
	s->ctx->err = saved;
	buf_release(&opened);
	buf_release(&left);
}

/* campaign.github.reviewers and .labels, read once a submit */
static int ask_one(struct sub *s, size_t i)
{
	if (!s->wanted_read) {
		s->wanted_read = 1;
		submit_wanted(&s->reviewers, &s->labels, s->ctx);
	}
	return submit_ask(&s->out->lines, s->ctx, s->gh, s->forge,
			  s->g->b[i].name, &s->prs[i], &s->reviewers,
			  &s->labels, s->o->dry_run);
}

#define UNFINISHED_KEY "submit.unfinished"

int submit_unfinished(char **out, struct ctx *ctx)
{
	struct error ignore = ERROR_INIT;
	struct db *db = NULL;

	*out = NULL;
	if (ctx_db_if_any(&db, ctx) < 0 || !db)
		return 0;
	db_meta_get(out, db, UNFINISHED_KEY, &ignore);
	return 0;
}

void submit_unfinished_clear(struct ctx *ctx)
{
	struct error ignore = ERROR_INIT;
	struct db *db;
	char *v = NULL;

	submit_unfinished(&v, ctx);
	if (v && ctx_db(&db, ctx, 0) == 0)
		db_meta_set(db, UNFINISHED_KEY, NULL, DB_TRY, &ignore);
	free(v);
}

/* before the first POST: which PRs this run is to open, and the numbers
 * predicted for them, which the bodies name before they exist; a run
 * killed midway leaves it for stack show and the next submit to name.
 * A submit that found one says it finishes it. */
static void mark_unfinished(struct sub *s)
{
	struct error ignore = ERROR_INIT;
	struct buf v = BUF_INIT;
	struct db *db;
	char *was = NULL;
	size_t k;

	submit_unfinished(&was, s->ctx);
	if (was)
		strvec_pushf(&s->out->lines,
			     "finishing the submit stopped midway (%s)", was);
	free(was);
	for (k = 0; k < s->n; k++) {
		size_t i = s->order[k];

		if (!s->created[i])
			continue;
		buf_addf(&v, "%s", v.len ? ", " : "");
		if (s->nums[i])
			buf_addf(&v, "#%ld ", s->nums[i]);
		buf_puts(&v, s->g->b[i].name);
	}
	if (v.len && ctx_db(&db, s->ctx, 0) == 0)
		db_meta_set(db, UNFINISHED_KEY, v.ptr, DB_TRY, &ignore);
	buf_release(&v);
}

int stack_submit(struct submit_result *out, struct ctx *ctx,
		 const struct submit_opts *o)
{
	struct stack_graph g = {0};
	struct campaign c = {0};
	struct sub s = {0};
	struct stack_push_req push;
	git_repository *repo;
	size_t k;
	int rc;

	memset(out, 0, sizeof(*out));
	if ((rc = campaign_load(&c, ctx)) < 0 ||
	    (rc = stack_graph_load(&g, ctx)) < 0 ||
	    (rc = ctx_repo(&repo, ctx, 0)) < 0)
		goto out;
	s = (struct sub){.ctx = ctx, .g = &g, .o = o, .out = out};
	s.forge = c.forge;
	s.order = xcalloc(g.n + 1, sizeof(*s.order));
	s.nums = xcalloc(g.n + 1, sizeof(*s.nums));
	s.prs = xcalloc(g.n + 1, sizeof(*s.prs));
	s.created = xcalloc(g.n + 1, 1);
	if ((rc = choose(s.order, &s.n, ctx, &g, o)) < 0 ||
	    (rc = check_ready(ctx, &g, s.order, s.n)) < 0 ||
	    (rc = submit_open_forge(&s.gh, ctx, &c)) < 0)
		goto out;
	github_on_wait(s.gh, o->on_wait);
	push = (struct stack_push_req){g.remote, g.b, s.order, s.n, o->dry_run};
	if ((rc = stack_push(&out->lines, ctx, repo, &push)) < 0 ||
	    (rc = submit_fetch_prs(s.prs, ctx, s.gh, c.forge, &g, s.order,
				   s.n)) < 0 ||
	    (rc = sort_prs(&s)) < 0)
		goto out;
	if (!o->dry_run)
		mark_unfinished(&s);
	for (k = 0; k < s.n; k++)
		if (s.created[s.order[k]] && (rc = create_one(&s, k)) < 0) {
			if (!o->dry_run) {
				finish_partial(&s, k);
				submit_unfinished_clear(ctx);
			}
			goto out;
		}
	for (k = 0; k < s.n; k++)
		if ((rc = update_one(&s, s.order[k])) < 0)
			goto out;
	if (!o->dry_run)
		submit_unfinished_clear(ctx);
	for (k = 0; k < s.n; k++)
		if ((rc = ask_one(&s, s.order[k])) < 0)
			goto out;
out:
	if (s.gh && github_moved_to(s.gh))
		strvec_pushf(&out->lines,
			     "GitHub moved '%s' to '%s': 'git campaign config "
			     "forge %s' records it",
			     c.forge, github_moved_to(s.gh),
			     github_moved_to(s.gh));
	if (s.gh)
		out->requests = github_request_count(s.gh);
	github_close(s.gh);
	for (k = 0; s.prs && k < g.n; k++)
		github_pr_release(&s.prs[k]);
	free(s.prs);
	free(s.created);
	strvec_clear(&s.reviewers);
	strvec_clear(&s.labels);
	free(s.nums);
	free(s.order);
	stack_graph_release(&g);
	campaign_release(&c);
	return rc;
}
