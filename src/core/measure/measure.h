/* Measurements attached to commits: schema-1 lines in the notes of
 * refs/notes/campaign (the durable, shareable record) and their index in
 * the database table `measurement` (rebuilt from the notes at will). */
#ifndef GCAMP_MEASURE_H
#define GCAMP_MEASURE_H

#include <git2.h>

#include "core/base/ctx.h"
#include "core/measure/line.h"

#define MEASURE_NOTES_REF "refs/notes/campaign"

/*
 * Appends recs[0..n) (complete records: record_check must pass) as lines
 * of the note on commit, in ONE notes commit on refs/notes/campaign, and
 * indexes them, in one step: the database transaction is opened first,
 * the ref is moved by compare-and-swap on its old id (reflog message
 * "campaign: WHY"), then the transaction is committed; when that commit
 * fails the ref is moved back. So either both the note and the index hold
 * the lines, or neither does. Every record is written: one equal in every
 * key to an earlier one of recs gets a seq past it (line.h), so that no
 * merge of notes by line takes the two for one.
 * The index is brought up to date with the notes first (see
 * measure_index_update). 0, or a negative code with ctx->err set.
 */
int measure_append(struct ctx *ctx, const git_oid *commit,
		   const struct record *recs, size_t n, const char *why);

/* measure_append, and sets *written to the number of lines it wrote: n
 * on success, 0 on failure. */
int measure_append_counted(struct ctx *ctx, const git_oid *commit,
			   const struct record *recs, size_t n, const char *why,
			   size_t *written);

/*
 * Brings the measurement index in line with refs/notes/campaign. full=1
 * rebuilds it from the notes alone (every row dropped and read again);
 * full=0 is incremental: the notes commit the index reflects (meta key
 * 'measurement.notes') is diffed against the ref's, and only the notes
 * that changed are read again (a full rebuild when that commit is gone).
 * Lines that are not schema-1 records are left out of the index (they stay
 * in the notes). Used by `sync --reindex` (full=1) and after a sync.
 */
int measure_reindex(struct ctx *ctx, int full);

/* measure_reindex(ctx, 0), skipped cheaply when the index is current.
 * Every reader of the index calls it first. */
int measure_index_update(struct ctx *ctx);

struct import_rec;
/* Fills r (record_init first) from what an importer found: metric, value,
 * unit, better, stat, samples, a summary (n, min, p10, p90, max, sum) and
 * config; source is the importer's name
 * ("ncu"). An importer's pair without '=' has no key and is left out. */
void measure_record_from_import(struct record *r, const struct import_rec *in,
				const char *source);

/*
 * Reads the note on commit straight from refs/notes/campaign: its
 * schema-1 records into *out (an array the caller frees with
 * measure_records_free), their count in *nout, and the number of lines that
 * are not records in *nbad. No note: 0 with *nout = 0.
 */
int measure_read_note(struct record **out, size_t *nout, size_t *nbad,
		      struct ctx *ctx, const git_oid *commit);

/* Frees n records and the array. Accepts NULL. */
void measure_records_free(struct record *recs, size_t n);

#endif
