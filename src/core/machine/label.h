/* The label for people of a machine (an environment id): the one line that
 * names it in A/B tables, resume, PR bodies and test baselines. */
#ifndef GCAMP_MACHINE_LABEL_H
#define GCAMP_MACHINE_LABEL_H

#include <cjson/cJSON.h>

#include "core/base/ctx.h"
#include "util/buf.h"

/*
 * Appends the label of environment id from fp, its fingerprint JSON (as
 * fingerprint_to_json): the CPU model, the OS, the GPU models with the
 * driver (or "no GPU"), the JDK vendor and version, and the backend: "AMD
 * EPYC 7B13, Debian GNU/Linux 12, GPU NVIDIA H200, driver 580.159.04, JDK
 * Eclipse Adoptium 21.0.5, backend cuda". Identity keys only, as the id
 * hashes them: one env has one label on every machine (where the info
 * keys, a GPU probe's error with its local path among them, differ).
 * fp NULL (not known here): "env ID".
 */
void machine_label(struct buf *out, const cJSON *fp, const char *id);

/* machine_label of environment id from its stored fingerprint
 * (fingerprint_load_jsons). Never fails: ctx->err is left clear. */
void machine_label_of_env(struct buf *out, struct ctx *ctx, const char *id);

#endif
