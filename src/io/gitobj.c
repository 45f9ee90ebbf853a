/* Commits from git's object files (gitformat-pack(5): pack index v2, pack
 * entries with OFS_DELTA and REF_DELTA; loose zlib objects), and the
 * ancestry walk of git's paint_down_to_common (commit-reach.c) over them. */
#include "io/gitobj.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "util/error.h"
#include "util/strvec.h"
#include "util/xalloc.h"

/* caps: past them the answer is git's */
#define OBJ_CAP (16u << 20) /* bytes of one commit or delta base */
#define DELTA_DEPTH 4096    /* git's own maximum --depth */
#define WALK_CAP 200000	    /* commits one walk may visit */
#define ALT_DEPTH 5	    /* nested alternates, as git allows */

enum { T_COMMIT = 1, T_OFS_DELTA = 6, T_REF_DELTA = 7 };

struct pack {
	const unsigned char *idx, *data;
	size_t idx_len, data_len;
	uint32_t n;
};

struct odb {
	struct strvec dirs; /* objects folders: this one, then alternates */
	struct pack *packs;
	size_t npacks, alloc;
};

static uint32_t be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

static const unsigned char *map_file(const char *path, size_t *len)
{
	struct stat st;
	void *p;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) < 0 || st.st_size <= 0) {
		close(fd);
		return NULL;
	}
	p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (p == MAP_FAILED)
		return NULL;
	*len = (size_t)st.st_size;
	return p;
}

/* PACK.idx (version 2) and its PACK.pack, when both look whole */
static void add_pack(struct odb *o, const char *dir, const char *name)
{
	struct pack p = {0};
	char *path = xasprintf("%s/pack/%s", dir, name);
	size_t n = strlen(path);

	p.idx = map_file(path, &p.idx_len);
	path = xrealloc(path, n + 2); /* ".idx" -> ".pack" */
	memcpy(path + n - 4, ".pack", 6);
	p.data = map_file(path, &p.data_len);
	free(path);
	if (p.idx && p.data && p.idx_len >= 8 + 1024 + 40 &&
	    !memcmp(p.idx, "\377tOc", 4) && be32(p.idx + 4) == 2 &&
	    p.data_len >= 32 && !memcmp(p.data, "PACK", 4)) {
		p.n = be32(p.idx + 8 + 255 * 4);
		if ((size_t)p.n * 28 + 8 + 1024 + 40 <= p.idx_len) {
			if (o->npacks == o->alloc) {
				o->alloc = o->alloc ? 2 * o->alloc : 4;
				o->packs = xrealloc(
					o->packs, o->alloc * sizeof(*o->packs));
			}
			o->packs[o->npacks++] = p;
			return;
		}
	}
	if (p.idx)
		munmap((void *)p.idx, p.idx_len);
	if (p.data)
		munmap((void *)p.data, p.data_len);
}

static void add_dir(struct odb *o, const char *dir, int depth)
{
	char *path, line[4096];
	struct dirent *de;
	DIR *d;
	FILE *fp;
	size_t i;

	for (i = 0; i < o->dirs.nr; i++)
		if (!strcmp(o->dirs.v[i], dir))
			return;
	strvec_push(&o->dirs, dir);
	path = xasprintf("%s/pack", dir);
	if ((d = opendir(path))) {
		while ((de = readdir(d))) {
			size_t n = strlen(de->d_name);

			if (n > 4 && !strcmp(de->d_name + n - 4, ".idx"))
				add_pack(o, dir, de->d_name);
		}
		closedir(d);
	}
	free(path);
	if (depth >= ALT_DEPTH)
		return;
	path = xasprintf("%s/info/alternates", dir);
	fp = fopen(path, "r");
	free(path);
	while (fp && fgets(line, sizeof(line), fp)) {
		line[strcspn(line, "\n")] = 0;
		if (!*line || *line == '#')
			continue;
		if (*line == '/') {
			add_dir(o, line, depth + 1);
		} else {
			char *rel = xasprintf("%s/%s", dir, line);

			add_dir(o, rel, depth + 1);
			free(rel);
		}
	}
	if (fp)
		fclose(fp);
}

static void odb_release(struct odb *o)
{
	size_t i;

	for (i = 0; i < o->npacks; i++) {
		munmap((void *)o->packs[i].idx, o->packs[i].idx_len);
		munmap((void *)o->packs[i].data, o->packs[i].data_len);
	}
	free(o->packs);
	strvec_clear(&o->dirs);
}

/* Inflates src into a new buffer of exactly want bytes: 0, or -1 */
static int inflate_exact(unsigned char **out, const unsigned char *src,
			 size_t src_len, size_t want)
{
	z_stream z;
	int rc;

	*out = NULL;
	if (want > OBJ_CAP)
		return -1;
	memset(&z, 0, sizeof(z));
	if (inflateInit(&z) != Z_OK)
		return -1;
	*out = xmalloc(want + 1);
	z.next_in = (unsigned char *)src;
	z.avail_in = (uInt)(src_len > UINT32_MAX ? UINT32_MAX : src_len);
	z.next_out = *out;
	z.avail_out = (uInt)want + 1;
	rc = inflate(&z, Z_FINISH);
	inflateEnd(&z);
	if (rc != Z_STREAM_END || z.total_out != want) {
		free(*out);
		*out = NULL;
		return -1;
	}
	return 0;
}

static int read_object(unsigned char **out, size_t *len, int *type,
		       struct odb *o, const unsigned char id[20], int depth);

/* The offset of id in pack p, or 0 */
static size_t pack_find(const struct pack *p, const unsigned char id[20])
{
	const unsigned char *fan = p->idx + 8, *ids = fan + 1024;
	uint32_t lo = id[0] ? be32(fan + (id[0] - 1) * 4) : 0;
	uint32_t hi = be32(fan + id[0] * 4);
	const unsigned char *offs = ids + (size_t)p->n * 24;

	if (hi > p->n || lo > hi)
		return 0;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		int c = memcmp(ids + (size_t)mid * 20, id, 20);

		if (!c) {
			uint32_t off = be32(offs + (size_t)mid * 4);
			const unsigned char *big = offs + (size_t)p->n * 4;

			if (!(off & 0x80000000u))
				return off;
			off &= 0x7fffffffu;
			if ((size_t)(big - p->idx) + (size_t)off * 8 + 8 >
			    p->idx_len - 40)
				return 0;
			big += (size_t)off * 8;
			return (size_t)((uint64_t)be32(big) << 32 |
					be32(big + 4));
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

/* Applies git delta d (dlen bytes) to base: 0 with *out, or -1 */
static int apply_delta(unsigned char **out, size_t *out_len,
		       const unsigned char *base, size_t blen,
		       const unsigned char *d, size_t dlen)
{
	const unsigned char *end = d + dlen;
	size_t sizes[2] = {0, 0}, at = 0;
	unsigned char *r;
	int k;

	for (k = 0; k < 2; k++) {
		unsigned shift = 0;

		do {
			if (d >= end || shift > 56)
				return -1;
			sizes[k] |= (size_t)(*d & 0x7f) << shift;
			shift += 7;
		} while (*d++ & 0x80);
	}
	if (sizes[0] != blen || sizes[1] > OBJ_CAP)
		return -1;
	r = xmalloc(sizes[1] + 1);
	while (d < end) {
		unsigned char op = *d++;

		if (op & 0x80) {
			size_t off = 0, n = 0;

			for (k = 0; k < 4; k++)
				if (op & (1u << k)) {
					if (d >= end)
						goto bad;
					off |= (size_t)*d++ << (8 * k);
				}
			for (k = 0; k < 3; k++)
				if (op & (0x10u << k)) {
					if (d >= end)
						goto bad;
					n |= (size_t)*d++ << (8 * k);
				}
			if (!n)
				n = 0x10000;
			if (off > blen || n > blen - off || n > sizes[1] - at)
				goto bad;
			memcpy(r + at, base + off, n);
			at += n;
		} else if (op) {
			if (op > (size_t)(end - d) || op > sizes[1] - at)
				goto bad;
			memcpy(r + at, d, op);
			d += op;
			at += op;
		} else {
			goto bad;
		}
	}
	if (at != sizes[1])
		goto bad;
	*out = r;
	*out_len = at;
	return 0;
bad:
	free(r);
	return -1;
}

/* The object at offset off of pack p, deltas applied */
static int unpack_at(unsigned char **out, size_t *len, int *type, struct odb *o,
		     const struct pack *p, size_t off, int depth)
{
	const unsigned char *d = p->data, *end = p->data + p->data_len - 20;
	unsigned char *base = NULL, *delta = NULL;
	size_t size, blen, start = off;
	unsigned shift = 4;
	int t, rc;

	if (depth > DELTA_DEPTH || off < 12 || d + off >= end)
		return -1;
	t = d[off] >> 4 & 7;
	size = d[off] & 15;
	while (d[off++] & 0x80) {
		if (d + off >= end || shift > 56)
			return -1;
		size |= (size_t)(d[off] & 0x7f) << shift;
		shift += 7;
	}
	if (t == T_OFS_DELTA) {
		size_t back;

		if (d + off >= end)
			return -1;
		back = d[off] & 0x7f;
		while (d[off++] & 0x80) {
			if (d + off >= end || back > SIZE_MAX >> 8)
				return -1;
			back = ((back + 1) << 7) | (d[off] & 0x7f);
		}
		if (back == 0 || back > start)
			return -1;
		rc = unpack_at(&base, &blen, type, o, p, start - back,
			       depth + 1);
	} else if (t == T_REF_DELTA) {
		if ((size_t)(end - (d + off)) < 20)
			return -1;
		rc = read_object(&base, &blen, type, o, d + off, depth + 1);
		off += 20;
	} else {
		*type = t;
		*len = size;
		return inflate_exact(out, d + off, (size_t)(end - (d + off)),
				     size);
	}
	if (rc < 0)
		return -1;
	rc = inflate_exact(&delta, d + off, (size_t)(end - (d + off)), size);
	if (rc == 0)
		rc = apply_delta(out, len, base, blen, delta, size);
	free(base);
	free(delta);
	return rc;
}

static const char hexd[] = "0123456789abcdef";

/* a loose object: "TYPE SIZE\0" and the content, zlib-compressed */
static int read_loose(unsigned char **out, size_t *len, int *type,
		      const char *dir, const unsigned char id[20])
{
	char path[4096], *p;
	const unsigned char *z;
	unsigned char *raw = NULL;
	size_t zlen, i, hdr, size;
	int rc = -1;

	if (snprintf(path, sizeof(path), "%s/xx/", dir) >=
	    (int)sizeof(path) - 40)
		return -1;
	p = path + strlen(dir) + 1;
	p[0] = hexd[id[0] >> 4];
	p[1] = hexd[id[0] & 15];
	for (i = 1, p += 3; i < 20; i++) {
		*p++ = hexd[id[i] >> 4];
		*p++ = hexd[id[i] & 15];
	}
	*p = 0;
	if (!(z = map_file(path, &zlen)))
		return -1;
	/* the header first, then the whole object at its stated size */
	{
		unsigned char head[64];
		z_stream s;

		memset(&s, 0, sizeof(s));
		if (inflateInit(&s) != Z_OK)
			goto out;
		s.next_in = (unsigned char *)z;
		s.avail_in = (uInt)(zlen > UINT32_MAX ? UINT32_MAX : zlen);
		s.next_out = head;
		s.avail_out = sizeof(head) - 1;
		inflate(&s, Z_SYNC_FLUSH);
		hdr = sizeof(head) - 1 - s.avail_out;
		inflateEnd(&s);
		head[hdr] = 0;
		if (!memchr(head, 0, hdr) ||
		    sscanf((char *)head, "commit %zu", &size) != 1)
			goto out; /* not a commit: no use here */
		hdr = strlen((char *)head) + 1;
	}
	if (size > OBJ_CAP || inflate_exact(&raw, z, zlen, hdr + size) < 0)
		goto out;
	memmove(raw, raw + hdr, size);
	*out = raw;
	*len = size;
	*type = T_COMMIT;
	raw = NULL;
	rc = 0;
out:
	free(raw);
	munmap((void *)z, zlen);
	return rc;
}

static int read_object(unsigned char **out, size_t *len, int *type,
		       struct odb *o, const unsigned char id[20], int depth)
{
	size_t i, off;

	if (depth > DELTA_DEPTH)
		return -1;
	for (i = 0; i < o->npacks; i++)
		if ((off = pack_find(&o->packs[i], id)))
			return unpack_at(out, len, type, o, &o->packs[i], off,
					 depth);
	for (i = 0; i < o->dirs.nr; i++)
		if (read_loose(out, len, type, o->dirs.v[i], id) == 0)
			return 0;
	return -1;
}

/* The walk: each commit met, its flags, its date and parents once read */
#define PARENT1 1
#define PARENT2 2
#define STALE 4

struct node {
	unsigned char id[20];
	int flags, parsed;
	long long date;
	size_t *parents, nparents;
};

struct entry {
	size_t node, ctr;
	long long date;
};

struct walk {
	struct odb *odb;
	struct node *v;
	size_t n, alloc;
	size_t *slot, cap;  /* open addressing on the id: node + 1, 0 free */
	struct entry *heap; /* newest first, then first in */
	size_t nheap, heap_alloc, ctr;
};

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

static int parse_hex(unsigned char out[20], const char *hex)
{
	size_t i;

	for (i = 0; i < 20; i++) {
		int hi = hexval(hex[2 * i]), lo = hexval(hex[2 * i + 1]);

		if (hi < 0 || lo < 0)
			return -1;
		out[i] = (unsigned char)(hi << 4 | lo);
	}
	return 0;
}

static size_t hash_of(const unsigned char id[20], size_t cap)
{
	return be32(id) & (cap - 1);
}

/* The node of id, made when new; SIZE_MAX past the cap */
static size_t node_of(struct walk *w, const unsigned char id[20])
{
	size_t h, i;

	if (w->n * 2 >= w->cap) {
		if (w->n >= WALK_CAP)
			return SIZE_MAX;
		free(w->slot);
		w->cap = w->cap ? 2 * w->cap : 1024;
		w->slot = xcalloc(w->cap, sizeof(*w->slot));
		for (i = 0; i < w->n; i++) {
			h = hash_of(w->v[i].id, w->cap);
			while (w->slot[h])
				h = (h + 1) & (w->cap - 1);
			w->slot[h] = i + 1;
		}
	}
	for (h = hash_of(id, w->cap); w->slot[h]; h = (h + 1) & (w->cap - 1))
		if (!memcmp(w->v[w->slot[h] - 1].id, id, 20))
			return w->slot[h] - 1;
	if (w->n == w->alloc) {
		w->alloc = w->alloc ? 2 * w->alloc : 256;
		w->v = xrealloc(w->v, w->alloc * sizeof(*w->v));
	}
	memset(&w->v[w->n], 0, sizeof(*w->v));
	memcpy(w->v[w->n].id, id, 20);
	w->slot[h] = w->n + 1;
	return w->n++;
}

/* Reads node x's parents and committer date: 0, or -1 */
static int parse_node(struct walk *w, size_t x)
{
	unsigned char *buf = NULL, pid[20];
	size_t len, np = 0, *parents = NULL;
	const char *p, *end, *nl;
	int type, rc = -1;

	if (w->v[x].parsed)
		return 0;
	if (read_object(&buf, &len, &type, w->odb, w->v[x].id, 0) < 0 ||
	    type != T_COMMIT)
		goto out;
	buf[len] = 0;
	p = (const char *)buf;
	end = p + len;
	for (; p < end && *p != '\n'; p = nl + 1) {
		if (!(nl = memchr(p, '\n', (size_t)(end - p))))
			goto out;
		if (!strncmp(p, "parent ", 7)) {
			size_t k;

			if (nl - p < 47 || parse_hex(pid, p + 7) < 0)
				goto out;
			if ((k = node_of(w, pid)) == SIZE_MAX)
				goto out;
			parents =
				xrealloc(parents, (np + 1) * sizeof(*parents));
			parents[np++] = k;
		} else if (!strncmp(p, "committer ", 10)) {
			const char *gt = p + 10, *q;

			/* the date follows the last '>' of the line */
			for (q = p; q < nl; q++)
				if (*q == '>')
					gt = q;
			w->v[x].date = strtoll(gt + 1, NULL, 10);
		}
	}
	w->v[x].parents = parents;
	w->v[x].nparents = np;
	w->v[x].parsed = 1;
	parents = NULL;
	rc = 0;
out:
	free(parents);
	free(buf);
	return rc;
}

static int newer(const struct entry *a, const struct entry *b)
{
	return a->date > b->date || (a->date == b->date && a->ctr < b->ctr);
}

static void push(struct walk *w, size_t x)
{
	size_t i = w->nheap++;

	if (w->nheap > w->heap_alloc) {
		w->heap_alloc = w->heap_alloc ? 2 * w->heap_alloc : 64;
		w->heap = xrealloc(w->heap, w->heap_alloc * sizeof(*w->heap));
	}
	w->heap[i] = (struct entry){x, w->ctr++, w->v[x].date};
	while (i && newer(&w->heap[i], &w->heap[(i - 1) / 2])) {
		struct entry t = w->heap[i];

		w->heap[i] = w->heap[(i - 1) / 2];
		w->heap[(i - 1) / 2] = t;
		i = (i - 1) / 2;
	}
}

static size_t pop(struct walk *w)
{
	size_t top = w->heap[0].node, i = 0;

	w->heap[0] = w->heap[--w->nheap];
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;
		struct entry t;

		if (l < w->nheap && newer(&w->heap[l], &w->heap[m]))
			m = l;
		if (r < w->nheap && newer(&w->heap[r], &w->heap[m]))
			m = r;
		if (m == i)
			break;
		t = w->heap[i];
		w->heap[i] = w->heap[m];
		w->heap[m] = t;
		i = m;
	}
	return top;
}

static int has_nonstale(const struct walk *w)
{
	size_t i;

	for (i = 0; i < w->nheap; i++)
		if (!(w->v[w->heap[i].node].flags & STALE))
			return 1;
	return 0;
}

/*
 * git's paint_down_to_common for (ancestor, descendant): commits reached
 * from the ancestor carry PARENT1, from the descendant PARENT2, newest
 * first; a commit with both is a merge base and makes what is below it
 * stale; the walk ends when only stale commits are left. The ancestor is
 * one exactly when the descendant's side reaches it.
 */
static int paint(struct walk *w, size_t a, size_t d)
{
	size_t steps = 0;

	if (parse_node(w, a) < 0 || parse_node(w, d) < 0)
		return GCAMP_ENOTFOUND;
	w->v[a].flags |= PARENT1;
	w->v[d].flags |= PARENT2;
	push(w, a);
	push(w, d);
	while (!(w->v[a].flags & PARENT2) && has_nonstale(w)) {
		size_t x = pop(w), i;
		int flags = w->v[x].flags & (PARENT1 | PARENT2 | STALE);

		if (++steps > WALK_CAP)
			return GCAMP_ENOTFOUND;
		if (flags == (PARENT1 | PARENT2))
			flags |= STALE;
		for (i = 0; i < w->v[x].nparents; i++) {
			size_t p = w->v[x].parents[i];

			if ((w->v[p].flags & flags) == flags)
				continue;
			if (parse_node(w, p) < 0)
				return GCAMP_ENOTFOUND;
			w->v[p].flags |= flags;
			push(w, p);
		}
	}
	return (w->v[a].flags & PARENT2) != 0;
}

int gitobj_is_ancestor(const char *objects_dir, const char *ancestor,
		       const char *descendant)
{
	struct odb o = {STRVEC_INIT, NULL, 0, 0};
	struct walk w = {0};
	unsigned char ida[20], idd[20];
	size_t a, d, i;
	int rc = GCAMP_ENOTFOUND;

	if (strlen(ancestor) != 40 || strlen(descendant) != 40 ||
	    parse_hex(ida, ancestor) < 0 || parse_hex(idd, descendant) < 0)
		return rc;
	add_dir(&o, objects_dir, 0);
	w.odb = &o;
	if (!memcmp(ida, idd, 20)) {
		/* as git: the commit must exist */
		a = node_of(&w, ida);
		rc = parse_node(&w, a) < 0 ? GCAMP_ENOTFOUND : 1;
	} else if ((a = node_of(&w, ida)) != SIZE_MAX &&
		   (d = node_of(&w, idd)) != SIZE_MAX) {
		rc = paint(&w, a, d);
	}
	for (i = 0; i < w.n; i++)
		free(w.v[i].parents);
	free(w.v);
	free(w.slot);
	free(w.heap);
	odb_release(&o);
	return rc;
}
