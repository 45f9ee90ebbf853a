/* What the commands share. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "core/campaign/campaign.h"
#include "core/forge/umbrella_sync.h"
#include "io/proc.h"
#include "io/repo.h"
#include "util/color.h"
#include "util/options.h"

int cmd_fail(struct ctx *ctx)
{
	if (!ctx->err.code)
		error_set(&ctx->err, GCAMP_EFATAL,
			  "failed for an unknown reason");
	error_print(&ctx->err);
	return error_exit_code(ctx->err.code);
}

int cmd_umbrella_auto(struct ctx *ctx, int status)
{
	struct umbrella_auto a;

	if (status != 0 && status != 1)
		return status;
	/* what the command left unsaid is not the update's to print */
	error_clear(&ctx->err);
	if (umbrella_auto_update(&a, ctx) == UMBRELLA_AUTO_QUEUED) {
		fprintf(stderr, "warning: umbrella #%ld not updated: %s\n",
			a.number, a.why);
		cmd_hint("queued; the next command or 'git campaign umbrella "
			 "sync' sends it");
	}
	return status;
}

int cmd_read_text(struct buf *out, const char *path, struct error *err)
{
	FILE *fp = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	char chunk[8192];
	size_t n;
	int rc = 0;

	if (!fp)
		return error_set(err, GCAMP_EFATAL, "cannot read '%s': %s",
				 path, strerror(errno));
	while ((n = fread(chunk, 1, sizeof(chunk), fp)) > 0) {
		if (out->len + n > CMD_TEXT_MAX) {
			rc = error_set(err, GCAMP_EUSAGE,
				       "'%s' is larger than %u MiB", path,
				       CMD_TEXT_MAX >> 20);
			goto out;
		}
		buf_add(out, chunk, n);
	}
	if (ferror(fp))
		rc = error_set(err, GCAMP_EFATAL, "cannot read '%s'", path);
	else if (memchr(out->ptr, '\0', out->len))
		rc = error_set(err, GCAMP_EUSAGE, "'%s' is not text", path);
out:
	if (fp != stdin)
		fclose(fp);
	return rc;
}

void cmd_render_json(struct buf *out, cJSON *j)
{
	char *s = cJSON_Print(j);

	if (s) {
		buf_puts(out, s);
		buf_putc(out, '\n');
	}
	free(s);
	cJSON_Delete(j);
}

void cmd_print_json(cJSON *j)
{
	struct buf out = BUF_INIT;

	cmd_render_json(&out, j);
	fputs(out.ptr, stdout);
	buf_release(&out);
}

int cmd_commit_arg(git_oid *out, struct ctx *ctx, const char *rev)
{
	git_repository *repo;
	git_object *obj = NULL, *c = NULL;
	int rc;

	if ((rc = ctx_repo(&repo, ctx, 0)) < 0)
		return rc;
	if (!rev)
		rev = "HEAD";
	if ((rc = git_revparse_single(&obj, repo, rev)) < 0 ||
	    (rc = git_object_peel(&c, obj, GIT_OBJECT_COMMIT)) < 0) {
		git_object_free(obj);
		if (rc == GIT_ENOTFOUND || rc == GIT_EINVALIDSPEC ||
		    rc == GIT_EAMBIGUOUS || rc == GIT_EPEEL) {
			error_set(&ctx->err, GCAMP_ENOTFOUND,
				  "unknown commit '%s'", rev);
			return GCAMP_ENOTFOUND;
		}
		return error_git(&ctx->err, rc, "cannot resolve '%s'", rev);
	}
	git_oid_cpy(out, git_object_id(c));
	git_object_free(c);
	git_object_free(obj);
	return 0;
}

int cmd_need_campaign(struct ctx *ctx)
{
	struct campaign c;
	int rc = campaign_load(&c, ctx);

	campaign_release(&c);
	return rc;
}

#define SUBCOMMANDS_MAX 32
#define USAGE_LINES_MAX 64

/* what a subcommand's flags ask for once it ran */
static int finish(struct ctx *ctx, const struct subcommand *sub, int status)
{
	if (sub->flags & CMD_UMBRELLA_AUTO)
		return cmd_umbrella_auto(ctx, status);
	return status;
}

int cmd_subcommand(int argc, const char **argv, struct ctx *ctx,
		   const struct subcommand *subs, const char *const *usage,
		   const char *def)
{
	const char *names[SUBCOMMANDS_MAX], *lines[USAGE_LINES_MAX + 1];
	const char *only[3] = {NULL, def, NULL};
	const struct subcommand *rows[SUBCOMMANDS_MAX], *sub = NULL;
	size_t n = 0, k = 0, i, r;
	int rc;

	for (r = 0; r < SUBCOMMANDS_MAX && subs[r].name; r++) {
		for (i = 0; subs[r].usage && subs[r].usage[i]; i++)
			if (k < USAGE_LINES_MAX)
				lines[k++] = subs[r].usage[i];
		if (!*subs[r].name) {
			sub = &subs[r];
			continue;
		}
		rows[n] = &subs[r];
		names[n++] = subs[r].name;
	}
	lines[k] = NULL;
	if (!usage)
		usage = lines;
	/* the command's own form takes its options, -h included */
	if (sub && (argc < 2 || argv[1][0] == '-'))
		return finish(ctx, sub, sub->fn(argc, argv, ctx));
	rc = parse_subcommand(argc, argv, names, n, usage);
	if (rc == PARSE_SUBCOMMAND_NONE && def) {
		/* the default runs as if named alone */
		for (rc = 0; (size_t)rc < n && strcmp(names[rc], def); rc++)
			;
		argc = 2;
		argv = only;
	}
	if (rc == PARSE_SUBCOMMAND_NONE)
		return usage_error(usage, NULL, "no subcommand given");
	if (rc < 0)
		return parse_options_status(rc);
	if ((size_t)rc >= n)
		return usage_error(usage, NULL, "no subcommand '%s'", def);
	sub = rows[rc];
	return finish(ctx, sub, sub->fn(argc - 1, argv + 1, ctx));
}

int cmd_stdout_is_terminal(void)
{
	const char *p = getenv("GIT_PAGER_IN_USE");

	return isatty(STDOUT_FILENO) ||
	       (p && (!strcmp(p, "true") || !strcmp(p, "1")));
}

const char *const cmd_format_names[] = {"text", "json", "csv", NULL};

int cmd_format_resolve(int *format, int json, const char *const *usage,
		       const struct option *opts)
{
	if (json && *format >= 0 && *format != CMD_FORMAT_JSON)
		return usage_error(usage, opts,
				   "--json and --format %s, not both",
				   cmd_format_names[*format]);
	if (json)
		*format = CMD_FORMAT_JSON;
	else if (*format < 0)
		*format = CMD_FORMAT_TEXT;
	return 0;
}

void cmd_say(const char *fmt, ...)
{
	va_list ap;

	if (options_quiet())
		return;
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
}

void cmd_say_err(const char *fmt, ...)
{
	va_list ap;

	if (options_quiet())
		return;
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
}

void cmd_hint(const char *fmt, ...)
{
	struct buf b = BUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	buf_vaddf(&b, fmt, ap);
	va_end(ap);
	fprintf(stderr, "%shint: %s%s\n", color_get(2, COLOR_YELLOW), b.ptr,
		color_get(2, COLOR_RESET));
	buf_release(&b);
}

int cmd_open_url(const char *path)
{
	const char *argv[] = {"xdg-open", path, NULL};
	struct proc_opts po;
	struct proc_result r;
	struct error err = ERROR_INIT;
	int ok;

	const char *x = getenv("DISPLAY"), *w = getenv("WAYLAND_DISPLAY");

	if ((!x || !*x) && (!w || !*w))
		return 0;
	memset(&po, 0, sizeof(po));
	memset(&r, 0, sizeof(r));
	po.stdin_null = 1;
	po.timeout_ms = 10000;
	ok = proc_run(&r, argv, &po, &err) == 0 && r.status == 0;
	proc_result_release(&r);
	error_clear(&err);
	return ok;
}
