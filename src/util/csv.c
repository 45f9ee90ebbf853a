/* The one CSV writer: RFC 4180 quoting into a buf, a row at a time. */
#include "util/csv.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void sep(struct buf *out)
{
	if (out->len && out->ptr[out->len - 1] != '\n')
		buf_putc(out, ',');
}

void csv_field(struct buf *out, const char *s)
{
	size_t len = s ? strlen(s) : 0;
	const char *p;

	sep(out);
	/* an empty field in a row of one would read as no row: quote it */
	if (!len) {
		if (out->len == 0 || out->ptr[out->len - 1] == '\n')
			buf_puts(out, "\"\"");
		return;
	}
	if (!strpbrk(s, ",\"\r\n") && s[0] != ' ' && s[len - 1] != ' ') {
		buf_add(out, s, len);
		return;
	}
	buf_putc(out, '"');
	for (p = s; *p; p++) {
		if (*p == '"')
			buf_putc(out, '"');
		buf_putc(out, *p);
	}
	buf_putc(out, '"');
}

void csv_number(struct buf *out, double v)
{
	char num[32];
	int prec;

	if (isnan(v)) {
		csv_field(out, NULL);
		return;
	}
	/* the shortest of %.15g..%.17g that reads back as v */
	for (prec = 15; prec < 17; prec++) {
		snprintf(num, sizeof(num), "%.*g", prec, v);
		if (strtod(num, NULL) == v)
			break;
	}
	if (prec == 17)
		snprintf(num, sizeof(num), "%.17g", v);
	csv_field(out, num);
}

void csv_count(struct buf *out, long long v)
{
	char num[32];

	snprintf(num, sizeof(num), "%lld", v);
	csv_field(out, num);
}

void csv_end(struct buf *out)
{
	buf_putc(out, '\n');
}

void csv_row(struct buf *out, const char *const *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		csv_field(out, v[i]);
	csv_end(out);
}
