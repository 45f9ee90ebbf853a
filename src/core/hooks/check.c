/* The hooks' checks. Nothing here may load libgit2: the repository is read
 * through io/gitlite (the files backend of io/refs.h), the stack through
 * core/stack/model and the PR cache through core/records/pr.c, so that the
 * separate git-campaign-hook program links only libc and sqlite. */
#include "core/hooks/check.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/hooks/msg.h"
#include "core/records/pr.h"
#include "core/stack/model.h"
#include "io/db.h"
#include "io/gitlite.h"
#include "io/proc.h"
#include "util/xalloc.h"

const char *const hooks_names[] = {
	"pre-commit",  "commit-msg",	   "pre-push",		 "post-rewrite",
	"post-commit", "pre-merge-commit", "prepare-commit-msg", NULL,
};

struct hook {
	struct gitlite g;
	struct refs refs;	  /* the files backend over g */
	struct stack_model model; /* loaded by stack_of() */
	int model_loaded;
	struct buf *report;
	struct error err;
	const char *name;
	const char *base; /* campaign.base, or NULL */
	const char *remote;
	struct strvec cmd; /* the command line of the git running us */
	int cmd_loaded;
};

static void say(struct hook *h, const char *prefix, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void say(struct hook *h, const char *prefix, const char *fmt, ...)
{
	va_list ap;

	buf_puts(h->report, prefix);
	va_start(ap, fmt);
	buf_vaddf(h->report, fmt, ap);
	va_end(ap);
	buf_putc(h->report, '\n');
}

/* A campaign.hooks.NAME switch; every check is on unless turned off, and
 * campaign.hooks.enabled=false turns them all off. */
static int check_on(const struct hook *h, const char *name)
{
	char key[64];

	if (!gitlite_get_bool(&h->g, "campaign.hooks.enabled", 1))
		return 0;
	snprintf(key, sizeof(key), "campaign.hooks.%s", name);
	return gitlite_get_bool(&h->g, key, 1);
}

static char *belongs_path(const struct gitlite *g)
{
	return xasprintf("%s/campaign/belongs", g->git_dir);
}

/* The one-shot allowance: "NUMBER BRANCH". 0 when none. */
static long belongs_read(const struct gitlite *g, const char *branch)
{
	char *path = belongs_path(g), line[1024], *end;
	FILE *fp = fopen(path, "r");
	long n = 0;

	if (fp && fgets(line, sizeof(line), fp)) {
		line[strcspn(line, "\n")] = '\0';
		n = strtol(line, &end, 10);
		if (*end != ' ' || strcmp(end + 1, branch))
			n = 0;
	}
	if (fp)
		fclose(fp);
	free(path);
	return n;
}

static int pr_is_open(const struct pr_cached *pr)
{
	return !strcmp(pr->state, "open") || !strcmp(pr->state, "draft");
}

/* Commits of HEAD that REMOTE/BRANCH lacks: git rev-list, run only when a
 * refusal is printed. -1 when the remote branch is not known. */
static long unpushed(struct hook *h, const char *branch)
{
	char oid[41], *ref = xasprintf("refs/remotes/%s/%s", h->remote, branch);
	char *range = xasprintf("%s..HEAD", ref);
	const char *args[] = {"rev-list", "--count", range, "--", NULL};
	struct proc_result r = PROC_RESULT_INIT;
	struct error ignored = ERROR_INIT;
	long n = -1;

	if (refs_resolve(oid, &h->refs, ref) == 0 &&
	    proc_git(&r, args, NULL, &ignored) == 0 && r.status == 0)
		n = strtol(r.out.ptr, NULL, 10);
	proc_result_release(&r);
	free(ref);
	free(range);
	return n;
}

static int refuse_open_pr(struct hook *h, const char *branch,
			  const struct pr_cached *pr, const char *env)
{
	long ahead = unpushed(h, branch);

	say(h, "error: ",
	    "branch '%s' has open PR #%ld%s%s%s: a commit here "
	    "goes into that PR",
	    branch, pr->number, pr->url[0] ? " (" : "", pr->url,
	    pr->url[0] ? ")" : "");
	if (env)
		say(h, "hint: ", "CAMPAIGN_PR=%s does not name it", env);
	if (ahead >= 0)
		say(h, "hint: ", "'%s' holds %ld commit%s not on '%s/%s' yet",
		    branch, ahead, ahead == 1 ? "" : "s", h->remote, branch);
	else
		say(h, "hint: ",
		    "'%s/%s' is not known here: every commit of "
		    "'%s' may be unpushed",
		    h->remote, branch, branch);
	say(h, "hint: ",
	    "if this commit belongs to PR #%ld: 'git campaign "
	    "belongs %ld' (the next commit only), or CAMPAIGN_PR=%ld git "
	    "commit ...",
	    pr->number, pr->number, pr->number);
	say(h, "hint: ",
	    "otherwise start a new branch stacked on it: 'git "
	    "switch -c NAME' (your staged changes come along)");
	return 1;
}

static int pre_commit(struct hook *h)
{
	struct pr_cached pr;
	char *branch = NULL, *path = NULL;
	const char *env;
	int rc = 0;

	if (refs_head_branch(&branch, &h->refs, &h->err) < 0) {
		rc = -1;
		goto out;
	}
	if (!branch) /* detached: a rebase, a bisect; not a branch's commit */
		goto out;
	if (h->base && !strcmp(branch, h->base) && check_on(h, "base")) {
		say(h, "error: ",
		    "'%s' is the campaign's base branch: no "
		    "commits directly on it",
		    branch);
		say(h, "hint: ",
		    "start a branch for this change: 'git switch "
		    "-c NAME' (your staged changes come along)");
		rc = 1;
		goto out;
	}
	if (!check_on(h, "openPr"))
		goto out;
	path = db_default_path(h->g.common_dir);
	rc = pr_get_file(&pr, path, branch, &h->err);
	if (rc == GCAMP_ENOTFOUND) {
		rc = 0;
		goto out;
	}
	if (rc < 0) {
		rc = -1;
		goto out;
	}
	if (!pr_is_open(&pr))
		goto out;
	env = getenv("CAMPAIGN_PR");
	if (env && *env) {
		char *end;
		long n = strtol(env[0] == '#' ? env + 1 : env, &end, 10);

		if (!*end && n == pr.number)
			goto out;
	} else {
		env = NULL;
	}
	if (belongs_read(&h->g, branch) == pr.number)
		goto out;
	rc = refuse_open_pr(h, branch, &pr, env);
out:
	free(branch);
	free(path);
	return rc;
}

static int read_whole(struct buf *out, const char *path, struct error *err)
{
	char chunk[8192];
	FILE *fp = fopen(path, "rb");
	size_t n;

	if (!fp)
		return error_set(err, GCAMP_EFATAL,
				 "cannot read the message file '%s': %s", path,
				 strerror(errno));
	while ((n = fread(chunk, 1, sizeof(chunk), fp)) > 0 &&
	       out->len < (16u << 20))
		buf_add(out, chunk, n);
	fclose(fp);
	return 0;
}

/* The command line of the git that runs us, read once per hook. */
static void running_git(struct hook *h)
{
	if (!h->cmd_loaded) {
		proc_git_ancestor(&h->cmd);
		h->cmd_loaded = 1;
	}
}

/* The --cleanup=MODE the git that runs us was given (as the sequencer
 * gives `git commit --no-edit --cleanup=strip` to finish a cherry-pick),
 * or NULL. */
static const char *cleanup_arg(struct hook *h)
{
	size_t i;

	running_git(h);
	for (i = 1; i < h->cmd.nr; i++) {
		if (!strcmp(h->cmd.v[i], "--"))
			break;
		if (!strncmp(h->cmd.v[i], "--cleanup=", 10))
			return h->cmd.v[i] + 10;
	}
	return NULL;
}

static enum msg_cleanup cleanup_mode(struct hook *h)
{
	const char *v = cleanup_arg(h);
	const char *editor = getenv("GIT_EDITOR");
	/* git tells its hooks that no editor runs with GIT_EDITOR=: */
	int edited = !(editor && !strcmp(editor, ":"));

	if (!v)
		v = gitlite_get(&h->g, "commit.cleanup");

	if (v && !strcmp(v, "verbatim"))
		return MSG_VERBATIM;
	if (v && !strcmp(v, "whitespace"))
		return MSG_WHITESPACE;
	if (v && !strcmp(v, "scissors"))
		return edited ? MSG_SCISSORS : MSG_WHITESPACE;
	if (v && !strcmp(v, "strip"))
		return MSG_STRIP;
	return edited ? MSG_STRIP : MSG_WHITESPACE;
}

static int utf8_encoding(const struct hook *h)
{
	const char *v = gitlite_get(&h->g, "i18n.commitEncoding");

	return !v || !strcasecmp(v, "utf-8") || !strcasecmp(v, "utf8");
}

static int commit_msg(struct hook *h, int nargs, const char **args)
{
	struct buf raw = BUF_INIT, msg = BUF_INIT;
	struct strvec deny = STRVEC_INIT;
	struct msg_rules r = {0, 0, 0, NULL};
	const char *cc = gitlite_get(&h->g, "core.commentChar");
	char *merge_head = NULL;
	size_t line;
	int rc = 0;

	if (nargs < 1) {
		rc = error_set(&h->err, GCAMP_EFATAL,
			       "commit-msg needs the message file");
		goto out;
	}
	if ((rc = read_whole(&raw, args[0], &h->err)) < 0)
		goto out;
	if (utf8_encoding(h) && !hooks_utf8_valid(raw.ptr, raw.len, &line)) {
		say(h, "error: ",
		    "the commit message is not valid UTF-8 "
		    "(line %zu)",
		    line);
		say(h, "hint: ",
		    "write it in UTF-8, or set i18n.commitEncoding "
		    "to the encoding this repository uses");
		rc = 1;
		goto out;
	}
	hooks_msg_cleanup(&msg, raw.ptr, raw.len, cleanup_mode(h),
			  cc && strlen(cc) == 1 ? cc[0] : '#');
	merge_head = xasprintf("%s/MERGE_HEAD", h->g.git_dir);
	r.merge = access(merge_head, F_OK) == 0;
	r.one_line = check_on(h, "oneLine");
	r.attribution = check_on(h, "attribution");
	if (gitlite_get_bool(&h->g, "campaign.hooks.enabled", 1))
		gitlite_get_all(&deny, &h->g, "campaign.hooks.denyPattern");
	r.deny = &deny;
	rc = hooks_msg_check(msg.ptr, &r, &h->err);
	if (rc == GCAMP_EREFUSED) {
		say(h, "error: ", "%s", h->err.msg);
		if (h->err.hint[0])
			say(h, "hint: ", "%s", h->err.hint);
		say(h, "hint: ",
		    "your message is kept in '%s'; edit it and "
		    "commit again with 'git commit -e -F FILE'",
		    args[0]);
		error_clear(&h->err);
		rc = 1;
	}
out:
	buf_release(&raw);
	buf_release(&msg);
	strvec_clear(&deny);
	free(merge_head);
	return rc;
}

/* The recorded stack, read once per hook. */
static const struct stack_model *stack_of(struct hook *h)
{
	size_t i;

	if (!h->model_loaded) {
		h->model_loaded = 1;
		for (i = 0; i + 1 < h->g.cfg.nr; i += 2)
			stack_model_add(h->g.cfg.v[i], h->g.cfg.v[i + 1],
					&h->model);
		stack_model_resolve(&h->model, &h->refs, h->remote);
	}
	return &h->model;
}

/* branch's relation when it is stacked and needs a restack (the rule of
 * stack_model_needs_restack, as status and stack show decide), else NULL;
 * borrowed from h. A parent that is gone is not a restack (stack sync
 * deals with it). */
static const struct stack_rel *needs_restack(struct hook *h, const char *branch)
{
	const struct stack_rel *r = stack_model_find(stack_of(h), branch);

	return r && r->needs_restack ? r : NULL;
}

static int pre_push_ref(struct hook *h, const char *local_ref,
			const char *local_oid, const char *remote_ref)
{
	static const char zero[] = "0000000000000000000000000000000000000000";
	const struct stack_rel *r;
	int deleting = !strcmp(local_oid, zero);

	if (h->base && check_on(h, "base") &&
	    !strncmp(remote_ref, "refs/heads/", 11) &&
	    !strcmp(remote_ref + 11, h->base)) {
		say(h, "error: ",
		    "'%s' is the campaign's base branch: %s it "
		    "is refused",
		    h->base, deleting ? "deleting" : "pushing to");
		say(h, "hint: ", "changes reach '%s' through PRs", h->base);
		return 1;
	}
	if (deleting || strncmp(local_ref, "refs/heads/", 11) ||
	    !check_on(h, "restack"))
		return 0;
	if (!(r = needs_restack(h, local_ref + 11)))
		return 0;
	say(h, "error: ",
	    "'%s' needs a restack: its parent '%s' moved since "
	    "'%s' was based on it",
	    local_ref + 11, r->parent, local_ref + 11);
	say(h, "hint: ",
	    "restack it first ('git campaign stack restack'), "
	    "then push");
	return 1;
}

static int pre_push(struct hook *h, FILE *in)
{
	char line[4096], lref[2048], loid[64], rref[2048], roid[64];
	const char *env;
	int refused = 0;

	while (in && fgets(line, sizeof(line), in)) {
		if (sscanf(line, "%2047s %63s %2047s %63s", lref, loid, rref,
			   roid) != 4)
			continue;
		refused |= pre_push_ref(h, lref, loid, rref);
	}
	/* the pre-commit framework passes no standard input to its hooks,
	 * only these */
	env = getenv("PRE_COMMIT_REMOTE_BRANCH");
	if (env && getenv("PRE_COMMIT_LOCAL_BRANCH")) {
		const char *to = getenv("PRE_COMMIT_TO_REF");

		refused |= pre_push_ref(h, getenv("PRE_COMMIT_LOCAL_BRANCH"),
					to ? to : "", env);
	}
	return refused;
}

struct child_walk {
	struct hook *h;
	const char *moved_parent; /* children of this branch, or NULL */
	const struct strvec *old; /* rewritten commits, or NULL */
};

/* Names the stacked branches that now need a restack because of what was
 * just committed or rewritten. The restack mark is the parent's moved tip
 * against campaignParentTip itself: nothing is written. */
static void announce_children(struct child_walk *w)
{
	struct hook *h = w->h;
	const struct stack_model *m;
	size_t i, k;

	if (!check_on(h, "restack"))
		return;
	m = stack_of(h);
	for (i = 0; i < m->n; i++) {
		const struct stack_rel *r = &m->rel[i];
		int hit = 0;

		if (r->needs_restack) {
			hit = w->moved_parent &&
			      !strcmp(r->parent, w->moved_parent);
			for (k = 0; w->old && k < w->old->nr; k++)
				hit |= stack_model_same_commit(w->old->v[k],
							       r->parent_tip);
		}
		if (hit)
			say(h, "hint: ",
			    "'%s' is stacked on '%s', which moved: "
			    "restack it ('git campaign stack restack') "
			    "before pushing it",
			    r->branch, r->parent);
	}
}

/* git cherry-pick and git revert commit without pre-commit or commit-msg
 * (unless they stopped and `git commit` finishes them); prepare-commit-msg
 * is the one hook they run, with the final message when no editor runs.
 * `git commit --no-verify` runs it too, so it judges only the commits of
 * those two commands, leaving the escape hatch as it is. */
static int prepare_commit_msg(struct hook *h, int nargs, const char **args)
{
	const char *cmd;
	int rc;

	running_git(h);
	cmd = h->cmd.nr ? h->cmd.v[0] : "";
	if (strcmp(cmd, "cherry-pick") && strcmp(cmd, "revert"))
		return 0;
	if ((rc = pre_commit(h)) == 0)
		rc = commit_msg(h, nargs, args);
	if (rc == 1)
		/* a refused revert leaves no REVERT_HEAD to --abort */
		say(h, "hint: ", "'%s' puts things back as they were",
		    strcmp(cmd, "revert") ? "git cherry-pick --abort"
					  : "git reset --merge");
	return rc;
}

static int post_rewrite(struct hook *h, FILE *in)
{
	struct strvec old = STRVEC_INIT;
	struct child_walk w = {h, NULL, &old};
	char line[512], a[64], b[64], *branch = NULL;

	while (in && fgets(line, sizeof(line), in))
		if (sscanf(line, "%63s %63s", a, b) == 2)
			strvec_push(&old, a);
	if (refs_head_branch(&branch, &h->refs, &h->err) == 0)
		w.moved_parent = branch;
	error_clear(&h->err);
	/* git offers no gate before a rebase rewrites commits: say so after */
	if (branch && h->base && !strcmp(branch, h->base) && old.nr &&
	    check_on(h, "base"))
		say(h, "warning: ",
		    "'%s' is the campaign's base branch: %zu of its commits "
		    "were rewritten here",
		    branch, old.nr);
	announce_children(&w);
	free(branch);
	strvec_clear(&old);
	return 0;
}

static int post_commit(struct hook *h)
{
	struct child_walk w = {h, NULL, NULL};
	char *branch = NULL, *path;

	if (refs_head_branch(&branch, &h->refs, &h->err) < 0)
		return -1;
	if (!branch)
		return 0;
	/* the allowance was for this one commit */
	if (belongs_read(&h->g, branch)) {
		path = belongs_path(&h->g);
		if (unlink(path) < 0 && errno != ENOENT)
			say(h, "warning: ", "cannot remove '%s': %s", path,
			    strerror(errno));
		free(path);
	}
	w.moved_parent = branch;
	announce_children(&w);
	free(branch);
	return 0;
}

static int tool_failed(struct hook *h)
{
	int post = !strncmp(h->name, "post-", 5);
	int push = !strcmp(h->name, "pre-push");

	if (!h->err.code)
		error_set(&h->err, GCAMP_EFATAL,
			  "failed for an unknown reason");
	say(h, post ? "warning: " : "fatal: ",
	    "git-campaign's %s hook failed: "
	    "%s",
	    h->name, h->err.msg);
	if (post)
		return 0;
	say(h, "hint: ",
	    "this is the tool failing, not a campaign rule; 'git "
	    "%s --no-verify' skips the hook",
	    push ? "push" : "commit");
	return 128;
}

int hooks_run(struct buf *report, const char *name, int nargs,
	      const char **args, FILE *in)
{
	struct hook h;
	size_t i;
	int rc;

	for (i = 0; hooks_names[i]; i++)
		if (!strcmp(hooks_names[i], name))
			break;
	if (!hooks_names[i]) {
		buf_addf(report,
			 "error: '%s' is not a hook git-campaign "
			 "runs\n",
			 name);
		return 129;
	}
	memset(&h, 0, sizeof(h));
	h.report = report;
	h.name = name;
	rc = gitlite_open(&h.g, &h.err);
	if (rc == GCAMP_ENOREPO)
		return 0; /* not ours to judge */
	if (rc < 0)
		return tool_failed(&h);
	gitlite_refs(&h.refs, &h.g);
	/* outside a campaign the hooks pass and say nothing */
	if (!gitlite_get(&h.g, "campaign.name")) {
		rc = 0;
		goto out;
	}
	h.base = gitlite_get(&h.g, "campaign.base");
	h.remote = gitlite_get(&h.g, "campaign.remote");
	if (!h.remote)
		h.remote = "origin";
	if (!strcmp(name, "pre-commit") || !strcmp(name, "pre-merge-commit"))
		rc = pre_commit(&h);
	else if (!strcmp(name, "prepare-commit-msg"))
		rc = prepare_commit_msg(&h, nargs, args);
	else if (!strcmp(name, "commit-msg"))
		rc = commit_msg(&h, nargs, args);
	else if (!strcmp(name, "pre-push"))
		rc = pre_push(&h, in);
	else if (!strcmp(name, "post-rewrite"))
		rc = post_rewrite(&h, in);
	else
		rc = post_commit(&h);
	if (rc < 0)
		rc = tool_failed(&h);
out:
	stack_model_release(&h.model);
	strvec_clear(&h.cmd);
	gitlite_release(&h.g);
	return rc;
}

int hooks_belongs(char **branch_out, int *cached, long number,
		  struct error *err)
{
	struct gitlite g = GITLITE_INIT;
	struct refs refs;
	struct pr_cached pr;
	char *branch = NULL, *path = NULL, *dir = NULL, *tmp = NULL;
	FILE *fp;
	int rc;

	*branch_out = NULL;
	*cached = 0;
	if ((rc = gitlite_open(&g, err)) < 0)
		return rc;
	if (!gitlite_get(&g, "campaign.name")) {
		rc = error_set(err, GCAMP_ENOTINIT,
			       "no campaign in this repository");
		error_hint(err, "start one with 'git campaign init'");
		goto out;
	}
	gitlite_refs(&refs, &g);
	if ((rc = refs_head_branch(&branch, &refs, err)) < 0)
		goto out;
	if (!branch) {
		rc = error_set(err, GCAMP_EFATAL,
			       "HEAD is detached: no branch to allow a "
			       "commit on");
		goto out;
	}
	path = db_default_path(g.common_dir);
	rc = pr_get_file(&pr, path, branch, err);
	if (rc == 0 && pr_is_open(&pr) && pr.number != number) {
		rc = error_set(err, GCAMP_EREFUSED,
			       "branch '%s' has open PR #%ld, not #%ld", branch,
			       pr.number, number);
		goto out;
	}
	*cached = rc == 0 && pr_is_open(&pr);
	if (rc < 0 && rc != GCAMP_ENOTFOUND)
		goto out;
	dir = xasprintf("%s/campaign", g.git_dir);
	if (mkdir(dir, 0777) < 0 && errno != EEXIST) {
		rc = error_set(err, GCAMP_EFATAL, "cannot create '%s': %s", dir,
			       strerror(errno));
		goto out;
	}
	free(path);
	path = belongs_path(&g);
	tmp = xasprintf("%s.tmp", path);
	fp = fopen(tmp, "w");
	if (fp && fprintf(fp, "%ld %s\n", number, branch) < 0) {
		fclose(fp);
		fp = NULL;
	}
	if (!fp || fclose(fp) != 0 || rename(tmp, path) < 0) {
		rc = error_set(err, GCAMP_EFATAL, "cannot write '%s': %s", path,
			       strerror(errno));
		goto out;
	}
	*branch_out = branch;
	branch = NULL;
	rc = 0;
out:
	free(branch);
	free(path);
	free(dir);
	free(tmp);
	gitlite_release(&g);
	return rc;
}
