/* git campaign doctor: the installation checked, read-only. */
#include "core/views/doctor.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/hooks/check.h"
#include "core/hooks/install.h"
#include "io/db.h"
#include "io/gitlite.h"
#include "io/hostinfo.h"
#include "io/proc.h"
#include "util/xalloc.h"

static void add(struct doctor_report *r, const char *name, enum doctor_state s,
		const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static void add(struct doctor_report *r, const char *name, enum doctor_state s,
		const char *fmt, ...)
{
	struct buf b = BUF_INIT;
	va_list ap;

	if (r->nr == r->alloc) {
		r->alloc = r->alloc ? 2 * r->alloc : 16;
		r->items = xrealloc(r->items, r->alloc * sizeof(*r->items));
	}
	va_start(ap, fmt);
	buf_vaddf(&b, fmt, ap);
	va_end(ap);
	r->items[r->nr].name = xstrdup(name);
	r->items[r->nr].state = s;
	r->items[r->nr].detail = buf_detach(&b);
	r->nr++;
}

void doctor_report_release(struct doctor_report *r)
{
	size_t i;

	if (!r)
		return;
	for (i = 0; i < r->nr; i++) {
		free(r->items[i].name);
		free(r->items[i].detail);
	}
	free(r->items);
	memset(r, 0, sizeof(*r));
}

const char *doctor_state_name(enum doctor_state s)
{
	static const char *const names[] = {"ok", "warning", "broken", "info"};

	return names[s];
}

/* The first prog on PATH, for the caller to free; NULL when none. */
static char *on_path(const char *prog)
{
	const char *path = getenv("PATH"), *p, *end;
	char *full;

	for (p = path ? path : ""; *p; p = *end ? end + 1 : end) {
		end = strchr(p, ':');
		if (!end)
			end = p + strlen(p);
		full = xasprintf("%.*s/%s", (int)(end - p), p, prog);
		if (end > p && access(full, X_OK) == 0)
			return full;
		free(full);
	}
	return NULL;
}

/* The first line `prog --version` prints, for the caller to free. */
static char *version_of(const char *prog)
{
	const char *argv[] = {prog, "--version", NULL};
	struct proc_result r = PROC_RESULT_INIT;
	struct proc_opts o = {0};
	struct error err = ERROR_INIT;
	char *v = NULL, *nl;

	o.stdin_null = 1;
	o.timeout_ms = 5000;
	if (proc_run(&r, argv, &o, &err) == 0 && r.status == 0 && r.out.ptr) {
		v = xstrdup(r.out.ptr);
		if ((nl = strchr(v, '\n')))
			*nl = '\0';
	}
	proc_result_release(&r);
	error_clear(&err);
	return v;
}

/* "git-campaign version X" and "git-campaign-hook version X": X */
static const char *version_word(const char *line)
{
	const char *v = line ? strstr(line, " version ") : NULL;

	return v ? v + 9 : "";
}

static void programs(struct doctor_report *r, const char *self)
{
	char *bin = on_path("git-campaign"),
	     *hook = on_path("git-campaign-hook");
	char *vs = version_of(self), *vb = NULL, *vh = NULL;

	if (!bin) {
		add(r, "program", DOCTOR_BAD,
		    "no git-campaign on PATH: 'git campaign' cannot run");
	} else {
		vb = version_of(bin);
		add(r, "program",
		    strcmp(version_word(vb), version_word(vs)) ? DOCTOR_WARN
							       : DOCTOR_OK,
		    "%s, version %s%s%s", bin, version_word(vb),
		    strcmp(version_word(vb), version_word(vs))
			    ? "; this one is "
			    : "",
		    strcmp(version_word(vb), version_word(vs))
			    ? version_word(vs)
			    : "");
	}
	if (!hook) {
		add(r, "hook program", DOCTOR_BAD,
		    "no git-campaign-hook on PATH: the hooks the pre-commit "
		    "framework runs cannot start");
	} else {
		vh = version_of(hook);
		add(r, "hook program",
		    bin && strcmp(version_word(vh), version_word(vb))
			    ? DOCTOR_BAD
			    : DOCTOR_OK,
		    "%s, version %s%s", hook, vh ? version_word(vh) : "unknown",
		    bin && strcmp(version_word(vh), version_word(vb))
			    ? ": not the version of git-campaign on PATH; "
			      "install both again"
			    : "");
	}
	free(bin);
	free(hook);
	free(vs);
	free(vb);
	free(vh);
}

static void hooks(struct doctor_report *r, struct ctx *ctx)
{
	struct hooks_where w;
	char *prog;
	size_t i, ours = 0, broken = 0;

	if (hooks_locate(&w, ctx) < 0) {
		error_clear(&ctx->err);
		return;
	}
	for (i = 0; hooks_names[i]; i++) {
		if (!(prog = hooks_program(&w, hooks_names[i])))
			continue;
		ours++;
		if (prog[0] == '/' && access(prog, X_OK) < 0) {
			broken++;
			add(r, "hooks", DOCTOR_BAD,
			    "%s runs '%s', which is missing: run 'git "
			    "campaign hooks install' again",
			    hooks_names[i], prog);
		}
		free(prog);
	}
	if (!ours)
		add(r, "hooks", DOCTOR_INFO, "none of ours in %s%s", w.dir,
		    w.framework ? " (see 'git campaign hooks status' for the "
				  "pre-commit framework)"
				: "");
	else if (!broken)
		add(r, "hooks", DOCTOR_OK,
		    "%zu of %zu installed in %s, their program there", ours, i,
		    w.dir);
	hooks_where_release(&w);
}

static void manpages(struct doctor_report *r)
{
	const char *argv[] = {"man", "-w", "git-campaign", NULL};
	struct proc_result p = PROC_RESULT_INIT;
	struct proc_opts o = {0};
	struct error err = ERROR_INIT;
	struct buf line = BUF_INIT;

	o.stdin_null = 1;
	o.timeout_ms = 5000;
	if (proc_run(&p, argv, &o, &err) == 0 && p.status == 0)
		proc_last_line(&line, p.out.ptr ? p.out.ptr : "");
	/* a path man can read, not whatever a stub man printed (Ubuntu's
	 * minimized images answer every command with advice, and exit 0) */
	if (line.ptr && line.ptr[0] == '/' && access(line.ptr, R_OK) == 0) {
		add(r, "man pages", DOCTOR_OK, "%s", line.ptr);
	} else {
		add(r, "man pages", DOCTOR_WARN,
		    "man finds no git-campaign page: 'git campaign --help' "
		    "falls back to the usage; add PREFIX/share/man to "
		    "MANPATH");
	}
	buf_release(&line);
	proc_result_release(&p);
	error_clear(&err);
}

/* PRAGMA user_version, big-endian at offset 60 of the file's header:
 * read without sqlite, so that nothing is opened or migrated. */
static void database(struct doctor_report *r, struct ctx *ctx)
{
	unsigned char h[100];
	char *path = NULL;
	FILE *fp;
	long v;

	if (ctx_db_path(&path, ctx) < 0) {
		error_clear(&ctx->err);
		return;
	}
	if (!(fp = fopen(path, "rb"))) {
		add(r, "database", DOCTOR_INFO, "none yet at %s", path);
		free(path);
		return;
	}
	if (fread(h, 1, sizeof(h), fp) != sizeof(h) ||
	    memcmp(h, "SQLite format 3", 16)) {
		add(r, "database", DOCTOR_BAD, "%s is not a sqlite database",
		    path);
	} else {
		v = (long)h[60] << 24 | (long)h[61] << 16 | (long)h[62] << 8 |
		    (long)h[63];
		if (v == db_schema_version())
			add(r, "database", DOCTOR_OK, "%s, schema %ld", path,
			    v);
		else if (v < db_schema_version())
			add(r, "database", DOCTOR_INFO,
			    "%s, schema %ld: the next command upgrades it to "
			    "%d, keeping a copy",
			    path, v, db_schema_version());
		else
			add(r, "database", DOCTOR_BAD,
			    "%s, schema %ld: newer than this build knows "
			    "(%d); upgrade git-campaign",
			    path, v, db_schema_version());
	}
	fclose(fp);
	free(path);
}

static void completion(struct doctor_report *r, const char *self)
{
	const char *dirs = getenv("XDG_DATA_DIRS"), *home = getenv("HOME");
	struct strvec where = STRVEC_INIT;
	char *dir = xstrdup(self), *slash, *p, *save = NULL, *list;
	size_t i;

	if ((slash = strrchr(dir, '/'))) {
		*slash = '\0';
		strvec_pushf(&where, "%s/../share", dir);
	}
	if (home)
		strvec_pushf(&where, "%s/.local/share", home);
	list = xstrdup(dirs && *dirs ? dirs : "/usr/local/share:/usr/share");
	for (p = strtok_r(list, ":", &save); p; p = strtok_r(NULL, ":", &save))
		strvec_push(&where, p);
	for (i = 0; i < where.nr; i++) {
		char *f = xasprintf("%s/bash-completion/completions/"
				    "git-campaign",
				    where.v[i]);
		int found = access(f, R_OK) == 0;

		if (found)
			add(r, "completion", DOCTOR_OK, "bash: %s", f);
		free(f);
		if (found)
			break;
	}
	if (i == where.nr)
		add(r, "completion", DOCTOR_WARN,
		    "no bash completion found where bash-completion looks "
		    "(make install puts it in PREFIX/share)");
	strvec_clear(&where);
	free(list);
	free(dir);
}

static char *read_line(const char *sys)
{
	struct buf b = BUF_INIT;
	char *path = host_path(sys), *nl;

	if (host_read_file(&b, path, 256) < 0) {
		buf_release(&b);
		free(path);
		return NULL;
	}
	free(path);
	if ((nl = strchr(b.ptr ? b.ptr : "", '\n')))
		*nl = '\0';
	return buf_detach(&b);
}

/* What skews measurements, reported as pyperf's `system show` does: the
 * CPU's frequency governor and turbo, the GPUs' clocks and persistence. */
static void machine(struct doctor_report *r)
{
	char *gov = read_line("/sys/devices/system/cpu/cpu0/cpufreq/"
			      "scaling_governor");
	char *no_turbo = read_line("/sys/devices/system/cpu/intel_pstate/"
				   "no_turbo");
	char *boost = read_line("/sys/devices/system/cpu/cpufreq/boost");
	char *drv = read_line("/proc/driver/nvidia/version");

	if (gov)
		add(r, "cpu governor",
		    strcmp(gov, "performance") ? DOCTOR_WARN : DOCTOR_OK,
		    "%s%s", gov,
		    strcmp(gov, "performance")
			    ? ": frequencies vary; 'performance' steadies "
			      "them"
			    : "");
	else
		add(r, "cpu governor", DOCTOR_INFO, "not exposed here");
	if (no_turbo || boost)
		add(r, "cpu turbo",
		    (no_turbo ? !strcmp(no_turbo, "0") : !strcmp(boost, "1"))
			    ? DOCTOR_WARN
			    : DOCTOR_OK,
		    "%s",
		    (no_turbo ? !strcmp(no_turbo, "0") : !strcmp(boost, "1"))
			    ? "on: runs vary with temperature and load"
			    : "off");
	else
		add(r, "cpu turbo", DOCTOR_INFO, "not exposed here");
	if (drv) {
		const char *argv[] = {"nvidia-smi",
				      "--query-gpu=index,name,persistence_mode,"
				      "clocks.sm,clocks.max.sm,clocks.mem",
				      "--format=csv,noheader", NULL};
		struct proc_result p = PROC_RESULT_INIT;
		struct proc_opts o = {0};
		struct error err = ERROR_INIT;

		o.stdin_null = 1;
		o.timeout_ms = 10000;
		if (proc_run(&p, argv, &o, &err) == 0 && p.status == 0 &&
		    p.out.ptr) {
			char *line, *save = NULL;

			for (line = strtok_r(p.out.ptr, "\n", &save); line;
			     line = strtok_r(NULL, "\n", &save))
				add(r, "gpu",
				    strstr(line, "Disabled") ? DOCTOR_WARN
							     : DOCTOR_OK,
				    "%s (index, name, persistence, sm clock, "
				    "max sm clock, memory clock)",
				    line);
		} else {
			add(r, "gpu", DOCTOR_WARN,
			    "an NVIDIA driver, but nvidia-smi cannot report "
			    "the clocks");
		}
		proc_result_release(&p);
		error_clear(&err);
	}
	free(gov);
	free(no_turbo);
	free(boost);
	free(drv);
}

void doctor_run(struct doctor_report *out, struct ctx *ctx, const char *self)
{
	memset(out, 0, sizeof(*out));
	programs(out, self);
	hooks(out, ctx);
	manpages(out);
	database(out, ctx);
	completion(out, self);
	machine(out);
}
