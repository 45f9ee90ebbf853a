/* Helpers shared by the files of the statistics module (stats.c,
 * fit.c); not for other callers. */
#ifndef GCAMP_STATS_INT_H
#define GCAMP_STATS_INT_H

#include <stddef.h>

/* qsort comparator of doubles, ascending. */
int stats_cmp_double(const void *pa, const void *pb);

/* A sorted copy of x[0..n), to free(); never NULL (xmalloc). */
double *stats_sorted_copy(const double *x, size_t n);

/* R type 7 quantile of sorted s[0..n), n >= 1, 0 <= q <= 1. */
double stats_quantile_sorted(const double *s, size_t n, double q);

#endif
