/* git campaign resume: the resume pointer, in one screen, as Markdown (the
 * template resume.md) or as the JSON it is rendered from; --save keeps it,
 * --saved prints the one kept last. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "core/base/outcache.h"
#include "core/views/resume.h"
#include "core/views/status.h"
#include "util/options.h"

static const char *const resume_usage[] = {
	"git campaign resume [--format md|json] [--save]",
	"git campaign resume --saved [--format md|json]",
	NULL,
};

/* the pointer saved last: its text, or its data as JSON */
static int print_saved(struct ctx *ctx, int json)
{
	struct resume_saved s;
	cJSON *j;
	int found;

	if (resume_pointer_last(&s, &found, ctx) < 0)
		return cmd_fail(ctx);
	if (!found) {
		fprintf(stderr, "no resume pointer saved yet\n");
		cmd_hint("'git campaign resume --save' saves one");
		return 1;
	}
	if (json && (j = cJSON_Parse(s.data))) {
		cmd_print_json(j);
	} else if (json) {
		fprintf(stderr,
			"fatal: saved resume pointer #%lld: its data is not "
			"JSON\n",
			s.id);
		resume_saved_release(&s);
		return 128;
	} else {
		fputs(s.text, stdout);
	}
	resume_saved_release(&s);
	return 0;
}

/* The pointer as the records stand: the database's part is read only when
 * no rendering was kept for these facts and this database
 * (src/core/base/outcache.h). */
static int print_current(struct ctx *ctx, int json)
{
	struct outcache oc = OUTCACHE_INIT;
	struct buf facts = BUF_INIT, text = BUF_INIT;
	cJSON *data = NULL;
	struct status st;
	int rc = 0;

	if (status_collect_repo(&st, ctx) < 0)
		return cmd_fail(ctx);
	resume_facts(&facts, ctx, &st);
	outcache_begin(&oc, ctx, json ? "resume --format json" : "resume",
		       facts.ptr);
	if (!outcache_get(&oc, &text)) {
		if (resume_build_from(&data, ctx, &st) < 0 ||
		    (!json && resume_render(&text, ctx, data) < 0)) {
			rc = cmd_fail(ctx);
			goto out;
		}
		if (json) {
			cmd_render_json(&text, data);
			data = NULL;
		}
		ctx_db_close(ctx);
		outcache_put(&oc, text.ptr, text.len);
	}
	fwrite(text.ptr, 1, text.len, stdout);
out:
	cJSON_Delete(data);
	status_release(&st);
	outcache_release(&oc);
	buf_release(&facts);
	buf_release(&text);
	return rc;
}

int cmd_resume(int argc, const char **argv, struct ctx *ctx)
{
	const char *format = "md";
	int save = 0, saved = 0, json, rc = 0;
	struct resume_saved s = {0};
	cJSON *data = NULL;
	const struct option opts[] = {
		OPT_STRING(0, "format", &format, "md|json",
			   "Markdown from the template (default), or JSON"),
		OPT_BOOL(0, "save", &save,
			 "also keep it in the database, with time and author"),
		OPT_BOOL(0, "saved", &saved, "print the pointer saved last"),
		OPT_END(),
	};
	int n = parse_options(argc, argv, opts, resume_usage);

	if (n < 0)
		return parse_options_status(n);
	if (n > 0)
		return usage_error(resume_usage, opts,
				   "resume takes no arguments");
	if (strcmp(format, "md") && strcmp(format, "json"))
		return usage_error(resume_usage, opts,
				   "unknown format '%s' (md or json)", format);
	if (save && saved)
		return usage_error(resume_usage, opts,
				   "--save and --saved cannot be combined");
	json = !strcmp(format, "json");
	if (saved)
		return print_saved(ctx, json);
	if (!save)
		return print_current(ctx, json);
	if (resume_build(&data, ctx) < 0)
		goto fail;
	if (save) {
		if (resume_save(&s, ctx, data) < 0)
			goto fail;
		cmd_say_err("saved resume pointer #%lld (%s, %s)\n", s.id, s.at,
			    s.author);
	}
	if (json) {
		cmd_print_json(data);
		data = NULL;
	} else {
		fputs(s.text, stdout);
	}
	goto out;
fail:
	rc = cmd_fail(ctx);
out:
	resume_saved_release(&s);
	cJSON_Delete(data);
	/* a saved pointer is part of the umbrella's section */
	return save ? cmd_umbrella_auto(ctx, rc) : rc;
}
