/* The cat_sort_uniq notes merge: git's semantics, written with libgit2. */
#include "core/measure/notesmerge.h"

#include "core/measure/notes.h"

#include <git2/sys/mempack.h>
#include <git2/sys/odb_backend.h>
#include <stdlib.h>
#include <string.h>

#include "io/repo.h"
#include "util/xalloc.h"

struct line {
	const char *p;
	size_t len;
};

struct lines {
	struct line *v;
	size_t nr, alloc;
};

/* Appends the non-empty lines of s (up to its first NUL: git reads a note
 * as a C string) to l. */
static void lines_split(struct lines *l, const char *s, size_t len)
{
	const char *nul = s ? memchr(s, '\0', len) : NULL;
	const char *end = s ? (nul ? nul : s + len) : NULL, *p = s, *nl;

	while (p && p < end) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			nl = end;
		if (nl > p) {
			if (l->nr == l->alloc) {
				l->alloc = l->alloc ? 2 * l->alloc : 16;
				l->v = xrealloc(l->v, l->alloc * sizeof(*l->v));
			}
			l->v[l->nr].p = p;
			l->v[l->nr++].len = (size_t)(nl - p);
		}
		p = nl + 1;
	}
}

/* strcmp order: the lines hold no NUL, so bytes then length */
static int line_cmp(const void *a, const void *b)
{
	const struct line *x = a, *y = b;
	size_t n = x->len < y->len ? x->len : y->len;
	int c = memcmp(x->p, y->p, n);

	if (c)
		return c;
	return x->len < y->len ? -1 : x->len > y->len;
}

/* Sorts l and drops duplicates. */
static void lines_sort_uniq(struct lines *l)
{
	size_t i, n = 0;

	if (!l->nr)
		return;
	qsort(l->v, l->nr, sizeof(*l->v), line_cmp);
	for (i = 1; i < l->nr; i++)
		if (line_cmp(&l->v[n], &l->v[i]))
			l->v[++n] = l->v[i];
	l->nr = n + 1;
}

void notes_cat_sort_uniq(struct buf *out, const char *a, size_t alen,
			 const char *b, size_t blen)
{
	struct lines l = {NULL, 0, 0};
	size_t i;

	buf_reset(out);
	lines_split(&l, a, alen);
	lines_split(&l, b, blen);
	lines_sort_uniq(&l);
	for (i = 0; i < l.nr; i++) {
		buf_add(out, l.v[i].p, l.v[i].len);
		buf_putc(out, '\n');
	}
	free(l.v);
}

size_t notes_lines_missing(const char *a, size_t alen, const char *b,
			   size_t blen)
{
	struct lines la = {NULL, 0, 0}, lb = {NULL, 0, 0};
	size_t i = 0, j = 0, missing = 0;

	lines_split(&la, a, alen);
	lines_split(&lb, b, blen);
	lines_sort_uniq(&la);
	lines_sort_uniq(&lb);
	while (i < la.nr) {
		int c = j < lb.nr ? line_cmp(&la.v[i], &lb.v[j]) : -1;

		if (c < 0) {
			missing++;
			i++;
		} else if (c > 0) {
			j++;
		} else {
			i++;
			j++;
		}
	}
	free(la.v);
	free(lb.v);
	return missing;
}

static int oid_same(const git_oid *a, const git_oid *b)
{
	if (!a || !b)
		return a == b;
	return git_oid_equal(a, b);
}

enum notes_pick notes_merge_pick(const git_oid *base, const git_oid *local,
				 const git_oid *remote)
{
	if (oid_same(local, remote) || oid_same(remote, base))
		return NOTES_PICK_LOCAL;
	if (oid_same(local, base))
		return NOTES_PICK_REMOTE;
	return NOTES_PICK_COMBINE;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

int notes_fanout_split(const char *const *hex, size_t n, size_t depth)
{
	size_t count[16] = {0}, i;

	if (n < 2)
		return 0;
	for (i = 0; i < n; i++) {
		int v = hexval(hex[i][2 * depth]);

		if (v < 0)
			return 0;
		count[v]++;
	}
	for (i = 0; i < 16; i++)
		if (count[i] < 2)
			return 0;
	return 1;
}

/* One note: the annotated object (as hex, git's sort order too) and its
 * blob. */
struct note {
	char hex[GIT_OID_HEXSZ + 1];
	git_oid blob;
};

struct notes {
	struct note *v;
	size_t nr, alloc;
};

struct walk {
	struct notes *notes;
};

static int is_hex(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (hexval(s[i]) < 0)
			return 0;
	return 1;
}

/* git_tree_walk callback: a blob whose path, slashes removed, is a full
 * lower-case hex object id is a note */
static int collect(const char *root, const git_tree_entry *e, void *data)
{
	struct walk *w = data;
	const char *name = git_tree_entry_name(e);
	char hex[GIT_OID_HEXSZ + 1];
	size_t n = 0, i;

	if (git_tree_entry_type(e) != GIT_OBJECT_BLOB)
		return 0;
	for (i = 0; root[i]; i++)
		if (root[i] != '/') {
			if (n == GIT_OID_HEXSZ)
				return 0;
			hex[n++] = root[i];
		}
	if (n + strlen(name) != GIT_OID_HEXSZ)
		return 0;
	memcpy(hex + n, name, GIT_OID_HEXSZ - n);
	hex[GIT_OID_HEXSZ] = '\0';
	if (!is_hex(hex, GIT_OID_HEXSZ))
		return 0;
	if (w->notes->nr == w->notes->alloc) {
		w->notes->alloc = w->notes->alloc ? 2 * w->notes->alloc : 64;
		w->notes->v = xrealloc(w->notes->v,
				       w->notes->alloc * sizeof(*w->notes->v));
	}
	memcpy(w->notes->v[w->notes->nr].hex, hex, sizeof(hex));
	git_oid_cpy(&w->notes->v[w->notes->nr++].blob, git_tree_entry_id(e));
	return 0;
}

static int note_cmp(const void *a, const void *b)
{
	return strcmp(((const struct note *)a)->hex,
		      ((const struct note *)b)->hex);
}

/* Reads a blob's content; *data is borrowed from *blob. */
static int read_blob(git_blob **blob, const char **data, size_t *len,
		     git_repository *repo, const git_oid *id, struct error *err)
{
	int rc = git_blob_lookup(blob, repo, id);

	if (rc < 0) {
		char hex[GIT_OID_HEXSZ + 1];

		return error_git(err, rc, "cannot read note blob '%s'",
				 git_oid_tostr(hex, sizeof(hex), id));
	}
	*data = git_blob_rawcontent(*blob);
	*len = (size_t)git_blob_rawsize(*blob);
	return 0;
}

/* cat_sort_uniq of two blobs, written as a new blob; text (if not NULL)
 * receives the combined content */
static int combine_blobs(git_oid *out, struct buf *text, git_repository *repo,
			 const git_oid *a, const git_oid *b, struct error *err)
{
	git_blob *ba = NULL, *bb = NULL;
	const char *da = NULL, *db = NULL;
	size_t la = 0, lb = 0;
	struct buf merged = BUF_INIT;
	int rc;

	if ((a && (rc = read_blob(&ba, &da, &la, repo, a, err)) < 0) ||
	    (b && (rc = read_blob(&bb, &db, &lb, repo, b, err)) < 0))
		goto out;
	notes_cat_sort_uniq(&merged, da, la, db, lb);
	if ((rc = git_blob_create_from_buffer(out, repo, merged.ptr,
					      merged.len)) < 0) {
		rc = error_git(err, rc, "cannot write a merged note");
		goto out;
	}
	if (text) {
		buf_reset(text);
		buf_add(text, merged.ptr, merged.len);
	}
out:
	buf_release(&merged);
	git_blob_free(ba);
	git_blob_free(bb);
	return rc;
}

/* The notes of a notes commit (none for NULL), sorted, one per object:
 * an object noted twice (at two fan-out levels) gets the cat_sort_uniq of
 * both, as git would have to merge them too. */
static int load_notes(struct notes *out, git_repository *repo,
		      const git_oid *commit_id, struct error *err)
{
	git_commit *commit = NULL;
	git_tree *tree = NULL;
	struct walk w = {out};
	size_t i, n = 0;
	int rc = 0;
	char hex[GIT_OID_HEXSZ + 1];

	if (!commit_id)
		return 0;
	if ((rc = git_commit_lookup(&commit, repo, commit_id)) < 0 ||
	    (rc = git_commit_tree(&tree, commit)) < 0) {
		rc = error_git(err, rc, "cannot read notes commit '%s'",
			       git_oid_tostr(hex, sizeof(hex), commit_id));
		goto out;
	}
	if ((rc = notes_check_tree(tree, commit_id, err)) < 0)
		goto out;
	if ((rc = git_tree_walk(tree, GIT_TREEWALK_PRE, collect, &w)) < 0) {
		rc = error_git(err, rc, "cannot read notes commit '%s'",
			       git_oid_tostr(hex, sizeof(hex), commit_id));
		goto out;
	}
	if (out->nr)
		qsort(out->v, out->nr, sizeof(*out->v), note_cmp);
	for (i = 1; i < out->nr; i++) {
		if (strcmp(out->v[n].hex, out->v[i].hex)) {
			out->v[++n] = out->v[i];
			continue;
		}
		if ((rc = combine_blobs(&out->v[n].blob, NULL, repo,
					&out->v[n].blob, &out->v[i].blob,
					err)) < 0)
			goto out;
	}
	if (out->nr)
		out->nr = n + 1;
out:
	git_tree_free(tree);
	git_commit_free(commit);
	return rc;
}

/* Lines of note m (blob mid, or text mtext when not NULL) missing from
 * the note blob oid other (NULL: absent) */
static int count_missing(size_t *out, git_repository *repo, const git_oid *mid,
			 const struct buf *mtext, const git_oid *other,
			 struct error *err)
{
	git_blob *bm = NULL, *bo = NULL;
	const char *dm = NULL, *dother = NULL;
	size_t lm = 0, lo = 0;
	int rc = 0;

	if (!mid || oid_same(mid, other))
		return 0;
	if (mtext) {
		dm = mtext->ptr;
		lm = mtext->len;
	} else if ((rc = read_blob(&bm, &dm, &lm, repo, mid, err)) < 0) {
		goto out;
	}
	if (other && (rc = read_blob(&bo, &dother, &lo, repo, other, err)) < 0)
		goto out;
	*out += notes_lines_missing(dm, lm, dother, lo);
out:
	git_blob_free(bm);
	git_blob_free(bo);
	return rc;
}

/* Writes the tree of notes v[0..n) (sharing 2 * depth hex digits) with
 * git's fan-out. */
static int write_tree(git_oid *out, git_repository *repo, const struct note *v,
		      const char *const *hexv, size_t n, size_t depth,
		      struct error *err)
{
	git_treebuilder *tb = NULL;
	size_t i, j;
	int rc;

	if ((rc = git_treebuilder_new(&tb, repo, NULL)) < 0)
		goto fail;
	if (2 * depth + 2 < GIT_OID_HEXSZ &&
	    notes_fanout_split(hexv, n, depth)) {
		for (i = 0; i < n; i = j) {
			char name[3];
			git_oid sub;

			for (j = i + 1;
			     j < n && !memcmp(v[j].hex + 2 * depth,
					      v[i].hex + 2 * depth, 2);
			     j++)
				;
			if ((rc = write_tree(&sub, repo, v + i, hexv + i, j - i,
					     depth + 1, err)) < 0)
				goto out;
			memcpy(name, v[i].hex + 2 * depth, 2);
			name[2] = '\0';
			if ((rc = git_treebuilder_insert(NULL, tb, name, &sub,
							 GIT_FILEMODE_TREE)) <
			    0)
				goto fail;
		}
	} else {
		for (i = 0; i < n; i++)
			if ((rc = git_treebuilder_insert(
				     NULL, tb, v[i].hex + 2 * depth, &v[i].blob,
				     GIT_FILEMODE_BLOB)) < 0)
				goto fail;
	}
	if ((rc = git_treebuilder_write(out, tb)) < 0)
		goto fail;
	goto out;
fail:
	rc = error_git(err, rc, "cannot write the merged notes tree");
out:
	git_treebuilder_free(tb);
	return rc;
}

enum mode { MODE_LOCAL, MODE_REMOTE, MODE_THREE_WAY };

/*
 * The notes merge. Both sides and the base are read as sorted lists and
 * joined like a merge of sorted files; for each object the note of the
 * result is chosen (in MODE_LOCAL and MODE_REMOTE that side's note, else
 * notes_merge_pick), and the result's lines are counted against each side.
 * Only in MODE_THREE_WAY is anything written: combined blobs, the tree and
 * the commit.
 */
static int merge_lists(struct notes_merge_result *res, git_repository *repo,
		       const struct notes *l, const struct notes *r,
		       const struct notes *b, enum mode mode,
		       struct notes *result, struct error *err)
{
	size_t il = 0, ir = 0, ib = 0;
	struct buf text = BUF_INIT;
	int rc = 0;

	while (il < l->nr || ir < r->nr) {
		const char *key;
		const git_oid *lo = NULL, *ro = NULL, *bo = NULL, *mo = NULL;
		const struct buf *mtext = NULL;
		git_oid combined;
		enum notes_pick pick;

		if (il < l->nr &&
		    (ir == r->nr || strcmp(l->v[il].hex, r->v[ir].hex) <= 0))
			key = l->v[il].hex;
		else
			key = r->v[ir].hex;
		if (il < l->nr && !strcmp(l->v[il].hex, key))
			lo = &l->v[il++].blob;
		if (ir < r->nr && !strcmp(r->v[ir].hex, key))
			ro = &r->v[ir++].blob;
		while (ib < b->nr && strcmp(b->v[ib].hex, key) < 0)
			ib++;
		if (ib < b->nr && !strcmp(b->v[ib].hex, key))
			bo = &b->v[ib].blob;
		if (mode == MODE_LOCAL)
			pick = NOTES_PICK_LOCAL;
		else if (mode == MODE_REMOTE)
			pick = NOTES_PICK_REMOTE;
		else
			pick = notes_merge_pick(bo, lo, ro);
		if (pick == NOTES_PICK_LOCAL) {
			mo = lo;
		} else if (pick == NOTES_PICK_REMOTE) {
			mo = ro;
		} else {
			if ((rc = combine_blobs(&combined, &text, repo, lo, ro,
						err)) < 0)
				goto out;
			mo = &combined;
			mtext = &text;
		}
		if (!mo)
			continue;
		if ((rc = count_missing(&res->lines_added, repo, mo, mtext, lo,
					err)) < 0 ||
		    (rc = count_missing(&res->lines_to_push, repo, mo, mtext,
					ro, err)) < 0)
			goto out;
		res->notes++;
		if (mode != MODE_THREE_WAY)
			continue;
		if (result->nr == result->alloc) {
			result->alloc = result->alloc ? 2 * result->alloc : 64;
			result->v = xrealloc(
				result->v, result->alloc * sizeof(*result->v));
		}
		memcpy(result->v[result->nr].hex, key, GIT_OID_HEXSZ + 1);
		git_oid_cpy(&result->v[result->nr++].blob, mo);
	}
out:
	buf_release(&text);
	return rc;
}

static int write_commit(git_oid *out, git_repository *repo,
			const struct notes *result, const git_oid *local,
			const git_oid *remote, const git_signature *sig,
			const char *message, struct error *err)
{
	const char **hexv = xcalloc(result->nr + 1, sizeof(*hexv));
	git_commit *parents[2] = {NULL, NULL};
	git_tree *tree = NULL;
	git_oid tree_id;
	size_t i;
	int rc;

	for (i = 0; i < result->nr; i++)
		hexv[i] = result->v[i].hex;
	if ((rc = write_tree(&tree_id, repo, result->v, hexv, result->nr, 0,
			     err)) < 0)
		goto out;
	if ((rc = git_tree_lookup(&tree, repo, &tree_id)) < 0 ||
	    (rc = git_commit_lookup(&parents[0], repo, local)) < 0 ||
	    (rc = git_commit_lookup(&parents[1], repo, remote)) < 0 ||
	    (rc = git_commit_create(out, repo, NULL, sig, sig, NULL, message,
				    tree, 2, (const git_commit **)parents)) < 0)
		rc = error_git(err, rc, "cannot write the notes merge commit");
out:
	git_commit_free(parents[0]);
	git_commit_free(parents[1]);
	git_tree_free(tree);
	free(hexv);
	return rc;
}

/*
 * Bulk writes. libgit2 writes each loose object with a fresh zlib stream,
 * whose allocation and release dominated a merge of thousands of notes
 * (seconds where git takes a fraction). So the merge writes through a
 * private handle on the same repository whose object database keeps new
 * objects in memory (mempack), and they reach the repository as ONE pack,
 * indexed before anything refers to them. The caller's handle is never
 * given the in-memory backend, so nothing else it writes can be lost.
 */
struct bulk {
	git_repository *repo; /* the private handle */
	git_odb_backend *mem; /* owned by repo's object database */
};

static int bulk_open(struct bulk *b, git_repository *repo, struct error *err)
{
	git_odb *odb = NULL;
	int rc;

	b->repo = NULL;
	b->mem = NULL;
	if ((rc = git_repository_open_ext(&b->repo, git_repository_path(repo),
					  GIT_REPOSITORY_OPEN_NO_SEARCH,
					  NULL)) < 0 ||
	    (rc = git_repository_odb(&odb, b->repo)) < 0 ||
	    (rc = git_mempack_new(&b->mem)) < 0)
		goto out;
	/* the highest priority: new objects go there */
	if ((rc = git_odb_add_backend(odb, b->mem, 1000)) < 0) {
		b->mem->free(b->mem);
		b->mem = NULL;
	}
out:
	git_odb_free(odb);
	if (rc < 0)
		return error_git(err, rc, "cannot open the object database");
	return 0;
}

/* Writes what the private handle holds into repo as one pack. */
static int bulk_flush(struct bulk *b, git_repository *repo, struct error *err)
{
	git_buf pack = {NULL, 0, 0};
	git_odb *odb = NULL;
	git_odb_writepack *wp = NULL;
	git_indexer_progress stats;
	int rc;

	memset(&stats, 0, sizeof(stats));
	if ((rc = git_mempack_dump(&pack, b->repo, b->mem)) < 0 ||
	    (rc = git_repository_odb(&odb, repo)) < 0 ||
	    (rc = git_odb_write_pack(&wp, odb, NULL, NULL)) < 0 ||
	    (rc = wp->append(wp, pack.ptr, pack.size, &stats)) < 0 ||
	    (rc = wp->commit(wp, &stats)) < 0)
		rc = error_git(err, rc, "cannot write the merged notes");
	if (wp)
		wp->free(wp);
	git_odb_free(odb);
	git_buf_dispose(&pack);
	return rc;
}

static void bulk_close(struct bulk *b)
{
	git_repository_free(b->repo); /* frees the mempack backend too */
	b->repo = NULL;
	b->mem = NULL;
}

int notes_merge(struct notes_merge_result *out, git_repository *repo,
		const git_oid *local, const git_oid *remote,
		const git_signature *sig, const char *message,
		struct error *err)
{
	struct notes l = {NULL, 0, 0}, r = {NULL, 0, 0}, b = {NULL, 0, 0};
	struct notes result = {NULL, 0, 0};
	git_oid base;
	const git_oid *basep = NULL;
	enum mode mode = MODE_THREE_WAY;
	struct bulk bulk = {NULL, NULL};
	git_repository *wrepo = repo;
	int rc;

	memset(out, 0, sizeof(*out));
	if (local && remote && !git_oid_equal(local, remote)) {
		rc = git_merge_base(&base, repo, local, remote);
		if (rc < 0 && rc != GIT_ENOTFOUND) {
			rc = error_git(err, rc, "cannot find the notes' base");
			goto out;
		}
		basep = rc < 0 ? NULL : &base;
	}
	if (!remote || (local && git_oid_equal(local, remote)) ||
	    (basep && git_oid_equal(basep, remote)))
		mode = MODE_LOCAL;
	else if (!local || (basep && git_oid_equal(basep, local)))
		mode = MODE_REMOTE;
	if ((rc = load_notes(&l, repo, local, err)) < 0 ||
	    (rc = load_notes(&r, repo, remote, err)) < 0 ||
	    (mode == MODE_THREE_WAY &&
	     (rc = load_notes(&b, repo, basep, err)) < 0))
		goto out;
	if (mode == MODE_THREE_WAY) {
		if ((rc = bulk_open(&bulk, repo, err)) < 0)
			goto out;
		wrepo = bulk.repo;
	}
	if ((rc = merge_lists(out, wrepo, &l, &r, &b, mode, &result, err)) < 0)
		goto out;
	if (mode == MODE_LOCAL) {
		if (local)
			git_oid_cpy(&out->commit, local);
	} else if (mode == MODE_REMOTE) {
		git_oid_cpy(&out->commit, remote);
		out->fast_forward = out->changed = 1;
	} else {
		if ((rc = write_commit(&out->commit, wrepo, &result, local,
				       remote, sig, message, err)) < 0 ||
		    (rc = bulk_flush(&bulk, repo, err)) < 0)
			goto out;
		out->merged = out->changed = 1;
	}
out:
	bulk_close(&bulk);
	free(l.v);
	free(r.v);
	free(b.v);
	free(result.v);
	return rc;
}
