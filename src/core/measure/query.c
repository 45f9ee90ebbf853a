/* Reading measurements: the series of one metric along first-parent
 * history (from the index) and the comparison of two commits (from the
 * notes), with the refusals that keep numbers of different machines or
 * configurations apart. */
#include "core/measure/query.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/machine/fingerprint.h"
#include "core/measure/measure.h"
#include "io/repo.h"
#include "util/buf.h"
#include "util/xalloc.h"

/* 1 when the canonical config JSON cfg holds every "k=v" of filter */
static int config_matches(const char *cfg, const struct strvec *filter)
{
	cJSON *j;
	size_t i;
	int ok = 1;

	if (!filter || !filter->nr)
		return 1;
	j = cJSON_Parse(cfg);
	for (i = 0; ok && i < filter->nr; i++) {
		const char *kv = filter->v[i], *eq = strchr(kv, '=');
		char *key = xstrndup(kv, eq ? (size_t)(eq - kv) : strlen(kv));
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(j, key);

		ok = eq && cJSON_IsString(v) && !strcmp(v->valuestring, eq + 1);
		free(key);
	}
	cJSON_Delete(j);
	return ok;
}

/* Appends to out the keys whose values are not the same in every one of
 * the n canonical config JSONs (missing in some counts), sorted. */
static void config_diff_keys(struct strvec *out, char *const *cfgs, size_t n)
{
	cJSON **js = xcalloc(n ? n : 1, sizeof(*js));
	struct strvec keys = STRVEC_INIT;
	const cJSON *e;
	size_t i, k;

	for (i = 0; i < n; i++) {
		js[i] = cJSON_Parse(cfgs[i]);
		for (e = js[i] ? js[i]->child : NULL; e; e = e->next)
			strvec_push(&keys, e->string);
	}
	strvec_sort(&keys);
	for (k = 0; k < keys.nr; k++) {
		const cJSON *first;

		if (k && !strcmp(keys.v[k], keys.v[k - 1]))
			continue;
		first = cJSON_GetObjectItemCaseSensitive(js[0], keys.v[k]);
		for (i = 1; i < n; i++) {
			const cJSON *v = cJSON_GetObjectItemCaseSensitive(
				js[i], keys.v[k]);

			if (!first || !v ||
			    strcmp(first->valuestring, v->valuestring))
				break;
		}
		if (!first || i < n)
			strvec_push(out, keys.v[k]);
	}
	for (i = 0; i < n; i++)
		cJSON_Delete(js[i]);
	free(js);
	strvec_clear(&keys);
}

/* The config a record is grouped by, as canonical JSON: its own config
 * without b_tree (which tree an A/B's B arm measured: where the record
 * counts, not what it measures) and with its iteration count as the key
 * "iters", since numbers at different counts are different benchmarks */
static void group_config(struct buf *out, const struct record *r)
{
	struct record g;
	size_t i;

	record_init(&g);
	for (i = 0; i < r->config.nr; i++)
		if (strncmp(r->config.v[i], "b_tree=", 7))
			strvec_push(&g.config, r->config.v[i]);
	if (r->iters >= 0) {
		char n[24];

		snprintf(n, sizeof(n), "%ld", r->iters);
		record_config_put(&g, "iters", n);
	}
	record_config_json(out, &g);
	record_release(&g);
}

/* 1 when record r, kept in the note of a commit whose tree is tree,
 * measures that commit: an A/B's B record measures the tree in its
 * b_tree, which is the commit's own only once `ab attach` copied it onto
 * the committed change */
static int measures_tree(const struct record *r, const git_oid *tree)
{
	const char *bt = record_config_get(r, "b_tree");
	git_oid id;

	if (!bt || !r->arm || strcmp(r->arm, "B"))
		return 1;
	return !tree || (!git_oid_fromstr(&id, bt) && git_oid_equal(&id, tree));
}

/* "'a', 'b'" */
static void join_keys(struct buf *out, const struct strvec *keys)
{
	size_t i;

	for (i = 0; i < keys->nr; i++)
		buf_addf(out, "%s'%s'", i ? ", " : "", keys->v[i]);
	if (!keys->nr)
		buf_puts(out, "(nothing recorded here)");
}

/* The identity keys that differ between envs a and b, as "'k', ..."; when
 * a fingerprint is not known here, says so. */
/* The fingerprint JSON of env id: a copy of known when it is that env's
 * (this machine's, not stored yet), else loaded. */
static int load_env(cJSON **out, struct ctx *ctx, const char *id,
		    const cJSON *known)
{
	const cJSON *kid = cJSON_GetObjectItemCaseSensitive(known, "id");

	if (cJSON_IsString(kid) && !strcmp(kid->valuestring, id)) {
		*out = cJSON_Duplicate(known, 1);
		return 0;
	}
	return fingerprint_load_json(out, ctx, id);
}

static void env_diff(struct buf *out, struct ctx *ctx, const char *a,
		     const char *b, const cJSON *known)
{
	struct strvec keys = STRVEC_INIT;
	cJSON *ja = NULL, *jb = NULL;
	struct error saved = ctx->err;

	if (load_env(&ja, ctx, a, known) < 0 ||
	    load_env(&jb, ctx, b, known) < 0) {
		buf_addf(out, "(the fingerprint of '%s' is not known here)",
			 ja ? b : a);
	} else {
		fingerprint_diff_keys(&keys, ja, jb);
		join_keys(out, &keys);
	}
	ctx->err = saved;
	cJSON_Delete(ja);
	cJSON_Delete(jb);
	strvec_clear(&keys);
}

/* commit -> rows, an open-addressing table */
struct row {
	git_oid commit;
	size_t group;
	double value;
	int has_tree; /* an A/B's B record: it counts where tree is */
	git_oid tree;
	size_t next; /* next row of the same commit, or SIZE_MAX */
};

struct rowmap {
	size_t *slot; /* first row index + 1; 0 empty */
	size_t cap;
	struct row *rows;
	size_t nr, alloc;
};

static size_t oid_hash(const git_oid *id)
{
	size_t h;

	memcpy(&h, id->id, sizeof(h));
	return h;
}

static size_t *rowmap_slot(struct rowmap *m, const git_oid *id)
{
	size_t i = oid_hash(id) & (m->cap - 1);

	while (m->slot[i] &&
	       !git_oid_equal(&m->rows[m->slot[i] - 1].commit, id))
		i = (i + 1) & (m->cap - 1);
	return &m->slot[i];
}

static void rowmap_rehash(struct rowmap *m, size_t cap)
{
	size_t i, *s;

	free(m->slot);
	m->cap = cap;
	m->slot = xcalloc(cap, sizeof(*m->slot));
	for (i = 0; i < m->nr; i++) {
		s = rowmap_slot(m, &m->rows[i].commit);
		m->rows[i].next = *s ? *s - 1 : SIZE_MAX;
		*s = i + 1;
	}
}

static void rowmap_add(struct rowmap *m, const git_oid *id, size_t group,
		       double value, const git_oid *tree)
{
	size_t *s;
	struct row *r;

	if ((m->nr + 1) * 2 > m->cap)
		rowmap_rehash(m, m->cap ? 2 * m->cap : 4096);
	if (m->nr == m->alloc) {
		m->alloc = m->alloc ? 2 * m->alloc : 1024;
		m->rows = xrealloc(m->rows, m->alloc * sizeof(*m->rows));
	}
	r = &m->rows[m->nr];
	git_oid_cpy(&r->commit, id);
	r->group = group;
	r->value = value;
	r->has_tree = tree != NULL;
	if (tree)
		git_oid_cpy(&r->tree, tree);
	s = rowmap_slot(m, id);
	r->next = *s ? *s - 1 : SIZE_MAX;
	*s = ++m->nr;
}

/* The rows of commit id, newest first: the first index, or SIZE_MAX. */
static size_t rowmap_first(struct rowmap *m, const git_oid *id)
{
	size_t *s;

	if (!m->cap)
		return SIZE_MAX;
	s = rowmap_slot(m, id);
	return *s ? *s - 1 : SIZE_MAX;
}

static void rowmap_release(struct rowmap *m)
{
	free(m->slot);
	free(m->rows);
}

/* One row of the index as measure log reads it, before the groups are
 * picked: its group, and for an A/B's B record the tree it measured */
struct raw_row {
	git_oid commit;
	size_t group;
	double value;
	int has_tree;
	git_oid tree;
};

struct raw_rows {
	struct raw_row *v;
	size_t nr, alloc;
	/* distinct (env, config, iters) of the index -> group */
	struct strvec key_env, key_config;
	long *key_iters;
	size_t *key_group;
	size_t last; /* the key found last */
};

static void raw_rows_release(struct raw_rows *r)
{
	free(r->v);
	strvec_clear(&r->key_env);
	strvec_clear(&r->key_config);
	free(r->key_iters);
	free(r->key_group);
}

static int raw_key_is(const struct raw_rows *r, size_t i, const char *env,
		      const char *config, long iters)
{
	return r->key_iters[i] == iters &&
	       !strcmp(r->key_config.v[i], config) &&
	       !strcmp(r->key_env.v[i], env);
}

/* The group of the index's (env, config, iters): found, or appended to
 * s->groups with its grouping config (group_config) */
static size_t raw_group(struct measure_series *s, struct raw_rows *r,
			size_t *alloc, const char *env, const char *config,
			long iters)
{
	struct record rec;
	struct buf cfg = BUF_INIT;
	cJSON *j, *e;
	size_t i, g, nk = r->key_env.nr;

	/* rows of one key come together: the last one first */
	if (nk && raw_key_is(r, r->last, env, config, iters))
		return r->key_group[r->last];
	for (i = nk; i-- > 0;)
		if (raw_key_is(r, i, env, config, iters)) {
			r->last = i;
			return r->key_group[i];
		}
	record_init(&rec);
	rec.iters = iters;
	j = cJSON_Parse(config);
	cJSON_ArrayForEach(e, j) {
		if (e->string && cJSON_IsString(e))
			record_config_put(&rec, e->string, e->valuestring);
	}
	cJSON_Delete(j);
	group_config(&cfg, &rec);
	record_release(&rec);
	for (g = 0; g < s->ngroups; g++)
		if (!strcmp(s->groups[g].env, env) &&
		    !strcmp(s->groups[g].config, cfg.ptr))
			break;
	if (g == s->ngroups) {
		if (s->ngroups == *alloc) {
			*alloc = *alloc ? 2 * *alloc : 8;
			s->groups = xrealloc(s->groups,
					     *alloc * sizeof(*s->groups));
		}
		s->groups[g].env = xstrdup(env);
		s->groups[g].config = buf_detach(&cfg);
		s->ngroups++;
	}
	buf_release(&cfg);
	r->key_group = xrealloc(r->key_group, (nk + 1) * sizeof(*r->key_group));
	r->key_iters = xrealloc(r->key_iters, (nk + 1) * sizeof(*r->key_iters));
	r->key_group[nk] = g;
	r->key_iters[nk] = iters;
	strvec_push(&r->key_env, env);
	strvec_push(&r->key_config, config);
	r->last = nk;
	return g;
}

/* Every record of metric in the index, with the groups they fall in: one
 * per env and grouping config (group_config: the iteration count in,
 * b_tree out). Records of other envs than env (unless NULL) are only
 * counted, with the first of those envs. The unit and better of the first
 * record are kept. */
static int load_raw(struct measure_series *s, struct raw_rows *r,
		    struct ctx *ctx, struct db *db, const char *metric,
		    const char *env, int *other_envs, char **other_env)
{
	sqlite3_stmt *st = NULL;
	struct strvec others = STRVEC_INIT;
	size_t alloc = 0, i;
	int rc;

	*other_envs = 0;
	if ((rc = db_prepare(&st, db,
			     "SELECT commit_id, value, env, config, "
			     "coalesce(iters, -1), unit, better, "
			     "CASE WHEN arm = 'B' THEN "
			     "json_extract(config, '$.b_tree') END "
			     "FROM measurement WHERE metric = ?1",
			     &ctx->err)) < 0)
		return rc;
	sqlite3_bind_text(st, 1, metric, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *hex = (const char *)sqlite3_column_text(st, 0);
		const char *e = (const char *)sqlite3_column_text(st, 2);
		const char *c = (const char *)sqlite3_column_text(st, 3);
		const char *bt = (const char *)sqlite3_column_text(st, 7);
		struct raw_row *row;

		if (env && strcmp(e, env)) {
			for (i = 0; i < others.nr; i++)
				if (!strcmp(others.v[i], e))
					break;
			if (i == others.nr) {
				if (!others.nr)
					*other_env = xstrdup(e);
				strvec_push(&others, e);
			}
			continue;
		}
		if (r->nr == r->alloc) {
			r->alloc = r->alloc ? 2 * r->alloc : 1024;
			r->v = xrealloc(r->v, r->alloc * sizeof(*r->v));
		}
		row = &r->v[r->nr];
		if (!hex || git_oid_fromstr(&row->commit, hex) < 0)
			continue;
		if (!s->ngroups) {
			const char *u =
				(const char *)sqlite3_column_text(st, 5);
			const char *b =
				(const char *)sqlite3_column_text(st, 6);

			s->unit = u ? xstrdup(u) : NULL;
			s->better = b ? xstrdup(b) : NULL;
		}
		row->group = raw_group(s, r, &alloc, e, c,
				       (long)sqlite3_column_int64(st, 4));
		row->value = sqlite3_column_double(st, 1);
		row->has_tree = bt && !git_oid_fromstr(&row->tree, bt);
		r->nr++;
	}
	sqlite3_finalize(st);
	*other_envs = (int)others.nr;
	strvec_clear(&others);
	if (rc != SQLITE_DONE)
		return error_sqlite(&ctx->err, db, rc,
				    "cannot read the measurement index");
	return 0;
}

/* Keeps the groups whose config matches (map[old] = new index, or
 * SIZE_MAX); refuses several configs. */
static int pick_groups(struct measure_series *s, size_t *map, struct ctx *ctx,
		       const struct measure_log_opts *o)
{
	struct strvec cfgs = STRVEC_INIT, keys = STRVEC_INIT;
	struct buf msg = BUF_INIT;
	size_t i, n = 0;
	int rc = 0;

	for (i = 0; i < s->ngroups; i++) {
		if (!config_matches(s->groups[i].config, o->config)) {
			free(s->groups[i].env);
			free(s->groups[i].config);
			map[i] = SIZE_MAX;
			continue;
		}
		map[i] = n;
		s->groups[n++] = s->groups[i];
	}
	s->ngroups = n;
	for (i = 0; i < n; i++)
		strvec_push(&cfgs, s->groups[i].config);
	strvec_sort(&cfgs);
	for (i = 1; i < cfgs.nr; i++)
		if (strcmp(cfgs.v[i], cfgs.v[0]))
			break;
	if (o->cross_config || i >= cfgs.nr)
		goto out;
	config_diff_keys(&keys, cfgs.v, cfgs.nr);
	join_keys(&msg, &keys);
	rc = error_set(&ctx->err, GCAMP_EREFUSED,
		       "refusing to mix configs of '%s': they differ in %s",
		       o->metric, msg.ptr);
	error_hint(&ctx->err,
		   "choose one with --config %s=VALUE, or show them all "
		   "with --cross-config",
		   keys.nr ? keys.v[0] : "KEY");
out:
	buf_release(&msg);
	strvec_clear(&cfgs);
	strvec_clear(&keys);
	return rc;
}

int measure_walk_range(git_revwalk **out, git_repository *repo,
		       const char *range, struct error *err)
{
	git_object *obj = NULL;
	int rc;

	if ((rc = git_revwalk_new(out, repo)) < 0)
		return error_git(err, rc, "cannot walk the history");
	git_revwalk_simplify_first_parent(*out);
	if (!range) {
		rc = git_revwalk_push_head(*out);
	} else if (strstr(range, "..")) {
		rc = git_revwalk_push_range(*out, range);
	} else if (!(rc = git_revparse_single(&obj, repo, range))) {
		git_object *c = NULL;

		if (!(rc = git_object_peel(&c, obj, GIT_OBJECT_COMMIT)))
			rc = git_revwalk_push(*out, git_object_id(c));
		git_object_free(c);
	}
	git_object_free(obj);
	if (rc < 0) {
		git_revwalk_free(*out);
		*out = NULL;
		return error_git(err, rc, "bad revision range '%s'",
				 range ? range : "HEAD");
	}
	return 0;
}

static int cmp_group_value(const void *a, const void *b)
{
	const struct row *x = a, *y = b;

	if (x->group != y->group)
		return x->group < y->group ? -1 : 1;
	return (x->value > y->value) - (x->value < y->value);
}

/* Appends the points of one commit, whose tree is tree: one per group,
 * the median value. A B record of an A/B counts only at the commit of the
 * tree it measured. */
static void add_points(struct measure_series *s, size_t *alloc,
		       struct rowmap *m, size_t first, const git_oid *tree,
		       struct row **tmp, size_t *tmpalloc)
{
	size_t n = 0, i, j, k;
	double *v;

	for (i = first; i != SIZE_MAX; i = m->rows[i].next) {
		if (m->rows[i].has_tree &&
		    (!tree || !git_oid_equal(&m->rows[i].tree, tree)))
			continue;
		if (n == *tmpalloc) {
			*tmpalloc = *tmpalloc ? 2 * *tmpalloc : 16;
			*tmp = xrealloc(*tmp, *tmpalloc * sizeof(**tmp));
		}
		(*tmp)[n++] = m->rows[i];
	}
	if (!n)
		return;
	qsort(*tmp, n, sizeof(**tmp), cmp_group_value);
	v = xmalloc(n * sizeof(*v));
	for (i = 0; i < n; i = j) {
		struct measure_point *p;

		k = 0;
		for (j = i; j < n && (*tmp)[j].group == (*tmp)[i].group; j++)
			v[k++] = (*tmp)[j].value;
		if (s->npts == *alloc) {
			*alloc = *alloc ? 2 * *alloc : 256;
			s->pts = xrealloc(s->pts, *alloc * sizeof(*s->pts));
		}
		p = &s->pts[s->npts++];
		git_oid_cpy(&p->commit, &(*tmp)[i].commit);
		p->group = (*tmp)[i].group;
		p->nrec = k;
		/* sorted: the middle one, or the mean of the middle two */
		p->value = k % 2 ? v[k / 2] : (v[k / 2 - 1] + v[k / 2]) / 2;
	}
	free(v);
}

static int refuse_other_env(struct ctx *ctx, const char *metric,
			    const char *env, const char *other, int nother,
			    const cJSON *known)
{
	struct buf keys = BUF_INIT;

	env_diff(&keys, ctx, env, other, known);
	error_set(&ctx->err, GCAMP_EREFUSED,
		  "'%s' was not measured on this machine (env %s): %d other "
		  "env%s measured it; env %s differs in %s",
		  metric, env, nother, nother == 1 ? "" : "s", other, keys.ptr);
	error_hint(&ctx->err, "show them with --cross-env");
	buf_release(&keys);
	return GCAMP_EREFUSED;
}

/* The tree of commit id into *out; 0 when it cannot be read */
static int commit_tree(git_oid *out, git_repository *repo, const git_oid *id)
{
	git_commit *c = NULL;

	if (git_commit_lookup(&c, repo, id) < 0)
		return 0;
	git_oid_cpy(out, git_commit_tree_id(c));
	git_commit_free(c);
	return 1;
}

int measure_log(struct measure_series *out, struct ctx *ctx,
		const struct measure_log_opts *o)
{
	struct rowmap m;
	struct raw_rows raw;
	struct row *tmp = NULL;
	git_repository *repo;
	git_revwalk *walk = NULL;
	struct db *db;
	char *other = NULL;
	size_t alloc = 0, tmpalloc = 0, first, i, *map = NULL;
	git_oid id, tree;
	int rc, nother;

	memset(out, 0, sizeof(*out));
	memset(&m, 0, sizeof(m));
	memset(&raw, 0, sizeof(raw));
	if ((rc = measure_index_update(ctx)) < 0 ||
	    (rc = ctx_repo(&repo, ctx, 0)) < 0 ||
	    (rc = ctx_db(&db, ctx, 0)) < 0 ||
	    (rc = measure_walk_range(&walk, repo, o->range, &ctx->err)) < 0 ||
	    (rc = load_raw(out, &raw, ctx, db, o->metric, o->env, &nother,
			   &other)) < 0)
		goto out;
	if (!out->ngroups && nother) {
		rc = refuse_other_env(ctx, o->metric, o->env, other, nother,
				      o->env_json);
		goto out;
	}
	if (!out->ngroups) {
		rc = error_set(&ctx->err, GCAMP_ENOTFOUND,
			       "no measurements of '%s'", o->metric);
		goto out;
	}
	map = xcalloc(out->ngroups, sizeof(*map));
	if ((rc = pick_groups(out, map, ctx, o)) < 0)
		goto out;
	if (!out->ngroups) {
		rc = error_set(&ctx->err, GCAMP_ENOTFOUND,
			       "no measurements of '%s' with that --config",
			       o->metric);
		goto out;
	}
	for (i = 0; i < raw.nr; i++)
		if (map[raw.v[i].group] != SIZE_MAX)
			rowmap_add(&m, &raw.v[i].commit, map[raw.v[i].group],
				   raw.v[i].value,
				   raw.v[i].has_tree ? &raw.v[i].tree : NULL);
	while (!(rc = git_revwalk_next(&id, walk)))
		if ((first = rowmap_first(&m, &id)) != SIZE_MAX)
			add_points(out, &alloc, &m, first,
				   commit_tree(&tree, repo, &id) ? &tree : NULL,
				   &tmp, &tmpalloc);
	if (rc == GIT_ITEROVER)
		rc = 0;
	else
		rc = error_git(&ctx->err, rc, "cannot walk the history");
out:
	if (rc < 0)
		measure_series_release(out);
	git_revwalk_free(walk);
	rowmap_release(&m);
	raw_rows_release(&raw);
	free(map);
	free(tmp);
	free(other);
	return rc;
}

void measure_series_release(struct measure_series *s)
{
	size_t i;

	if (!s)
		return;
	for (i = 0; i < s->ngroups; i++) {
		free(s->groups[i].env);
		free(s->groups[i].config);
	}
	free(s->groups);
	free(s->pts);
	free(s->unit);
	free(s->better);
	memset(s, 0, sizeof(*s));
}

static void measure_cmp_free_one(struct measure_cmp *c);

/* A record of one side of a comparison, with its grouping keys. */
struct keyed {
	const struct record *r;
	char *config;		 /* canonical JSON */
	const char *envk, *cfgk; /* "*" when crossed */
};

struct side {
	struct record *recs;
	size_t nrecs, nbad;
	struct keyed *k;
	size_t nk;
};

static int in_list(const struct strvec *l, const char *s)
{
	size_t i;

	for (i = 0; l && i < l->nr; i++)
		if (!strcmp(l->v[i], s))
			return 1;
	return 0;
}

static int side_load(struct side *s, struct ctx *ctx, const git_oid *id,
		     const struct measure_compare_opts *o)
{
	git_repository *repo;
	git_commit *c = NULL;
	git_oid tree;
	size_t i;
	int rc;

	memset(s, 0, sizeof(*s));
	memset(&tree, 0, sizeof(tree));
	if ((rc = ctx_repo(&repo, ctx, 0)) < 0)
		return rc;
	if (!git_commit_lookup(&c, repo, id))
		git_oid_cpy(&tree, git_commit_tree_id(c));
	git_commit_free(c);
	if ((rc = measure_read_note(&s->recs, &s->nrecs, &s->nbad, ctx, id)) <
	    0)
		return rc;
	s->k = xcalloc(s->nrecs ? s->nrecs : 1, sizeof(*s->k));
	for (i = 0; i < s->nrecs; i++) {
		const struct record *r = &s->recs[i];
		struct buf cfg = BUF_INIT;
		struct keyed *k;

		if (o->metrics && o->metrics->nr &&
		    !in_list(o->metrics, r->metric))
			continue;
		/* B's records on A's commit measure another tree */
		if (!measures_tree(r, &tree))
			continue;
		group_config(&cfg, r);
		if (!config_matches(cfg.ptr, o->config)) {
			buf_release(&cfg);
			continue;
		}
		k = &s->k[s->nk++];
		k->r = r;
		k->config = buf_detach(&cfg);
		k->envk = o->cross_env ? "*" : r->env;
		k->cfgk = o->cross_config ? "*" : k->config;
	}
	return 0;
}

static void side_release(struct side *s)
{
	size_t i;

	for (i = 0; i < s->nk; i++)
		free(s->k[i].config);
	free(s->k);
	measure_records_free(s->recs, s->nrecs);
}

/* The first record of metric in s, or NULL. */
static const struct keyed *side_first(const struct side *s, const char *metric)
{
	size_t i;

	for (i = 0; i < s->nk; i++)
		if (!strcmp(s->k[i].r->metric, metric))
			return &s->k[i];
	return NULL;
}

static int same_group(const struct keyed *a, const struct keyed *b)
{
	return !strcmp(a->r->metric, b->r->metric) &&
	       !strcmp(a->envk, b->envk) && !strcmp(a->cfgk, b->cfgk);
}

/* 1 when other holds a record of group g from the same run and arm as r:
 * a copy of it (as `ab attach` makes), not another measurement */
static int copied_in(const struct side *other, const struct keyed *g,
		     const struct record *r)
{
	size_t i;

	for (i = 0; other && i < other->nk; i++) {
		const struct record *o = other->k[i].r;

		if (same_group(&other->k[i], g) && !strcmp(o->run, r->run) &&
		    !!o->arm == !!r->arm &&
		    (!o->arm || !strcmp(o->arm, r->arm)))
			return 1;
	}
	return 0;
}

/* The samples of group g in s; records copied from other (may be NULL)
 * are left out, so that no run is compared with itself */
static void pool(double **v, size_t *n, const struct side *s,
		 const struct keyed *g, const struct side *other)
{
	size_t i, j, alloc = 0;

	*v = NULL;
	*n = 0;
	for (i = 0; i < s->nk; i++) {
		const struct record *r = s->k[i].r;
		size_t add = r->samples ? r->nsamples : 1;

		if (!same_group(&s->k[i], g) || copied_in(other, g, r))
			continue;
		if (*n + add > alloc) {
			alloc = 2 * (*n + add);
			*v = xrealloc(*v, alloc * sizeof(**v));
		}
		if (r->samples)
			for (j = 0; j < r->nsamples; j++)
				(*v)[(*n)++] = r->samples[j];
		else
			(*v)[(*n)++] = r->value;
	}
}

static int refuse_groups(struct ctx *ctx, const struct measure_compare_opts *o,
			 const struct keyed *a, const struct keyed *b)
{
	struct buf msg = BUF_INIT, keys = BUF_INIT;
	struct strvec ck = STRVEC_INIT;
	char *cfgs[2];
	int envs = strcmp(a->envk, b->envk) != 0;
	int cfg = strcmp(a->cfgk, b->cfgk) != 0;

	buf_addf(&msg, "refusing to compare '%s' of '%s' and '%s'",
		 a->r->metric, o->name_a, o->name_b);
	if (envs) {
		env_diff(&keys, ctx, a->r->env, b->r->env, NULL);
		buf_addf(&msg, ": envs %s and %s differ in %s", a->r->env,
			 b->r->env, keys.ptr);
	}
	if (cfg) {
		cfgs[0] = a->config;
		cfgs[1] = b->config;
		config_diff_keys(&ck, cfgs, 2);
		buf_reset(&keys);
		join_keys(&keys, &ck);
		buf_addf(&msg, "%s configs differ in %s", envs ? ";" : ":",
			 keys.ptr);
	}
	error_set(&ctx->err, GCAMP_EREFUSED, "%s", msg.ptr);
	error_hint(&ctx->err,
		   "compare them anyway with %s%s%s (every line is "
		   "then marked)",
		   envs ? "--cross-env" : "", envs && cfg ? " " : "",
		   cfg ? "--cross-config" : "");
	buf_release(&msg);
	buf_release(&keys);
	strvec_clear(&ck);
	return GCAMP_EREFUSED;
}

/* Adds the row of groups ga and gb; 0 (nothing added) when every record
 * of gb is a copy of one of ga */
static int add_row(struct measure_cmp **out, size_t *n, size_t *alloc,
		   const struct side *a, const struct side *b,
		   const struct keyed *ga, const struct keyed *gb)
{
	struct measure_cmp *c;

	if (*n == *alloc) {
		*alloc = *alloc ? 2 * *alloc : 8;
		*out = xrealloc(*out, *alloc * sizeof(**out));
	}
	c = &(*out)[(*n)++];
	memset(c, 0, sizeof(*c));
	c->metric = xstrdup(ga->r->metric);
	c->unit = ga->r->unit ? xstrdup(ga->r->unit) : NULL;
	c->better = ga->r->better ? xstrdup(ga->r->better) : NULL;
	c->env = xstrdup(ga->envk);
	c->config = xstrdup(ga->cfgk);
	pool(&c->a, &c->na, a, ga, NULL);
	pool(&c->b, &c->nb, b, gb, a);
	if (!c->nb) {
		measure_cmp_free_one(c);
		(*n)--;
		return 0;
	}
	stats_compare(&c->st, c->a, c->na, c->b, c->nb);
	return 1;
}

/* Rows for metric: one per group of a also found in b. */
static int compare_metric(struct measure_cmp **out, size_t *n, size_t *alloc,
			  struct ctx *ctx, const struct measure_compare_opts *o,
			  const struct side *a, const struct side *b,
			  const char *metric, int named)
{
	const struct keyed *fa = side_first(a, metric);
	const struct keyed *fb = side_first(b, metric);
	size_t i, j, before = *n;
	int copies = 0;

	if (!fa || !fb) {
		if (!named)
			return 0;
		return error_set(&ctx->err, GCAMP_ENOTFOUND,
				 "no measurement of '%s' at '%s'", metric,
				 fa ? o->name_b : o->name_a);
	}
	for (i = 0; i < a->nk; i++) {
		const struct keyed *g = &a->k[i];

		if (strcmp(g->r->metric, metric))
			continue;
		/* the first record of each group stands for it */
		for (j = 0; j < i; j++)
			if (same_group(&a->k[j], g))
				break;
		if (j < i)
			continue;
		for (j = 0; j < b->nk; j++)
			if (same_group(&b->k[j], g))
				break;
		if (j < b->nk && !add_row(out, n, alloc, a, b, g, &b->k[j]))
			copies++;
	}
	if (*n == before && copies)
		return error_set(&ctx->err, GCAMP_EREFUSED,
				 "refusing to compare '%s' of '%s' with "
				 "copies of its own records at '%s'",
				 metric, o->name_b, o->name_a);
	if (*n == before)
		return refuse_groups(ctx, o, fa, fb);
	return 0;
}

int measure_compare(struct measure_cmp **out, size_t *nout, struct ctx *ctx,
		    const struct measure_compare_opts *o)
{
	struct side a, b;
	struct strvec seen = STRVEC_INIT;
	size_t i, alloc = 0;
	int rc;

	*out = NULL;
	*nout = 0;
	memset(&b, 0, sizeof(b));
	if ((rc = side_load(&a, ctx, &o->a, o)) < 0 ||
	    (rc = side_load(&b, ctx, &o->b, o)) < 0)
		goto out;
	if (o->metrics && o->metrics->nr) {
		for (i = 0; rc == 0 && i < o->metrics->nr; i++)
			rc = compare_metric(out, nout, &alloc, ctx, o, &a, &b,
					    o->metrics->v[i], 1);
		goto out;
	}
	for (i = 0; rc == 0 && i < a.nk; i++) {
		if (in_list(&seen, a.k[i].r->metric))
			continue;
		strvec_push(&seen, a.k[i].r->metric);
		rc = compare_metric(out, nout, &alloc, ctx, o, &a, &b,
				    a.k[i].r->metric, 0);
	}
	if (!rc && !*nout)
		rc = error_set(&ctx->err, GCAMP_ENOTFOUND,
			       "no metric was measured at both '%s' and '%s'",
			       o->name_a, o->name_b);
out:
	if (rc < 0) {
		measure_cmp_free(*out, *nout);
		*out = NULL;
		*nout = 0;
	}
	side_release(&a);
	side_release(&b);
	strvec_clear(&seen);
	return rc;
}

static void measure_cmp_free_one(struct measure_cmp *c)
{
	free(c->metric);
	free(c->unit);
	free(c->better);
	free(c->env);
	free(c->config);
	free(c->a);
	free(c->b);
}

void measure_cmp_free(struct measure_cmp *c, size_t n)
{
	size_t i;

	for (i = 0; c && i < n; i++)
		measure_cmp_free_one(&c[i]);
	free(c);
}
