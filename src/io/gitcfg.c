/* Configuration reads with command-line overrides, and writes. */
#include "io/gitcfg.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "io/repo.h"
#include "util/buf.h"
#include "util/xalloc.h"

struct gitcfg {
	git_repository *repo;
	git_config *snap;
	struct strvec params; /* key, value, key, value ... (normalised keys) */
};

int gitcfg_open(struct gitcfg **out, git_repository *repo, struct error *err)
{
	struct gitcfg *c = xcalloc(1, sizeof(*c));
	int rc;

	c->repo = repo;
	rc = git_repository_config_snapshot(&c->snap, repo);
	if (rc < 0) {
		free(c);
		*out = NULL;
		return error_git(err, rc, "cannot read the git configuration");
	}
	gitcfg_load_env(&c->params);
	*out = c;
	return 0;
}

void gitcfg_free(struct gitcfg *c)
{
	if (!c)
		return;
	git_config_free(c->snap);
	strvec_clear(&c->params);
	free(c);
}

static char *normalized(const char *key)
{
	char *k = xstrdup(key);

	gitcfg_normalize_key(k);
	return k;
}

int gitcfg_get(const char **out, struct gitcfg *c, const char *key)
{
	char *k = normalized(key);
	size_t i;

	*out = NULL;
	for (i = c->params.nr; i >= 2; i -= 2)
		if (!strcmp(c->params.v[i - 2], k)) {
			*out = c->params.v[i - 1];
			break;
		}
	if (!*out && git_config_get_string(out, c->snap, k) < 0) {
		git_error_clear();
		*out = NULL;
	}
	free(k);
	return *out ? 0 : GCAMP_ENOTFOUND;
}

int gitcfg_get_all(struct strvec *out, struct gitcfg *c, const char *key,
		   struct error *err)
{
	git_config_iterator *it = NULL;
	git_config_entry *e;
	char *k = normalized(key);
	size_t i;
	int rc;

	rc = git_config_multivar_iterator_new(&it, c->snap, k, NULL);
	if (rc < 0) {
		error_git(err, rc, "cannot read '%s'", key);
		goto out;
	}
	while ((rc = git_config_next(&e, it)) == 0)
		strvec_push(out, e->value);
	if (rc != GIT_ITEROVER) {
		error_git(err, rc, "cannot read '%s'", key);
		goto out;
	}
	rc = 0;
	for (i = 0; i < c->params.nr; i += 2)
		if (!strcmp(c->params.v[i], k))
			strvec_push(out, c->params.v[i + 1]);
out:
	git_config_iterator_free(it);
	free(k);
	return rc < 0 ? GCAMP_EFATAL : 0;
}

static int key_matches(const char *key, const char *prefix, const char *suffix)
{
	size_t k = strlen(key), p = strlen(prefix), s = strlen(suffix);

	return k >= p + s && !strncmp(key, prefix, p) &&
	       !strcmp(key + k - s, suffix);
}

/*
 * A plain iterator with our own matching: libgit2's regex walk
 * (git_config_foreach_match) leaks PCRE2 match data on Debian's build, and
 * prefix/suffix is all the tool needs.
 */
int gitcfg_foreach(struct gitcfg *c, const char *prefix, const char *suffix,
		   int (*fn)(const char *key, const char *value, void *data),
		   void *data, struct error *err)
{
	git_config_iterator *it = NULL;
	git_config_entry *e;
	size_t i;
	int rc, stop = 0;

	rc = git_config_iterator_new(&it, c->snap);
	if (rc < 0)
		return error_git(err, rc, "cannot read the git configuration");
	while (!stop && (rc = git_config_next(&e, it)) == 0)
		if (key_matches(e->name, prefix, suffix))
			stop = fn(e->name, e->value, data);
	git_config_iterator_free(it);
	if (stop)
		return stop;
	if (rc != GIT_ITEROVER)
		return error_git(err, rc, "cannot read the git configuration");
	for (i = 0; i < c->params.nr && !stop; i += 2)
		if (key_matches(c->params.v[i], prefix, suffix))
			stop = fn(c->params.v[i], c->params.v[i + 1], data);
	return stop;
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

/* Runs one write against the repository's local config file, then renews
 * the snapshot so later reads see it. */
static int write_local(struct gitcfg *c, const char *key, const char *value,
		       enum write_mode mode, struct error *err)
{
	git_config *all = NULL, *local = NULL, *snap = NULL;
	struct buf exact = BUF_INIT;
	char *k = normalized(key);
	int rc;

	rc = git_repository_config(&all, c->repo);
	if (rc == 0)
		rc = git_config_open_level(&local, all, GIT_CONFIG_LEVEL_LOCAL);
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
	rc = git_repository_config_snapshot(&snap, c->repo);
	if (rc < 0) {
		rc = error_git(err, rc, "cannot read the git configuration");
		goto out;
	}
	git_config_free(c->snap);
	c->snap = snap;
out:
	git_config_free(local);
	git_config_free(all);
	buf_release(&exact);
	free(k);
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
