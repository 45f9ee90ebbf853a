/* Building the resume pointer's data from what status reads and the
 * records, rendering it, and saving it. */
#include "core/views/resume.h"

#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/ab/load.h"
#include "core/ab/notes.h"
#include "core/ab/render.h"
#include "core/base/outcache.h"
#include "core/machine/fingerprint.h"
#include "core/machine/label.h"
#include "core/measure/measure.h"
#include "core/measure/stored.h"
#include "core/records/testrun.h"
#include "core/views/render.h"
#include "core/views/status.h"
#include "io/db.h"
#include "io/gitlite.h"
#include "io/signature.h"
#include "util/clock.h"
#include "util/json.h"
#include "util/strvec.h"
#include "util/template.h"
#include "util/trace.h"
#include "util/xalloc.h"

/* the first 12 hex digits of a commit id, or null */
static void add_short(cJSON *o, const char *key, const char *hex)
{
	char s[13];

	if (!hex || !*hex) {
		cJSON_AddNullToObject(o, key);
		return;
	}
	snprintf(s, sizeof(s), "%.12s", hex);
	cJSON_AddStringToObject(o, key, s);
}

/* The facts shown that no `git campaign sync` carries: what another clone
 * will not see, named in the pointer's last line. */
struct local_facts {
	struct strvec names;
};

static void local_add(struct local_facts *l, int shown, const char *name)
{
	if (shown)
		strvec_push(&l->names, name);
}

static void add_campaign(cJSON *j, const struct status *st)
{
	const struct campaign *c = &st->campaign;
	cJSON *o = cJSON_AddObjectToObject(j, "campaign");
	struct buf line = BUF_INIT;

	json_add_str_or_null(o, "name", c->name);
	json_add_str_or_null(o, "base", c->base);
	json_add_str_or_null(o, "forge", c->forge);
	if (c->umbrella)
		cJSON_AddNumberToObject(o, "umbrella", (double)c->umbrella);
	else
		cJSON_AddNullToObject(o, "umbrella");
	json_add_str_or_null(j, "branch", st->branch);
	json_add_str_or_null(j, "branch_name",
			     st->branch ? st->branch : "(detached HEAD)");
	json_add_str_or_null(j, "head", st->head[0] ? st->head : NULL);
	add_short(j, "head_short", st->head);
	if (st->base_found && st->head[0]) {
		cJSON_AddNumberToObject(j, "ahead", (double)st->ahead);
		cJSON_AddNumberToObject(j, "behind", (double)st->behind);
		buf_addf(&line, "%zu ahead, %zu behind %s", st->ahead,
			 st->behind, c->base);
	} else {
		cJSON_AddNullToObject(j, "ahead");
		cJSON_AddNullToObject(j, "behind");
		if (!st->head[0])
			buf_puts(&line, "no commits yet");
		else
			buf_addf(&line, "base '%s' not found", c->base);
	}
	json_add_str_or_null(j, "position", line.ptr);
	buf_release(&line);
}

static void add_stack(cJSON *j, const struct status *st,
		      struct local_facts *local)
{
	cJSON *a = cJSON_CreateArray(), *e, *pr;
	struct buf line = BUF_INIT;
	size_t i;
	int prs = 0;

	status_stack_line(&line, st);
	json_add_str_or_null(j, "stack_line", line.ptr);
	for (i = 0; i < st->nstack && i < RESUME_STACK; i++) {
		const struct stack_link *l = &st->stack[i];

		e = cJSON_CreateObject();
		json_add_str_or_null(e, "branch", l->branch);
		json_add_str_or_null(e, "parent", l->parent);
		cJSON_AddBoolToObject(e, "current",
				      st->branch &&
					      !strcmp(st->branch, l->branch));
		cJSON_AddBoolToObject(e, "needs_restack", l->needs_restack);
		cJSON_AddBoolToObject(e, "parent_missing", l->parent_missing);
		if (l->has_pr) {
			pr = cJSON_AddObjectToObject(e, "pr");
			cJSON_AddNumberToObject(pr, "number",
						(double)l->pr.number);
			json_add_str_or_null(pr, "state", l->pr.state);
			json_add_str_or_null(pr, "url",
					     l->pr.url[0] ? l->pr.url : NULL);
			prs = 1;
		} else {
			cJSON_AddNullToObject(e, "pr");
		}
		cJSON_AddItemToArray(a, e);
	}
	cJSON_AddItemToObject(j, "stack", a);
	cJSON_AddNumberToObject(j, "stack_more", (double)(st->nstack - i));
	local_add(local, st->nstack > 0, "stack relations (git config)");
	local_add(local, prs,
		  "PR states (a cache; `git campaign stack sync` refreshes "
		  "it)");
	buf_release(&line);
}

static void add_stashes(cJSON *j, const struct status *st,
			struct local_facts *local)
{
	cJSON *a = cJSON_CreateArray(), *e;
	size_t i;

	for (i = 0; i < st->nstashes && i < RESUME_STASHES; i++) {
		e = cJSON_CreateObject();
		json_add_str_or_null(e, "name", st->stashes[i].name);
		json_add_str_or_null(e, "id", st->stashes[i].id);
		add_short(e, "short", st->stashes[i].id);
		cJSON_AddItemToArray(a, e);
	}
	cJSON_AddItemToObject(j, "stashes", a);
	cJSON_AddNumberToObject(j, "stashes_more", (double)(st->nstashes - i));
	local_add(local, st->nstashes > 0, "named stashes");
}

/*
 * What the baselines and the table show: the baselines, the last A/B run
 * and the fingerprint of each environment shown, read in one transaction,
 * then the stored floors of these environments, each batch read once.
 */
struct shown {
	struct testrun_total *base; /* each env's latest import */
	size_t nbase;
	/* each env's result on the base branch, where onbase_found[i] */
	struct testrun_total *onbase;
	int *onbase_found;
	char **latest_branch; /* the branch of base[i], or NULL */
	struct ab_result r;
	char *problem; /* the A/B record cannot be drawn: why */
	const char **envs;
	size_t nenvs;
	cJSON **fps;		  /* the fingerprint of envs[i], or NULL */
	struct floor_ref *floors; /* of envs[i] */
};

static void shown_release(struct shown *s)
{
	size_t i;

	for (i = 0; s->onbase && i < s->nbase; i++) {
		free(s->onbase[i].at);
		free(s->latest_branch[i]);
	}
	free(s->onbase);
	free(s->onbase_found);
	free(s->latest_branch);
	testrun_totals_free(s->base, s->nbase);
	ab_result_release(&s->r);
	free(s->problem);
	for (i = 0; i < s->nenvs; i++)
		cJSON_Delete(s->fps[i]);
	free(s->fps);
	free(s->floors);
	free(s->envs);
}

/* the index of env in s->envs */
static size_t env_index(const struct shown *s, const char *env)
{
	size_t i;

	for (i = 0; i < s->nenvs && strcmp(s->envs[i], env); i++)
		;
	return i;
}

/* One read transaction for the reads that follow, when none is open: one
 * lock, one snapshot. *began says whether read_end must end it. */
static int read_begin(int *began, struct ctx *ctx)
{
	struct db *db;
	int rc;

	*began = 0;
	if ((rc = ctx_db_if_any(&db, ctx)) < 0 || !db ||
	    !sqlite3_get_autocommit(db_handle(db)))
		return rc;
	if ((rc = db_exec(db, "BEGIN", &ctx->err)) < 0)
		return rc;
	*began = 1;
	return 0;
}

static void read_end(struct ctx *ctx, int *began)
{
	struct db *db;

	/* a read transaction: ROLLBACK ends it as COMMIT would, and
	 * cannot fail */
	if (*began && ctx_db_if_any(&db, ctx) == 0 && db &&
	    !sqlite3_get_autocommit(db_handle(db)))
		db_rollback(db);
	*began = 0;
}

/* The stored floors of the envs shown, from the measurement index brought
 * up to date first (as floor_stored does), outside the other reads'
 * transaction, as the update may write. */
static int shown_floors(struct shown *s, struct ctx *ctx)
{
	int began = 0, rc;

	if (!s->nenvs)
		return 0;
	if ((rc = measure_index_update(ctx)) < 0 ||
	    (rc = read_begin(&began, ctx)) < 0)
		return rc;
	rc = floor_stored_envs(s->floors, ctx, s->envs, s->nenvs);
	read_end(ctx, &began);
	return rc < 0 ? rc : 0;
}

static int shown_read(struct shown *s, struct ctx *ctx, const struct status *st)
{
	size_t i, n;
	int began, rc;

	if ((rc = read_begin(&began, ctx)) < 0)
		return rc;
	if ((rc = testrun_baseline(&s->base, &s->nbase, ctx, NULL,
				   RESUME_ENVS + 1)) < 0)
		goto out;
	/* the baseline is the base branch's result, the latest import is
	 * shown beside it with its branch */
	s->onbase = xcalloc(s->nbase + 1, sizeof(*s->onbase));
	s->onbase_found = xcalloc(s->nbase + 1, sizeof(*s->onbase_found));
	s->latest_branch = xcalloc(s->nbase + 1, sizeof(*s->latest_branch));
	for (i = 0; i < s->nbase; i++)
		if ((rc = testrun_base_total(&s->onbase[i], &s->onbase_found[i],
					     ctx, s->base[i].env,
					     st->campaign.base,
					     st->campaign.remote)) < 0 ||
		    (rc = testrun_branch_of(&s->latest_branch[i], ctx,
					    s->base[i].commit)) < 0)
			goto out;
	if (st->last_ab.id) {
		rc = ab_load(&s->r, NULL, ctx, st->last_ab.id);
		if (rc == GCAMP_EFATAL) {
			/* a record this build cannot draw: say so, show the
			 * rest */
			s->problem = xstrdup(ctx->err.msg);
			error_clear(&ctx->err);
			rc = 0;
		} else if (rc < 0) {
			goto out;
		}
	}
	n = s->nbase < RESUME_ENVS ? s->nbase : RESUME_ENVS;
	s->envs = xcalloc(n + 1, sizeof(*s->envs));
	for (i = 0; i < n; i++)
		s->envs[s->nenvs++] = s->base[i].env;
	if (s->r.env[0] && env_index(s, s->r.env) == s->nenvs)
		s->envs[s->nenvs++] = s->r.env;
	s->fps = xcalloc(s->nenvs + 1, sizeof(*s->fps));
	s->floors = xcalloc(s->nenvs + 1, sizeof(*s->floors));
	fingerprint_load_jsons(s->fps, ctx, s->envs, s->nenvs);
	read_end(ctx, &began);
	if ((rc = shown_floors(s, ctx)) < 0)
		goto out;
	/* the table as `ab` drew it, floor column included */
	if (s->r.env[0] && !s->problem) {
		i = env_index(s, s->r.env);
		ab_describe_known_env(&s->r, s->fps[i], &s->floors[i]);
	}
out:
	read_end(ctx, &began);
	return rc;
}

/* three significant digits, no exponent: "8.3 µs", "12.3 µs", "1234 µs" */
static void add_us(struct buf *out, double us)
{
	buf_addf(out, fabs(us) >= 100 ? "%.0f µs" : "%.3g µs", us);
}

/* {"env", "launch_us", "htod_24B_us", "commit", "at", "line"} of the floor
 * of env i, or null */
static cJSON *floor_json(const struct shown *s, size_t i)
{
	const struct floor_ref *fs = &s->floors[i];
	struct buf line = BUF_INIT;
	cJSON *o;

	if (fs->launch_us < 0)
		return cJSON_CreateNull();
	o = cJSON_CreateObject();
	json_add_str_or_null(o, "env", s->envs[i]);
	cJSON_AddNumberToObject(o, "launch_us", fs->launch_us);
	if (fs->htod_us < 0)
		cJSON_AddNullToObject(o, "htod_24B_us");
	else
		cJSON_AddNumberToObject(o, "htod_24B_us", fs->htod_us);
	json_add_str_or_null(o, "commit", fs->commit);
	json_add_str_or_null(o, "at", fs->at);
	buf_puts(&line, "launch ");
	add_us(&line, fs->launch_us);
	if (fs->htod_us >= 0) {
		buf_puts(&line, ", htod 24 B ");
		add_us(&line, fs->htod_us);
	}
	json_add_str_or_null(o, "line", line.ptr);
	buf_release(&line);
	return o;
}

/* The latest import of a machine, when it is not the base's result */
static void add_latest(cJSON *e, const struct testrun_total *t,
		       const char *branch)
{
	cJSON *o = cJSON_AddObjectToObject(e, "latest");
	struct buf text = BUF_INIT;
	long total = t->passed + t->failed + t->skipped + t->unsupported;

	json_add_str_or_null(o, "commit", t->commit);
	add_short(o, "commit_short", t->commit);
	json_add_str_or_null(o, "branch", branch);
	json_add_str_or_null(o, "at", t->at);
	cJSON_AddNumberToObject(o, "failed", (double)t->failed);
	cJSON_AddNumberToObject(o, "total", (double)total);
	buf_addcount(&text, t->failed);
	buf_puts(&text, " failed of ");
	buf_addcount(&text, total);
	json_add_str_or_null(o, "counts", text.ptr);
	buf_release(&text);
}

static void add_baseline(cJSON *j, const struct shown *s, const char *base,
			 struct local_facts *local)
{
	struct buf text = BUF_INIT;
	cJSON *a = cJSON_CreateArray(), *e;
	size_t i;

	cJSON_AddItemToObject(j, "baseline", a);
	for (i = 0; i < s->nbase && i < RESUME_ENVS; i++) {
		const struct testrun_total *latest = &s->base[i];
		const struct testrun_total *t =
			s->onbase_found[i] ? &s->onbase[i] : latest;
		long total =
			t->passed + t->failed + t->skipped + t->unsupported;

		e = cJSON_CreateObject();
		cJSON_AddItemToArray(a, e);
		json_add_str_or_null(e, "base", base);
		cJSON_AddBoolToObject(e, "on_base", s->onbase_found[i]);
		if (!s->onbase_found[i] || strcmp(t->commit, latest->commit))
			add_latest(e, latest, s->latest_branch[i]);
		else
			cJSON_AddNullToObject(e, "latest");
		json_add_str_or_null(e, "env", t->env);
		buf_reset(&text);
		machine_label(&text, s->fps[i], t->env);
		json_add_str_or_null(e, "label", text.ptr);
		json_add_str_or_null(e, "commit", t->commit);
		add_short(e, "commit_short", t->commit);
		json_add_str_or_null(e, "at", t->at);
		cJSON_AddNumberToObject(e, "failed", (double)t->failed);
		cJSON_AddNumberToObject(e, "passed", (double)t->passed);
		cJSON_AddNumberToObject(e, "skipped", (double)t->skipped);
		cJSON_AddNumberToObject(e, "unsupported",
					(double)t->unsupported);
		cJSON_AddNumberToObject(e, "total", (double)total);
		cJSON_AddNumberToObject(e, "classes", (double)t->classes);
		buf_reset(&text);
		buf_addcount(&text, t->failed);
		buf_puts(&text, " failed of ");
		buf_addcount(&text, total);
		json_add_str_or_null(e, "counts", text.ptr);
		cJSON_AddItemToObject(e, "floor", floor_json(s, i));
	}
	/* RESUME_ENVS + 1 were asked for: one more says there are more */
	cJSON_AddBoolToObject(j, "baseline_more", s->nbase > RESUME_ENVS);
	local_add(local, s->nbase > 0, "test baselines");
	buf_release(&text);
}

static void add_table(cJSON *j, struct shown *s, const struct status *st,
		      struct local_facts *local)
{
	struct ab_result *r = &s->r;
	struct buf md = BUF_INIT, label = BUF_INIT;
	cJSON *o;
	size_t i;

	if (!st->last_ab.id) {
		cJSON_AddNullToObject(j, "table");
		return;
	}
	o = cJSON_AddObjectToObject(j, "table");
	if (s->problem) {
		json_add_str_or_null(o, "problem", s->problem);
	} else {
		/* the env is shown by its label line, not under the table */
		free(r->env_line);
		r->env_line = NULL;
		ab_render_table(&md, r);
		buf_rtrim(&md);
		cJSON_AddNullToObject(o, "problem");
	}
	cJSON_AddNumberToObject(o, "id", (double)st->last_ab.id);
	json_add_str_or_null(o, "at", st->last_ab.at);
	json_add_str_or_null(o, "workload", st->last_ab.workload);
	json_add_str_or_null(o, "verdict", st->last_ab.verdict);
	cJSON_AddBoolToObject(o, "invalid", r->invalid);
	json_add_str_or_null(o, "metric", r->metric);
	json_add_str_or_null(o, "env", r->env[0] ? r->env : NULL);
	if (r->env[0]) {
		i = env_index(s, r->env);
		machine_label(&label, s->fps[i], r->env);
		json_add_str_or_null(o, "label", label.ptr);
		cJSON_AddItemToObject(o, "floor", floor_json(s, i));
	} else {
		cJSON_AddNullToObject(o, "label");
		cJSON_AddNullToObject(o, "floor");
	}
	json_add_str_or_null(o, "markdown", md.len ? md.ptr : NULL);
	local_add(local, 1,
		  "the A/B table (its numbers travel as measurements)");
	buf_release(&md);
	buf_release(&label);
}

static void add_records(cJSON *j, const struct status *st,
			struct local_facts *local)
{
	cJSON *a, *e;
	size_t i;

	if (st->has_next_hypo) {
		const struct hypo *h = &st->next_hypo;

		e = cJSON_AddObjectToObject(j, "next_hypo");
		cJSON_AddNumberToObject(e, "id", (double)h->id);
		json_add_str_or_null(e, "text", h->text);
		json_add_str_or_null(e, "metric", h->metric);
		cJSON_AddNumberToObject(e, "predicted", h->predicted);
		json_add_str_or_null(e, "unit", h->unit);
		cJSON_AddNumberToObject(e, "tolerance", h->tolerance);
		json_add_str_or_null(e, "created_at", h->created_at);
		cJSON_AddBoolToObject(e, "marked", st->has_next_hypo == 1);
		cJSON_AddNumberToObject(e, "open", (double)st->open_hypos);
	} else {
		cJSON_AddNullToObject(j, "next_hypo");
	}
	a = cJSON_AddArrayToObject(j, "findings");
	for (i = 0; i < st->nfindings; i++) {
		const struct finding *f = &st->findings[i];

		e = cJSON_CreateObject();
		cJSON_AddNumberToObject(e, "rank", (double)(i + 1));
		cJSON_AddNumberToObject(e, "id", (double)f->id);
		json_add_str_or_null(e, "kind", f->kind);
		json_add_str_or_null(e, "title", f->title);
		json_add_str_or_null(e, "issue", f->issue);
		if (f->pr)
			cJSON_AddNumberToObject(e, "pr", (double)f->pr);
		else
			cJSON_AddNullToObject(e, "pr");
		json_add_str_or_null(e, "commit", f->commit_id);
		add_short(e, "commit_short", f->commit_id);
		json_add_str_or_null(e, "created_at", f->created_at);
		cJSON_AddItemToArray(a, e);
	}
	cJSON_AddNumberToObject(j, "findings_open", (double)st->open_findings);
	cJSON_AddNumberToObject(j, "findings_more",
				(double)(st->open_findings - i));
	local_add(local, st->has_next_hypo, "hypotheses");
	local_add(local, st->nfindings > 0, "findings");
}

static void add_unfinished(cJSON *j, const struct status *st,
			   struct local_facts *local)
{
	cJSON *a = cJSON_AddArrayToObject(j, "unfinished");
	size_t i;

	for (i = 0; i < st->nops; i++)
		cJSON_AddItemToArray(a, status_op_json(&st->ops[i]));
	local_add(local, st->nops > 0,
		  "unfinished operations (finish them in this clone)");
}

static void add_local(cJSON *j, struct local_facts *local)
{
	cJSON *a = cJSON_AddArrayToObject(j, "local");
	struct buf text = BUF_INIT;
	size_t i;

	for (i = 0; i < local->names.nr; i++) {
		cJSON_AddItemToArray(a, cJSON_CreateString(local->names.v[i]));
		buf_addf(&text, "%s%s", i ? ", " : "", local->names.v[i]);
	}
	json_add_str_or_null(j, "local_text", text.ptr);
	buf_release(&text);
}

static int add_ref_fact(const char *refname, const char *oid, void *data)
{
	buf_addf(data, "ref %s %s\n", refname, oid);
	return 0;
}

void resume_facts(struct buf *out, struct ctx *ctx, const struct status *st)
{
	const char *work_tree;
	struct gitlite *lite;
	struct refs refs;
	char oid[REFS_HEX_SIZE], *path;

	status_facts(out, st);
	/* the floors follow the notes, the labels the fingerprint refs */
	if (ctx_lite(&lite, ctx) == 0) {
		gitlite_refs(&refs, lite);
		if (refs_resolve(oid, &refs, MEASURE_NOTES_REF) == 0)
			buf_addf(out, "notes %s\n", oid);
		refs_for_each_prefix(&refs, FINGERPRINT_REF_PREFIX,
				     add_ref_fact, out);
	}
	if (ctx_work_tree(&work_tree, ctx) == 0) {
		path = template_override_path(work_tree, "resume.md");
		outcache_file_fact(out, path);
		free(path);
	}
	error_clear(&ctx->err);
}

int resume_build(cJSON **out, struct ctx *ctx)
{
	struct status st;
	int rc;

	*out = NULL;
	trace_printf("resume: status");
	if ((rc = status_collect_repo(&st, ctx)) < 0)
		return rc;
	rc = resume_build_from(out, ctx, &st);
	status_release(&st);
	return rc;
}

int resume_build_from(cJSON **out, struct ctx *ctx, struct status *st)
{
	struct local_facts local = {STRVEC_INIT};
	struct shown shown;
	cJSON *j = NULL;
	int rc;

	*out = NULL;
	memset(&shown, 0, sizeof(shown));
	if ((rc = status_collect_records(st, ctx)) < 0)
		goto out;
	trace_printf("resume: baselines, the A/B table, floors");
	if ((rc = shown_read(&shown, ctx, st)) < 0)
		goto out;
	trace_printf("resume: records");
	j = cJSON_CreateObject();
	cJSON_AddNumberToObject(j, "v", 1);
	add_campaign(j, st);
	add_stack(j, st, &local);
	add_baseline(j, &shown, st->campaign.base, &local);
	add_table(j, &shown, st, &local);
	add_records(j, st, &local);
	add_stashes(j, st, &local);
	add_unfinished(j, st, &local);
	add_local(j, &local);
	cJSON_AddNullToObject(j, "saved");
	trace_printf("resume: gathered");
	*out = j;
	j = NULL;
out:
	cJSON_Delete(j);
	shown_release(&shown);
	strvec_clear(&local.names);
	return rc;
}

int resume_render(struct buf *out, struct ctx *ctx, const cJSON *data)
{
	const char *work_tree;
	char *from = NULL;
	int rc;

	if ((rc = ctx_work_tree(&work_tree, ctx)) < 0)
		goto out;
	rc = views_render(ctx, work_tree, "resume.md",
			  "git campaign resume --format json", data, out,
			  &from);
	if (rc == GCAMP_EUSAGE) {
		/* a broken template is no misuse of the command */
		ctx->err.code = rc = GCAMP_EFATAL;
		if (from)
			error_hint(&ctx->err,
				   "fix '%s', or remove it to use the built-in "
				   "template",
				   from);
	}
out:
	free(from);
	return rc;
}

int resume_save(struct resume_saved *out, struct ctx *ctx, cJSON *data)
{
	git_signature *sig = NULL;
	struct buf text = BUF_INIT;
	char at[CLOCK_ISO_SIZE];
	cJSON *saved;
	int rc;

	memset(out, 0, sizeof(*out));
	if ((rc = ctx_signature(&sig, ctx, SIG_AUTHOR)) < 0)
		goto out;
	clock_iso(at, (time_t)sig->when.time);
	out->at = xstrdup(at);
	out->author = xasprintf("%s <%s>", sig->name, sig->email);
	saved = cJSON_CreateObject();
	json_add_str_or_null(saved, "at", out->at);
	json_add_str_or_null(saved, "author", out->author);
	cJSON_DeleteItemFromObjectCaseSensitive(data, "saved");
	cJSON_AddItemToObject(data, "saved", saved);
	if ((rc = resume_render(&text, ctx, data)) < 0)
		goto out;
	out->branch = json_dup_str(data, "branch");
	out->head = json_dup_str(data, "head");
	out->text = buf_detach(&text);
	out->data = cJSON_PrintUnformatted(data);
	rc = resume_pointer_add(out, ctx);
out:
	git_signature_free(sig);
	buf_release(&text);
	if (rc < 0)
		resume_saved_release(out);
	return rc;
}
