/* A test driver: reads A/B cases on stdin, one a line ("a1 a2 ... | b1 b2
 * ..."), judges each as `git campaign ab` does (ab_judge, 2% minimum
 * effect) and prints our p, estimate, CI and verdict as one JSON line. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

static void num(const char *key, double v, int last)
{
	if (isnan(v) || isinf(v))
		printf("\"%s\":null%s", key, last ? "" : ",");
	else
		printf("\"%s\":%.17g%s", key, v, last ? "" : ",");
}

/* The interval in the shift's own terms (logs, or the values when one is
 * <= 0), where its ends are differences the reference can test exactly */
static void shift_interval(double *lo, double *hi, const struct ab_point *p)
{
	double *la = xmalloc(p->na * sizeof(*la));
	double *lb = xmalloc(p->nb * sizeof(*lb));
	double shift;
	size_t i;

	for (i = 0; i < p->na; i++)
		la[i] = p->cmp.on_diff ? p->a[i] : log(p->a[i]);
	for (i = 0; i < p->nb; i++)
		lb[i] = p->cmp.on_diff ? p->b[i] : log(p->b[i]);
	(void)stats_hodges_lehmann(&shift, lo, hi, la, p->na, lb, p->nb);
	free(la);
	free(lb);
}

int main(void)
{
	char line[65536];

	while (fgets(line, sizeof(line), stdin)) {
		char *bar = strchr(line, '|');
		struct ab_point p;
		double lo, hi;

		if (!bar)
			continue;
		*bar = '\0';
		memset(&p, 0, sizeof(p));
		p.workload = xstrdup("w");
		p.a = numbers(line, &p.na);
		p.b = numbers(bar + 1, &p.nb);
		ab_judge(&p, 0.02, 0);
		shift_interval(&lo, &hi, &p);
		printf("{");
		num("p", p.cmp.p, 0);
		num("ratio", p.cmp.ratio, 0);
		num("ci_lo", p.cmp.ci_lo, 0);
		num("ci_hi", p.cmp.ci_hi, 0);
		num("median_ratio", p.cmp.median_ratio, 0);
		num("diff", p.cmp.diff, 0);
		num("diff_lo", p.cmp.diff_lo, 0);
		num("diff_hi", p.cmp.diff_hi, 0);
		num("shift_lo", lo, 0);
		num("shift_hi", hi, 0);
		printf("\"on_diff\":%s,\"verdict\":\"%s\",\"why\":\"%s\"}\n",
		       p.cmp.on_diff ? "true" : "false",
		       ab_verdict_name(p.verdict), p.why);
		free(p.a);
		free(p.b);
		free(p.workload);
	}
	return 0;
}
