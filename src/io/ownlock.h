/* Locks the tool takes, and the stale ones its dead runs leave: a lock file
 * another program also uses (a ref's .lock) guarded by an flock of our own
 * that records who holds it, so that a lock left by a killed run of ours
 * is recognised and removed, and one held by a live process never is. */
#ifndef GCAMP_OWNLOCK_H
#define GCAMP_OWNLOCK_H

#include "util/error.h"

struct ownlock;

/*
 * Takes the guard DIR/NAME.owner (DIR is made when missing), waiting while
 * another run of ours holds it (flock: the kernel drops it when its holder
 * dies). When the guard records a holder that never released it (a run
 * killed inside) and a file of GUARDED (NULL-terminated: the .lock files
 * it was about to take or held) is still there a second later, that file
 * is the dead run's and is removed; *removed (may be NULL) is then set to
 * 1. A lock without such a record belongs to someone else and is left, so
 * the caller's own attempt fails as it would. Records our pid, then 0 with
 * the guard in *out (ownlock_release frees it), or GCAMP_EFATAL.
 */
int ownlock_acquire(struct ownlock **out, int *removed, const char *dir,
		    const char *name, const char *const *guarded,
		    struct error *err);

/* Removes each file of GUARDED (NULL-terminated) that is still there a
 * second later: what a child of ours that a signal killed inside its
 * update left, called while the guard is held. Returns how many it
 * removed. */
int ownlock_clear_stale(const char *const *guarded);

/* Clears the record and drops the guard; NULL is accepted. */
void ownlock_release(struct ownlock *l);

#endif
