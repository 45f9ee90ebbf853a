/* git campaign ncu: one named kernel under Nsight Compute, its Speed-of-Light
 * reading classified, the run and its hand-back kept as records on HEAD. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "core/probe/ncu.h"
#include "util/buf.h"
#include "util/options.h"

static const char *const ncu_usage[] = {
	"git campaign ncu --kernel REGEX --skip N --count M [--section S]... "
	"[--recommend TEXT --category C] [--allow-warmup] [--json] -- CMD...",
	NULL,
};

int cmd_ncu(int argc, const char **argv, struct ctx *ctx)
{
	const char *regex = NULL, *recommend = NULL, *category = NULL;
	struct strvec sections = STRVEC_INIT;
	struct ncuprof_opts o;
	struct ncuprof_result r;
	struct buf text = BUF_INIT;
	long skip = -1, count = -1;
	int json = 0, warmup = 0, n, dd, rc = 129, i;
	const struct option opts[] = {
		OPT_STRING(0, "kernel", &regex, "REGEX",
			   "the kernel to profile (ncu --kernel-name regex:)"),
		OPT_INT(0, "skip", &skip, "N",
			"launches of it to skip first (the warm-up)"),
		OPT_INT(0, "count", &count, "M", "launches to profile"),
		OPT_LIST(0, "section", &sections, "S",
			 "an ncu section after SpeedOfLight (repeatable)"),
		OPT_STRING(0, "recommend", &recommend, "TEXT",
			   "the one change this profile calls for"),
		OPT_STRING(0, "category", &category, "C",
			   "variant, launch-size, layout, unneeded-work or "
			   "codegen"),
		OPT_BOOL(0, "allow-warmup", &warmup,
			 "allow --skip 0: profile the first launch"),
		OPT_BOOL(0, "json", &json, "print the hand-back as JSON"),
		OPT_END(),
	};

	memset(&r, 0, sizeof(r));
	/* the program's own options follow "--": never ours */
	for (dd = 1; dd < argc && strcmp(argv[dd], "--"); dd++)
		;
	n = parse_options(dd, argv, opts, ncu_usage);
	if (n < 0) {
		rc = parse_options_status(n);
		goto out;
	}
	if (n) {
		usage_error(ncu_usage, opts,
			    "unexpected argument '%s' (the "
			    "program goes after '--')",
			    argv[0]);
		goto out;
	}
	if (dd + 1 >= argc) {
		usage_error(ncu_usage, opts,
			    "no program to profile after '--'");
		goto out;
	}
	if (!regex || !*regex || skip < 0 || count < 1) {
		usage_error(ncu_usage, opts,
			    !regex || !*regex ? "--kernel REGEX is missing"
			    : skip < 0 ? "--skip N (0 or more) is missing"
				       : "--count M (1 or more) is "
					 "missing");
		goto out;
	}
	if (skip == 0 && !warmup) {
		usage_error(ncu_usage, opts,
			    "--skip 0 profiles the first, warm-up launch: "
			    "skip it, or say --allow-warmup");
		goto out;
	}
	if (!recommend != !category) {
		usage_error(ncu_usage, opts,
			    "--recommend and --category go "
			    "together");
		goto out;
	}
	if (category && !ncuprof_category_ok(category)) {
		usage_error(ncu_usage, opts,
			    "--category '%s': variant, launch-size, layout, "
			    "unneeded-work or codegen",
			    category);
		goto out;
	}
	for (i = 0; i < (int)sections.nr; i++)
		if (!*sections.v[i]) {
			usage_error(ncu_usage, opts, "--section is empty");
			goto out;
		}
	if (cmd_need_campaign(ctx) < 0) {
		rc = cmd_fail(ctx);
		goto out;
	}
	memset(&o, 0, sizeof(o));
	o.regex = regex;
	o.skip = skip;
	o.count = count;
	o.sections = &sections;
	o.program = argv + dd + 1;
	o.recommend = recommend;
	o.category = category;
	if (ncuprof_run(&r, ctx, &o) < 0) {
		rc = cmd_fail(ctx);
		goto out;
	}
	if (json) {
		cmd_print_json(ncuprof_to_json(&r, &o));
	} else {
		ncuprof_render(&text, &r, &o);
		fputs(text.ptr, stdout);
	}
	rc = 0;
out:
	ncuprof_result_release(&r);
	buf_release(&text);
	strvec_clear(&sections);
	return rc;
}
