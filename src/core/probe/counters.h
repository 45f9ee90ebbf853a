/* Whether this user may read the GPU's hardware counters (what `ncu`
 * needs), known before a campaign plans a profiler run. */
#ifndef GCAMP_PROFILING_H
#define GCAMP_PROFILING_H

struct profiling_status {
	int have_params;  /* /proc/driver/nvidia/params was read */
	int admin_only;	  /* its RmProfilingAdminOnly; -1 when absent */
	int admin;	  /* euid 0, or CAP_SYS_ADMIN in CapEff */
	int available;	  /* the verdict: counters readable by this user */
	char reason[256]; /* one line saying why */
};

/* RmProfilingAdminOnly's value in the text of /proc/driver/nvidia/params
 * ("RmProfilingAdminOnly: 1"), or -1 when the key is absent. Pure. */
int profiling_parse_params(const char *text);

/* CAP_SYS_ADMIN (bit 21) in the CapEff line of /proc/self/status's text:
 * 1, 0, or -1 when there is no such line; *euid0 is 1 when its Uid line
 * gives effective uid 0. Pure. */
int profiling_parse_status(const char *text, int *euid0);

/* Reads the driver's params (under GIT_CAMPAIGN_SYSROOT in tests) and this
 * process's privileges, and decides: counters are available when the
 * driver does not restrict them to administrators or when this user is
 * one. No driver: not available, reason "no NVIDIA driver". Never fails. */
void profiling_check(struct profiling_status *out);

#endif
