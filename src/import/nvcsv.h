/* The text helpers the importers of NVIDIA's profilers (ncu.c, nsys.c)
 * share: quoted CSV fields, numbers scaled in decimal; lines are read with
 * textscan.h, as every text importer reads them. */
#ifndef GCAMP_IMPORT_NVCSV_H
#define GCAMP_IMPORT_NVCSV_H

#include <stddef.h>

#include "util/strvec.h"

/* The most fields one CSV line may have (ncu's raw page has one column
 * per metric: a few thousand at most). */
#define NV_CSV_MAX_FIELDS 65536

/* Splits one CSV line (len bytes) into out (emptied first): fields are
 * separated by ","; a field that starts with '"' ends at the next lone
 * '"', and "" inside it is one '"'. A field is cut at an embedded NUL.
 * Returns the number of fields, -1 when a quote is not closed or text
 * follows a closing quote, -2 past NV_CSV_MAX_FIELDS. */
int nv_csv_split(struct strvec *out, const char *line, size_t len);

/* Parses a number as import_number does and scales it by 10^exp10 in
 * decimal, so "58.88" us read as ns is exactly 58880. Returns 0 and sets
 * *out, or -1 when s is not a number or the result is not finite. */
int nv_number(double *out, const char *s, size_t len, int exp10);

/* Trims spaces and tabs at both ends of s in place; returns s. */
char *nv_trim(char *s);

/* Nonzero when s (len bytes) starts with prefix. */
int nv_starts(const char *s, size_t len, const char *prefix);

/* Nonzero when needle occurs in s (len bytes, not NUL-terminated). */
int nv_contains(const char *s, size_t len, const char *needle);

#endif
