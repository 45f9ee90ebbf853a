/* "Did you mean": edit distance between command names, as git's help.c. */
#ifndef GCAMP_SUGGEST_H
#define GCAMP_SUGGEST_H

#include <stddef.h>

/* Damerau-Levenshtein (optimal string alignment) distance between a and b. */
size_t suggest_distance(const char *a, const char *b);
/* Fills out (capacity max) with the candidates closest to word: those within
 * a distance of max(2, strlen(word)/3), or whose name starts with word,
 * closest first. Returns how many were written. Pointers are borrowed from
 * candidates. */
size_t suggest_closest(const char **out, size_t max, const char *word,
		       const char *const *candidates, size_t ncandidates);

#endif
