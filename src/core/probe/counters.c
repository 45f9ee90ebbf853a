/* The hardware-counter permission check: the NVIDIA driver's
 * RmProfilingAdminOnly parameter against this user's privileges. */
#define _POSIX_C_SOURCE 200809L
#include "core/probe/counters.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io/hostinfo.h"
#include "util/buf.h"

/* The text after "key:" on the line that starts with key, or NULL. */
static const char *value_of(const char *text, const char *key)
{
	size_t len = strlen(key);
	const char *p = text;

	while (p && *p) {
		if (!strncmp(p, key, len) && p[len] == ':')
			return p + len + 1;
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return NULL;
}

int profiling_parse_params(const char *text)
{
	const char *v = value_of(text, "RmProfilingAdminOnly");
	char *end;
	long n;

	if (!v)
		return -1;
	n = strtol(v, &end, 10);
	return end == v ? -1 : n != 0;
}

int profiling_parse_status(const char *text, int *euid0)
{
	const char *v = value_of(text, "CapEff");
	const char *u = value_of(text, "Uid");
	char *end;

	*euid0 = 0;
	if (u) {
		strtoul(u, &end, 10); /* the real uid, then the effective */
		*euid0 = strtoul(end, NULL, 10) == 0 && end != u;
	}
	if (!v)
		return -1;
	return (int)((strtoull(v, NULL, 16) >> 21) & 1);
}

void profiling_check(struct profiling_status *out)
{
	struct buf b = BUF_INIT;
	char *path = host_path("/proc/driver/nvidia/params");
	int cap = -1, euid0 = 0;

	memset(out, 0, sizeof(*out));
	out->admin_only = -1;
	if (host_read_file(&b, path, 1 << 16) == 0) {
		out->have_params = 1;
		out->admin_only = profiling_parse_params(b.ptr);
	}
	free(path);
	buf_reset(&b);
	path = host_path("/proc/self/status");
	if (host_read_file(&b, path, 1 << 16) == 0)
		cap = profiling_parse_status(b.ptr, &euid0);
	free(path);
	buf_release(&b);
	/* the status file says both (GIT_CAMPAIGN_SYSROOT gives tests one) */
	out->admin = cap < 0 ? geteuid() == 0 : euid0 || cap == 1;
	if (!out->have_params) {
		snprintf(out->reason, sizeof(out->reason),
			 "no NVIDIA driver (/proc/driver/nvidia/params "
			 "cannot be read)");
	} else if (out->admin_only == 0) {
		out->available = 1;
		snprintf(out->reason, sizeof(out->reason),
			 "RmProfilingAdminOnly is 0: every user may profile");
	} else if (out->admin) {
		out->available = 1;
		snprintf(out->reason, sizeof(out->reason),
			 "RmProfilingAdminOnly is %s, and this user is an "
			 "administrator (%s)",
			 out->admin_only == 1 ? "1" : "absent",
			 euid0 || cap < 0 ? "root" : "CAP_SYS_ADMIN");
	} else {
		snprintf(out->reason, sizeof(out->reason),
			 "RmProfilingAdminOnly is %s: only administrators may "
			 "profile, and ncu would fail with ERR_NVGPUCTRPERM",
			 out->admin_only == 1 ? "1" : "absent");
	}
}
