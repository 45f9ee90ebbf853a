/* libgit2 repository access and error translation. */
/* realpath is XSI */
#define _XOPEN_SOURCE 700

#include "io/repo.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/buf.h"
#include "util/strvec.h"
#include "util/xalloc.h"

static int lib_ready;

/* GIT_CONFIG_NOSYSTEM as git reads it, a boolean (libgit2 ignores it) */
static int no_system_config(void)
{
	static const char *const no[] = {"", "0", "false", "no", "off"};
	const char *nosys = getenv("GIT_CONFIG_NOSYSTEM");
	size_t i;

	if (!nosys)
		return 0;
	for (i = 0; i < sizeof(no) / sizeof(*no); i++)
		if (!strcasecmp(nosys, no[i]))
			return 0;
	return 1;
}

int error_no_repo(struct error *err)
{
	error_set(err, GCAMP_ENOREPO,
		  "not a git repository (or any of the parent directories)");
	error_hint(err, "run it inside a git repository, or use 'git -C DIR "
			"campaign ...'");
	return GCAMP_ENOREPO;
}

void repo_lib_init(void)
{
	if (lib_ready)
		return;
	lib_ready = 1;
	git_libgit2_init();
	if (no_system_config())
		git_libgit2_opts(GIT_OPT_SET_SEARCH_PATH,
				 GIT_CONFIG_LEVEL_SYSTEM, "/nonexistent");
}

void repo_lib_shutdown(void)
{
	if (!lib_ready)
		return;
	lib_ready = 0;
	git_libgit2_shutdown();
}

int error_git(struct error *err, int rc, const char *fmt, ...)
{
	const git_error *e = git_error_last();
	char what[512];
	va_list ap;
	int code = rc == GIT_ENOTFOUND ? GCAMP_ENOTFOUND : GCAMP_EFATAL;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (e && e->message && *e->message)
		return error_set(err, code, "%s: %s", what, e->message);
	return error_set(err, code, "%s: libgit2 error %d", what, rc);
}

/*
 * libgit2 1.5 answers GIT_WORK_TREE with "unimplemented", so `git
 * --work-tree=DIR campaign` needs this: the repository from GIT_DIR (or
 * found from the current directory, within GIT_CEILING_DIRECTORIES), then
 * the work tree set by hand, as git does.
 */
/* 1 when workdir (absolute, with a final slash, or NULL) is dir */
static int same_dir(const char *workdir, const char *dir)
{
	char *real = workdir ? realpath(dir, NULL) : NULL;
	size_t n = real ? strlen(real) : 0;
	int same = real && !strncmp(workdir, real, n) &&
		   (!strcmp(workdir + n, "/") || (n == 1 && !workdir[1]));

	free(real);
	return same;
}

static int open_with_work_tree(git_repository **out, const char *wt)
{
	const char *gd = getenv("GIT_DIR");
	int rc;

	if (gd && *gd)
		rc = git_repository_open_ext(
			out, gd, GIT_REPOSITORY_OPEN_NO_SEARCH, NULL);
	else
		rc = git_repository_open_ext(out, ".", 0,
					     getenv("GIT_CEILING_DIRECTORIES"));
	if (rc < 0)
		return rc;
	/* libgit2 1.5 leaks its path buffer when asked for the work tree the
	 * repository already has, which is the usual case */
	if (same_dir(git_repository_workdir(*out), wt))
		return 0;
	rc = git_repository_set_workdir(*out, wt, 0);
	if (rc < 0) {
		git_repository_free(*out);
		*out = NULL;
	}
	return rc;
}

int repo_open(git_repository **out, struct error *err)
{
	const char *wt;
	int rc;

	*out = NULL;
	repo_lib_init();
	if ((wt = getenv("GIT_WORK_TREE")) && *wt)
		rc = open_with_work_tree(out, wt);
	else
		rc = git_repository_open_ext(
			out, NULL, GIT_REPOSITORY_OPEN_FROM_ENV, NULL);
	if (rc == GIT_ENOTFOUND)
		return error_no_repo(err);
	if (rc < 0)
		return error_git(err, rc, "cannot open the repository");
	return 0;
}

static int lg_resolve(char out[REFS_HEX_SIZE], void *store, const char *refname)
{
	git_oid id;

	if (git_reference_name_to_id(&id, store, refname) < 0) {
		git_error_clear();
		return GCAMP_ENOTFOUND;
	}
	git_oid_tostr(out, REFS_HEX_SIZE, &id);
	return 0;
}

static int lg_head_branch(char **out, void *store, struct error *err)
{
	git_reference *head = NULL;
	const char *target;
	int rc;

	*out = NULL;
	rc = git_reference_lookup(&head, store, "HEAD");
	if (rc < 0)
		return error_git(err, rc, "cannot read HEAD");
	if (git_reference_type(head) == GIT_REFERENCE_SYMBOLIC) {
		target = git_reference_symbolic_target(head);
		if (!strncmp(target, "refs/heads/", 11))
			*out = xstrdup(target + 11);
	}
	git_reference_free(head);
	return 0;
}

/* libgit2 yields loose refs before packed ones; the interface promises the
 * order of names, so "NAME OID" lines are gathered and sorted first (no
 * ref name holds a space or a byte below it) */
static int lg_for_each_prefix(void *store, const char *prefix,
			      int (*fn)(const char *refname, const char *oid,
					void *data),
			      void *data)
{
	git_reference_iterator *it = NULL;
	git_reference *ref = NULL;
	struct strvec names = STRVEC_INIT;
	char *glob = xasprintf("%s*", prefix), hex[REFS_HEX_SIZE];
	size_t i, n = strlen(prefix);
	int rc;

	if (git_reference_iterator_glob_new(&it, store, glob) < 0) {
		rc = GCAMP_EFATAL;
		goto out;
	}
	while (!(rc = git_reference_next(&ref, it))) {
		const char *name = git_reference_name(ref);

		/* a glob's specials in prefix would match more */
		if (git_reference_type(ref) == GIT_REFERENCE_DIRECT &&
		    !strncmp(name, prefix, n)) {
			git_oid_tostr(hex, sizeof(hex),
				      git_reference_target(ref));
			strvec_push_owned(&names,
					  xasprintf("%s %s", name, hex));
		}
		git_reference_free(ref);
		ref = NULL;
	}
	if (rc != GIT_ITEROVER) {
		rc = GCAMP_EFATAL;
		goto out;
	}
	strvec_sort(&names);
	for (i = 0, rc = 0; i < names.nr && !rc; i++) {
		char *sp = strrchr(names.v[i], ' ');

		*sp = '\0';
		rc = fn(names.v[i], sp + 1, data);
	}
out:
	git_error_clear();
	git_reference_iterator_free(it);
	strvec_clear(&names);
	free(glob);
	return rc;
}

static const struct refs_backend libgit2_backend = {
	"libgit2",
	lg_resolve,
	lg_head_branch,
	lg_for_each_prefix,
};

void repo_refs(struct refs *out, git_repository *repo)
{
	out->be = &libgit2_backend;
	out->store = repo;
}
