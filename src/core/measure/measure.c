/* Measurements in refs/notes/campaign and their database index: appending
 * lines to a note in one notes commit together with the index rows, and
 * keeping the index in step when git or sync moves the notes ref. */
#include "core/measure/measure.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/measure/notes.h"
#include "import/formats.h"
#include "io/gitlite.h"
#include "io/repo.h"
#include "util/buf.h"
#include "util/trace.h"
#include "util/xalloc.h"

/* meta key: the notes commit the index reflects ("" when there was none) */
#define META_KEY "measurement.notes"
#define HEXSZ GIT_OID_HEXSZ

/* What the index writer keeps between rows. */
struct indexer {
	struct db *db;
	git_repository *repo;
	sqlite3_stmt *ins, *del;
	struct buf config; /* scratch */
	struct record rec; /* scratch */
	size_t rows, bad;
	struct error *err;
};

static int indexer_init(struct indexer *ix, struct db *db, git_repository *repo,
			struct error *err)
{
	int rc;

	memset(ix, 0, sizeof(*ix));
	ix->db = db;
	ix->repo = repo;
	ix->err = err;
	buf_init(&ix->config);
	record_init(&ix->rec);
	if ((rc = db_prepare(&ix->ins, db,
			     "INSERT INTO measurement (commit_id, run, "
			     "metric, value, unit, better, stat, n, arm, ctl, "
			     "iters, env, config, source, at, line) VALUES "
			     "(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, "
			     "?12, ?13, ?14, ?15, ?16)",
			     err)) < 0 ||
	    (rc = db_prepare(&ix->del, db,
			     "DELETE FROM measurement WHERE commit_id = ?1",
			     err)) < 0)
		return rc;
	return 0;
}

static void indexer_release(struct indexer *ix)
{
	sqlite3_finalize(ix->ins);
	sqlite3_finalize(ix->del);
	buf_release(&ix->config);
	record_release(&ix->rec);
}

static int index_record(struct indexer *ix, const char *hex,
			const struct record *r, const char *line, size_t len)
{
	sqlite3_stmt *st = ix->ins;
	int rc;

	buf_reset(&ix->config);
	record_config_json(&ix->config, r);
	sqlite3_bind_text(st, 1, hex, HEXSZ, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, r->run, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, r->metric, -1, SQLITE_STATIC);
	sqlite3_bind_double(st, 4, r->value);
	db_bind_text_or_null(st, 5, r->unit);
	db_bind_text_or_null(st, 6, r->better);
	db_bind_text_or_null(st, 7, r->stat);
	if (r->n)
		sqlite3_bind_int64(st, 8, r->n);
	else
		sqlite3_bind_null(st, 8);
	db_bind_text_or_null(st, 9, r->arm);
	if (r->ctl >= 0)
		sqlite3_bind_int(st, 10, r->ctl);
	else
		sqlite3_bind_null(st, 10);
	if (r->iters >= 0)
		sqlite3_bind_int64(st, 11, r->iters);
	else
		sqlite3_bind_null(st, 11);
	sqlite3_bind_text(st, 12, r->env, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 13, ix->config.ptr, (int)ix->config.len,
			  SQLITE_STATIC);
	db_bind_text_or_null(st, 14, r->source);
	sqlite3_bind_text(st, 15, r->at, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 16, line, (int)len, SQLITE_STATIC);
	rc = sqlite3_step(st);
	sqlite3_reset(st);
	if (rc != SQLITE_DONE)
		return error_sqlite(ix->err, ix->db, rc,
				    "cannot index a measurement");
	ix->rows++;
	return 0;
}

/* Indexes every record line of the note blob on commit hex. */
static int index_blob(struct indexer *ix, const char *hex, const git_oid *id)
{
	struct error skip = ERROR_INIT;
	git_blob *blob = NULL;
	const char *p, *end, *nl;
	int rc;

	if ((rc = git_blob_lookup(&blob, ix->repo, id)) < 0)
		return error_git(ix->err, rc, "cannot read the note on '%s'",
				 hex);
	p = git_blob_rawcontent(blob);
	end = p + git_blob_rawsize(blob);
	for (; p < end; p = nl + 1) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			nl = end;
		if (nl == p)
			continue;
		error_clear(&skip);
		if (record_decode(&ix->rec, p, (size_t)(nl - p), &skip) < 0) {
			/* not ours, or from a newer schema: kept in the
			 * note, left out of the index */
			trace_printf("measure: note on %.12s: skipping a "
				     "line: %s",
				     hex, skip.msg);
			ix->bad++;
			continue;
		}
		if ((rc = index_record(ix, hex, &ix->rec, p,
				       (size_t)(nl - p))) < 0)
			break;
	}
	git_blob_free(blob);
	return rc;
}

static int index_forget(struct indexer *ix, const char *hex)
{
	int rc;

	sqlite3_bind_text(ix->del, 1, hex, HEXSZ, SQLITE_STATIC);
	rc = sqlite3_step(ix->del);
	sqlite3_reset(ix->del);
	if (rc != SQLITE_DONE)
		return error_sqlite(ix->err, ix->db, rc,
				    "cannot update the measurement index");
	return 0;
}

/* Reads the note on commit hex again from tree (none: rows dropped). */
static int index_commit(struct indexer *ix, git_tree *tree, const char *hex)
{
	struct buf path = BUF_INIT;
	git_oid blob;
	int rc;

	if ((rc = index_forget(ix, hex)) < 0)
		goto out;
	rc = notes_find(&blob, &path, ix->repo, tree, hex, ix->err);
	if (rc > 0)
		rc = index_blob(ix, hex, &blob);
out:
	buf_release(&path);
	return rc;
}

struct walk {
	struct indexer *ix;
	int rc;
};

static int walk_note(const char *root, const git_tree_entry *e, void *data)
{
	struct walk *w = data;
	char hex[HEXSZ + 1];
	size_t n = 0;
	const char *p;

	if (git_tree_entry_type(e) != GIT_OBJECT_BLOB)
		return 0;
	for (p = root; *p && n < HEXSZ; p++)
		if (*p != '/')
			hex[n++] = *p;
	for (p = git_tree_entry_name(e); *p && n < HEXSZ; p++)
		hex[n++] = *p;
	if (*p || !notes_is_hex40(hex, n))
		return 0; /* not a note: git allows other files there */
	hex[n] = '\0';
	if ((w->rc = index_blob(w->ix, hex, git_tree_entry_id(e))) < 0)
		return -1;
	return 0;
}

static int index_full(struct indexer *ix, git_tree *tree)
{
	struct walk w = {ix, 0};
	int rc;

	if ((rc = db_exec(ix->db, "DELETE FROM measurement", ix->err)) < 0)
		return rc;
	if (!tree)
		return 0;
	rc = git_tree_walk(tree, GIT_TREEWALK_PRE, walk_note, &w);
	if (w.rc < 0)
		return w.rc;
	if (rc < 0)
		return error_git(ix->err, rc, "cannot read the notes tree");
	return 0;
}

/* The notes on the commits whose paths differ between the two trees are
 * read again. A path is only a hint: git may move a note into a fan-out
 * folder, so each commit is looked up afresh in the new tree. */
static int index_diff(struct indexer *ix, git_tree *old, git_tree *new)
{
	struct strvec touched = STRVEC_INIT;
	git_diff *diff = NULL;
	size_t i, nd;
	int rc;

	if ((rc = git_diff_tree_to_tree(&diff, ix->repo, old, new, NULL)) < 0) {
		rc = error_git(ix->err, rc, "cannot compare the notes trees");
		goto out;
	}
	nd = git_diff_num_deltas(diff);
	for (i = 0; i < nd; i++) {
		const git_diff_delta *d = git_diff_get_delta(diff, i);
		const char *p =
			d->new_file.path ? d->new_file.path : d->old_file.path;
		char hex[HEXSZ + 1];
		size_t n = 0;

		for (; *p && n < HEXSZ; p++)
			if (*p != '/')
				hex[n++] = *p;
		if (*p || !notes_is_hex40(hex, n))
			continue;
		hex[n] = '\0';
		strvec_push(&touched, hex);
	}
	strvec_sort(&touched);
	for (i = 0; i < touched.nr; i++) {
		if (i && !strcmp(touched.v[i], touched.v[i - 1]))
			continue;
		if (new)
			rc = index_commit(ix, new, touched.v[i]);
		else
			rc = index_forget(ix, touched.v[i]);
		if (rc < 0)
			goto out;
	}
out:
	git_diff_free(diff);
	strvec_clear(&touched);
	return rc;
}

static int meta_get(char out[HEXSZ + 1], int *found, struct db *db,
		    struct error *err)
{
	char *v = NULL;
	int rc = db_meta_get(&v, db, META_KEY, err);

	out[0] = '\0';
	*found = rc == 0;
	if (rc == GCAMP_ENOTFOUND) {
		error_clear(err);
		rc = 0;
	}
	if (v && notes_is_hex40(v, strlen(v)))
		memcpy(out, v, HEXSZ + 1);
	free(v);
	return rc;
}

static int meta_set(struct db *db, const char *hex, struct error *err)
{
	return db_meta_set(db, META_KEY, hex, 0, err);
}

/* Brings the index to the notes commit tip (exists: there is one), in the
 * caller's transaction. */
static int index_sync(struct ctx *ctx, git_repository *repo, struct db *db,
		      const git_oid *tip, int exists, int full)
{
	char known[HEXSZ + 1], hex[HEXSZ + 1] = "";
	git_tree *old = NULL, *new = NULL;
	struct indexer ix;
	git_oid known_id;
	int found, rc;

	if ((rc = indexer_init(&ix, db, repo, &ctx->err)) < 0)
		goto out;
	if ((rc = meta_get(known, &found, db, &ctx->err)) < 0)
		goto out;
	if (exists)
		git_oid_tostr(hex, sizeof(hex), tip);
	if (!full && found && !strcmp(known, hex))
		goto out;
	if (exists && (rc = notes_commit_tree(&new, repo, tip, &ctx->err)) < 0)
		goto out;
	/* the commit the index reflects may be gone (a rewritten notes
	 * history, a pruned repository): then read everything again */
	if (!full && found && *known && !git_oid_fromstr(&known_id, known) &&
	    notes_commit_tree(&old, repo, &known_id, &ctx->err) < 0) {
		error_clear(&ctx->err);
		old = NULL;
	}
	if (old) {
		trace_printf("measure: index %.12s -> %.12s", known, hex);
		rc = index_diff(&ix, old, new);
	} else {
		trace_printf("measure: rebuilding the index from '%s'", hex);
		rc = index_full(&ix, new);
	}
	if (rc < 0)
		goto out;
	rc = meta_set(db, hex, &ctx->err);
out:
	git_tree_free(old);
	git_tree_free(new);
	indexer_release(&ix);
	return rc;
}

static int open_store(git_repository **repo, struct db **db, struct ctx *ctx)
{
	int rc;

	if ((rc = ctx_repo(repo, ctx, 0)) < 0)
		return rc;
	/* a database deleted by hand is made again, and filled from the
	 * notes by the first update */
	return ctx_db(db, ctx, DB_CREATE);
}

static int update(struct ctx *ctx, int full, int lazy)
{
	char known[HEXSZ + 1], hex[HEXSZ + 1] = "";
	git_repository *repo;
	struct gitlite *lite;
	struct refs refs;
	struct db *db;
	git_oid tip;
	int exists, found, rc;

	/* an index that is up to date is known without libgit2 */
	if (lazy) {
		if ((rc = ctx_lite(&lite, ctx)) < 0 ||
		    (rc = ctx_db(&db, ctx, DB_CREATE)) < 0 ||
		    (rc = meta_get(known, &found, db, &ctx->err)) < 0)
			return rc;
		gitlite_refs(&refs, lite);
		if (refs_resolve(hex, &refs, MEASURE_NOTES_REF) < 0)
			hex[0] = '\0';
		if (found && !strcmp(known, hex))
			return 0;
	}
	if ((rc = open_store(&repo, &db, ctx)) < 0)
		return rc;
	if ((rc = db_begin(db, &ctx->err)) < 0)
		return rc;
	/* the ref may have moved while we waited for the write lock */
	if ((rc = notes_tip(&tip, &exists, repo, &ctx->err)) < 0 ||
	    (rc = index_sync(ctx, repo, db, &tip, exists, full)) < 0 ||
	    (rc = db_commit(db, &ctx->err)) < 0)
		db_rollback(db);
	return rc;
}

int measure_reindex(struct ctx *ctx, int full)
{
	return update(ctx, full, 0);
}

int measure_index_update(struct ctx *ctx)
{
	return update(ctx, 0, 1);
}

/* Lines sorted with their place, so that equal lines sort in the order
 * they came: the first of each run of equal lines keeps its seq. */
struct placed_line {
	const char *line;
	size_t at;
};

static int cmp_placed(const void *a, const void *b)
{
	const struct placed_line *x = a, *y = b;
	int c = strcmp(x->line, y->line);

	if (c)
		return c;
	return x->at < y->at ? -1 : x->at > y->at;
}

/*
 * Every record is written, and as a line of its own: notes are merged by
 * line (sync takes two equal lines for one, as git's cat_sort_uniq
 * does), so a record equal to an earlier one of recs in every key gets a
 * seq past the earlier one's (1, 2, ... for the repeats of one record),
 * encoded into lines->v. One sort per round, so that many equal lines cost
 * no more than none; a new seq can meet a record that had it already (an
 * input that gave seq), and the next round moves it on: seqs only grow,
 * so the rounds end. seqs[i] is the seq of line i.
 */
static int distinct_lines(struct strvec *lines, const struct record *recs,
			  long *seqs, size_t n, struct error *err)
{
	struct placed_line *sorted = xmalloc((n ? n : 1) * sizeof(*sorted));
	struct buf b = BUF_INIT;
	size_t i, k, moved;
	int rc = 0;

	do {
		for (i = 0; i < n; i++) {
			sorted[i].line = lines->v[i];
			sorted[i].at = i;
		}
		qsort(sorted, n, sizeof(*sorted), cmp_placed);
		moved = 0;
		for (i = 1, k = 0; i < n && rc >= 0; i++) {
			struct record r;
			size_t at = sorted[i].at;

			if (strcmp(sorted[i].line, sorted[i - 1].line)) {
				k = 0;
				continue;
			}
			/* sorted[] points into lines: the new line waits */
			r = recs[at];
			r.seq = seqs[at] + (long)++k;
			buf_reset(&b);
			if ((rc = record_encode(&b, &r, err)) < 0)
				break;
			seqs[at] = r.seq;
			free(lines->v[at]);
			lines->v[at] = buf_detach(&b);
			/* the later equal ones compare with this one's old
			 * text no more: keep k counting from the run's head */
			sorted[i].line = sorted[i - 1].line;
			moved++;
		}
	} while (moved && rc >= 0);
	buf_release(&b);
	free(sorted);
	return rc;
}

/* After the ref did not move: the index back to where the ref is, at once
 * where the disk allows, keeping the error of the move (else the next
 * reader does it). */
static void index_mend(struct ctx *ctx, git_repository *repo, struct db *db)
{
	struct error saved = ctx->err;
	git_oid tip;
	int exists;

	error_clear(&ctx->err);
	if (db_begin(db, &ctx->err) < 0)
		goto out;
	if (notes_tip(&tip, &exists, repo, &ctx->err) < 0 ||
	    index_sync(ctx, repo, db, &tip, exists, 0) < 0 ||
	    db_commit(db, &ctx->err) < 0)
		db_rollback(db);
out:
	ctx->err = saved;
}

/* One attempt: 0, 1 when another writer moved the ref first (nothing was
 * written), or a negative code. */
static int append_once(struct ctx *ctx, git_repository *repo, struct db *db,
		       const git_oid *commit, const struct record *recs,
		       const struct strvec *lines, const char *why)
{
	char hex[HEXSZ + 1];
	struct indexer ix;
	git_oid tip, new_tip;
	struct notes_write w = {&tip, 0, hex, lines, why};
	size_t i;
	int exists = 0, rc;

	memset(&ix, 0, sizeof(ix));
	git_oid_tostr(hex, sizeof(hex), commit);
	if ((rc = db_begin(db, &ctx->err)) < 0)
		return rc;
	if ((rc = notes_tip(&tip, &exists, repo, &ctx->err)) < 0 ||
	    (rc = index_sync(ctx, repo, db, &tip, exists, 0)) < 0)
		goto fail;
	w.exists = exists;
	if ((rc = notes_write_commit(&new_tip, ctx, repo, &w)) < 0 ||
	    (rc = indexer_init(&ix, db, repo, &ctx->err)) < 0)
		goto fail;
	for (i = 0; i < lines->nr; i++)
		if ((rc = index_record(&ix, hex, &recs[i], lines->v[i],
				       strlen(lines->v[i]))) < 0)
			goto fail;
	git_oid_tostr(hex, sizeof(hex), &new_tip);
	/*
	 * The index is committed first, saying it reflects new_tip, and the
	 * move of the ref is the one step that records the lines: when the
	 * disk fills or a lock is held there, nothing is recorded and a retry
	 * cannot double them. An index ahead of the ref is what any reader
	 * mends: its meta names a notes commit the ref is not at, so
	 * index_sync reads the touched note again (a kill between the two
	 * steps leaves the same).
	 */
	if ((rc = meta_set(db, hex, &ctx->err)) < 0 ||
	    (rc = db_commit(db, &ctx->err)) < 0)
		goto fail;
	if ((rc = notes_move_ref(ctx, repo, exists, &tip, &new_tip, why)))
		index_mend(ctx, repo, db);
	goto out;
fail:
	db_rollback(db);
out:
	indexer_release(&ix);
	return rc;
}

int measure_append(struct ctx *ctx, const git_oid *commit,
		   const struct record *recs, size_t n, const char *why)
{
	size_t written;

	return measure_append_counted(ctx, commit, recs, n, why, &written);
}

int measure_append_counted(struct ctx *ctx, const git_oid *commit,
			   const struct record *recs, size_t n, const char *why,
			   size_t *written)
{
	struct strvec lines = STRVEC_INIT;
	git_repository *repo;
	struct db *db;
	long *seqs = xcalloc(n ? n : 1, sizeof(*seqs));
	size_t i;
	int rc, tries;

	*written = 0;
	for (i = 0; i < n; i++) {
		struct buf b = BUF_INIT;

		if ((rc = record_encode(&b, &recs[i], &ctx->err)) < 0) {
			buf_release(&b);
			goto out;
		}
		strvec_push_owned(&lines, buf_detach(&b));
		seqs[i] = recs[i].seq;
	}
	if ((rc = distinct_lines(&lines, recs, seqs, n, &ctx->err)) < 0 ||
	    (rc = open_store(&repo, &db, ctx)) < 0)
		goto out;
	for (tries = 0; tries < 5; tries++)
		if ((rc = append_once(ctx, repo, db, commit, recs, &lines,
				      why)) <= 0) {
			if (!rc)
				*written = n;
			goto out;
		}
	rc = error_set(&ctx->err, GCAMP_EFATAL,
		       "cannot update '%s': it kept moving under us",
		       MEASURE_NOTES_REF);
out:
	strvec_clear(&lines);
	free(seqs);
	return rc;
}

void measure_records_free(struct record *recs, size_t n)
{
	size_t i;

	for (i = 0; recs && i < n; i++)
		record_release(&recs[i]);
	free(recs);
}

int measure_read_note(struct record **out, size_t *nout, size_t *nbad,
		      struct ctx *ctx, const git_oid *commit)
{
	struct record *recs = NULL;
	size_t nr = 0, alloc = 0;
	struct buf path = BUF_INIT;
	git_repository *repo;
	git_tree *tree = NULL;
	git_blob *blob = NULL;
	const char *p, *end, *nl;
	char hex[HEXSZ + 1];
	git_oid tip, id;
	int exists, rc;

	*out = NULL;
	*nout = *nbad = 0;
	git_oid_tostr(hex, sizeof(hex), commit);
	if ((rc = ctx_repo(&repo, ctx, 0)) < 0 ||
	    (rc = notes_tip(&tip, &exists, repo, &ctx->err)) < 0 || !exists ||
	    (rc = notes_commit_tree(&tree, repo, &tip, &ctx->err)) < 0 ||
	    (rc = notes_find(&id, &path, repo, tree, hex, &ctx->err)) <= 0)
		goto out;
	if ((rc = git_blob_lookup(&blob, repo, &id)) < 0) {
		rc = error_git(&ctx->err, rc, "cannot read the note on '%s'",
			       hex);
		goto out;
	}
	p = git_blob_rawcontent(blob);
	end = p + git_blob_rawsize(blob);
	for (; p < end; p = nl + 1) {
		struct error skip = ERROR_INIT;

		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			nl = end;
		if (nl == p)
			continue;
		if (nr == alloc) {
			alloc = alloc ? 2 * alloc : 16;
			recs = xrealloc(recs, alloc * sizeof(*recs));
		}
		record_init(&recs[nr]);
		if (record_decode(&recs[nr], p, (size_t)(nl - p), &skip) < 0)
			(*nbad)++;
		else
			nr++;
	}
	rc = 0;
out:
	if (rc < 0) {
		measure_records_free(recs, nr);
		recs = NULL;
		nr = 0;
	}
	*out = recs;
	*nout = nr;
	git_blob_free(blob);
	git_tree_free(tree);
	buf_release(&path);
	return rc;
}

void measure_record_from_import(struct record *r, const struct import_rec *in,
				const char *source)
{
	struct error ignored = ERROR_INIT;
	size_t i;

	record_init(r);
	r->metric = xstrdup(in->metric);
	r->value = in->value;
	r->unit = in->unit ? xstrdup(in->unit) : NULL;
	if (in->better == IMPORT_BETTER_LOWER)
		r->better = xstrdup("lower");
	else if (in->better == IMPORT_BETTER_HIGHER)
		r->better = xstrdup("higher");
	r->stat = in->stat ? xstrdup(in->stat) : NULL;
	if (in->samples && in->nsamples) {
		r->samples = xmalloc(in->nsamples * sizeof(double));
		memcpy(r->samples, in->samples, in->nsamples * sizeof(double));
		r->nsamples = in->nsamples;
		r->n = (long)in->nsamples;
	}
	if (in->count) {
		r->summary = 1;
		r->n = (long)in->count;
		r->min = in->min;
		r->p10 = in->p10;
		r->p90 = in->p90;
		r->max = in->max;
		r->sum = in->sum;
	}
	/* an importer's pair without '=' has no key: left out */
	for (i = 0; i < in->config.nr; i++)
		record_config_parse(r, in->config.v[i], &ignored);
	r->source = xstrdup(source);
}
