/* A test driver: reads whole A/Bs on stdin, one point a line ("main" or
 * "control", then "a1 a2 ... | b1 b2 ...") and a blank line after each
 * A/B, judges each as `git campaign ab` does (ab_finish: every point, the
 * controls with Holm over the run's control tests, the drift checks; 2%
 * minimum effect and control tolerance) and prints one line per A/B:
 * "INVALID VOUCH CONTROL_TESTS DRIFT_WARNINGS". bench/ab-controls.sh and
 * bench/ab-rates.sh feed it seeded A/As by the thousand. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/ab/control.h"
#include "core/ab/judge.h"
#include "util/xalloc.h"

/* Parses the numbers of s into a new array; *n their count */
static double *numbers(const char *s, size_t *n)
{
	double *v = NULL;
	size_t alloc = 0;
	char *end;

	*n = 0;
	for (;;) {
		double x = strtod(s, &end);

		if (end == s)
			break;
		if (*n == alloc) {
			alloc = alloc ? 2 * alloc : 16;
			v = xrealloc(v, alloc * sizeof(*v));
		}
		v[(*n)++] = x;
		s = end;
	}
	return v;
}

static void finish(struct ab_result *r)
{
	size_t i, drift = 0;

	if (!r->npoints)
		return;
	ab_finish(r, 0.02, 0.02, 0, 1);
	for (i = 0; i < r->warnings.nr; i++)
		drift += strstr(r->warnings.v[i], "drift:") != NULL;
	printf("%d %s %zu %zu\n", r->invalid, ab_vouch_name(r->vouch),
	       r->control_tests, drift);
	ab_result_release(r);
	memset(r, 0, sizeof(*r));
}

int main(void)
{
	static char line[1 << 16];
	struct ab_result r;

	memset(&r, 0, sizeof(r));
	while (fgets(line, sizeof(line), stdin)) {
		char *bar = strchr(line, '|'), *sp = strchr(line, ' ');
		struct ab_point *p;

		if (!bar || !sp) {
			finish(&r);
			continue;
		}
		*bar = '\0';
		r.points =
			xrealloc(r.points, (r.npoints + 1) * sizeof(*r.points));
		p = &r.points[r.npoints++];
		memset(p, 0, sizeof(*p));
		p->workload = xstrdup("w");
		p->control = !strncmp(line, "control", 7);
		p->a = numbers(sp, &p->na);
		p->b = numbers(bar + 1, &p->nb);
	}
	finish(&r);
	return 0;
}
