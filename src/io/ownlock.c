/* The guard of the locks the tool takes (see ownlock.h): an flock on a file
 * of our own holding the pid of the run inside, cleared on the way out. */
#include "io/ownlock.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "util/trace.h"
#include "util/xalloc.h"

struct ownlock {
	int fd;
};

/* a live holder's .lock is gone within milliseconds: wait this long */
#define STALE_WAIT_MS 1000

static int exists(const char *path)
{
	struct stat st;

	return !lstat(path, &st);
}

/* 1 when GUARDED stays for STALE_WAIT_MS */
static int stays(const char *guarded)
{
	struct timespec nap = {0, 50 * 1000 * 1000};
	int i;

	for (i = 0; i < STALE_WAIT_MS / 50; i++) {
		if (!exists(guarded))
			return 0;
		nanosleep(&nap, NULL);
	}
	return exists(guarded);
}

int ownlock_acquire(struct ownlock **out, int *removed, const char *dir,
		    const char *name, const char *const *guarded,
		    struct error *err)
{
	char *path = xasprintf("%s/%s.owner", dir, name), rec[32];
	ssize_t n;
	size_t i;
	int fd, rc;

	*out = NULL;
	if (removed)
		*removed = 0;
	if (mkdir(dir, 0777) < 0 && errno != EEXIST) {
		rc = error_set(err, GCAMP_EFATAL, "cannot make '%s': %s", dir,
			       strerror(errno));
		goto out;
	}
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
	if (fd < 0) {
		rc = error_set(err, GCAMP_EFATAL, "cannot open '%s': %s", path,
			       strerror(errno));
		goto out;
	}
	while ((rc = flock(fd, LOCK_EX)) < 0 && errno == EINTR)
		;
	if (rc < 0) {
		rc = error_set(err, GCAMP_EFATAL, "cannot lock '%s': %s", path,
			       strerror(errno));
		close(fd);
		goto out;
	}
	/* we hold the guard, so a pid in it is a run that died inside */
	n = pread(fd, rec, sizeof(rec) - 1, 0);
	for (i = 0; n > 0 && guarded[i]; i++) {
		if (!exists(guarded[i]) || !stays(guarded[i]))
			continue;
		rec[n] = '\0';
		trace_printf("ownlock: '%s' was left by run %.*s, which died; "
			     "removing it",
			     guarded[i], (int)strcspn(rec, "\n"), rec);
		if (unlink(guarded[i]) == 0 && removed)
			*removed = 1;
	}
	n = snprintf(rec, sizeof(rec), "%ld\n", (long)getpid());
	/* without the record (a full disk) the guard still serialises us;
	 * a .lock this run leaves is then named, not removed, next time */
	if (ftruncate(fd, 0) < 0 || pwrite(fd, rec, (size_t)n, 0) != n)
		trace_printf("ownlock: cannot write '%s': %s", path,
			     strerror(errno));
	*out = xmalloc(sizeof(**out));
	(*out)->fd = fd;
	rc = 0;
out:
	free(path);
	return rc;
}

int ownlock_clear_stale(const char *const *guarded)
{
	int i, n = 0;

	for (i = 0; guarded[i]; i++) {
		if (!exists(guarded[i]) || !stays(guarded[i]))
			continue;
		trace_printf("ownlock: '%s' was left by a killed child; "
			     "removing it",
			     guarded[i]);
		n += unlink(guarded[i]) == 0;
	}
	return n;
}

void ownlock_release(struct ownlock *l)
{
	if (!l)
		return;
	if (ftruncate(l->fd, 0) < 0)
		trace_printf("ownlock: cannot clear the record: %s",
			     strerror(errno));
	close(l->fd); /* drops the flock */
	free(l);
}
