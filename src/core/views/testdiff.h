/* Test results seen side by side: the totals of a commit's classes on one
 * environment, and the per-class diff of two commits there, known-flaky
 * classes (campaign.flaky) apart. What `tests diff` prints and the PR
 * body's test section counts. */
#ifndef GCAMP_TESTDIFF_H
#define GCAMP_TESTDIFF_H

#include <stddef.h>

#include "core/base/ctx.h"
#include "core/records/testrun.h"
#include "util/strvec.h"

/* The counts of a set of classes, added up. */
struct testdiff_sum {
	long passed, failed, skipped, unsupported;
	long total; /* the four together */
	size_t classes;
};

/* One class that changed between A and B. */
struct testdiff_entry {
	const char *name;		   /* borrowed from the diff */
	const struct testrun_class *a, *b; /* NULL: not run on that side */
};

struct testdiff {
	struct testrun_class *c[2]; /* the classes of A and of B, by name */
	size_t nc[2];
	struct testdiff_sum sum[2];
	struct strvec names; /* the classes of either side, sorted */
	/* the classes whose counts changed, by name */
	struct testdiff_entry *changed;
	size_t nchanged;
	/* the known-flaky classes that changed or failed on B, not counted as
	 * changes */
	struct testdiff_entry *flaky;
	size_t nflaky;
	int worse; /* a class that counts failed more often on B */
};

/* Adds up the counts of the n classes v into out. */
void testdiff_sum(struct testdiff_sum *out, const struct testrun_class *v,
		  size_t n);

/* Reads the classes of commit_a and commit_b (40 hex) on env and compares
 * them into out; flaky holds the campaign.flaky values (a class named
 * whole or by its dotted tail). 0, or a negative code with ctx's error
 * set; release out with testdiff_release either way. */
int testdiff_load(struct testdiff *out, struct ctx *ctx, const char *commit_a,
		  const char *commit_b, const char *env,
		  const struct strvec *flaky);
/* Frees what testdiff_load filled in; out may be zeroed or released. */
void testdiff_release(struct testdiff *d);

#endif
