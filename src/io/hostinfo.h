/* What this machine is, read from the system: CPU, OS, kernel, libc, the
 * NVIDIA driver's files, and the JDK. The fingerprint's raw facts; none of
 * these fail a command: what cannot be read is NULL. */
#ifndef GCAMP_HOSTINFO_H
#define GCAMP_HOSTINFO_H

#include <sys/types.h>

#include "util/buf.h"
#include "util/error.h"

/* GIT_CAMPAIGN_SYSROOT (tests only) prefixed to an absolute system path
 * (/proc/..., /sys/..., /etc/...): the caller frees the result. */
char *host_path(const char *path);

/* Reads at most cap bytes of path (not prefixed) into out; -1 when it
 * cannot be read. */
int host_read_file(struct buf *out, const char *path, size_t cap);

/* /proc/cpuinfo's first "model name" (or "Model", "Hardware", "cpu
 * model"), spaces collapsed; NULL when none. Caller frees. */
char *host_cpu_model(void);
/* Online processors, sysconf(_SC_NPROCESSORS_ONLN); 0 when unknown. */
long host_cpu_count(void);
/* PRETTY_NAME of /etc/os-release (else /usr/lib/os-release), unquoted;
 * NULL when none. Caller frees. */
char *host_os(void);
/* "MAJOR.MINOR" of a kernel release ("6.1" of "6.1.0-28-amd64"). Caller
 * frees. */
char *host_kernel_major(const char *release);
/* "glibc 2.36". Caller frees. */
char *host_libc(void);

/* The NVIDIA kernel module's version file, /proc/driver/nvidia/version:
 * its whole text in *contents and the version ("580.159.04") in *version,
 * both NULL when it cannot be read. Caller frees both. */
void host_nvidia_driver(char **contents, char **version);
/* The PCI device id ("0x2335") of the device at bus_id (nvidia-smi's
 * "00000000:00:06.0" form), from sysfs; NULL when unknown. Caller frees. */
char *host_pci_device_id(const char *bus_id);

struct host_jdk {
	char *vendor;  /* "Debian", "Eclipse Adoptium" */
	char *version; /* "17.0.15" */
	char *runtime; /* "17.0.15+6-Debian-1deb12u1", or NULL */
	char *home;    /* the JDK's folder, or NULL */
};
/* Frees the strings and clears j. Accepts NULL. */
void host_jdk_release(struct host_jdk *j);

/* Parses a JDK's release file (KEY="value" lines): IMPLEMENTOR,
 * JAVA_VERSION, JAVA_RUNTIME_VERSION. -1 when it cannot be read or has no
 * JAVA_VERSION. */
int host_jdk_from_release(struct host_jdk *out, const char *home);
/* The first executable "java" on PATH, resolved through links; NULL when
 * none. Caller frees. */
char *host_java_on_path(void);
/* Runs `JAVA -XshowSettings:properties -version` (no shell, 10 s at most)
 * and reads java.vendor, java.version and java.runtime.version from its
 * standard error (falling back to the `version "X"` line). Errors: it
 * cannot be run, it fails, or reports no version. */
int host_jdk_from_java(struct host_jdk *out, const char *java,
		       struct error *err);

#endif
