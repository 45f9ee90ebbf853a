/* The machine's facts from /proc, /sys, /etc, uname, glibc, and the JDK's
 * release file or `java` itself. */
#define _XOPEN_SOURCE 700 /* realpath */
#include "io/hostinfo.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <gnu/libc-version.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/proc.h"
#include "util/trace.h"
#include "util/xalloc.h"

char *host_path(const char *path)
{
	const char *root = getenv("GIT_CAMPAIGN_SYSROOT");

	return xasprintf("%s%s", root ? root : "", path);
}

int host_read_file(struct buf *out, const char *path, size_t cap)
{
	char chunk[4096];
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	while (out->len < cap && (n = read(fd, chunk, sizeof(chunk))) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			close(fd);
			return -1;
		}
		if ((size_t)n > cap - out->len)
			n = (ssize_t)(cap - out->len);
		buf_add(out, chunk, (size_t)n);
	}
	close(fd);
	return 0;
}

/* Reads a system file (host_path applied) into out. */
static int read_sys(struct buf *out, const char *path, size_t cap)
{
	char *p = host_path(path);
	int rc = host_read_file(out, p, cap);

	free(p);
	return rc;
}

/* s with surrounding blanks dropped and inner runs of blanks made one
 * space; a new string */
static char *squeeze(const char *s, size_t len)
{
	struct buf b = BUF_INIT;
	size_t i;
	int blank = 0;

	for (i = 0; i < len; i++) {
		if (isspace((unsigned char)s[i])) {
			blank = b.len > 0;
			continue;
		}
		if (blank)
			buf_putc(&b, ' ');
		blank = 0;
		buf_putc(&b, s[i]);
	}
	return buf_detach(&b);
}

/* The value of the first line "KEY<sep>VALUE" (KEY compared without
 * surrounding blanks) in text, squeezed; NULL when none. */
static char *find_value(const char *text, const char *key, char sep)
{
	const char *line = text;
	size_t klen = strlen(key);

	while (line && *line) {
		const char *end = strchr(line, '\n');
		const char *s = line, *colon;

		if (!end)
			end = line + strlen(line);
		while (s < end && isspace((unsigned char)*s))
			s++;
		colon = memchr(s, sep, (size_t)(end - s));
		if (colon && !strncmp(s, key, klen)) {
			const char *k = s + klen;

			while (k < colon && isspace((unsigned char)*k))
				k++;
			if (k == colon) {
				char *v = squeeze(colon + 1,
						  (size_t)(end - colon - 1));

				if (*v)
					return v;
				free(v);
			}
		}
		line = *end ? end + 1 : NULL;
	}
	return NULL;
}

char *host_cpu_model(void)
{
	static const char *const keys[] = {"model name", "Model", "Hardware",
					   "cpu model", "cpu"};
	struct buf b = BUF_INIT;
	char *v = NULL;
	size_t i;

	if (read_sys(&b, "/proc/cpuinfo", 1 << 20) < 0)
		goto out;
	for (i = 0; !v && i < sizeof(keys) / sizeof(*keys); i++)
		v = find_value(b.ptr, keys[i], ':');
out:
	buf_release(&b);
	return v;
}

long host_cpu_count(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n > 0 ? n : 0;
}

/* a shell-style value: "x", 'x' or x */
static char *unquote(char *v)
{
	size_t n = strlen(v);

	if (n >= 2 && (v[0] == '"' || v[0] == '\'') && v[n - 1] == v[0]) {
		memmove(v, v + 1, n - 2);
		v[n - 2] = '\0';
	}
	return v;
}

char *host_os(void)
{
	static const char *const files[] = {"/etc/os-release",
					    "/usr/lib/os-release"};
	struct buf b = BUF_INIT;
	char *v = NULL;
	size_t i;

	for (i = 0; !v && i < sizeof(files) / sizeof(*files); i++) {
		buf_reset(&b);
		if (read_sys(&b, files[i], 65536) == 0 &&
		    (v = find_value(b.ptr, "PRETTY_NAME", '=')))
			unquote(v);
	}
	buf_release(&b);
	return v;
}

char *host_kernel_major(const char *release)
{
	size_t n = strspn(release, "0123456789");

	if (release[n] == '.')
		n += 1 + strspn(release + n + 1, "0123456789");
	return xstrndup(release, n);
}

char *host_libc(void)
{
	return xasprintf("glibc %s", gnu_get_libc_version());
}

void host_nvidia_driver(char **contents, char **version)
{
	struct buf b = BUF_INIT;
	const char *p;

	*contents = NULL;
	*version = NULL;
	if (read_sys(&b, "/proc/driver/nvidia/version", 65536) < 0 || !b.len)
		goto out;
	/* "NVRM version: NVIDIA UNIX ... Kernel Module ...  580.159.04  ...":
	 * the first word after "Module" that is digits and dots */
	p = strstr(b.ptr, "Module");
	for (p = p ? p : b.ptr; *p && *p != '\n'; p++) {
		size_t n = strspn(p, "0123456789.");

		if (n && isdigit((unsigned char)*p) && memchr(p, '.', n) &&
		    (p == b.ptr || isspace((unsigned char)p[-1])) &&
		    (isspace((unsigned char)p[n]) || !p[n])) {
			*version = xstrndup(p, n);
			break;
		}
		if (n)
			p += n - 1;
	}
	*contents = buf_detach(&b);
out:
	buf_release(&b);
}

char *host_pci_device_id(const char *bus_id)
{
	unsigned int dom, bus, dev, fn;
	struct buf b = BUF_INIT;
	char path[96], *v = NULL;

	if (sscanf(bus_id, "%x:%x:%x.%x", &dom, &bus, &dev, &fn) != 4)
		return NULL;
	snprintf(path, sizeof(path),
		 "/sys/bus/pci/devices/%04x:%02x:%02x.%x/device", dom, bus, dev,
		 fn);
	if (read_sys(&b, path, 64) == 0) {
		buf_rtrim(&b);
		if (b.len)
			v = buf_detach(&b);
	}
	buf_release(&b);
	return v;
}

void host_jdk_release(struct host_jdk *j)
{
	if (!j)
		return;
	free(j->vendor);
	free(j->version);
	free(j->runtime);
	free(j->home);
	memset(j, 0, sizeof(*j));
}

int host_jdk_from_release(struct host_jdk *out, const char *home)
{
	struct buf b = BUF_INIT;
	char *path = xasprintf("%s/release", home);
	int rc = -1;

	memset(out, 0, sizeof(*out));
	if (host_read_file(&b, path, 1 << 20) < 0)
		goto out;
	out->version = find_value(b.ptr, "JAVA_VERSION", '=');
	if (!out->version)
		goto out;
	unquote(out->version);
	if ((out->vendor = find_value(b.ptr, "IMPLEMENTOR", '=')))
		unquote(out->vendor);
	if ((out->runtime = find_value(b.ptr, "JAVA_RUNTIME_VERSION", '=')))
		unquote(out->runtime);
	out->home = xstrdup(home);
	rc = 0;
out:
	if (rc < 0)
		host_jdk_release(out);
	buf_release(&b);
	free(path);
	return rc;
}

char *host_java_on_path(void)
{
	const char *path = getenv("PATH");
	char *copy, *dir, *save = NULL, *found = NULL;

	if (!path)
		return NULL;
	copy = xstrdup(path);
	for (dir = strtok_r(copy, ":", &save); dir && !found;
	     dir = strtok_r(NULL, ":", &save)) {
		char *cand = xasprintf("%s/java", *dir ? dir : ".");
		struct stat st;

		if (access(cand, X_OK) == 0 && stat(cand, &st) == 0 &&
		    S_ISREG(st.st_mode)) {
			char real[PATH_MAX];

			found = realpath(cand, real) ? xstrdup(real)
						     : xstrdup(cand);
		}
		free(cand);
	}
	free(copy);
	return found;
}

/* Runs argv with its standard error into out (at most 64 KiB), standard
 * input on /dev/null, killed after timeout_s; its exit status (128 +
 * signal) in *status. */
static int run_stderr(struct buf *out, int *status, const char *const argv[],
		      long timeout_s, struct error *err)
{
	struct proc_opts po = {.stdin_null = 1,
			       .cap = 65536,
			       .timeout_ms = timeout_s * 1000,
			       .no_tokens = 1};
	struct proc_result r = PROC_RESULT_INIT;
	int rc;

	if ((rc = proc_run(&r, argv, &po, err)) < 0)
		goto out;
	if (r.timed_out) {
		rc = error_set(err, GCAMP_EFATAL,
			       "'%s' did not answer within %ld s", argv[0],
			       timeout_s);
		goto out;
	}
	buf_add(out, r.err.ptr, r.err.len);
	*status = r.status;
out:
	proc_result_release(&r);
	return rc;
}

int host_jdk_from_java(struct host_jdk *out, const char *java,
		       struct error *err)
{
	const char *argv[] = {java, "-XshowSettings:properties", "-version",
			      NULL};
	struct buf b = BUF_INIT;
	int status = 0, rc;
	const char *q;

	memset(out, 0, sizeof(*out));
	trace_printf("fingerprint: running %s -version", java);
	if ((rc = run_stderr(&b, &status, argv, 10, err)) < 0)
		goto out;
	if (status) {
		rc = error_set(err, GCAMP_EFATAL, "'%s -version' failed", java);
		goto out;
	}
	out->vendor = find_value(b.ptr, "java.vendor", '=');
	out->version = find_value(b.ptr, "java.version", '=');
	out->runtime = find_value(b.ptr, "java.runtime.version", '=');
	if ((!out->version) && (q = strstr(b.ptr, " version \""))) {
		q += strlen(" version \"");
		out->version = xstrndup(q, strcspn(q, "\"\n"));
	}
	if (!out->version || !*out->version) {
		rc = error_set(err, GCAMP_EFATAL,
			       "'%s -version' reported no version", java);
		goto out;
	}
	out->home = find_value(b.ptr, "java.home", '=');
out:
	if (rc < 0)
		host_jdk_release(out);
	buf_release(&b);
	return rc;
}
