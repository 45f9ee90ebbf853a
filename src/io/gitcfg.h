/* Git configuration as git itself sees it: the files git reads (by
 * gitlite, or by libgit2 when includes must be followed) and the
 * command-line overrides (`git -c k=v`, GIT_CONFIG_PARAMETERS and
 * GIT_CONFIG_COUNT/KEY/VALUE). Writes go to the repository's own config
 * file. */
#ifndef GCAMP_GITCFG_H
#define GCAMP_GITCFG_H

#include <git2.h>

#include "io/gitlite.h"
#include "util/error.h"
#include "util/strvec.h"

struct gitcfg;

/* The configuration lite read (opened with GITLITE_NO_GIT); when it has
 * includes (lite->includes), read again by libgit2 from repo, which must
 * then be given. lite and repo must outlive it; lite->cfg follows every
 * write. The caller frees *out with gitcfg_free(). */
int gitcfg_open(struct gitcfg **out, struct gitlite *lite, git_repository *repo,
		struct error *err);
void gitcfg_free(struct gitcfg *c);

/* The last value of key in *out (borrowed until the next write or
 * gitcfg_free), or GCAMP_ENOTFOUND with *out = NULL. A key given as
 * `-c key` without a value reads as "true". */
int gitcfg_get(const char **out, struct gitcfg *c, const char *key);
/* A git boolean: 1 for "true", "yes", "on" or "1" (any case), 0 for
 * "false", "no", "off", "0" or "", -1 for anything else or NULL. */
int gitcfg_bool(const char *v);
/* Every value of a multi-valued key, in git's order, appended to out. */
int gitcfg_get_all(struct strvec *out, struct gitcfg *c, const char *key,
		   struct error *err);

/* Calls fn for each (key, value) whose normalised key starts with prefix
 * and ends with suffix (both in normalised form, e.g. "branch." and
 * ".campaignparent"), in git's order, the -c overrides last. A non-zero
 * return from fn stops the walk and is returned. */
int gitcfg_foreach(struct gitcfg *c, const char *prefix, const char *suffix,
		   int (*fn)(const char *key, const char *value, void *data),
		   void *data, struct error *err);

/* Writes key = value into the repository's config; a key with several
 * values there is an error, as for `git config KEY VALUE`. */
int gitcfg_set(struct gitcfg *c, const char *key, const char *value,
	       struct error *err);
/* Makes value one of the values of a multi-valued key, adding it unless it
 * is there already; other values are kept. Safe against a concurrent
 * writer (one write under git's config lock). */
int gitcfg_ensure(struct gitcfg *c, const char *key, const char *value,
		  struct error *err);
/* Removes every value of key from the repository's config; GCAMP_ENOTFOUND
 * when it had none. */
int gitcfg_unset(struct gitcfg *c, const char *key, struct error *err);

/* Writes keys[i] = values[i] for i < n into the repository's config in one
 * write under git's config lock (values[i] NULL: every value of keys[i]
 * removed, none being no error), then reads the configuration once: n
 * gitcfg_set calls at the cost of one. On an error nothing is written. */
int gitcfg_set_all(struct gitcfg *c, const char *const *keys,
		   const char *const *values, size_t n, struct error *err);

#endif
