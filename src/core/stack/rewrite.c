/* After a restack rewrote commits: notes copied and post-rewrite run, as
 * git does after a rebase. */
#include "core/stack/rewrite.h"

#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/gitcfg.h"
#include "io/proc.h"
#include "io/repo.h"
#include "io/signature.h"
#include "util/buf.h"
#include "util/strvec.h"
#include "util/xalloc.h"

enum { MODE_CONCATENATE, MODE_OVERWRITE, MODE_IGNORE, MODE_CAT_SORT_UNIQ };

static int parse_mode(const char *v)
{
	if (!v)
		return MODE_CONCATENATE;
	if (!strcmp(v, "overwrite"))
		return MODE_OVERWRITE;
	if (!strcmp(v, "ignore"))
		return MODE_IGNORE;
	if (!strcmp(v, "cat_sort_uniq"))
		return MODE_CAT_SORT_UNIQ;
	return MODE_CONCATENATE;
}

/* Adds the refs under refs/notes/ that pattern names (a glob) to out. */
static void add_matching(struct strvec *out, git_repository *repo,
			 const char *pattern)
{
	git_reference_iterator *it = NULL;
	const char *name;
	size_t i;

	if (strncmp(pattern, "refs/notes/", 11))
		return; /* git refuses to rewrite notes outside refs/notes/ */
	if (git_reference_iterator_glob_new(&it, repo, "refs/notes/*") < 0) {
		git_error_clear();
		return;
	}
	while (git_reference_next_name(&name, it) == 0) {
		if (fnmatch(pattern, name, 0))
			continue;
		for (i = 0; i < out->nr && strcmp(out->v[i], name); i++)
			;
		if (i == out->nr)
			strvec_push(out, name);
	}
	git_reference_iterator_free(it);
	git_error_clear();
}

/* The notes refs to copy into out and the combination in *mode; none
 * when notes.rewrite.rebase is false */
static int rewrite_refs(struct strvec *out, int *mode, git_repository *repo,
			struct ctx *ctx)
{
	struct strvec pats = STRVEC_INIT;
	const char *env = getenv("GIT_NOTES_REWRITE_REF"), *v;
	struct gitcfg *cfg;
	size_t i;
	int rc;

	if ((rc = ctx_config(&cfg, ctx)) < 0)
		return rc;
	if (gitcfg_get(&v, cfg, "notes.rewrite.rebase") == 0 &&
	    (!strcasecmp(v, "false") || !strcasecmp(v, "no") ||
	     !strcasecmp(v, "off") || !strcmp(v, "0")))
		return 0;
	*mode = parse_mode(getenv("GIT_NOTES_REWRITE_MODE"));
	if (!getenv("GIT_NOTES_REWRITE_MODE") &&
	    gitcfg_get(&v, cfg, "notes.rewriteMode") == 0)
		*mode = parse_mode(v);
	if (env) {
		char *copy = xstrdup(env), *p, *save = NULL;

		for (p = strtok_r(copy, ":", &save); p;
		     p = strtok_r(NULL, ":", &save))
			strvec_push(&pats, p);
		free(copy);
	} else if ((rc = gitcfg_get_all(&pats, cfg, "notes.rewriteRef",
					&ctx->err)) < 0 &&
		   rc != GCAMP_ENOTFOUND) {
		return rc;
	}
	error_clear(&ctx->err);
	for (i = 0; i < pats.nr; i++)
		add_matching(out, repo, pats.v[i]);
	strvec_clear(&pats);
	return 0;
}

/* The note text for target: note, combined with what target has by mode;
 * NULL when it keeps its own (caller frees) */
static char *combined(git_repository *repo, const char *ref,
		      const git_oid *target, const char *note, int mode)
{
	git_note *have = NULL;
	char *s = NULL;

	if (git_note_read(&have, repo, ref, target) < 0) {
		git_error_clear();
		return xstrdup(note);
	}
	if (mode == MODE_OVERWRITE) {
		s = xstrdup(note);
	} else if (mode == MODE_CONCATENATE) {
		s = xasprintf("%s\n%s", git_note_message(have), note);
	} else if (mode == MODE_CAT_SORT_UNIQ) {
		struct strvec lines = STRVEC_INIT;
		struct buf b = BUF_INIT;
		char *all = xasprintf("%s\n%s", git_note_message(have), note);
		char *p, *save = NULL;
		size_t i;

		for (p = strtok_r(all, "\n", &save); p;
		     p = strtok_r(NULL, "\n", &save))
			strvec_push(&lines, p);
		strvec_sort(&lines);
		for (i = 0; i < lines.nr; i++)
			if (!i || strcmp(lines.v[i], lines.v[i - 1]))
				buf_addf(&b, "%s\n", lines.v[i]);
		s = buf_detach(&b);
		strvec_clear(&lines);
		free(all);
	}
	git_note_free(have);
	return s;
}

/* The notes of ref copied along op's pairs: its move appended to refs */
static int copy_ref(cJSON *refs, const struct stack_op *op, struct ctx *ctx,
		    git_repository *repo, const char *ref, int mode,
		    const git_signature *sig)
{
	git_commit *nc = NULL;
	git_oid notes_old, notes_new;
	int has_notes, copied = 0, rc = 0;
	size_t i;
	cJSON *e;

	has_notes = git_reference_name_to_id(&notes_old, repo, ref) == 0;
	git_error_clear();
	notes_new = notes_old;
	for (i = 0; i < op->n; i++) {
		const cJSON *p;

		if (!op->b[i].done)
			continue;
		cJSON_ArrayForEach(p, op->b[i].notes) {
			git_oid from, to, blob;
			git_note *note = NULL;
			char *text;

			if (repo_oid_from_json(&from,
					       cJSON_GetArrayItem(p, 0)) < 0 ||
			    repo_oid_from_json(&to, cJSON_GetArrayItem(p, 1)) <
				    0 ||
			    git_note_read(&note, repo, ref, &from) < 0) {
				git_error_clear();
				continue;
			}
			text = combined(repo, ref, &to, git_note_message(note),
					mode);
			git_note_free(note);
			if (!text)
				continue;
			git_commit_free(nc);
			nc = NULL;
			if ((copied || has_notes) &&
			    (rc = git_commit_lookup(&nc, repo, &notes_new)) <
				    0) {
				free(text);
				rc = error_git(&ctx->err, rc,
					       "cannot read the notes of '%s'",
					       ref);
				goto out;
			}
			rc = git_note_commit_create(&notes_new, &blob, repo, nc,
						    sig, sig, &to, text, 1);
			free(text);
			if (rc < 0) {
				rc = error_git(&ctx->err, rc,
					       "cannot copy a note of '%s'",
					       ref);
				goto out;
			}
			copied = 1;
		}
	}
	if (copied) {
		e = cJSON_CreateObject();
		cJSON_AddStringToObject(e, "ref", ref);
		cJSON_AddItemToObject(e, "old",
				      has_notes ? repo_oid_json(&notes_old)
						: cJSON_CreateNull());
		cJSON_AddItemToObject(e, "new", repo_oid_json(&notes_new));
		cJSON_AddItemToArray(refs, e);
	}
out:
	git_commit_free(nc);
	return rc;
}

int stack_rewrite_notes(cJSON *refs, const struct stack_op *op, struct ctx *ctx)
{
	struct strvec names = STRVEC_INIT;
	git_repository *repo;
	git_signature *sig = NULL;
	int rc, mode = MODE_CONCATENATE;
	size_t i;

	if ((rc = ctx_repo(&repo, ctx, 1)) < 0 ||
	    (rc = rewrite_refs(&names, &mode, repo, ctx)) < 0)
		goto out;
	if (mode == MODE_IGNORE || !names.nr)
		goto out;
	if ((rc = ctx_signature(&sig, ctx, SIG_TOOL)) < 0)
		goto out;
	for (i = 0; i < names.nr && rc == 0; i++)
		rc = copy_ref(refs, op, ctx, repo, names.v[i], mode, sig);
out:
	git_signature_free(sig);
	strvec_clear(&names);
	return rc;
}

/* The post-rewrite hook's path (caller frees), as git finds it */
static char *hook_path(git_repository *repo, struct ctx *ctx)
{
	const char *wd = git_repository_workdir(repo), *v, *home;
	struct gitcfg *cfg;

	if (ctx_config(&cfg, ctx) < 0 ||
	    gitcfg_get(&v, cfg, "core.hooksPath") < 0 || !*v) {
		error_clear(&ctx->err);
		return xasprintf("%shooks/post-rewrite",
				 git_repository_commondir(repo));
	}
	home = getenv("HOME");
	if (v[0] == '~' && v[1] == '/' && home)
		return xasprintf("%s/%s/post-rewrite", home, v + 2);
	if (v[0] == '/')
		return xasprintf("%s/post-rewrite", v);
	return xasprintf("%s%s/post-rewrite",
			 wd ? wd : git_repository_path(repo), v);
}

void stack_rewrite_hook(const struct stack_op *op, struct ctx *ctx)
{
	struct proc_result res = PROC_RESULT_INIT;
	struct proc_opts po = {0};
	struct buf in = BUF_INIT;
	struct error ignored = ERROR_INIT;
	git_repository *repo;
	char *path = NULL;
	size_t i;

	if (ctx_repo(&repo, ctx, 1) < 0) {
		error_clear(&ctx->err);
		return;
	}
	for (i = 0; i < op->n; i++) {
		const cJSON *p;

		if (!op->b[i].done)
			continue;
		cJSON_ArrayForEach(p, op->b[i].notes) {
			git_oid a, b;
			char ha[GIT_OID_HEXSZ + 1], hb[GIT_OID_HEXSZ + 1];

			if (repo_oid_from_json(&a, cJSON_GetArrayItem(p, 0)) <
				    0 ||
			    repo_oid_from_json(&b, cJSON_GetArrayItem(p, 1)) <
				    0 ||
			    git_oid_equal(&a, &b))
				continue;
			git_oid_tostr(ha, sizeof(ha), &a);
			git_oid_tostr(hb, sizeof(hb), &b);
			buf_addf(&in, "%s %s\n", ha, hb);
		}
	}
	path = hook_path(repo, ctx);
	if (in.len && access(path, X_OK) == 0) {
		/* git sends a hook's standard output to standard error */
		const char *argv[] = {
			"/bin/sh", "-c",     "exec \"$0\" \"$@\" >&2",
			path,	   "rebase", NULL};

		po.dir = git_repository_workdir(repo);
		po.in = in.ptr;
		po.in_len = in.len;
		po.tee_stderr = 1;
		proc_run(&res, argv, &po, &ignored);
	}
	proc_result_release(&res);
	buf_release(&in);
	free(path);
}
