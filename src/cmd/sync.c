/* git campaign sync: exchange measurements (notes) and fingerprints with a
 * remote, then refresh the measurement index. */
#include <stdio.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "core/measure/measure.h"
#include "core/measure/sync.h"
#include "util/options.h"

static const char *const sync_usage[] = {
	"git campaign sync [-q | --progress] [--json] [REMOTE]",
	"git campaign sync --reindex [--json]",
	NULL,
};

/* data points at the progress flag: progress lines only with it */
static void say_stderr(int notice, const char *line, void *data)
{
	if (notice || *(const int *)data)
		fprintf(stderr, "%s\n", line);
}

static const char *plural(size_t n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

static void print_report(const struct sync_report *r, int reindexed, int json)
{
	char hex[GIT_OID_HEXSZ + 1];
	cJSON *j;

	if (!json) {
		printf("sync with '%s': %zu %s added locally, %zu %s pushed, "
		       "%zu env %s copied\n",
		       r->remote, r->lines_added,
		       plural(r->lines_added, "line", "lines"), r->lines_pushed,
		       plural(r->lines_pushed, "line", "lines"), r->env_copied,
		       plural(r->env_copied, "ref", "refs"));
		return;
	}
	j = cJSON_CreateObject();
	cJSON_AddStringToObject(j, "remote", r->remote);
	cJSON_AddBoolToObject(j, "remote_had_notes", r->remote_had_notes);
	cJSON_AddStringToObject(j, "notes", r->notes);
	cJSON_AddNumberToObject(j, "lines_added", (double)r->lines_added);
	cJSON_AddNumberToObject(j, "lines_pushed", (double)r->lines_pushed);
	cJSON_AddNumberToObject(j, "env_copied", (double)r->env_copied);
	cJSON_AddNumberToObject(j, "env_pushed", (double)r->env_pushed);
	cJSON_AddBoolToObject(j, "pushed", r->pushed);
	cJSON_AddNumberToObject(j, "attempts", r->attempts);
	if (git_oid_is_zero(&r->tip))
		cJSON_AddNullToObject(j, "tip");
	else
		cJSON_AddStringToObject(
			j, "tip", git_oid_tostr(hex, sizeof(hex), &r->tip));
	cJSON_AddBoolToObject(j, "reindexed", reindexed);
	cmd_print_json(j);
}

int cmd_sync(int argc, const char **argv, struct ctx *ctx)
{
	int json = 0, full = 0, quiet = 0, progress = -1;
	struct sync_report rep = SYNC_REPORT_INIT;
	struct sync_opts so = {NULL, 0, say_stderr, NULL};
	const struct option opts[] = {
		OPT_BOOL('q', "quiet", &quiet, "print no progress"),
		OPT_BOOL(0, "progress", &progress,
			 "print progress even when stderr is not a terminal"),
		OPT_BOOL(0, "json", &json, "print the report as JSON"),
		OPT_BOOL(0, "reindex", &full,
			 "rebuild the measurement index from the notes"
			 " alone, without the network"),
		OPT_END(),
	};
	int n = parse_options(argc, argv, opts, sync_usage);

	if (n < 0)
		return parse_options_status(n);
	if (n > 1 || (full && n))
		return usage_error(sync_usage, opts,
				   full ? "--reindex takes no REMOTE"
					: "too many arguments");
	if (full) {
		if (measure_reindex(ctx, 1) < 0)
			return cmd_fail(ctx);
		if (json) {
			cJSON *j = cJSON_CreateObject();

			cJSON_AddBoolToObject(j, "reindexed", 1);
			cmd_print_json(j);
		} else {
			printf("rebuilt the measurement index from %s\n",
			       SYNC_NOTES_REF);
		}
		return 0;
	}
	so.remote = n ? argv[0] : NULL;
	so.progress =
		!quiet && (progress == -1 ? isatty(STDERR_FILENO) : progress);
	so.say_data = &so.progress;
	if (quiet)
		so.say = NULL;
	if (sync_run(&rep, ctx, &so) < 0)
		goto fail;
	/* the notes are synced whatever the index says */
	if (measure_reindex(ctx, 0) < 0) {
		error_hint(&ctx->err, "the notes are synced; "
				      "'git campaign sync --reindex' rebuilds "
				      "the index");
		goto fail;
	}
	print_report(&rep, 1, json);
	sync_report_release(&rep);
	return 0;
fail:
	sync_report_release(&rep);
	return cmd_fail(ctx);
}
