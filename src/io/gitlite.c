/* Repository files read without libgit2: discovery, HEAD, refs, config. */
/* realpath is XSI */
#define _XOPEN_SOURCE 700
#include "io/gitlite.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/gitcfg_parse.h"
#include "io/gitobj.h"
#include "io/proc.h"
#include "util/buf.h"
#include "util/xalloc.h"

/* Config files and refs are small; a cap keeps a runaway file from
 * costing the user's commit its speed. */
#define READ_CAP (64u << 20)

/* strchrnul, which POSIX lacks */
static const char *upto(const char *s, int c)
{
	while (*s && *s != c)
		s++;
	return s;
}

/* Reads a whole file into out; -1 with errno when it cannot. */
static int read_file(struct buf *out, const char *path)
{
	char chunk[8192];
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	buf_reset(out);
	if (fd < 0)
		return -1;
	while ((n = read(fd, chunk, sizeof(chunk))) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			close(fd);
			return -1;
		}
		if (out->len + (size_t)n > READ_CAP) {
			close(fd);
			errno = EFBIG;
			return -1;
		}
		buf_add(out, chunk, (size_t)n);
	}
	close(fd);
	return 0;
}

static int is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static char *join(const char *dir, const char *name)
{
	if (name[0] == '/')
		return xstrdup(name);
	return xasprintf("%s/%s", dir, name);
}

/* A folder that holds HEAD, objects/ and refs/ is a git directory. */
static int looks_like_git_dir(const char *dir)
{
	char *head = join(dir, "HEAD"), *obj = join(dir, "objects");
	char *refs = join(dir, "refs");
	int yes = access(head, F_OK) == 0 && is_dir(obj) && is_dir(refs);

	free(head);
	free(obj);
	free(refs);
	return yes;
}

/* "gitdir: PATH" of a .git file, relative to the file's folder. */
static char *gitdir_from_file(const char *dir, const char *file)
{
	struct buf b = BUF_INIT;
	char *out = NULL;

	if (read_file(&b, file) == 0 && !strncmp(b.ptr, "gitdir: ", 8)) {
		buf_rtrim(&b);
		out = join(dir, b.ptr + 8);
	}
	buf_release(&b);
	return out;
}

static int is_ceiling(const char *dir)
{
	const char *env = getenv("GIT_CEILING_DIRECTORIES"), *p, *end;
	size_t n = strlen(dir);

	for (p = env; p && *p; p = *end ? end + 1 : end) {
		size_t len;

		end = upto(p, ':');
		len = (size_t)(end - p);
		while (len > 1 && p[len - 1] == '/')
			len--;
		if (len == n && !strncmp(p, dir, n))
			return 1;
	}
	return 0;
}

/* The git directory found from the current one up; *work_tree is the
 * folder that holds its .git, NULL for a bare repository. */
static char *discover(char **work_tree)
{
	char *cwd = getcwd(NULL, 0), *dot, *found = NULL;
	size_t n;

	*work_tree = NULL;
	if (!cwd)
		return NULL;
	for (;;) {
		dot = join(cwd, ".git");
		if (is_dir(dot) && looks_like_git_dir(dot)) {
			found = dot;
			*work_tree = xstrdup(cwd);
			break;
		}
		if (access(dot, F_OK) == 0 && !is_dir(dot) &&
		    (found = gitdir_from_file(cwd, dot))) {
			free(dot);
			*work_tree = xstrdup(cwd);
			break;
		}
		free(dot);
		if (looks_like_git_dir(cwd)) {
			found = xstrdup(cwd);
			break;
		}
		n = strlen(cwd);
		while (n > 1 && cwd[n - 1] != '/')
			n--;
		if (n > 1)
			n--; /* drop the slash too, but keep "/" */
		if (n == strlen(cwd))
			break;
		cwd[n] = '\0';
		if (is_ceiling(cwd))
			break;
	}
	free(cwd);
	return found;
}

static char *absolute(const char *path)
{
	char *cwd, *out;

	if (path[0] == '/')
		return xstrdup(path);
	if (!(cwd = getcwd(NULL, 0)))
		return xstrdup(path);
	out = xasprintf("%s/%s", cwd, path);
	free(cwd);
	return out;
}

static int env_true(const char *name)
{
	static const char *const no[] = {"", "0", "false", "no", "off"};
	const char *v = getenv(name);
	size_t i;

	if (!v)
		return 0;
	for (i = 0; i < sizeof(no) / sizeof(*no); i++)
		if (!strcasecmp(v, no[i]))
			return 0;
	return 1;
}

/* Reads one file if it exists; *includes as gitcfg_parse_config. A
 * missing file is nothing; an unreadable or bad one is an error. */
static int read_config_file(struct gitlite *g, struct buf *b, const char *path,
			    int *includes, struct error *err)
{
	int inc = 0;

	if (read_file(b, path) < 0) {
		if (errno == ENOENT || errno == ENOTDIR)
			return 0;
		return error_set(err, GCAMP_EFATAL, "cannot read '%s': %s",
				 path, strerror(errno));
	}
	if (gitcfg_parse_config(&g->cfg, b->ptr, b->len, &inc) < 0)
		return error_set(err, GCAMP_EFATAL, "bad config file '%s'",
				 path);
	*includes |= inc;
	return 0;
}

/* `git config -z --list`: KEY\nVALUE\0 (KEY\0 when valueless). git finds
 * the repository as we did (the rule of proc_git). */
static int config_from_git(struct gitlite *g, struct error *err)
{
	static const char *const args[] = {"config", "-z", "--list", NULL};
	struct proc_opts po = {.stdin_null = 1, .cap = READ_CAP};
	struct proc_result r = PROC_RESULT_INIT;
	const char *p, *end;
	int rc;

	if ((rc = proc_git(&r, args, &po, err)) < 0)
		goto out;
	if (r.status || r.out_truncated) {
		rc = error_set(err, GCAMP_EFATAL, "'git %s' failed", args[0]);
		goto out;
	}
	strvec_clear(&g->cfg);
	for (p = r.out.ptr, end = r.out.ptr + r.out.len; p < end;
	     p += strlen(p) + 1) {
		const char *nl = strchr(p, '\n');
		char *key = nl ? xstrndup(p, (size_t)(nl - p)) : xstrdup(p);

		gitcfg_normalize_key(key);
		strvec_push_owned(&g->cfg, key);
		strvec_push(&g->cfg, nl ? nl + 1 : "true");
	}
out:
	proc_result_release(&r);
	return rc;
}

static int load_config(struct gitlite *g, struct error *err)
{
	const char *env, *home = getenv("HOME"), *xdg;
	struct buf b = BUF_INIT;
	int includes = 0, rc = 0;
	char *path = NULL;

	if (!env_true("GIT_CONFIG_NOSYSTEM")) {
		env = getenv("GIT_CONFIG_SYSTEM");
		if ((rc = read_config_file(g, &b, env ? env : "/etc/gitconfig",
					   &includes, err)) < 0)
			goto out;
	}
	if ((env = getenv("GIT_CONFIG_GLOBAL"))) {
		if ((rc = read_config_file(g, &b, env, &includes, err)) < 0)
			goto out;
	} else {
		xdg = getenv("XDG_CONFIG_HOME");
		if (xdg && *xdg)
			path = xasprintf("%s/git/config", xdg);
		else if (home)
			path = xasprintf("%s/.config/git/config", home);
		if (path &&
		    (rc = read_config_file(g, &b, path, &includes, err)) < 0)
			goto out;
		free(path);
		path = home ? xasprintf("%s/.gitconfig", home) : NULL;
		if (path &&
		    (rc = read_config_file(g, &b, path, &includes, err)) < 0)
			goto out;
	}
	free(path);
	path = xasprintf("%s/config", g->common_dir);
	if ((rc = read_config_file(g, &b, path, &includes, err)) < 0)
		goto out;
	if (gitlite_get_bool(g, "extensions.worktreeConfig", 0)) {
		free(path);
		path = xasprintf("%s/config.worktree", g->git_dir);
		if ((rc = read_config_file(g, &b, path, &includes, err)) < 0)
			goto out;
	}
	gitcfg_load_env(&g->cfg);
	g->includes = includes;
	if (includes && !(g->flags & GITLITE_NO_GIT))
		rc = config_from_git(g, err);
out:
	free(path);
	buf_release(&b);
	return rc;
}

/*
 * The work tree as git finds it: GIT_WORK_TREE, else core.worktree
 * (relative to the git directory), else none when core.bare is true, else
 * the folder that holds .git, or with GIT_DIR the current directory.
 */
static void find_work_tree(struct gitlite *g, char *found)
{
	const char *env = getenv("GIT_WORK_TREE"), *v;
	char *cwd;

	if (env && *env) {
		free(found);
		g->work_tree = absolute(env);
	} else if ((v = gitlite_get(g, "core.worktree")) && *v) {
		free(found);
		g->work_tree = join(g->git_dir, v);
	} else if (gitlite_get_bool(g, "core.bare", 0)) {
		free(found);
	} else if (found || !(env = getenv("GIT_DIR")) || !*env) {
		g->work_tree = found;
	} else if ((cwd = getcwd(NULL, 0))) {
		g->work_tree = cwd;
	}
}

static void resolve_in_place(char **path)
{
	char *real;

	/* a path found from getcwd() is resolved already: the hooks pay
	 * for each system call */
	if (!strstr(*path, "/.") && !getenv("GIT_DIR") &&
	    !getenv("GIT_WORK_TREE"))
		return;
	real = realpath(*path, NULL);

	if (real) {
		free(*path);
		*path = real;
	}
}

int gitlite_open(struct gitlite *out, struct error *err)
{
	return gitlite_open_flags(out, 0, err);
}

int gitlite_reload_config(struct gitlite *g, struct error *err)
{
	strvec_clear(&g->cfg);
	return load_config(g, err);
}

int gitlite_open_flags(struct gitlite *out, int flags, struct error *err)
{
	const char *env = getenv("GIT_DIR");
	struct buf b = BUF_INIT;
	char *path, *work_tree = NULL;
	int rc;

	memset(out, 0, sizeof(*out));
	out->flags = flags;
	if (env && *env)
		out->git_dir = absolute(env);
	else if (!(out->git_dir = discover(&work_tree)))
		return error_set(err, GCAMP_ENOREPO, "not in a git repository");
	if ((env = getenv("GIT_COMMON_DIR")) && *env) {
		out->common_dir = absolute(env);
	} else {
		path = join(out->git_dir, "commondir");
		if (read_file(&b, path) == 0) {
			buf_rtrim(&b);
			out->common_dir = join(out->git_dir, b.ptr);
		} else {
			out->common_dir = xstrdup(out->git_dir);
		}
		free(path);
	}
	buf_release(&b);
	/* as git and libgit2 name them: no "..", no symbolic links */
	resolve_in_place(&out->git_dir);
	resolve_in_place(&out->common_dir);
	if ((rc = load_config(out, err)) < 0) {
		free(work_tree);
		gitlite_release(out);
		return rc;
	}
	find_work_tree(out, work_tree);
	if (out->work_tree)
		resolve_in_place(&out->work_tree);
	return 0;
}

void gitlite_release(struct gitlite *g)
{
	if (!g)
		return;
	free(g->git_dir);
	free(g->common_dir);
	free(g->work_tree);
	strvec_clear(&g->cfg);
	memset(g, 0, sizeof(*g));
}

/* Keys compare with section and name in any case, the subsection exact. */
static int key_equal(const char *stored, const char *key)
{
	const char *d1 = strchr(key, '.'), *d2 = strrchr(key, '.');
	size_t n = strlen(key);

	if (!d1 || strlen(stored) != n)
		return 0;
	return !strncasecmp(stored, key, (size_t)(d1 - key)) &&
	       !strncmp(stored + (d1 - key), d1, (size_t)(d2 - d1)) &&
	       !strcasecmp(stored + (d2 - key), d2);
}

const char *gitlite_get(const struct gitlite *g, const char *key)
{
	size_t i;

	for (i = g->cfg.nr; i >= 2; i -= 2)
		if (key_equal(g->cfg.v[i - 2], key))
			return g->cfg.v[i - 1];
	return NULL;
}

int gitlite_get_bool(const struct gitlite *g, const char *key, int def)
{
	static const char *const yes[] = {"true", "yes", "on", "1"};
	static const char *const no[] = {"false", "no", "off", "0", ""};
	const char *v = gitlite_get(g, key);
	size_t i;

	if (!v)
		return def;
	for (i = 0; i < sizeof(yes) / sizeof(*yes); i++)
		if (!strcasecmp(v, yes[i]))
			return 1;
	for (i = 0; i < sizeof(no) / sizeof(*no); i++)
		if (!strcasecmp(v, no[i]))
			return 0;
	return def;
}

void gitlite_get_all(struct strvec *out, const struct gitlite *g,
		     const char *key)
{
	size_t i;

	for (i = 0; i + 1 < g->cfg.nr; i += 2)
		if (key_equal(g->cfg.v[i], key))
			strvec_push(out, g->cfg.v[i + 1]);
}

static int files_head_branch(char **out, void *store, struct error *err)
{
	const struct gitlite *g = store;
	struct buf b = BUF_INIT;
	char *path = join(g->git_dir, "HEAD");
	int rc = 0;

	*out = NULL;
	if (read_file(&b, path) < 0) {
		rc = error_set(err, GCAMP_EFATAL, "cannot read '%s': %s", path,
			       strerror(errno));
		goto out;
	}
	buf_rtrim(&b);
	if (!strncmp(b.ptr, "ref: refs/heads/", 16))
		*out = xstrdup(b.ptr + 16);
out:
	free(path);
	buf_release(&b);
	return rc;
}

static int is_oid(const char *s)
{
	size_t i;

	for (i = 0; i < 40; i++)
		if (!isxdigit((unsigned char)s[i]))
			return 0;
	return s[40] == '\0' || isspace((unsigned char)s[40]);
}

/* Refs that belong to one worktree live in its git directory. */
static int per_worktree(const char *refname)
{
	return !strchr(refname, '/') || !strncmp(refname, "refs/bisect/", 12) ||
	       !strncmp(refname, "refs/worktree/", 14) ||
	       !strncmp(refname, "refs/rewritten/", 15);
}

static int packed_ref(char out[41], const struct gitlite *g,
		      const char *refname)
{
	struct buf b = BUF_INIT;
	char *path = join(g->common_dir, "packed-refs");
	size_t n = strlen(refname);
	const char *p, *nl;
	int rc = GCAMP_ENOTFOUND;

	if (read_file(&b, path) == 0)
		for (p = b.ptr; *p; p = *nl ? nl + 1 : nl) {
			nl = upto(p, '\n');
			if ((size_t)(nl - p) == 41 + n && p[40] == ' ' &&
			    !strncmp(p + 41, refname, n) && is_oid(p)) {
				memcpy(out, p, 40);
				out[40] = '\0';
				rc = 0;
				break;
			}
		}
	free(path);
	buf_release(&b);
	return rc;
}

static int files_resolve(char out[REFS_HEX_SIZE], void *store,
			 const char *refname)
{
	const struct gitlite *g = store;
	struct buf b = BUF_INIT, name = BUF_INIT;
	int depth, rc = GCAMP_ENOTFOUND;

	buf_puts(&name, refname);
	for (depth = 0; depth < 5; depth++) {
		char *path;

		if (strstr(name.ptr, "..") || name.ptr[0] == '/')
			break;
		path = join(per_worktree(name.ptr) ? g->git_dir : g->common_dir,
			    name.ptr);
		if (read_file(&b, path) < 0) {
			free(path);
			rc = packed_ref(out, g, name.ptr);
			break;
		}
		free(path);
		buf_rtrim(&b);
		if (!strncmp(b.ptr, "ref: ", 5)) {
			buf_reset(&name);
			buf_puts(&name, b.ptr + 5);
			continue;
		}
		if (b.len == 40 && is_oid(b.ptr)) {
			memcpy(out, b.ptr, 41);
			rc = 0;
		}
		break;
	}
	buf_release(&b);
	buf_release(&name);
	return rc;
}

/* Adds NAME OID pairs of the loose refs under dir (the ref name so far in
 * name) to refs. */
static void loose_refs(struct strvec *refs, const char *dir, struct buf *name)
{
	struct buf b = BUF_INIT;
	size_t len = name->len;
	struct dirent *e;
	DIR *d = opendir(dir);

	if (!d)
		return;
	while ((e = readdir(d))) {
		char *path;

		if (e->d_name[0] == '.')
			continue;
		buf_setlen(name, len);
		buf_puts(name, e->d_name);
		path = join(dir, e->d_name);
		if (is_dir(path)) {
			buf_putc(name, '/');
			loose_refs(refs, path, name);
		} else if (read_file(&b, path) == 0 && b.len >= 40 &&
			   is_oid(b.ptr)) {
			strvec_push(refs, name->ptr);
			strvec_push_owned(refs, xstrndup(b.ptr, 40));
		}
		free(path);
	}
	closedir(d);
	buf_setlen(name, len);
	buf_release(&b);
}

struct ref_pair {
	const char *name, *oid;
};

static int cmp_ref_pair(const void *a, const void *b)
{
	return strcmp(((const struct ref_pair *)a)->name,
		      ((const struct ref_pair *)b)->name);
}

static int files_for_each_prefix(void *store, const char *prefix,
				 int (*fn)(const char *refname, const char *oid,
					   void *data),
				 void *data)
{
	const struct gitlite *g = store;
	struct strvec refs = STRVEC_INIT;
	struct buf b = BUF_INIT, name = BUF_INIT;
	struct ref_pair *v;
	size_t n = strlen(prefix), i, k, nloose;
	char *path = join(g->common_dir, prefix);
	const char *p, *nl;
	int rc = 0;

	buf_puts(&name, prefix);
	loose_refs(&refs, path, &name);
	nloose = refs.nr;
	free(path);
	path = join(g->common_dir, "packed-refs");
	if (read_file(&b, path) == 0)
		for (p = b.ptr; *p; p = *nl ? nl + 1 : nl) {
			nl = upto(p, '\n');
			if ((size_t)(nl - p) > 41 + n && p[40] == ' ' &&
			    !strncmp(p + 41, prefix, n) && is_oid(p)) {
				strvec_push_owned(
					&refs, xstrndup(p + 41,
							(size_t)(nl - p) - 41));
				strvec_push_owned(&refs, xstrndup(p, 40));
			}
		}
	v = xcalloc(refs.nr / 2 + 1, sizeof(*v));
	for (i = k = 0; i + 1 < refs.nr; i += 2) {
		size_t j;

		/* a packed ref that is also loose is the loose one */
		for (j = 0; i >= nloose && j < nloose; j += 2)
			if (!strcmp(refs.v[j], refs.v[i]))
				break;
		if (i >= nloose && j < nloose)
			continue;
		v[k].name = refs.v[i];
		v[k++].oid = refs.v[i + 1];
	}
	qsort(v, k, sizeof(*v), cmp_ref_pair);
	for (i = 0; i < k && !rc; i++)
		rc = fn(v[i].name, v[i].oid, data);
	free(v);
	free(path);
	buf_release(&b);
	buf_release(&name);
	strvec_clear(&refs);
	return rc;
}

int gitlite_refname_valid(const char *name)
{
	const char *p, *comp = name;
	size_t n = strlen(name);

	if (!n || !strcmp(name, "@") || name[n - 1] == '/' ||
	    name[n - 1] == '.' || strstr(name, "..") || strstr(name, "@{") ||
	    strstr(name, "//"))
		return 0;
	for (p = name;; p++) {
		if (*p == '/' || !*p) {
			size_t len = (size_t)(p - comp);

			if (!len || comp[0] == '.' ||
			    (len >= 5 && !strncmp(p - 5, ".lock", 5)))
				return 0;
			if (!*p)
				return 1;
			comp = p + 1;
		} else if ((unsigned char)*p < 0x20 || *p == 0x7f ||
			   strchr(" ~^:?*[\\", *p)) {
			return 0;
		}
	}
}

int gitlite_branch_name_valid(const char *name)
{
	char *ref;
	int ok;

	if (name[0] == '-' || !strcmp(name, "HEAD"))
		return 0;
	ref = xasprintf("refs/heads/%s", name);
	ok = gitlite_refname_valid(ref);
	free(ref);
	return ok;
}

int gitlite_remote_name_valid(const char *name)
{
	char *ref = xasprintf("refs/remotes/%s/test", name);
	int ok = *name && gitlite_refname_valid(ref);

	free(ref);
	return ok;
}

static int any_ref(const char *refname, const char *oid, void *data)
{
	(void)refname;
	(void)oid;
	(void)data;
	return 1;
}

/* 1 when the object files alone may answer for the history: no object
 * folder named by the environment, no shallow or grafted history, no
 * replace refs (git's own walk sees those, ours does not) */
static int objects_alone(const struct gitlite *g)
{
	char *shallow = join(g->common_dir, "shallow");
	char *grafts = join(g->common_dir, "info/grafts");
	int ok = !getenv("GIT_OBJECT_DIRECTORY") &&
		 !getenv("GIT_ALTERNATE_OBJECT_DIRECTORIES") &&
		 access(shallow, F_OK) < 0 && access(grafts, F_OK) < 0 &&
		 files_for_each_prefix((void *)g, "refs/replace/", any_ref,
				       NULL) == 0;

	free(shallow);
	free(grafts);
	return ok;
}

/* The object files answer (io/gitobj.h) without a process; git, found as
 * proc_git finds the repository, in every case they cannot. */
static int files_is_ancestor(void *store, const char *ancestor,
			     const char *descendant)
{
	const char *args[] = {"merge-base", "--is-ancestor", ancestor,
			      descendant, NULL};
	struct proc_opts po = {.stdin_null = 1, .cap = 4096};
	struct proc_result r = PROC_RESULT_INIT;
	struct error err = ERROR_INIT;
	const struct gitlite *g = store;
	int rc;

	if (objects_alone(g)) {
		char *objects = join(g->common_dir, "objects");

		rc = gitobj_is_ancestor(objects, ancestor, descendant);
		free(objects);
		if (rc >= 0)
			return rc;
	}
	if (proc_git(&r, args, &po, &err) < 0)
		rc = GCAMP_EFATAL;
	else
		rc = r.status == 0 ? 1 : r.status == 1 ? 0 : GCAMP_EFATAL;
	proc_result_release(&r);
	error_clear(&err);
	return rc;
}

static const struct refs_backend files_backend = {
	.name = "files",
	.resolve = files_resolve,
	.head_branch = files_head_branch,
	.for_each_prefix = files_for_each_prefix,
	.is_ancestor = files_is_ancestor,
};

void gitlite_refs(struct refs *out, const struct gitlite *g)
{
	out->be = &files_backend;
	/* the backend only reads through it */
	out->store = (void *)g;
}

void gitlite_open_dirs(struct gitlite *out, const char *git_dir,
		       const char *common_dir)
{
	memset(out, 0, sizeof(*out));
	out->git_dir = xstrdup(git_dir);
	out->common_dir = xstrdup(common_dir);
}
