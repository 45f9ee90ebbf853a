/* Configuration reads with command-line overrides, and writes. */
#include "io/gitcfg.h"

#include "io/ownlock.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <strings.h>

#include "io/gitcfg_parse.h"
#include "io/repo.h"
#include "util/buf.h"
#include "util/xalloc.h"

struct gitcfg {
	struct gitlite *lite; /* borrowed: its cfg is what is read */
	git_repository *repo; /* borrowed; NULL unless lite->includes */
};

/* A configuration with includes, read by libgit2 (which follows them)
 * into lite->cfg in git's order, the command-line overrides last. */
static int read_with_includes(struct gitcfg *c, struct error *err)
{
	git_config *snap = NULL;
	git_config_iterator *it = NULL;
	git_config_entry *e;
	int rc;

	if ((rc = git_repository_config_snapshot(&snap, c->repo)) < 0 ||
	    (rc = git_config_iterator_new(&it, snap)) < 0) {
		rc = error_git(err, rc, "cannot read the git configuration");
		goto out;
	}
	strvec_clear(&c->lite->cfg);
	while ((rc = git_config_next(&e, it)) == 0) {
		char *k = xstrdup(e->name);

		gitcfg_normalize_key(k);
		strvec_push_owned(&c->lite->cfg, k);
		strvec_push(&c->lite->cfg, e->value ? e->value : "true");
	}
	if (rc != GIT_ITEROVER) {
		rc = error_git(err, rc, "cannot read the git configuration");
		goto out;
	}
	rc = 0;
	gitcfg_load_env(&c->lite->cfg);
out:
	git_config_iterator_free(it);
	git_config_free(snap);
	return rc;
}

int gitcfg_open(struct gitcfg **out, struct gitlite *lite, git_repository *repo,
		struct error *err)
{
	struct gitcfg *c = xcalloc(1, sizeof(*c));
	int rc;

	c->lite = lite;
	c->repo = lite->includes ? repo : NULL;
	if (c->repo && (rc = read_with_includes(c, err)) < 0) {
		free(c);
		*out = NULL;
		return rc;
	}
	*out = c;
	return 0;
}

void gitcfg_free(struct gitcfg *c)
{
	free(c);
}

int gitcfg_get(const char **out, struct gitcfg *c, const char *key)
{
	*out = gitlite_get(c->lite, key);
	return *out ? 0 : GCAMP_ENOTFOUND;
}

int gitcfg_bool(const char *v)
{
	if (!v)
		return -1;
	if (!strcasecmp(v, "true") || !strcasecmp(v, "yes") ||
	    !strcasecmp(v, "on") || !strcmp(v, "1"))
		return 1;
	if (!*v || !strcasecmp(v, "false") || !strcasecmp(v, "no") ||
	    !strcasecmp(v, "off") || !strcmp(v, "0"))
		return 0;
	return -1;
}

int gitcfg_get_all(struct strvec *out, struct gitcfg *c, const char *key,
		   struct error *err)
{
	(void)err;
	gitlite_get_all(out, c->lite, key);
	return 0;
}

static int key_matches(const char *key, const char *prefix, const char *suffix)
{
	size_t k = strlen(key), p = strlen(prefix), s = strlen(suffix);

	return k >= p + s && !strncmp(key, prefix, p) &&
	       !strcmp(key + k - s, suffix);
}

int gitcfg_foreach(struct gitcfg *c, const char *prefix, const char *suffix,
		   int (*fn)(const char *key, const char *value, void *data),
		   void *data, struct error *err)
{
	const struct strvec *kv = &c->lite->cfg;
	size_t i;
	int stop = 0;

	(void)err;
	for (i = 0; i + 1 < kv->nr && !stop; i += 2)
		if (key_matches(kv->v[i], prefix, suffix))
			stop = fn(kv->v[i], kv->v[i + 1], data);
	return stop;
}

static char *normalized(const char *key)
{
	char *k = xstrdup(key);

	gitcfg_normalize_key(k);
	return k;
}

enum write_mode { WRITE_SET, WRITE_ENSURE, WRITE_UNSET };

/* "^value$" with the regex specials escaped: matches value alone */
static void exact_regex(struct buf *out, const char *value)
{
	const char *p;

	buf_putc(out, '^');
	for (p = value; *p; p++) {
		if (strchr("\\^$.|?*+()[]{}", *p))
			buf_putc(out, '\\');
		buf_putc(out, *p);
	}
	buf_putc(out, '$');
}

/* Runs one write against the repository's config file, then reads the
 * configuration again so later reads see it. */
static int write_local(struct gitcfg *c, const char *key, const char *value,
		       enum write_mode mode, struct error *err)
{
	git_config *local = NULL;
	struct buf exact = BUF_INIT;
	struct ownlock *guard = NULL;
	char *k = normalized(key);
	char *path = xasprintf("%s/config", c->lite->common_dir);
	char *dir = xasprintf("%s/campaign", c->lite->common_dir);
	char *lock = xasprintf("%s.lock", path);
	const char *guarded[2] = {lock, NULL};
	struct stat st;
	int rc;

	/* in a campaign, our writes take a guard, so that the config.lock a
	 * killed one left is the next one's to remove (io/ownlock.h) */
	if (!stat(dir, &st) && S_ISDIR(st.st_mode) &&
	    (rc = ownlock_acquire(&guard, NULL, dir, "config", guarded, err)) <
		    0)
		goto out;
	repo_lib_init();
	rc = git_config_open_ondisk(&local, path);
	if (rc < 0) {
		rc = error_git(err, rc, "cannot open the repository's config");
		goto out;
	}
	switch (mode) {
	case WRITE_SET:
		rc = git_config_set_string(local, k, value);
		break;
	case WRITE_ENSURE:
		/* replaces the value equal to value, or adds it: one atomic,
		 * idempotent write under git's config lock */
		exact_regex(&exact, value);
		rc = git_config_set_multivar(local, k, exact.ptr, value);
		break;
	case WRITE_UNSET:
		rc = git_config_delete_multivar(local, k, ".*");
		break;
	}
	if (rc == GIT_ENOTFOUND) {
		rc = error_set(err, GCAMP_ENOTFOUND,
			       "'%s' is not set in this repository's config",
			       key);
		goto out;
	}
	if (rc < 0) {
		rc = error_git(err, rc, "cannot write '%s'", key);
		goto out;
	}
	if ((rc = gitlite_reload_config(c->lite, err)) == 0 && c->repo)
		rc = read_with_includes(c, err);
out:
	git_config_free(local);
	ownlock_release(guard);
	buf_release(&exact);
	free(lock);
	free(dir);
	free(path);
	free(k);
	return rc;
}

int gitcfg_set_all(struct gitcfg *c, const char *const *keys,
		   const char *const *values, size_t n, struct error *err)
{
	git_config *local = NULL;
	git_transaction *tx = NULL;
	char *path = xasprintf("%s/config", c->lite->common_dir);
	size_t i;
	int rc;

	repo_lib_init();
	if ((rc = git_config_open_ondisk(&local, path)) < 0 ||
	    (rc = git_config_lock(&tx, local)) < 0) {
		rc = error_git(err, rc, "cannot open the repository's config");
		goto out;
	}
	for (i = 0; i < n; i++) {
		char *k = normalized(keys[i]);

		if (values[i])
			rc = git_config_set_string(local, k, values[i]);
		else if ((rc = git_config_delete_multivar(local, k, ".*")) ==
			 GIT_ENOTFOUND)
			rc = 0;
		free(k);
		if (rc < 0) {
			rc = error_git(err, rc, "cannot write '%s'", keys[i]);
			goto out;
		}
	}
	if ((rc = git_transaction_commit(tx)) < 0) {
		rc = error_git(err, rc, "cannot write the repository's config");
		goto out;
	}
	if ((rc = gitlite_reload_config(c->lite, err)) == 0 && c->repo)
		rc = read_with_includes(c, err);
out:
	git_transaction_free(tx);
	git_config_free(local);
	free(path);
	return rc;
}

int gitcfg_set(struct gitcfg *c, const char *key, const char *value,
	       struct error *err)
{
	return write_local(c, key, value, WRITE_SET, err);
}

int gitcfg_ensure(struct gitcfg *c, const char *key, const char *value,
		  struct error *err)
{
	return write_local(c, key, value, WRITE_ENSURE, err);
}

int gitcfg_unset(struct gitcfg *c, const char *key, struct error *err)
{
	return write_local(c, key, NULL, WRITE_UNSET, err);
}
