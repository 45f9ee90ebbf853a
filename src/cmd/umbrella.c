/* git campaign umbrella sync|post: the umbrella issue through GitHub's REST
 * API. */
#include <stdio.h>
#include <string.h>

#include "cmd/cmd.h"
#include "core/campaign/campaign.h"
#include "core/forge/open.h"
#include "core/forge/umbrella_sync.h"
#include "core/views/umbrella.h"
#include "io/github/client.h"
#include "util/buf.h"
#include "util/options.h"
#include "util/xalloc.h"

SUB_USAGE(sync_usage, "git campaign umbrella sync [--dry-run]");
SUB_USAGE(post_usage, "git campaign umbrella post [-m TEXT | -F FILE] RESULT");

static void say_wait(long wait_ms, const char *why)
{
	cmd_say_err("waiting %ld s for %s\n", (wait_ms + 999) / 1000, why);
}

static int open_forge(struct github **gh, struct ctx *ctx,
		      const struct campaign *c)
{
	if (forge_open(gh, ctx, c) < 0)
		return -1;
	github_on_wait(*gh, say_wait);
	return 0;
}

/* a renamed repository: its new name, and how to record it */
static void say_moved(const struct github *gh, const struct campaign *c)
{
	const char *to = gh ? github_moved_to(gh) : NULL;

	if (to)
		cmd_hint("GitHub moved '%s' to '%s': 'git campaign config "
			 "forge %s' records it",
			 c->forge, to, to);
}

static int umbrella_sync_cmd(struct ctx *ctx, struct campaign *c, int dry_run)
{
	struct umbrella_result r = {0};
	struct github *gh = NULL;
	struct buf section = BUF_INIT;
	int rc = 0;

	if (dry_run) {
		if (umbrella_render(&section, ctx, c, 20) < 0) {
			rc = cmd_fail(ctx);
			goto out;
		}
		printf("%s\n%s%s\n", UMBRELLA_BEGIN, section.ptr, UMBRELLA_END);
		goto out;
	}
	if (open_forge(&gh, ctx, c) < 0 || umbrella_sync(&r, ctx, c, gh) < 0) {
		rc = cmd_fail(ctx);
		goto out;
	}
	if (!r.changed)
		cmd_say("umbrella #%ld is up to date\n", r.number);
	else if (r.appended)
		cmd_say("umbrella #%ld updated (the markers were missing: the "
			"section was added at the end)\n",
			r.number);
	else
		cmd_say("umbrella #%ld updated\n", r.number);
	if (r.folded)
		cmd_say("older measurements were folded to stay within "
			"GitHub's limit\n");
	if (r.url)
		cmd_say("  %s\n", r.url);
out:
	say_moved(gh, c);
	umbrella_result_release(&r);
	github_close(gh);
	buf_release(&section);
	return rc;
}

static int post(struct ctx *ctx, struct campaign *c, const char *name,
		const char *msg, const char *file)
{
	struct umbrella_result r = {0};
	struct github *gh = NULL;
	struct buf text = BUF_INIT;
	int rc = 0;

	if (msg)
		buf_puts(&text, msg);
	else if (cmd_read_text(&text, file ? file : "-", &ctx->err) < 0)
		goto fail;
	if (!text.len) {
		error_set(&ctx->err, GCAMP_EUSAGE, "nothing to post");
		goto fail;
	}
	if (open_forge(&gh, ctx, c) < 0 ||
	    umbrella_post(&r, ctx, c, gh, name, text.ptr) < 0)
		goto fail;
	cmd_say("%s '%s' on umbrella #%ld\n",
		!r.changed   ? "unchanged:"
		: r.appended ? "posted"
			     : "updated",
		name, r.number);
	if (r.url)
		cmd_say("  %s\n", r.url);
	goto out;
fail:
	rc = cmd_fail(ctx);
out:
	say_moved(gh, c);
	umbrella_result_release(&r);
	github_close(gh);
	buf_release(&text);
	return rc;
}

/* a result name goes into an HTML comment: keep it to one safe word */
static int valid_name(const char *s)
{
	if (!*s || strlen(s) > 100)
		return 0;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || strchr("-_./:#", *s)))
			return 0;
	return 1;
}

static int umbrella_sync_verb(int argc, const char **argv, struct ctx *ctx)
{
	int dry_run = 0, rc;
	struct campaign c;
	const struct option opts[] = {
		OPT_BOOL(0, "dry-run", &dry_run,
			 "print the section instead of sending it"),
		OPT_END(),
	};
	int n = parse_options(argc, argv, opts, sync_usage);

	if (n < 0)
		return parse_options_status(n);
	if (n)
		return usage_error(sync_usage, opts, "sync takes no arguments");
	if (campaign_load(&c, ctx) < 0)
		return cmd_fail(ctx);
	rc = umbrella_sync_cmd(ctx, &c, dry_run);
	campaign_release(&c);
	return rc;
}

static int umbrella_post_verb(int argc, const char **argv, struct ctx *ctx)
{
	const char *msg = NULL, *file = NULL;
	struct campaign c;
	const struct option opts[] = {
		OPT_STRING('m', "message", &msg, "TEXT", "the comment's text"),
		OPT_STRING('F', "file", &file, "FILE",
			   "read the comment's text from FILE (- for stdin)"),
		OPT_END(),
	};
	int n = parse_options(argc, argv, opts, post_usage), rc;

	if (n < 0)
		return parse_options_status(n);
	if (n != 1 || (msg && file))
		return usage_error(post_usage, opts,
				   "post takes one RESULT and -m or -F");
	if (!valid_name(argv[0]))
		return usage_error(post_usage, opts,
				   "'%s' is not a result name "
				   "(letters, digits, -_./:#)",
				   argv[0]);
	if (campaign_load(&c, ctx) < 0)
		return cmd_fail(ctx);
	rc = post(ctx, &c, argv[0], msg, file);
	campaign_release(&c);
	return rc;
}

int cmd_umbrella(int argc, const char **argv, struct ctx *ctx)
{
	static const struct subcommand subs[] = {
		{"sync", umbrella_sync_verb, sync_usage, 0},
		{"post", umbrella_post_verb, post_usage, 0},
		{NULL},
	};

	return cmd_subcommand(argc, argv, ctx, subs, NULL, NULL);
}
