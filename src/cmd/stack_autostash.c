/* --autostash of stack restack, move, continue, abort and skip-branch, as
 * git rebase --autostash: local changes saved as a named stash before the
 * operation, put back when it ends, kept (and named) while it is stopped
 * at a conflict. core/stack and core/stash do not use each other, so the
 * two are joined here. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/stack_verbs.h"
#include "core/stash/apply.h"
#include "core/stash/stash.h"
#include "util/clock.h"
#include "util/xalloc.h"

/* the stash of operation id while it is stopped */
static char *op_stash_name(long long id)
{
	return xasprintf("autostash/op-%lld", id);
}

int stack_autostash_save(char **name, struct ctx *ctx)
{
	char now[CLOCK_ISO_SIZE], stamp[CLOCK_ISO_SIZE];
	size_t i, k = 0;
	int rc;

	*name = NULL;
	clock_now_iso(now);
	for (i = 0; now[i]; i++)
		if (now[i] != '-' && now[i] != ':')
			stamp[k++] = now[i];
	stamp[k] = '\0';
	*name = xasprintf("autostash/%s", stamp);
	rc = stash_save(NULL, ctx, *name, "autostash", STASH_IF_ANY);
	if (rc != 0) {
		free(*name);
		*name = NULL;
	}
	if (rc == 0)
		fprintf(stderr, "saved your local changes as stash '%s'\n",
			*name);
	return rc < 0 ? rc : 0;
}

/* Pops name, saying where the changes are when they could not all come
 * back; the error of the operation (in ctx) is kept */
static void pop(struct ctx *ctx, const char *name)
{
	struct strvec conflicts = STRVEC_INIT;
	struct error kept = ctx->err;
	size_t i;

	error_clear(&ctx->err);
	if (stash_apply(ctx, name, 1, &conflicts) == 0) {
		fprintf(stderr, "put your local changes back (stash '%s')\n",
			name);
	} else {
		fprintf(stderr,
			"warning: your local changes stay in stash '%s': "
			"%s\n",
			name, ctx->err.msg);
		for (i = 0; i < conflicts.nr; i++)
			fprintf(stderr, "conflict: %s\n", conflicts.v[i]);
		fprintf(stderr,
			"hint: 'git campaign stash pop %s' once the work tree "
			"can take them\n",
			name);
	}
	strvec_clear(&conflicts);
	ctx->err = kept;
}

void stack_autostash_after(struct ctx *ctx, char *name, int rc,
			   const struct restack_result *r)
{
	struct stash_info si = {0};
	struct error kept;
	char hex[GIT_OID_HEXSZ + 1], *kept_as = NULL;

	if (!name)
		return;
	if (rc < 0 || !r->conflict || !r->op_id) {
		pop(ctx, name);
		free(name);
		return;
	}
	/* stopped: the stash is named after the operation, so that its
	 * continue or abort puts it back */
	kept = ctx->err;
	kept_as = op_stash_name(r->op_id);
	if (stash_lookup(&si, ctx, name) == 0) {
		git_oid_tostr(hex, sizeof(hex), &si.id);
		if (stash_restore_as(NULL, ctx, hex, kept_as) == 0)
			stash_drop(NULL, ctx, name, hex);
		else {
			free(kept_as);
			kept_as = xstrdup(name);
		}
	}
	stash_info_release(&si);
	fprintf(stderr,
		"hint: your local changes are in stash '%s': 'git campaign "
		"stack continue' or 'git campaign stack abort' puts them "
		"back\n",
		kept_as);
	ctx->err = kept;
	free(kept_as);
	free(name);
}

void stack_autostash_resume(struct ctx *ctx, int rc,
			    const struct restack_result *r)
{
	struct stash_info si = {0};
	struct error kept = ctx->err;
	char *name;

	if (rc < 0 || r->conflict || !r->op_id)
		return;
	name = op_stash_name(r->op_id);
	if (stash_lookup(&si, ctx, name) == 0)
		pop(ctx, name);
	stash_info_release(&si);
	ctx->err = kept;
	free(name);
}
