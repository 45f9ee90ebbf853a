/* Finding a GitHub token: environment variables, then `gh auth token`, then
 * `git credential fill` without prompts. The token travels only through
 * pipes and memory: never argv, never a trace, never an error message. */
#include "io/github/token.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "io/proc.h"
#include "util/buf.h"
#include "util/trace.h"
#include "util/xalloc.h"

int github_host_is_enterprise(const char *host)
{
	size_t n = strlen(host);

	if (!strcasecmp(host, "github.com") ||
	    !strcasecmp(host, "github.localhost"))
		return 0;
	if (n > 11 && !strcasecmp(host + n - 11, ".github.com"))
		return 0;
	if (n > 8 && !strcasecmp(host + n - 8, ".ghe.com"))
		return 0;
	return 1;
}

static void wipe(struct buf *b)
{
	if (b->cap)
		memset(b->ptr, 0, b->len);
	buf_release(b);
}

/* What a helper may not do while we wait for it: ask a person. */
static const char *const no_prompts[] = {"GIT_TERMINAL_PROMPT=0",
					 "GCM_INTERACTIVE=Never",
					 "GCM_MODAL_PROMPT=false",
					 "GH_PROMPT_DISABLED=1",
					 "GIT_ASKPASS",
					 "SSH_ASKPASS",
					 NULL};

/*
 * Runs argv with in as its stdin, its stderr discarded and its stdout (at
 * most 64 KiB) into out, without prompts; gives up after 10 s (killing it)
 * so that a helper waiting for someone can never hang us. Returns the exit
 * status, or -1.
 */
static int run_capture(struct buf *out, const char *const *argv, const char *in)
{
	struct proc_opts po = {.cap = 65536,
			       .timeout_ms = 10000,
			       .env = no_prompts,
			       .in = in,
			       .in_len = strlen(in)};
	struct proc_result r = PROC_RESULT_INIT;
	struct error ignored = ERROR_INIT;
	int status = -1;

	if (proc_run(&r, argv, &po, &ignored) == 0 && !r.signaled) {
		buf_add(out, r.out.ptr, r.out.len);
		status = r.status;
	}
	wipe(&r.out);
	wipe(&r.err);
	proc_result_release(&r);
	return status;
}

static char *from_gh(const char *host)
{
	const char *argv[] = {"gh", "auth", "token", "--hostname", host, NULL};
	struct buf b = BUF_INIT;
	char *tok = NULL;

	if (run_capture(&b, argv, "") == 0) {
		const char *t;

		buf_rtrim(&b);
		/* a wrapper script may pad it: a token has no blank */
		for (t = b.ptr; t && (*t == ' ' || *t == '\t'); t++)
			;
		if (t && *t && !strchr(t, '\n'))
			tok = xstrdup(t);
	}
	wipe(&b);
	return tok;
}

static char *from_credential(const char *host)
{
	/* an empty askPass so that git cannot ask a person either */
	const char *argv[] = {
		"git", "-c", "core.askPass=", "credential", "fill", NULL};
	struct buf b = BUF_INIT;
	char *in = xasprintf("protocol=https\nhost=%s\n\n", host), *line, *tok;

	tok = NULL;
	if (run_capture(&b, argv, in) == 0) {
		for (line = b.ptr; line && *line;) {
			char *nl = strchr(line, '\n');

			if (nl)
				*nl = '\0';
			if (!strncmp(line, "password=", 9) && line[9])
				tok = xstrdup(line + 9);
			line = nl ? nl + 1 : NULL;
		}
	}
	wipe(&b);
	free(in);
	return tok;
}

int github_token(char **out, const char *host, struct error *err)
{
	const char *ent[] = {"GH_ENTERPRISE_TOKEN", "GITHUB_ENTERPRISE_TOKEN",
			     NULL};
	const char *com[] = {"GH_TOKEN", "GITHUB_TOKEN", NULL};
	const char *const *vars = github_host_is_enterprise(host) ? ent : com;
	int i, has_gh;

	*out = NULL;
	for (i = 0; vars[i]; i++) {
		const char *v = getenv(vars[i]);

		if (v && *v) {
			trace_printf("token: from %s", vars[i]);
			*out = xstrdup(v);
			return 0;
		}
	}
	has_gh = proc_on_path("gh");
	if (has_gh && (*out = from_gh(host))) {
		trace_printf("token: from gh auth token");
		return 0;
	}
	if ((*out = from_credential(host))) {
		trace_printf("token: from git credential fill");
		return 0;
	}
	error_set(err, GCAMP_ENOTFOUND,
		  "no GitHub token for '%s': tried %s, %s, %s and git "
		  "credential fill",
		  host, vars[0], vars[1],
		  has_gh ? "gh auth token" : "gh (not on PATH)");
	if (vars == ent && !strchr(host, '.'))
		error_hint(err,
			   "set GH_ENTERPRISE_TOKEN (GH_TOKEN is for "
			   "github.com), or run 'gh auth login --hostname %s'; "
			   "if '%s' is an SSH alias of github.com, run 'git "
			   "campaign config forgeHost github.com'",
			   host, host);
	else if (vars == ent)
		error_hint(err,
			   "set GH_ENTERPRISE_TOKEN (GH_TOKEN is for "
			   "github.com), or run 'gh auth login --hostname %s'",
			   host);
	else
		error_hint(err, "set GH_TOKEN, or run 'gh auth login'");
	return GCAMP_ENOTFOUND;
}
