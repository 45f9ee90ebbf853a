/* git campaign doctor: the installation checked, read-only: the programs
 * on PATH and their versions, the hooks' program, the man pages, the
 * database's schema, the completion, and what skews measurements (the CPU
 * governor and turbo, GPU clocks and persistence mode). */
#ifndef GCAMP_VIEWS_DOCTOR_H
#define GCAMP_VIEWS_DOCTOR_H

#include "core/base/ctx.h"

enum doctor_state {
	DOCTOR_OK,
	DOCTOR_WARN, /* works, but a user should know */
	DOCTOR_BAD,  /* broken: what the detail says does not work */
	DOCTOR_INFO, /* a fact, neither good nor bad */
};

struct doctor_item {
	char *name;
	enum doctor_state state;
	char *detail;
};

struct doctor_report {
	struct doctor_item *items;
	size_t nr, alloc;
};

/*
 * Runs every check, changing nothing: no database is opened (the schema is
 * read from the file's header, so nothing is migrated), no hook is
 * written, nothing is cached. self is this program's own path. Outside a
 * repository the repository's checks are left out. Release with
 * doctor_report_release().
 */
void doctor_run(struct doctor_report *out, struct ctx *ctx, const char *self);
void doctor_report_release(struct doctor_report *r);
/* "ok", "warning", "broken", "info" */
const char *doctor_state_name(enum doctor_state s);

#endif
