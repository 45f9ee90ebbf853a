/* The cache-tree root of git's index file (gitformat-index(5)): entries
 * are skipped by their lengths, extensions read by their signatures. */
#include "io/indexfile.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/xalloc.h"

/* an index past this is read entry by entry instead */
#define INDEX_CAP (256u << 20)

static uint32_t be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

/* the offset just past the entries, or 0 when they do not parse */
static size_t skip_entries(const unsigned char *d, size_t len, uint32_t version,
			   uint32_t n)
{
	size_t at = 12;
	uint32_t i;

	for (i = 0; i < n; i++) {
		size_t fixed = 62, start = at;
		const unsigned char *nul;
		unsigned flags;

		if (len - at < fixed + 1)
			return 0;
		flags = (unsigned)d[at + 60] << 8 | d[at + 61];
		if (flags & 0x4000) {
			if (version < 3)
				return 0;
			fixed += 2;
		}
		at += fixed;
		if (version == 4) {
			/* a varint (the bytes taken off the last path)
			 * then the rest of the path and its NUL */
			while (at < len && (d[at] & 0x80))
				at++;
			if (++at >= len)
				return 0;
		}
		nul = memchr(d + at, 0, len - at);
		if (!nul)
			return 0;
		at = (size_t)(nul - d) + 1;
		/* v2 and v3 pad each entry with 1 to 8 NULs to 8 bytes */
		if (version != 4)
			at = start + ((at - 1 - start + 8) & ~(size_t)7);
		if (at > len)
			return 0;
	}
	return at;
}

/* the root of a TREE extension's data: "\0COUNT SUBTREES\n" and the id */
static int tree_root(char out[41], const unsigned char *p, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *lf;
	long count;
	size_t i;

	if (len < 2 || p[0] != 0)
		return GCAMP_ENOTFOUND;
	lf = memchr(p, '\n', len);
	if (!lf || sscanf((const char *)p + 1, "%ld", &count) != 1 ||
	    count < 0 || (size_t)(p + len - (lf + 1)) < 20)
		return GCAMP_ENOTFOUND;
	for (i = 0; i < 20; i++) {
		out[2 * i] = hex[lf[1 + i] >> 4];
		out[2 * i + 1] = hex[lf[1 + i] & 15];
	}
	out[40] = '\0';
	return 0;
}

int indexfile_tree(char out[41], unsigned char sum[20], const char *path)
{
	FILE *fp = fopen(path, "rb");
	unsigned char *d = NULL;
	size_t len = 0, at;
	uint32_t version;
	long size;
	int rc = GCAMP_ENOTFOUND;

	if (!fp)
		return rc;
	if (fseek(fp, 0, SEEK_END) < 0 || (size = ftell(fp)) < 12 + 20 ||
	    (unsigned long)size > INDEX_CAP || fseek(fp, 0, SEEK_SET) < 0)
		goto out;
	len = (size_t)size;
	d = xmalloc(len);
	if (fread(d, 1, len, fp) != len || memcmp(d, "DIRC", 4))
		goto out;
	version = be32(d + 4);
	if (version < 2 || version > 4)
		goto out;
	/* the last 20 bytes are the file's checksum */
	len -= 20;
	memcpy(sum, d + len, 20);
	if (!(at = skip_entries(d, len, version, be32(d + 8))))
		goto out;
	while (len - at >= 8) {
		uint32_t n = be32(d + at + 4);

		if (n > len - at - 8)
			goto out;
		/* a split index holds its entries elsewhere */
		if (!memcmp(d + at, "link", 4))
			goto out;
		if (!memcmp(d + at, "TREE", 4)) {
			rc = tree_root(out, d + at + 8, n);
			goto out;
		}
		at += 8 + n;
	}
out:
	free(d);
	fclose(fp);
	return rc;
}
