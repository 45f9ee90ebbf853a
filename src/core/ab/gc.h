/* Housekeeping of what A/Bs keep on disk: A's worktrees under
 * $GIT_COMMON_DIR/campaign/worktrees and the artifact builds under
 * $GIT_COMMON_DIR/campaign/builds, each with its KEY.built stamp. */
#ifndef GCAMP_AB_GC_H
#define GCAMP_AB_GC_H

#include <stdint.h>

#include "core/base/ctx.h"
#include "util/strvec.h"

/* Marks the kept worktree or build dir as used now (its stamp's time),
 * so that ab_gc keeps it. */
void ab_kept_touch(const char *dir);

/* The bytes (blocks on disk) the A/B worktrees and builds hold, into
 * *out; 0 when there are none. */
int ab_kept_size(uint64_t *out, struct ctx *ctx);

/* Removes the A/B worktrees (through `git worktree remove`) and builds
 * whose last use (their stamp's time, else the folder's) is days or more
 * ago, each with its stamp; with dry_run, removes nothing. One line per
 * entry goes to out: "pruned A/B worktree KEY (SIZE)", or "would prune
 * ..." with dry_run. */
int ab_gc(struct strvec *out, struct ctx *ctx, long days, int dry_run);

/* The days after which ab_gc prunes an unused worktree or build:
 * campaign.gc.abDays, or days when it is not set; GCAMP_EUSAGE when it is
 * not a number of days. */
int ab_gc_days(long *out, struct ctx *ctx, long days);

/* "9.6 MiB": bytes in binary units, for the lines people read. */
void ab_size_text(char *out, size_t len, uint64_t bytes);

#endif
