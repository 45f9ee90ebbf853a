/* The per-class diff of two commits' test results on one environment, and
 * the totals of one commit's classes. */
#include "core/views/testdiff.h"

#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

void testdiff_sum(struct testdiff_sum *out, const struct testrun_class *v,
		  size_t n)
{
	size_t i;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < n; i++) {
		out->passed += v[i].passed;
		out->failed += v[i].failed;
		out->skipped += v[i].skipped;
		out->unsupported += v[i].unsupported;
	}
	out->total =
		out->passed + out->failed + out->skipped + out->unsupported;
	out->classes = n;
}

static const struct testrun_class *find_class(const struct testrun_class *v,
					      size_t n, const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(v[i].name, name))
			return &v[i];
	return NULL;
}

/* a campaign.flaky value names the class whole or its dotted tail
 * ("compute.MMwithBytes") */
static int is_flaky(const struct strvec *flaky, const char *cls)
{
	size_t i, n = strlen(cls), m;

	for (i = 0; i < flaky->nr; i++) {
		m = strlen(flaky->v[i]);
		if (!strcmp(cls, flaky->v[i]) ||
		    (m < n && cls[n - m - 1] == '.' &&
		     !strcmp(cls + n - m, flaky->v[i])))
			return 1;
	}
	return 0;
}

static int same(const struct testrun_class *a, const struct testrun_class *b)
{
	return a && b && a->passed == b->passed && a->failed == b->failed &&
	       a->skipped == b->skipped && a->unsupported == b->unsupported;
}

int testdiff_load(struct testdiff *out, struct ctx *ctx, const char *commit_a,
		  const char *commit_b, const char *env,
		  const struct strvec *flaky)
{
	size_t i, j;
	int rc;

	memset(out, 0, sizeof(*out));
	if ((rc = testrun_classes(&out->c[0], &out->nc[0], ctx, commit_a,
				  env)) < 0 ||
	    (rc = testrun_classes(&out->c[1], &out->nc[1], ctx, commit_b,
				  env)) < 0)
		return rc;
	for (i = 0; i < 2; i++) {
		testdiff_sum(&out->sum[i], out->c[i], out->nc[i]);
		for (j = 0; j < out->nc[i]; j++)
			if (!find_class(out->c[0], i ? out->nc[0] : 0,
					out->c[i][j].name))
				strvec_push(&out->names, out->c[i][j].name);
	}
	strvec_sort(&out->names);
	out->changed = xcalloc(out->names.nr + 1, sizeof(*out->changed));
	out->flaky = xcalloc(out->names.nr + 1, sizeof(*out->flaky));
	for (i = 0; i < out->names.nr; i++) {
		const char *name = out->names.v[i];
		const struct testrun_class *a =
			find_class(out->c[0], out->nc[0], name);
		const struct testrun_class *b =
			find_class(out->c[1], out->nc[1], name);
		struct testdiff_entry e = {name, a, b};

		if (!is_flaky(flaky, name)) {
			if (same(a, b))
				continue;
			out->changed[out->nchanged++] = e;
			if (b && b->failed > (a ? a->failed : 0))
				out->worse = 1;
		} else if (!same(a, b) || b->failed) {
			out->flaky[out->nflaky++] = e;
		}
	}
	return 0;
}

void testdiff_release(struct testdiff *d)
{
	size_t i;

	for (i = 0; i < 2; i++)
		testrun_classes_free(d->c[i], d->nc[i]);
	strvec_clear(&d->names);
	free(d->changed);
	free(d->flaky);
	memset(d, 0, sizeof(*d));
}
