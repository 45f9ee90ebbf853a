/* Test-suite results per test class, commit and environment (table
 * test_result): what `tests import` stores and `tests baseline` and
 * `tests diff` read. Counts from different environments are never summed:
 * every query here is for one environment. */
#ifndef GCAMP_TESTRUN_H
#define GCAMP_TESTRUN_H

#include <stddef.h>

#include "core/base/ctx.h"
#include "import/formats.h"
#include "util/strvec.h"

struct testrun_class {
	char *name; /* the fully qualified class */
	long passed, failed, skipped, unsupported;
	char *format; /* the import format: "junit", "tornado-test" */
};

/* An env id (FINGERPRINT_ID_LEN hex digits, core/machine/fingerprint.h,
 * which checks that they agree) and its NUL. */
#define TESTRUN_ENV_SIZE 17

/* One environment's latest import. */
struct testrun_total {
	char env[TESTRUN_ENV_SIZE];
	char commit[41];
	long passed, failed, skipped, unsupported, classes;
	char *at;
};

/* Stores the per-class counts of set (tests.passed, tests.failed and
 * tests.errored as failed, tests.skipped, tests.unsupported, each record's
 * config class=) for commit (40 hex) and env, replacing earlier counts of
 * the same classes there, and the commit's totals in env (table
 * test_total) in the same transaction; *out is the number of classes.
 * GCAMP_EFATAL when set holds no per-class test counts. Creates the database
 * when missing. */
int testrun_store(size_t *out, struct ctx *ctx, const struct import_set *set,
		  const char *commit, const char *env);
/* Per environment (only env when not NULL), the totals of its latest
 * imported commit (the one imported last: latest `at`, then the import
 * written last), by env id, at most limit of them (0: all); none without
 * a database. Reads one row of test_total (kept by testrun_store) per
 * environment. Caller frees with testrun_totals_free. */
int testrun_baseline(struct testrun_total **out, size_t *n, struct ctx *ctx,
		     const char *env, size_t limit);
void testrun_totals_free(struct testrun_total *v, size_t n);

/* How far back from the base's tip a tested commit is looked for. */
#define TESTRUN_BASE_DEPTH 1000

/* The base branch's result on env, which a branch's is judged against:
 * the totals of the newest tested commit of the first-parent history of
 * branch base (refs/heads/BASE, else refs/remotes/REMOTE/BASE; remote may
 * be NULL), within TESTRUN_BASE_DEPTH commits, into *out (its at is the
 * caller's to free, with out->at). *found is 0, and out left empty, when
 * there is none (no base here, nothing tested on it in env). */
int testrun_base_total(struct testrun_total *out, int *found, struct ctx *ctx,
		       const char *env, const char *base, const char *remote);

/* The first local branch (by name) whose tip is commit (40 hex) or
 * descends from it, in *out (the caller frees it), or NULL. */
int testrun_branch_of(char **out, struct ctx *ctx, const char *commit);
/* The classes of commit in env, by name. Caller frees with
 * testrun_classes_free. */
int testrun_classes(struct testrun_class **out, size_t *n, struct ctx *ctx,
		    const char *commit, const char *env);
void testrun_classes_free(struct testrun_class *v, size_t n);
/* Appends to out, sorted, the environments with results for commit. */
int testrun_envs(struct strvec *out, struct ctx *ctx, const char *commit);

#endif
