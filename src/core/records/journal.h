/* The operation journal: a multi-step command (ab, restack, submit) records
 * itself before its first step and each step before doing it, so that after
 * a crash `status` can name it and its --continue/--abort can finish it. */
#ifndef GCAMP_JOURNAL_H
#define GCAMP_JOURNAL_H

#include <stddef.h>

#include "io/db.h"
#include "util/error.h"

struct journal_op {
	long long id;
	char *kind;	    /* "ab", "restack", ... */
	char *worktree;	    /* the work tree that started it */
	char *summary;	    /* one line for status */
	char *continue_cmd; /* "git campaign ab --continue" */
	char *abort_cmd;
	long long pid;
	char *started_at; /* ISO 8601 UTC */
	char *updated_at;
	char *last_step; /* NULL before the first step */
};

/* Records a running operation; *out_id is its id. */
int journal_begin(long long *out_id, struct db *db, const char *kind,
		  const char *worktree, const char *summary,
		  const char *continue_cmd, const char *abort_cmd,
		  struct error *err);
/* Appends step (with its JSON data, "{}" when NULL) to operation id. */
int journal_step(struct db *db, long long id, const char *step,
		 const char *data, struct error *err);
/* Marks operation id done (ok = 1) or aborted (ok = 0). */
int journal_finish(struct db *db, long long id, int ok, struct error *err);

/* The running operations, oldest first, in a new array of *out_n entries;
 * free it with journal_ops_free(). */
int journal_unfinished(struct journal_op **out, size_t *out_n, struct db *db,
		       struct error *err);
void journal_ops_free(struct journal_op *ops, size_t n);

struct journal_step {
	char *step;
	char *data; /* JSON */
};

/* Every step of operation id, in order, in a new array of *out_n entries;
 * free it with journal_steps_free(). */
int journal_read(struct journal_step **out, size_t *out_n, struct db *db,
		 long long id, struct error *err);
void journal_steps_free(struct journal_step *steps, size_t n);

/* The id and kind (the caller frees *kind) of the operation finished last
 * (done, not aborted) whose kind is one of the NULL-terminated kinds (at
 * most 8); *id 0 and *kind NULL when there is none. */
int journal_last_done(long long *id, char **kind, struct db *db,
		      const char *const *kinds, struct error *err);
/* The same, of the operations older than operation before (0: of all). */
int journal_done_before(long long *id, char **kind, struct db *db,
			const char *const *kinds, long long before,
			struct error *err);

/* How many finished (done or aborted) operations were last updated before
 * cutoff (ISO 8601 UTC), into *out. */
int journal_count_finished_before(int *out, struct db *db, const char *cutoff,
				  struct error *err);
/* Deletes those operations and their steps, in one transaction. */
int journal_prune_finished_before(struct db *db, const char *cutoff,
				  struct error *err);

#endif
