/* Spawning programs with posix_spawnp: feeding their stdin, capturing their
 * output, and giving them an environment of their own. */
/* posix_spawn_file_actions_addchdir_np and wait4 are GNU/BSD */
#define _GNU_SOURCE

#include "io/proc.h"
#include "util/clock.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "util/xalloc.h"

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

/* 1 when entry ("NAME=VALUE") names the variable that change ("NAME" or
 * "NAME=...") names */
static int same_name(const char *entry, const char *change)
{
	size_t n = strcspn(change, "=");

	return !strncmp(entry, change, n) && entry[n] == '=';
}

const char *const proc_token_vars[] = {"GH_TOKEN", "GITHUB_TOKEN",
				       "GH_ENTERPRISE_TOKEN",
				       "GITHUB_ENTERPRISE_TOKEN", NULL};

/* 1 when entry ("NAME=VALUE") is one of proc_token_vars */
static int is_token_var(const char *entry)
{
	size_t i;

	for (i = 0; proc_token_vars[i]; i++)
		if (same_name(entry, proc_token_vars[i]))
			return 1;
	return 0;
}

/* Our environment with the changes applied (changes may be NULL), and
 * with no_tokens the token variables taken out, for the child only: the
 * strings stay borrowed from environ and changes; free only the array. */
static const char **child_env(const char *const *changes, int no_tokens)
{
	static const char *const none[] = {NULL};
	size_t n = 0, m = 0, i, j;
	const char **v;

	if (!changes)
		changes = none;
	while (environ[n])
		n++;
	while (changes[m])
		m++;
	v = xcalloc(n + m + 1, sizeof(*v));
	for (n = 0, i = 0; environ[i]; i++) {
		for (j = 0; changes[j]; j++)
			if (same_name(environ[i], changes[j]))
				break;
		if (!changes[j] && !(no_tokens && is_token_var(environ[i])))
			v[n++] = environ[i];
	}
	for (j = 0; changes[j]; j++)
		if (strchr(changes[j], '=') &&
		    !(no_tokens && is_token_var(changes[j])))
			v[n++] = changes[j];
	return v;
}

/* pipes[0..2]: the child's ends of its stdin, stdout and stderr; -1 where
 * it keeps ours (stdin: unless stdin_null) */
static int spawn(pid_t *pid, const char *const *argv, const struct proc_opts *o,
		 const int pipes[3], struct error *err)
{
	posix_spawn_file_actions_t fa;
	const char **envp =
		o->env || o->no_tokens ? child_env(o->env, o->no_tokens) : NULL;
	int rc, fd;

	posix_spawn_file_actions_init(&fa);
	if (pipes[0] < 0 && o->stdin_null && !o->inherit_stdio)
		posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null",
						 O_RDONLY, 0);
	for (fd = 0; fd < 3; fd++)
		if (pipes[fd] >= 0)
			posix_spawn_file_actions_adddup2(&fa, pipes[fd], fd);
	if (o->dir)
		posix_spawn_file_actions_addchdir_np(&fa, o->dir);
	rc = posix_spawnp(pid, argv[0], &fa, NULL, (char *const *)argv,
			  envp ? (char *const *)envp : environ);
	posix_spawn_file_actions_destroy(&fa);
	free(envp);
	if (rc)
		return error_set(err, GCAMP_EFATAL, "cannot run '%s': %s",
				 argv[0], strerror(rc));
	return 0;
}

/*
 * Writes what the child's stdin pipe takes now of in (without blocking),
 * and closes *fd once all of it is written or the child closed its end.
 * A write to a closed pipe raises SIGPIPE, which would kill us: SIGPIPE is
 * blocked in this thread around the write, and one that the write left
 * pending is taken with sigtimedwait, so that neither the disposition nor
 * the set of pending signals is changed. A SIGPIPE that was pending before
 * is left as it was.
 */
static void feed(int *fd, const struct proc_opts *o, size_t *done)
{
	static const struct timespec now = {0, 0};
	sigset_t pipe_set, old, pending;
	int was_pending, write_errno;
	ssize_t n;

	sigemptyset(&pipe_set);
	sigaddset(&pipe_set, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &pipe_set, &old);
	sigpending(&pending);
	was_pending = sigismember(&pending, SIGPIPE);
	n = write(*fd, o->in + *done, o->in_len - *done);
	write_errno = errno;
	/* none is pending when SIGPIPE is ignored: EAGAIN then */
	if (n < 0 && write_errno == EPIPE && !was_pending)
		while (sigtimedwait(&pipe_set, NULL, &now) < 0 &&
		       errno == EINTR)
			;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (n > 0)
		*done += (size_t)n;
	else if (n < 0 && (write_errno == EINTR || write_errno == EAGAIN))
		return;
	if (n < 0 || *done == o->in_len)
		close_fd(fd);
}

/* Feeds stdin and reads both streams until they close or the time runs
 * out; fds: our ends of the child's stdin, stdout and stderr. */
static int pump(struct proc_result *out, pid_t pid, int fds[3],
		const struct proc_opts *o, const char *prog, double deadline,
		struct error *err)
{
	size_t cap = o->cap ? o->cap : PROC_DEFAULT_CAP, fed = 0;

	if (fds[0] >= 0 && !o->in_len)
		close_fd(&fds[0]);
	while (fds[0] >= 0 || fds[1] >= 0 || fds[2] >= 0) {
		struct pollfd p[3] = {{fds[0], POLLOUT, 0},
				      {fds[1], POLLIN, 0},
				      {fds[2], POLLIN, 0}};
		int wait_ms = -1;

		if (o->timeout_ms > 0) {
			double left = deadline - clock_now_s();

			if (left <= 0) {
				kill(pid, SIGKILL);
				out->timed_out = 1;
				/* a grandchild may hold the pipes open */
				return 0;
			}
			wait_ms = (int)(left * 1e3) + 1;
		}
		if (poll(p, 3, wait_ms) < 0) {
			if (errno == EINTR)
				continue;
			kill(pid, SIGKILL);
			return error_set(err, GCAMP_EFATAL,
					 "cannot read from '%s': %s", prog,
					 strerror(errno));
		}
		if (p[0].revents)
			feed(&fds[0], o, &fed);
		if (p[1].revents)
			drain(&fds[1], &out->out, cap, &out->out_truncated, 0);
		if (p[2].revents)
			drain(&fds[2], &out->err, cap, &out->err_truncated,
			      o->tee_stderr);
	}
	return 0;
}

int proc_run(struct proc_result *out, const char *const *argv,
	     const struct proc_opts *opts, struct error *err)
{
	static const struct proc_opts defaults;
	const struct proc_opts *o = opts ? opts : &defaults;
	size_t cap = o->cap ? o->cap : PROC_DEFAULT_CAP;
	/* [stream][end]: stdin, stdout, stderr; read end, write end */
	int p[3][2] = {{-1, -1}, {-1, -1}, {-1, -1}}, child[3], ours[3];
	double start = clock_now_s(),
	       deadline = start + (double)o->timeout_ms / 1e3;
	pid_t pid = -1;
	int rc = 0, wstatus = 0, i;

	proc_result_release(out);
	for (i = 0; i < 3 && !o->inherit_stdio; i++)
		if ((i || o->in) && make_pipe(p[i]) < 0) {
			rc = error_set(err, GCAMP_EFATAL,
				       "cannot run '%s': pipe: %s", argv[0],
				       strerror(errno));
			goto out;
		}
	child[0] = p[0][0];
	child[1] = p[1][1];
	child[2] = p[2][1];
	if ((rc = spawn(&pid, argv, o, child, err)) < 0)
		goto out;
	close_fd(&p[0][0]);
	close_fd(&p[1][1]);
	close_fd(&p[2][1]);
	if (p[0][1] >= 0)
		fcntl(p[0][1], F_SETFL, O_NONBLOCK);
	ours[0] = p[0][1];
	ours[1] = p[1][0];
	ours[2] = p[2][0];
	rc = pump(out, pid, ours, o, argv[0], deadline, err);
	p[0][1] = ours[0];
	p[1][0] = ours[1];
	p[2][0] = ours[2];
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
	for (i = 0; i < 3; i++) {
		close_fd(&p[i][0]);
		close_fd(&p[i][1]);
	}
	return rc;
}

int proc_git(struct proc_result *out, const char *const *args,
	     const struct proc_opts *opts, struct error *err)
{
	static const struct proc_opts defaults = {.stdin_null = 1};
	const char **argv;
	size_t n = 0;
	int rc;

	while (args[n])
		n++;
	argv = xcalloc(n + 2, sizeof(*argv));
	argv[0] = "git";
	memcpy(argv + 1, args, n * sizeof(*args));
	rc = proc_run(out, argv, opts ? opts : &defaults, err);
	free(argv);
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

/* The parent of pid from /proc/PID/stat ("pid (comm) state ppid ..."); the
 * comm may hold spaces and parentheses, so read after the last ')'. */
static long parent_of(long pid)
{
	char path[64], buf[512], *p;
	long ppid = 0;
	FILE *fp;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	if (!(fp = fopen(path, "r")))
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, fp);
	fclose(fp);
	buf[n] = '\0';
	if ((p = strrchr(buf, ')')) && sscanf(p + 1, " %*c %ld", &ppid) != 1)
		ppid = 0;
	return ppid;
}

/* Appends git's subcommand and its arguments from a NUL-separated
 * command line to out; 0, or -1 when its program is not git. */
static int git_command(struct strvec *out, const char *cmd, size_t len)
{
	const char *end = cmd + len, *base = strrchr(cmd, '/');
	const char *a;

	if (strcmp(base ? base + 1 : cmd, "git"))
		return -1;
	for (a = cmd + strlen(cmd) + 1; a < end; a += strlen(a) + 1) {
		if (a[0] != '-')
			break;
		/* the global options that take the next word */
		if (!strcmp(a, "-c") || !strcmp(a, "-C") ||
		    !strcmp(a, "--git-dir") || !strcmp(a, "--work-tree") ||
		    !strcmp(a, "--namespace") || !strcmp(a, "--config-env"))
			if ((a += strlen(a) + 1) >= end)
				break;
	}
	for (; a < end; a += strlen(a) + 1)
		strvec_push(out, a);
	return 0;
}

void proc_git_ancestor(struct strvec *out)
{
	char path[64], cmd[8192];
	long pid = (long)getppid();
	size_t got;
	FILE *fp;
	int depth;

	for (depth = 0; depth < 6 && pid > 1; depth++, pid = parent_of(pid)) {
		snprintf(path, sizeof(path), "/proc/%ld/cmdline", pid);
		if (!(fp = fopen(path, "r")))
			return;
		got = fread(cmd, 1, sizeof(cmd) - 1, fp);
		fclose(fp);
		cmd[got] = '\0';
		if (git_command(out, cmd, got) == 0)
			return;
	}
}

static pid_t pager_pid;
static int pager_has_stderr;

int proc_pager_start(const char *pager, struct error *err)
{
	static const char *const changes[] = {"LESS=FRX", "LV=-c", NULL};
	const char *argv[] = {"sh", "-c", pager, NULL};
	const char *add[3] = {NULL, NULL, NULL};
	struct proc_opts o = {0};
	int fds[2], pipes[3] = {-1, -1, -1}, rc, n = 0, both;
	size_t i;

	for (i = 0; changes[i]; i++) {
		char name[8];

		snprintf(name, sizeof(name), "%.*s",
			 (int)(strchr(changes[i], '=') - changes[i]),
			 changes[i]);
		if (!getenv(name))
			add[n++] = changes[i];
	}
	o.env = add;
	o.inherit_stdio = 1;
	if (pipe(fds) < 0)
		return error_set(err, GCAMP_EFATAL,
				 "cannot start the pager: %s", strerror(errno));
	fcntl(fds[1], F_SETFD, FD_CLOEXEC);
	pipes[0] = fds[0];
	if ((rc = spawn(&pager_pid, argv, &o, pipes, err)) < 0) {
		close(fds[0]);
		close(fds[1]);
		pager_pid = 0;
		return rc;
	}
	close(fds[0]);
	fflush(stdout);
	fflush(stderr);
	both = isatty(STDERR_FILENO) && isatty(STDOUT_FILENO);
	dup2(fds[1], STDOUT_FILENO);
	if (both)
		dup2(fds[1], STDERR_FILENO);
	pager_has_stderr = both;
	close(fds[1]);
	return 0;
}

void proc_pager_finish(void)
{
	int status;

	if (!pager_pid)
		return;
	fflush(stdout);
	fflush(stderr);
	/* the pager sees the end of its input once every copy is closed */
	close(STDOUT_FILENO);
	if (pager_has_stderr)
		close(STDERR_FILENO);
	while (waitpid(pager_pid, &status, 0) < 0 && errno == EINTR)
		;
	pager_pid = 0;
}

int proc_alive(long long pid)
{
	char path[64], stat[512], *paren;
	FILE *f;
	size_t n;

	if (pid <= 0 || pid == (long long)getpid())
		return 0;
	if (kill((pid_t)pid, 0) < 0 && errno != EPERM)
		return 0;
	/* "PID (COMM) STATE ...": COMM may hold spaces and parentheses */
	snprintf(path, sizeof(path), "/proc/%lld/stat", pid);
	if (!(f = fopen(path, "r")))
		return 1;
	n = fread(stat, 1, sizeof(stat) - 1, f);
	fclose(f);
	stat[n] = '\0';
	paren = strrchr(stat, ')');
	return !(paren && paren[1] == ' ' &&
		 (paren[2] == 'Z' || paren[2] == 'X'));
}
