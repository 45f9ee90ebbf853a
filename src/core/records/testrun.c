/* Test results per class, commit and environment in the database. */
#include "core/records/testrun.h"

#include <git2.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/refs.h"
#include "io/repo.h"
#include "util/buf.h"
#include "util/clock.h"
#include "util/xalloc.h"

enum { T_PASSED, T_FAILED, T_SKIPPED, T_UNSUPPORTED, T_NONE };

/* which count a record's metric adds to */
static int count_of(const char *metric)
{
	if (!strcmp(metric, "tests.passed"))
		return T_PASSED;
	if (!strcmp(metric, "tests.failed") || !strcmp(metric, "tests.errored"))
		return T_FAILED;
	if (!strcmp(metric, "tests.skipped"))
		return T_SKIPPED;
	if (!strcmp(metric, "tests.unsupported"))
		return T_UNSUPPORTED;
	return T_NONE;
}

static const char *rec_class(const struct import_rec *r)
{
	size_t i;

	for (i = 0; i < r->config.nr; i++)
		if (!strncmp(r->config.v[i], "class=", 6))
			return r->config.v[i] + 6;
	return NULL;
}

struct agg {
	const char *name; /* borrowed from the set */
	long c[4];
};

/* the set's counts summed per class (a class may come in several blocks,
 * one per method run) */
static struct agg *aggregate(size_t *n, const struct import_set *set)
{
	struct agg *v = NULL;
	size_t i, j, alloc = 0;

	*n = 0;
	for (i = 0; i < set->nr; i++) {
		const char *cls = rec_class(&set->recs[i]);
		int k = count_of(set->recs[i].metric);

		if (!cls || k == T_NONE)
			continue;
		for (j = 0; j < *n && strcmp(v[j].name, cls); j++)
			;
		if (j == *n) {
			if (*n == alloc) {
				alloc = alloc ? 2 * alloc : 16;
				v = xrealloc(v, alloc * sizeof(*v));
			}
			memset(&v[j], 0, sizeof(*v));
			v[j].name = cls;
			(*n)++;
		}
		v[j].c[k] += (long)set->recs[i].value;
	}
	return v;
}

int testrun_store(size_t *out, struct ctx *ctx, const struct import_set *set,
		  const char *commit, const char *env)
{
	sqlite3_stmt *st = NULL;
	struct db *db = NULL;
	struct agg *v;
	size_t n, i;
	char now[21];
	int rc = 0, k;

	*out = 0;
	v = aggregate(&n, set);
	if (!n) {
		rc = error_set(&ctx->err, GCAMP_EFATAL,
			       "no per-class test counts in the input (%s)",
			       set->format ? set->format : "unknown format");
		goto out;
	}
	if ((rc = ctx_db(&db, ctx, DB_CREATE)) < 0 ||
	    (rc = db_begin(db, &ctx->err)) < 0)
		goto out;
	if ((rc = db_prepare(&st, db,
			     "INSERT OR REPLACE INTO test_result VALUES "
			     "(?, ?, ?, ?, ?, ?, ?, ?, ?)",
			     &ctx->err)) < 0)
		goto rollback;
	clock_now_iso(now);
	for (i = 0; i < n; i++) {
		sqlite3_reset(st);
		sqlite3_bind_text(st, 1, commit, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 2, env, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 3, v[i].name, -1, SQLITE_STATIC);
		for (k = 0; k < 4; k++)
			sqlite3_bind_int64(st, 4 + k, v[i].c[k]);
		sqlite3_bind_text(st, 8, set->format ? set->format : "", -1,
				  SQLITE_STATIC);
		sqlite3_bind_text(st, 9, now, -1, SQLITE_STATIC);
		if ((rc = sqlite3_step(st)) != SQLITE_DONE) {
			rc = error_sqlite(&ctx->err, db, rc,
					  "cannot store the test results");
			goto rollback;
		}
	}
	sqlite3_finalize(st);
	st = NULL;
	/* the totals the baselines read, replaced as a whole: a new row, so
	 * the newest import is also the row written last */
	if ((rc = db_prepare(&st, db,
			     "INSERT OR REPLACE INTO test_total"
			     " SELECT commit_id, env, sum(passed), sum(failed),"
			     " sum(skipped), sum(unsupported), count(*), ?3"
			     " FROM test_result WHERE commit_id = ?1"
			     " AND env = ?2 GROUP BY commit_id, env",
			     &ctx->err)) < 0)
		goto rollback;
	sqlite3_bind_text(st, 1, commit, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, env, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, now, -1, SQLITE_STATIC);
	if ((rc = sqlite3_step(st)) != SQLITE_DONE) {
		rc = error_sqlite(&ctx->err, db, rc,
				  "cannot store the test totals");
		goto rollback;
	}
	sqlite3_finalize(st);
	st = NULL;
	if ((rc = db_commit(db, &ctx->err)) < 0)
		goto rollback;
	*out = n;
	goto out;
rollback:
	sqlite3_finalize(st);
	db_rollback(db);
out:
	free(v);
	return rc;
}

static void copy_col(char *dst, size_t size, sqlite3_stmt *st, int i)
{
	const unsigned char *t = sqlite3_column_text(st, i);

	snprintf(dst, size, "%s", t ? (const char *)t : "");
}

void testrun_totals_free(struct testrun_total *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(v[i].at);
	free(v);
}

/*
 * One indexed row per environment, no temporary table: each step finds the
 * first env at or after ?1 in the index test_total_env, and its latest
 * import as the last entry of its (env, at, rowid) range. The next step
 * starts at the env just read followed by "\x01": no env (text, without
 * NUL bytes) lies between the two.
 */
static const char baseline_sql[] =
	"SELECT x.env, x.commit_id, x.at, x.passed, x.failed, x.skipped,"
	" x.unsupported, x.classes FROM test_total x"
	" WHERE x.env = (SELECT e.env FROM test_total e WHERE e.env >= ?1"
	"  ORDER BY e.env LIMIT 1)"
	" ORDER BY x.at DESC, x.rowid DESC LIMIT 1";

int testrun_baseline(struct testrun_total **out, size_t *n, struct ctx *ctx,
		     const char *env, size_t limit)
{
	sqlite3_stmt *st = NULL;
	struct buf from = BUF_INIT;
	struct db *db;
	size_t alloc = 0;
	int rc;

	*out = NULL;
	*n = 0;
	if ((rc = ctx_db_if_any(&db, ctx)) < 0 || !db)
		return rc;
	if ((rc = db_prepare(&st, db, baseline_sql, &ctx->err)) < 0)
		return rc;
	buf_puts(&from, env ? env : "");
	rc = SQLITE_DONE;
	while (!limit || *n < limit) {
		const char *e, *at;
		struct testrun_total *t;

		sqlite3_reset(st);
		sqlite3_bind_text(st, 1, from.ptr, (int)from.len,
				  SQLITE_TRANSIENT);
		if ((rc = sqlite3_step(st)) != SQLITE_ROW)
			break;
		e = (const char *)sqlite3_column_text(st, 0);
		if (!e || (env && strcmp(e, env)))
			break;
		if (*n == alloc) {
			alloc = alloc ? 2 * alloc : 4;
			*out = xrealloc(*out, alloc * sizeof(**out));
		}
		t = &(*out)[(*n)++];
		memset(t, 0, sizeof(*t));
		copy_col(t->env, sizeof(t->env), st, 0);
		copy_col(t->commit, sizeof(t->commit), st, 1);
		at = (const char *)sqlite3_column_text(st, 2);
		t->at = xstrdup(at ? at : "");
		t->passed = (long)sqlite3_column_int64(st, 3);
		t->failed = (long)sqlite3_column_int64(st, 4);
		t->skipped = (long)sqlite3_column_int64(st, 5);
		t->unsupported = (long)sqlite3_column_int64(st, 6);
		t->classes = (long)sqlite3_column_int64(st, 7);
		if (env)
			break;
		buf_reset(&from);
		buf_addf(&from, "%s\x01", e);
	}
	sqlite3_finalize(st);
	buf_release(&from);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
		testrun_totals_free(*out, *n);
		*out = NULL;
		*n = 0;
		return error_sqlite(&ctx->err, db, rc,
				    "cannot read the test results");
	}
	return 0;
}

void testrun_classes_free(struct testrun_class *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(v[i].name);
		free(v[i].format);
	}
	free(v);
}

int testrun_classes(struct testrun_class **out, size_t *n, struct ctx *ctx,
		    const char *commit, const char *env)
{
	sqlite3_stmt *st = NULL;
	struct db *db;
	size_t alloc = 0;
	int rc;

	*out = NULL;
	*n = 0;
	if ((rc = ctx_db_if_any(&db, ctx)) < 0 || !db)
		return rc;
	if ((rc = db_prepare(&st, db,
			     "SELECT class, passed, failed, skipped, "
			     "unsupported, format FROM test_result WHERE "
			     "commit_id = ? AND env = ? ORDER BY class",
			     &ctx->err)) < 0)
		return rc;
	sqlite3_bind_text(st, 1, commit, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, env, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct testrun_class *c;

		if (*n == alloc) {
			alloc = alloc ? 2 * alloc : 16;
			*out = xrealloc(*out, alloc * sizeof(**out));
		}
		c = &(*out)[(*n)++];
		c->name = xstrdup((const char *)sqlite3_column_text(st, 0));
		c->passed = (long)sqlite3_column_int64(st, 1);
		c->failed = (long)sqlite3_column_int64(st, 2);
		c->skipped = (long)sqlite3_column_int64(st, 3);
		c->unsupported = (long)sqlite3_column_int64(st, 4);
		c->format = xstrdup((const char *)sqlite3_column_text(st, 5));
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		testrun_classes_free(*out, *n);
		*out = NULL;
		*n = 0;
		return error_sqlite(&ctx->err, db, rc,
				    "cannot read the test results");
	}
	return 0;
}

int testrun_envs(struct strvec *out, struct ctx *ctx, const char *commit)
{
	sqlite3_stmt *st = NULL;
	struct db *db;
	int rc;

	if ((rc = ctx_db_if_any(&db, ctx)) < 0 || !db)
		return rc;
	if ((rc = db_prepare(&st, db,
			     "SELECT DISTINCT env FROM test_result WHERE "
			     "commit_id = ? ORDER BY env",
			     &ctx->err)) < 0)
		return rc;
	sqlite3_bind_text(st, 1, commit, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		strvec_push(out, (const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return error_sqlite(&ctx->err, db, rc,
				    "cannot read the test results");
	return 0;
}

/* The commits tested on env, sorted, into out. */
static int tested_commits(struct strvec *out, struct ctx *ctx, struct db *db,
			  const char *env)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if ((rc = db_prepare(&st, db,
			     "SELECT DISTINCT commit_id FROM test_total"
			     " WHERE env = ?1",
			     &ctx->err)) < 0)
		return rc;
	sqlite3_bind_text(st, 1, env, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const unsigned char *t = sqlite3_column_text(st, 0);

		if (t)
			strvec_push(out, (const char *)t);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return error_sqlite(&ctx->err, db, rc,
				    "cannot read the test results");
	strvec_sort(out);
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The totals of commit on env into out. */
static int commit_total(struct testrun_total *out, struct ctx *ctx,
			struct db *db, const char *env, const char *commit)
{
	sqlite3_stmt *st = NULL;
	const char *at;
	int rc;

	if ((rc = db_prepare(&st, db,
			     "SELECT passed, failed, skipped, unsupported,"
			     " classes, at FROM test_total"
			     " WHERE env = ?1 AND commit_id = ?2",
			     &ctx->err)) < 0)
		return rc;
	sqlite3_bind_text(st, 1, env, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, commit, -1, SQLITE_STATIC);
	if ((rc = sqlite3_step(st)) != SQLITE_ROW) {
		sqlite3_finalize(st);
		return error_sqlite(&ctx->err, db, rc,
				    "cannot read the test totals");
	}
	memset(out, 0, sizeof(*out));
	snprintf(out->env, sizeof(out->env), "%s", env);
	snprintf(out->commit, sizeof(out->commit), "%s", commit);
	out->passed = (long)sqlite3_column_int64(st, 0);
	out->failed = (long)sqlite3_column_int64(st, 1);
	out->skipped = (long)sqlite3_column_int64(st, 2);
	out->unsupported = (long)sqlite3_column_int64(st, 3);
	out->classes = (long)sqlite3_column_int64(st, 4);
	at = (const char *)sqlite3_column_text(st, 5);
	out->at = xstrdup(at ? at : "");
	sqlite3_finalize(st);
	return 0;
}

int testrun_base_total(struct testrun_total *out, int *found, struct ctx *ctx,
		       const char *env, const char *base, const char *remote)
{
	struct strvec tested = STRVEC_INIT;
	char hex[REFS_HEX_SIZE];
	git_repository *repo;
	git_commit *c = NULL, *parent = NULL;
	struct refs refs;
	git_oid oid;
	struct db *db;
	int depth, rc;

	*found = 0;
	memset(out, 0, sizeof(*out));
	if ((rc = ctx_db_if_any(&db, ctx)) < 0 || !db)
		return rc;
	if ((rc = ctx_repo(&repo, ctx, 0)) < 0)
		return rc;
	repo_refs(&refs, repo);
	/* a base that is not here has no result here */
	if (refs_branch_tip(hex, &refs, remote, base) < 0 ||
	    git_oid_fromstr(&oid, hex) < 0 ||
	    git_commit_lookup(&c, repo, &oid) < 0)
		return 0;
	if ((rc = tested_commits(&tested, ctx, db, env)) < 0)
		goto out;
	for (depth = 0; tested.nr && depth < TESTRUN_BASE_DEPTH; depth++) {
		const char *key;

		git_oid_tostr(hex, sizeof(hex), git_commit_id(c));
		key = hex;
		if (bsearch(&key, tested.v, tested.nr, sizeof(*tested.v),
			    cmp_str)) {
			if ((rc = commit_total(out, ctx, db, env, hex)) == 0)
				*found = 1;
			break;
		}
		if (git_commit_parent(&parent, c, 0) < 0)
			break;
		git_commit_free(c);
		c = parent;
		parent = NULL;
	}
out:
	git_commit_free(c);
	strvec_clear(&tested);
	return rc;
}

/* fn of refs_for_each_prefix: the first branch whose tip is or descends
 * from the commit */
struct branch_find {
	git_repository *repo;
	git_oid commit;
	char *name;
};

static int branch_holds(const char *refname, const char *oid, void *data)
{
	struct branch_find *f = data;
	git_oid tip;

	if (git_oid_fromstr(&tip, oid) < 0)
		return 0;
	if (git_oid_equal(&tip, &f->commit) ||
	    git_graph_descendant_of(f->repo, &tip, &f->commit) == 1) {
		f->name = xstrdup(refname + strlen("refs/heads/"));
		return 1;
	}
	return 0;
}

int testrun_branch_of(char **out, struct ctx *ctx, const char *commit)
{
	struct branch_find f = {NULL, {{0}}, NULL};
	struct refs refs;
	int rc;

	*out = NULL;
	if ((rc = ctx_repo(&f.repo, ctx, 0)) < 0)
		return rc;
	if (git_oid_fromstr(&f.commit, commit) < 0)
		return 0;
	repo_refs(&refs, f.repo);
	rc = refs_for_each_prefix(&refs, "refs/heads/", branch_holds, &f);
	*out = f.name;
	return rc < 0 ? rc : 0;
}
