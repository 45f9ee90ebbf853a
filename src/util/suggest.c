/* Closest-name suggestions for mistyped commands and keys. */
#include "util/suggest.h"

#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

size_t suggest_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j, d;
	/* three rows: two back (for transpositions), previous, current */
	size_t *r0 = xcalloc(lb + 1, sizeof(size_t));
	size_t *r1 = xcalloc(lb + 1, sizeof(size_t));
	size_t *r2 = xcalloc(lb + 1, sizeof(size_t));
	size_t *t;

	for (j = 0; j <= lb; j++)
		r1[j] = j;
	for (i = 1; i <= la; i++) {
		r2[0] = i;
		for (j = 1; j <= lb; j++) {
			size_t cost = a[i - 1] != b[j - 1];
			size_t best = r1[j - 1] + cost;

			if (r1[j] + 1 < best)
				best = r1[j] + 1;
			if (r2[j - 1] + 1 < best)
				best = r2[j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && r0[j - 2] + 1 < best)
				best = r0[j - 2] + 1;
			r2[j] = best;
		}
		t = r0;
		r0 = r1;
		r1 = r2;
		r2 = t;
	}
	d = r1[lb];
	free(r0);
	free(r1);
	free(r2);
	return d;
}

size_t suggest_closest(const char **out, size_t max, const char *word,
		       const char *const *candidates, size_t ncandidates)
{
	size_t limit = strlen(word) / 3, n = 0, i, k;
	size_t *dist = xcalloc(ncandidates ? ncandidates : 1, sizeof(size_t));
	size_t wlen = strlen(word);

	if (limit < 2)
		limit = 2;
	for (i = 0; i < ncandidates; i++) {
		dist[i] = suggest_distance(word, candidates[i]);
		if (wlen && !strncmp(candidates[i], word, wlen))
			dist[i] = 0;
	}
	/* selection by increasing distance keeps the table order on ties */
	for (k = 0; k <= limit && n < max; k++)
		for (i = 0; i < ncandidates && n < max; i++)
			if (dist[i] == k)
				out[n++] = candidates[i];
	free(dist);
	return n;
}
