/* What the commands share. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "core/views/umbrella.h"
#include "util/options.h"
#include "util/suggest.h"

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
		fprintf(stderr, "hint: queued; the next command or 'git "
				"campaign umbrella sync' sends it\n");
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

int cmd_subcommand(int argc, const char **argv, struct ctx *ctx,
		   const struct subcommand *subs, const char *const *usage,
		   const char *def)
{
	const char *names[32], *best[3], *name = argc > 1 ? argv[1] : def;
	size_t n, i;
	int k;

	if (name && (!strcmp(name, "-h") || !strcmp(name, "--help"))) {
		k = parse_options(argc, argv, NULL, usage);
		return parse_options_status(k);
	}
	if (!name)
		return usage_error(usage, NULL, "no subcommand given");
	for (n = 0; n < 32 && subs[n].name; n++) {
		names[n] = subs[n].name;
		if (!strcmp(subs[n].name, name)) {
			const char *only[2] = {def, NULL};

			if (argc > 1)
				return subs[n].fn(argc - 1, argv + 1, ctx);
			return subs[n].fn(1, only, ctx);
		}
	}
	k = (int)suggest_closest(best, 3, name, names, n);
	fprintf(stderr, "error: '%s' is not a subcommand of '%s'", name,
		argv[0]);
	for (i = 0; i < (size_t)k; i++)
		fprintf(stderr, "%s'%s'", i ? ", " : "; did you mean ",
			best[i]);
	fputs(k ? "?\n" : "\n", stderr);
	usage_print(usage, NULL, 1);
	return 129;
}
