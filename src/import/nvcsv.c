/* Text helpers shared by the ncu and nsys importers: a line reader that
 * drops "\r" and ANSI colours, a quoted-CSV splitter with a field cap, and
 * numbers scaled by powers of ten without binary rounding. */
#include "import/nvcsv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import/rec.h"
#include "util/buf.h"

int nv_csv_split(struct strvec *out, const char *line, size_t len)
{
	struct buf field = BUF_INIT;
	size_t i = 0;
	int n = 0;

	strvec_clear(out);
	for (;;) {
		if (n == NV_CSV_MAX_FIELDS) {
			n = -2;
			goto out;
		}
		buf_reset(&field);
		if (i < len && line[i] == '"') {
			for (i++;; i++) {
				if (i >= len) {
					n = -1;
					goto out;
				}
				if (line[i] == '"') {
					if (i + 1 < len && line[i + 1] == '"') {
						buf_putc(&field, '"');
						i++;
						continue;
					}
					i++;
					break;
				}
				buf_putc(&field, line[i]);
			}
			if (i < len && line[i] != ',') {
				n = -1;
				goto out;
			}
		} else {
			while (i < len && line[i] != ',')
				buf_putc(&field, line[i++]);
		}
		strvec_push(out, field.ptr);
		n++;
		if (i >= len)
			break;
		i++; /* the comma */
	}
out:
	buf_release(&field);
	return n;
}

int nv_number(double *out, const char *s, size_t len, int exp10)
{
	char tmp[160];
	size_t i, n = 0, mant;
	long e = 0;
	int neg = 0;

	/* drop what import_number would skip, then split at the exponent */
	for (i = 0; i < len; i++) {
		if (s[i] == ',' || s[i] == ' ' || s[i] == '\t' || s[i] == '"' ||
		    s[i] == '\r')
			continue;
		if (n + 1 >= 100)
			return -1;
		tmp[n++] = s[i];
	}
	tmp[n] = '\0';
	for (mant = 0; mant < n && tmp[mant] != 'e' && tmp[mant] != 'E'; mant++)
		;
	if (mant < n) {
		i = mant + 1;
		if (i < n && (tmp[i] == '+' || tmp[i] == '-'))
			neg = tmp[i++] == '-';
		if (i == n)
			return -1;
		for (; i < n; i++) {
			if (tmp[i] < '0' || tmp[i] > '9')
				return -1;
			if (e < 100000)
				e = 10 * e + (tmp[i] - '0');
		}
		if (neg)
			e = -e;
	}
	if (!mant)
		return -1;
	snprintf(tmp + mant, sizeof(tmp) - mant, "e%ld", e + exp10);
	return import_number(out, tmp, strlen(tmp));
}

char *nv_trim(char *s)
{
	size_t n;

	while (*s == ' ' || *s == '\t')
		s++;
	n = strlen(s);
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		s[--n] = '\0';
	return s;
}

int nv_starts(const char *s, size_t len, const char *prefix)
{
	size_t n = strlen(prefix);

	return len >= n && !memcmp(s, prefix, n);
}

int nv_contains(const char *s, size_t len, const char *needle)
{
	size_t n = strlen(needle), i;

	if (!n)
		return 1;
	for (i = 0; i + n <= len; i++)
		if (s[i] == needle[0] && !memcmp(s + i, needle, n))
			return 1;
	return 0;
}
