/* Finding a GitHub token: environment variables, then `gh auth token`, then
 * `git credential fill` without prompts. The token travels only through
 * pipes and memory: never argv, never a trace, never an error message. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "io/github/github.h"
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

/* 1 when an executable named name is on PATH */
static int on_path(const char *name)
{
	const char *path = getenv("PATH");
	char *dup, *dir, *save = NULL, *p;
	int found = 0;

	if (!path)
		return 0;
	dup = xstrdup(path);
	for (dir = strtok_r(dup, ":", &save); dir && !found;
	     dir = strtok_r(NULL, ":", &save)) {
		p = xasprintf("%s/%s", *dir ? dir : ".", name);
		found = access(p, X_OK) == 0;
		free(p);
	}
	free(dup);
	return found;
}

/*
 * Runs argv with stdin fed from in (then closed), stderr to /dev/null, and
 * its stdout (at most 64 KiB) into out; gives up after 10 s (killing it) so
 * that a helper waiting for someone can never hang us. Returns the exit
 * status, or -1.
 */
static int run_capture(struct buf *out, const char *const *argv, const char *in)
{
	int inp[2] = {-1, -1}, outp[2] = {-1, -1}, status = -1, devnull;
	pid_t pid;
	time_t start = time(NULL);

	if (pipe(inp) < 0 || pipe(outp) < 0)
		goto fail;
	pid = fork();
	if (pid < 0)
		goto fail;
	if (pid == 0) {
		devnull = open("/dev/null", O_WRONLY);
		dup2(inp[0], 0);
		dup2(outp[1], 1);
		if (devnull >= 0)
			dup2(devnull, 2);
		close(inp[0]);
		close(inp[1]);
		close(outp[0]);
		close(outp[1]);
		setenv("GIT_TERMINAL_PROMPT", "0", 1);
		setenv("GCM_INTERACTIVE", "Never", 1);
		setenv("GCM_MODAL_PROMPT", "false", 1);
		setenv("GH_PROMPT_DISABLED", "1", 1);
		unsetenv("GIT_ASKPASS");
		unsetenv("SSH_ASKPASS");
		execvp(argv[0], (char *const *)argv);
		_exit(127);
	}
	close(inp[0]);
	close(outp[1]);
	inp[0] = outp[1] = -1;
	signal(SIGPIPE, SIG_IGN);
	if (in && write(inp[1], in, strlen(in)) < 0)
		trace_printf("token: cannot write to '%s'\n", argv[0]);
	close(inp[1]);
	inp[1] = -1;
	for (;;) {
		struct pollfd pfd = {outp[0], POLLIN, 0};
		char chunk[4096];
		ssize_t n;

		if (time(NULL) - start > 10) {
			kill(pid, SIGKILL);
			break;
		}
		if (poll(&pfd, 1, 500) <= 0)
			continue;
		n = read(outp[0], chunk, sizeof(chunk));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		if (out->len < 65536)
			buf_add(out, chunk, (size_t)n);
	}
	close(outp[0]);
	outp[0] = -1;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
fail:
	if (inp[0] >= 0)
		close(inp[0]);
	if (inp[1] >= 0)
		close(inp[1]);
	if (outp[0] >= 0)
		close(outp[0]);
	if (outp[1] >= 0)
		close(outp[1]);
	return -1;
}

static void wipe(struct buf *b)
{
	if (b->cap)
		memset(b->ptr, 0, b->len);
	buf_release(b);
}

static char *from_gh(const char *host)
{
	const char *argv[] = {"gh", "auth", "token", "--hostname", host, NULL};
	struct buf b = BUF_INIT;
	char *tok = NULL;

	if (run_capture(&b, argv, "") == 0) {
		buf_rtrim(&b);
		if (b.len && !strchr(b.ptr, '\n'))
			tok = xstrdup(b.ptr);
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
			trace_printf("token: from %s\n", vars[i]);
			*out = xstrdup(v);
			return 0;
		}
	}
	has_gh = on_path("gh");
	if (has_gh && (*out = from_gh(host))) {
		trace_printf("token: from gh auth token\n");
		return 0;
	}
	if ((*out = from_credential(host))) {
		trace_printf("token: from git credential fill\n");
		return 0;
	}
	error_set(err, GCAMP_ENOTFOUND,
		  "no GitHub token for '%s': tried %s, %s, %s and git "
		  "credential fill",
		  host, vars[0], vars[1],
		  has_gh ? "gh auth token" : "gh (not on PATH)");
	error_hint(err, "set GH_TOKEN, or run 'gh auth login'");
	return GCAMP_ENOTFOUND;
}
