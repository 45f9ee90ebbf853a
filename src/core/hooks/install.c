/* Installing the hooks: the effective hooks directory, chaining the hooks
 * already there, the pre-commit framework. */
/* realpath */
#define _XOPEN_SOURCE 700
#include "core/hooks/install.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/hooks/check.h"
#include "io/repo.h"
#include "util/xalloc.h"

/* The line that marks a hook script as ours. */
static const char marker[] = "# git-campaign hook (installed by 'git campaign "
			     "hooks install'; see git-campaign-hooks(1))";
static const char orig_suffix[] = ".campaign-orig";

void hooks_where_release(struct hooks_where *w)
{
	if (!w)
		return;
	free(w->dir);
	free(w->framework);
	free(w->hook_bin);
	memset(w, 0, sizeof(*w));
}

/* git-campaign-hook beside this program, else the one on PATH. */
static char *find_hook_bin(void)
{
	char self[PATH_MAX], *slash, *path;
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	if (n > 0) {
		self[n] = '\0';
		if ((slash = strrchr(self, '/'))) {
			*slash = '\0';
			path = xasprintf("%s/git-campaign-hook", self);
			if (access(path, X_OK) == 0)
				return path;
			free(path);
		}
	}
	return xstrdup("git-campaign-hook");
}

/* 1 when path is under dir (both absolute, dir ending in a slash). */
static int under(const char *path, const char *dir)
{
	char *real = realpath(path, NULL), *rdir = realpath(dir, NULL);
	size_t n;
	int yes = 0;

	if (real && rdir) {
		n = strlen(rdir);
		yes = !strncmp(real, rdir, n) &&
		      (real[n] == '/' || real[n] == '\0');
	}
	free(real);
	free(rdir);
	return yes;
}

int hooks_locate(struct hooks_where *out, struct ctx *ctx)
{
	git_repository *repo;
	struct gitcfg *cfg;
	const char *v, *wd, *home = getenv("HOME");
	char *yaml = NULL;
	int rc;

	memset(out, 0, sizeof(*out));
	if ((rc = ctx_repo(&repo, ctx, 0)) < 0 ||
	    (rc = ctx_config(&cfg, ctx)) < 0)
		return rc;
	wd = git_repository_workdir(repo);
	if (gitcfg_get(&v, cfg, "core.hooksPath") == 0 && *v) {
		out->from_hookspath = 1;
		if (v[0] == '~' && v[1] == '/' && home)
			out->dir = xasprintf("%s/%s", home, v + 2);
		else if (v[0] == '/')
			out->dir = xstrdup(v);
		else /* relative to where hooks run: the work tree's top */
			out->dir = xasprintf(
				"%s%s", wd ? wd : git_repository_path(repo), v);
	} else {
		/* commondir ends with a slash */
		out->dir = xasprintf("%shooks", git_repository_commondir(repo));
	}
	out->outside = !under(out->dir, git_repository_commondir(repo)) &&
		       !(wd && under(out->dir, wd));
	if (out->outside && access(out->dir, F_OK) < 0) {
		/* not there yet: judge by the path as written */
		const char *c = git_repository_commondir(repo);

		out->outside = strncmp(out->dir, c, strlen(c)) &&
			       !(wd && !strncmp(out->dir, wd, strlen(wd)));
	}
	if (wd) {
		yaml = xasprintf("%s.pre-commit-config.yaml", wd);
		if (access(yaml, F_OK) == 0) {
			out->framework = yaml;
			yaml = NULL;
		}
	}
	free(yaml);
	out->hook_bin = find_hook_bin();
	return 0;
}

static char *hook_path(const struct hooks_where *w, const char *name,
		       const char *suffix)
{
	return xasprintf("%s/%s%s", w->dir, name, suffix);
}

static int exists(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0;
}

/* 1 when path is our link to git-campaign-hook, or a script that carries
 * our marker on its second line. */
static int is_ours(const char *path)
{
	char buf[PATH_MAX];
	const char *base;
	struct stat st;
	FILE *fp;
	ssize_t n;
	int yes = 0;

	if (lstat(path, &st) < 0)
		return 0;
	if (S_ISLNK(st.st_mode)) {
		n = readlink(path, buf, sizeof(buf) - 1);
		if (n <= 0)
			return 0;
		buf[n] = '\0';
		base = strrchr(buf, '/');
		return !strcmp(base ? base + 1 : buf, "git-campaign-hook");
	}
	if (!(fp = fopen(path, "r")))
		return 0;
	if (fgets(buf, sizeof(buf), fp) && fgets(buf, sizeof(buf), fp))
		yes = !strncmp(buf, marker, strlen(marker));
	fclose(fp);
	return yes;
}

enum hook_state hooks_state(const struct hooks_where *w, const char *name)
{
	char *path = hook_path(w, name, ""), *orig = NULL;
	enum hook_state s = HOOK_ABSENT;

	if (exists(path)) {
		s = HOOK_FOREIGN;
		if (is_ours(path)) {
			orig = hook_path(w, name, orig_suffix);
			s = exists(orig) ? HOOK_OURS_CHAINED : HOOK_OURS;
		}
	}
	free(path);
	free(orig);
	return s;
}

/* Single quotes for sh. */
static void sh_quote(struct buf *out, const char *s)
{
	buf_putc(out, '\'');
	for (; *s; s++) {
		if (*s == '\'')
			buf_puts(out, "'\\''");
		else
			buf_putc(out, *s);
	}
	buf_putc(out, '\'');
}

/* The script: run the chained hook first when there is one (with the same
 * standard input, for the hooks that read one), then ours. */
static void script(struct buf *out, const struct hooks_where *w,
		   const char *name, int chained)
{
	int reads_stdin =
		!strcmp(name, "pre-push") || !strcmp(name, "post-rewrite");

	buf_addf(out, "#!/bin/sh\n%s\n", marker);
	if (chained) {
		buf_addf(out,
			 "# runs the hook that was here first, kept as "
			 "%s%s, then ours; both must pass\n",
			 name, orig_suffix);
		buf_addf(out, "h=\"$(dirname \"$0\")/%s%s\"\n", name,
			 orig_suffix);
		if (reads_stdin) {
			buf_puts(out, "in=$(cat)\n"
				      "feed() { [ -z \"$in\" ] || printf "
				      "'%s\\n' \"$in\"; }\n");
			buf_puts(out, "if [ -x \"$h\" ]; then feed | \"$h\" "
				      "\"$@\" || exit $?; fi\n");
			buf_puts(out, "feed | exec ");
		} else {
			buf_puts(out, "if [ -x \"$h\" ]; then \"$h\" \"$@\" || "
				      "exit $?; fi\nexec ");
		}
	} else {
		buf_puts(out, "exec ");
	}
	sh_quote(out, w->hook_bin);
	buf_addf(out, " %s \"$@\"\n", name);
}

static int write_script(const char *path, const struct buf *text,
			struct error *err)
{
	char *tmp = xasprintf("%s.campaign-tmp", path);
	int fd, rc = 0;

	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0755);
	if (fd < 0 || write(fd, text->ptr, text->len) != (ssize_t)text->len ||
	    fchmod(fd, 0755) < 0 || close(fd) < 0) {
		rc = error_set(err, GCAMP_EFATAL, "cannot write '%s': %s", tmp,
			       strerror(errno));
		if (fd >= 0)
			close(fd);
		unlink(tmp);
		goto out;
	}
	if (rename(tmp, path) < 0) {
		rc = error_set(err, GCAMP_EFATAL, "cannot write '%s': %s", path,
			       strerror(errno));
		unlink(tmp);
	}
out:
	free(tmp);
	return rc;
}

/* A link named after the hook: git runs the program itself, no shell. */
static int write_link(const char *path, const char *target, struct error *err)
{
	char *tmp = xasprintf("%s.campaign-tmp", path);
	int rc = 0;

	unlink(tmp);
	if (symlink(target, tmp) < 0 || rename(tmp, path) < 0) {
		rc = error_set(err, GCAMP_EFATAL, "cannot write '%s': %s", path,
			       strerror(errno));
		unlink(tmp);
	}
	free(tmp);
	return rc;
}

static int mkdirs(const char *dir, struct error *err)
{
	char *p = xstrdup(dir), *s;
	int rc = 0;

	for (s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(p, 0777) < 0 && errno != EEXIST)
			break;
		*s = '/';
	}
	if (mkdir(p, 0777) < 0 && errno != EEXIST)
		rc = error_set(err, GCAMP_EFATAL, "cannot create '%s': %s", dir,
			       strerror(errno));
	free(p);
	return rc;
}

int hooks_install(const struct hooks_where *w, struct error *err)
{
	struct buf text = BUF_INIT;
	char *path = NULL, *orig = NULL;
	size_t i;
	int rc = 0, chained;

	/* everything is checked before anything changes */
	for (i = 0; hooks_names[i]; i++) {
		free(orig);
		orig = hook_path(w, hooks_names[i], orig_suffix);
		if (hooks_state(w, hooks_names[i]) == HOOK_FOREIGN &&
		    exists(orig)) {
			rc = error_set(err, GCAMP_EEXISTS,
				       "'%s' is there with a hook that is not "
				       "ours: cannot chain '%s' too",
				       orig, hooks_names[i]);
			error_hint(err, "move one of them away, then install "
					"again");
			goto out;
		}
	}
	if ((rc = mkdirs(w->dir, err)) < 0)
		goto out;
	for (i = 0; hooks_names[i]; i++) {
		const char *name = hooks_names[i];
		enum hook_state s = hooks_state(w, name);

		free(path);
		free(orig);
		path = hook_path(w, name, "");
		orig = hook_path(w, name, orig_suffix);
		/* rename keeps the user's hook exactly: bytes, mode, links */
		if (s == HOOK_FOREIGN && rename(path, orig) < 0) {
			rc = error_set(err, GCAMP_EFATAL,
				       "cannot move '%s' aside: %s", path,
				       strerror(errno));
			goto out;
		}
		buf_reset(&text);
		chained = s == HOOK_FOREIGN || exists(orig);
		script(&text, w, name, chained);
		/* alone, and with the program's full path known: a link */
		if (!chained && w->hook_bin[0] == '/')
			rc = write_link(path, w->hook_bin, err);
		else
			rc = write_script(path, &text, err);
		if (rc < 0) {
			if (s == HOOK_FOREIGN)
				rename(orig, path);
			goto out;
		}
	}
out:
	free(path);
	free(orig);
	buf_release(&text);
	return rc;
}

int hooks_uninstall(const struct hooks_where *w, struct error *err)
{
	char *path = NULL, *orig = NULL;
	size_t i;
	int rc = 0;

	for (i = 0; hooks_names[i]; i++) {
		enum hook_state s = hooks_state(w, hooks_names[i]);

		if (s != HOOK_OURS && s != HOOK_OURS_CHAINED)
			continue;
		free(path);
		free(orig);
		path = hook_path(w, hooks_names[i], "");
		orig = hook_path(w, hooks_names[i], orig_suffix);
		if (s == HOOK_OURS_CHAINED ? rename(orig, path) < 0
					   : unlink(path) < 0) {
			rc = error_set(err, GCAMP_EFATAL,
				       "cannot restore '%s': %s", path,
				       strerror(errno));
			goto out;
		}
	}
out:
	free(path);
	free(orig);
	return rc;
}

int hooks_framework_check(const char *path, struct error *err)
{
	char line[4096];
	FILE *fp = fopen(path, "r");
	int repos = 0;

	if (!fp)
		return error_set(err, GCAMP_EFATAL, "cannot read '%s': %s",
				 path, strerror(errno));
	while (fgets(line, sizeof(line), fp))
		if (!strncmp(line, "repos:", 6))
			repos = 1;
	fclose(fp);
	if (!repos) {
		error_set(err, GCAMP_EFATAL,
			  "cannot read '%s' as a pre-commit framework config: "
			  "no top-level 'repos:'",
			  path);
		error_hint(err, "fix it, or chain our hooks after the "
				"framework's with 'hooks install "
				"--chain-pre-commit'");
		return GCAMP_EFATAL;
	}
	return 0;
}

void hooks_framework_snippet(struct buf *out, const struct hooks_where *w)
{
	static const struct {
		const char *name, *stage;
		int files;
	} hooks[] = {
		{"pre-commit", "pre-commit", 0},
		{"commit-msg", "commit-msg", 1},
		{"pre-push", "pre-push", 0},
		{"post-commit", "post-commit", 0},
		{"post-rewrite", "post-rewrite", 0},
	};
	size_t i;

	buf_puts(out, "# git-campaign's hooks, run by the pre-commit "
		      "framework. Each names its stage,\n"
		      "# so a default_stages setting does not move it; "
		      "install every stage with\n"
		      "#   pre-commit install --hook-type pre-commit "
		      "--hook-type commit-msg \\\n"
		      "#     --hook-type pre-push --hook-type post-commit "
		      "--hook-type post-rewrite\n"
		      "-   repo: local\n    hooks:\n");
	for (i = 0; i < sizeof(hooks) / sizeof(*hooks); i++) {
		buf_addf(out, "    -   id: git-campaign-%s\n", hooks[i].name);
		buf_addf(out, "        name: git-campaign %s\n", hooks[i].name);
		buf_addf(out, "        entry: %s %s\n", w->hook_bin,
			 hooks[i].name);
		buf_puts(out, "        language: system\n");
		buf_addf(out, "        pass_filenames: %s\n",
			 hooks[i].files ? "true" : "false");
		buf_puts(out, "        always_run: true\n");
		buf_addf(out, "        stages: [%s]\n", hooks[i].stage);
	}
}
