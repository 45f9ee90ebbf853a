/* git campaign report: the campaign as one self-contained HTML page (each
 * metric's history, each A/B and sweep, the stack, the hypotheses and the
 * findings), or its document as JSON. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "core/views/report.h"
#include "io/proc.h"
#include "util/options.h"
#include "util/xalloc.h"

static const char *const report_usage[] = {
	"git campaign report [-o FILE] [--open] [--metric M]... [RANGE]",
	"git campaign report --json [--metric M]... [RANGE]",
	NULL,
};

/* data to path, through a temporary file beside it and a rename: a
 * reader never sees half a page */
static int write_page(const char *path, const struct buf *page,
		      struct error *err)
{
	char *tmp = xasprintf("%s.tmp.%ld", path, (long)getpid());
	FILE *f = fopen(tmp, "w");
	int ok = f && fwrite(page->ptr, 1, page->len, f) == page->len;

	ok = (f && fclose(f) == 0) && ok;
	if (!ok || rename(tmp, path) < 0) {
		int e = errno;

		unlink(tmp);
		free(tmp);
		return error_set(err, GCAMP_EFATAL, "cannot write '%s': %s",
				 path, strerror(e));
	}
	free(tmp);
	return 0;
}

int cmd_report(int argc, const char **argv, struct ctx *ctx)
{
	struct strvec metrics = STRVEC_INIT;
	struct report_opts ro;
	struct buf page = BUF_INIT;
	const char *output = NULL;
	char *dir = NULL, *path = NULL;
	cJSON *d = NULL;
	int json = 0, open = 0, status = 0;
	const struct option opts[] = {
		OPT_STRING('o', "output", &output, "FILE",
			   "write the page to FILE (-: the standard output; "
			   "default: report.html in the campaign's folder)"),
		OPT_BOOL(0, "open", &open,
			 "open it with xdg-open where there is a display"),
		OPT_LIST(0, "metric", &metrics, "M",
			 "only metric M (repeatable; default: every one)"),
		OPT_BOOL(0, "json", &json, "print the report's data as JSON"),
		OPT_END(),
	};
	int n = parse_options(argc, argv, opts, report_usage);

	if (n < 0)
		return parse_options_status(n);
	if (n > 1) {
		status = usage_error(report_usage, opts, "one RANGE at most");
		goto out;
	}
	if (json && (output || open)) {
		status = usage_error(report_usage, opts,
				     "--json prints the data: no -o or --open");
		goto out;
	}
	memset(&ro, 0, sizeof(ro));
	ro.range = n ? argv[0] : NULL;
	ro.metrics = &metrics;
	if (cmd_need_campaign(ctx) < 0 || report_data(&d, ctx, &ro) < 0)
		goto fail;
	if (json) {
		cmd_print_json(d);
		d = NULL;
		goto out;
	}
	report_html(&page, d);
	if (output && !strcmp(output, "-")) {
		fwrite(page.ptr, 1, page.len, stdout);
		goto out;
	}
	if (!output) {
		if (ctx_scratch_dir(&dir, ctx) < 0)
			goto fail;
		path = xasprintf("%s%sreport.html", dir,
				 *dir && dir[strlen(dir) - 1] == '/' ? ""
								     : "/");
		output = path;
	}
	if (write_page(output, &page, &ctx->err) < 0)
		goto fail;
	if (!(open && cmd_open_url(output)))
		printf("%s\n", output);
	goto out;
fail:
	status = cmd_fail(ctx);
out:
	cJSON_Delete(d);
	buf_release(&page);
	strvec_clear(&metrics);
	free(dir);
	free(path);
	return status;
}
