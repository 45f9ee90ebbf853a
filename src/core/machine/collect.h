/* Probing this machine for its fingerprint, with the expensive probes
 * (`java -version`, cuInit) cached in the database's meta table under a
 * stamp of what would change their answer. */
#ifndef GCAMP_MACHINE_COLLECT_H
#define GCAMP_MACHINE_COLLECT_H

#include "core/base/ctx.h"
#include "core/machine/fingerprint.h"

struct fingerprint_opts {
	const char *backend; /* NULL: campaign.backend, or none */
	int refresh;	     /* ignore the cached probes */
};

/*
 * Probes this machine. In a repository the expensive probes (`java
 * -version`, cuInit) come from the database's cache while what would
 * change them is unchanged (the java binary's path, mtime and size; the
 * NVIDIA driver's version file, the libcuda loaded, its mtime and size,
 * CUDA_VISIBLE_DEVICES), unless o->refresh; outside one nothing is cached.
 * A missing GPU, driver or JDK is not an error (gpu_error says why); errors
 * are a bad backend (GCAMP_EUSAGE) or an unusable database.
 */
int fingerprint_collect(struct fingerprint *out, struct ctx *ctx,
			const struct fingerprint_opts *o);

/*
 * Collects (with the caches), stores (db + ref) and returns the current
 * machine's env id. backend NULL means campaign.backend, or none. Returns
 * 0 or a negative GCAMP_E code with ctx->err set.
 */
int fingerprint_current_id(char out[FINGERPRINT_ID_LEN + 1], struct ctx *ctx,
			   const char *backend);

#endif
