/* Spawning programs with posix_spawnp and capturing their output. */
/* posix_spawn_file_actions_addchdir_np and wait4 are GNU/BSD */
#define _GNU_SOURCE

#include "io/proc.h"
#include "util/clock.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

#define PROC_DEFAULT_CAP (4u << 20)

void proc_result_release(struct proc_result *out)
{
	struct proc_result empty = PROC_RESULT_INIT;

	if (!out)
		return;
	buf_release(&out->out);
	buf_release(&out->err);
	*out = empty;
}

void proc_last_line(struct buf *out, const char *text)
{
	const char *end = text + strlen(text), *start, *cr;

	buf_reset(out);
	while (end > text && (end[-1] == '\n' || end[-1] == '\r' ||
			      end[-1] == ' ' || end[-1] == '\t'))
		end--;
	start = end;
	while (start > text && start[-1] != '\n')
		start--;
	/* a progress meter rewrites its line after each '\r' */
	for (cr = end; cr > start; cr--)
		if (cr[-1] == '\r') {
			start = cr;
			break;
		}
	buf_add(out, start, (size_t)(end - start));
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

static int make_pipe(int fds[2])
{
	if (pipe(fds) < 0)
		return -1;
	fcntl(fds[0], F_SETFD, FD_CLOEXEC);
	fcntl(fds[1], F_SETFD, FD_CLOEXEC);
	return 0;
}

/* Keeps the last cap bytes of b; trims only past 2 * cap so that a long
 * stream is not moved for every chunk. */
static void keep_tail(struct buf *b, size_t cap, int *truncated, int final)
{
	if (b->len <= (final ? cap : 2 * cap))
		return;
	memmove(b->ptr, b->ptr + b->len - cap, cap);
	b->len = cap;
	b->ptr[cap] = '\0';
	*truncated = 1;
}

/* Reads what is ready on *fd into b; closes *fd at end of file. */
static void drain(int *fd, struct buf *b, size_t cap, int *truncated, int tee)
{
	char chunk[65536];
	ssize_t n = read(*fd, chunk, sizeof(chunk));

	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return;
	if (n <= 0) {
		close_fd(fd);
		return;
	}
	buf_add(b, chunk, (size_t)n);
	keep_tail(b, cap, truncated, 0);
	/* our stderr gone: the capture still holds it */
	if (tee && write(STDERR_FILENO, chunk, (size_t)n) < 0)
		return;
}

static int spawn(pid_t *pid, const char *const *argv, const struct proc_opts *o,
		 int out_w, int err_w, struct error *err)
{
	posix_spawn_file_actions_t fa;
	int rc;

	posix_spawn_file_actions_init(&fa);
	if (o->stdin_null)
		posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null",
						 O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, out_w, STDOUT_FILENO);
	posix_spawn_file_actions_adddup2(&fa, err_w, STDERR_FILENO);
	if (o->dir)
		posix_spawn_file_actions_addchdir_np(&fa, o->dir);
	rc = posix_spawnp(pid, argv[0], &fa, NULL, (char *const *)argv,
			  o->env ? (char *const *)o->env : environ);
	posix_spawn_file_actions_destroy(&fa);
	if (rc)
		return error_set(err, GCAMP_EFATAL, "cannot run '%s': %s",
				 argv[0], strerror(rc));
	return 0;
}

int proc_run(struct proc_result *out, const char *const *argv,
	     const struct proc_opts *opts, struct error *err)
{
	static const struct proc_opts defaults;
	const struct proc_opts *o = opts ? opts : &defaults;
	size_t cap = o->cap ? o->cap : PROC_DEFAULT_CAP;
	int outp[2] = {-1, -1}, errp[2] = {-1, -1};
	double start = clock_now_s(),
	       deadline = start + (double)o->timeout_ms / 1e3;
	pid_t pid = -1;
	int rc, wstatus = 0;

	proc_result_release(out);
	if (make_pipe(outp) < 0 || make_pipe(errp) < 0) {
		rc = error_set(err, GCAMP_EFATAL, "cannot run '%s': pipe: %s",
			       argv[0], strerror(errno));
		goto out;
	}
	if ((rc = spawn(&pid, argv, o, outp[1], errp[1], err)) < 0)
		goto out;
	close_fd(&outp[1]);
	close_fd(&errp[1]);
	while (outp[0] >= 0 || errp[0] >= 0) {
		struct pollfd p[2] = {{outp[0], POLLIN, 0},
				      {errp[0], POLLIN, 0}};
		int wait_ms = -1;

		if (o->timeout_ms > 0 && !out->timed_out) {
			double left = deadline - clock_now_s();

			if (left <= 0) {
				kill(pid, SIGKILL);
				out->timed_out = 1;
				/* a grandchild may hold the pipes open */
				break;
			}
			wait_ms = (int)(left * 1e3) + 1;
		}
		if (poll(p, 2, wait_ms) < 0) {
			if (errno == EINTR)
				continue;
			rc = error_set(err, GCAMP_EFATAL,
				       "cannot read from '%s': %s", argv[0],
				       strerror(errno));
			kill(pid, SIGKILL);
			break;
		}
		if (p[0].revents)
			drain(&outp[0], &out->out, cap, &out->out_truncated, 0);
		if (p[1].revents)
			drain(&errp[0], &out->err, cap, &out->err_truncated,
			      o->tee_stderr);
	}
	while (wait4(pid, &wstatus, 0, &out->ru) < 0)
		if (errno != EINTR) {
			if (!rc)
				rc = error_set(err, GCAMP_EFATAL,
					       "cannot wait for '%s': %s",
					       argv[0], strerror(errno));
			goto out;
		}
	out->wall_s = clock_now_s() - start;
	keep_tail(&out->out, cap, &out->out_truncated, 1);
	keep_tail(&out->err, cap, &out->err_truncated, 1);
	if (WIFSIGNALED(wstatus)) {
		out->signaled = 1;
		out->status = 128 + WTERMSIG(wstatus);
	} else {
		out->status = WEXITSTATUS(wstatus);
	}
out:
	close_fd(&outp[0]);
	close_fd(&outp[1]);
	close_fd(&errp[0]);
	close_fd(&errp[1]);
	return rc;
}

int proc_on_path(const char *prog)
{
	const char *path = getenv("PATH"), *p, *colon;
	struct buf file = BUF_INIT;
	int found = 0;

	for (p = path ? path : "/usr/bin:/bin"; !found && p; p = colon) {
		colon = strchr(p, ':');
		buf_reset(&file);
		if (colon == p || !*p)
			buf_puts(&file, ".");
		else
			buf_add(&file, p,
				colon ? (size_t)(colon - p) : strlen(p));
		buf_addf(&file, "/%s", prog);
		found = !access(file.ptr, X_OK);
		if (colon)
			colon++;
	}
	buf_release(&file);
	return found;
}
