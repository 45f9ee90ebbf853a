/* The signature of a rewritten commit, made by the program git would run. */
#include "core/stack/sign.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "io/gitcfg.h"
#include "io/repo.h"
#include "io/proc.h"
#include "util/buf.h"
#include "util/xalloc.h"

static const char *cfg_str(struct gitcfg *cfg, const char *key)
{
	const char *v = NULL;

	if (gitcfg_get(&v, cfg, key) < 0)
		return NULL;
	return v;
}

int stack_signer_load(struct stack_signer *s, struct ctx *ctx,
		      const git_signature *committer)
{
	struct gitcfg *cfg;
	const char *fmt, *prog, *key;
	char *prog_key;
	int rc;

	memset(s, 0, sizeof(*s));
	if ((rc = ctx_config(&cfg, ctx)) < 0)
		return rc;
	s->on = gitcfg_bool(cfg_str(cfg, "commit.gpgSign")) == 1;
	if (!s->on)
		return 0;
	fmt = cfg_str(cfg, "gpg.format");
	s->format = xstrdup(fmt ? fmt : "openpgp");
	prog_key = !strcmp(s->format, "openpgp")
			   ? xstrdup("gpg.program")
			   : xasprintf("gpg.%s.program", s->format);
	prog = cfg_str(cfg, prog_key);
	if (!prog && !strcmp(s->format, "openpgp"))
		prog = cfg_str(cfg, "gpg.openpgp.program");
	free(prog_key);
	s->program = xstrdup(prog			  ? prog
			     : !strcmp(s->format, "ssh")  ? "ssh-keygen"
			     : !strcmp(s->format, "x509") ? "gpgsm"
							  : "gpg");
	key = cfg_str(cfg, "user.signingKey");
	if (key && !strncmp(key, "~/", 2) && getenv("HOME"))
		s->key = xasprintf("%s%s", getenv("HOME"), key + 1);
	else
		s->key = key ? xstrdup(key)
			     : xasprintf("%s <%s>", committer->name,
					 committer->email);
	return 0;
}

void stack_signer_release(struct stack_signer *s)
{
	if (!s)
		return;
	free(s->format);
	free(s->program);
	free(s->key);
	memset(s, 0, sizeof(*s));
}

static int sign_fail(struct error *err, const struct stack_signer *s,
		     const struct proc_result *r)
{
	struct buf last = BUF_INIT;
	int rc;

	proc_last_line(&last, r ? r->err.ptr ? r->err.ptr : "" : "");
	rc = error_set(err, GCAMP_EFATAL,
		       "commit.gpgSign is set but '%s' could not sign%s%s",
		       s->program, last.len ? ": " : "",
		       last.len ? last.ptr : "");
	error_hint(err, "fix the signing set-up (gpg.format, "
			"user.signingKey, gpg.program), or restack with "
			"'git -c commit.gpgSign=false campaign stack restack'");
	buf_release(&last);
	return rc;
}

/* The signature of data, in *out (caller frees), as git's sign_buffer
 * makes it for s->format */
static int sign_buffer(char **out, const struct stack_signer *s,
		       const char *data, size_t len, struct error *err)
{
	struct proc_result r = PROC_RESULT_INIT;
	struct proc_opts po = {0};
	char *tmp = NULL, *sig = NULL;
	int rc = GCAMP_EFATAL;

	*out = NULL;
	if (!strcmp(s->format, "ssh")) {
		/* ssh-keygen signs a file, next to which it writes FILE.sig */
		char tmpl[] = "/tmp/git-campaign-sign-XXXXXX";
		int fd = mkstemp(tmpl);
		const char *argv[] = {s->program, "-Y",	  "sign", "-n", "git",
				      "-f",	  s->key, tmpl,	  NULL};
		FILE *f;
		long n;

		if (fd < 0 || write(fd, data, len) != (ssize_t)len) {
			if (fd >= 0)
				close(fd);
			unlink(tmpl);
			return sign_fail(err, s, NULL);
		}
		close(fd);
		tmp = xstrdup(tmpl);
		sig = xasprintf("%s.sig", tmpl);
		po.stdin_null = 1;
		if (proc_run(&r, argv, &po, err) < 0 || r.status ||
		    !(f = fopen(sig, "rb"))) {
			error_clear(err);
			rc = sign_fail(err, s, &r);
			goto out;
		}
		fseek(f, 0, SEEK_END);
		n = ftell(f);
		rewind(f);
		*out = xmalloc((size_t)n + 1);
		(*out)[fread(*out, 1, (size_t)n, f)] = '\0';
		fclose(f);
		rc = 0;
	} else {
		const char *argv[] = {s->program, "--status-fd=2", "-bsau",
				      s->key, NULL};

		po.in = data;
		po.in_len = len;
		if (proc_run(&r, argv, &po, err) < 0 || r.status ||
		    !r.err.ptr || !strstr(r.err.ptr, "[GNUPG:] SIG_CREATED ") ||
		    !r.out.len) {
			error_clear(err);
			rc = sign_fail(err, s, &r);
			goto out;
		}
		*out = xstrndup(r.out.ptr, r.out.len);
		rc = 0;
	}
out:
	if (tmp)
		unlink(tmp);
	if (sig)
		unlink(sig);
	free(tmp);
	free(sig);
	proc_result_release(&r);
	return rc;
}

int stack_signer_commit(git_oid *out, const struct stack_signer *s,
			git_repository *repo, const git_signature *author,
			const git_signature *committer, const char *encoding,
			const char *message, const git_tree *tree,
			const git_commit *parent, struct error *err)
{
	git_buf content = GIT_BUF_INIT;
	char *sig = NULL;
	int rc;

	if (!s->on) {
		rc = git_commit_create(out, repo, NULL, author, committer,
				       encoding, message, tree, 1, &parent);
		return rc < 0 ? error_git(err, rc, "cannot write a commit") : 0;
	}
	rc = git_commit_create_buffer(&content, repo, author, committer,
				      encoding, message, tree, 1, &parent);
	if (rc < 0)
		return error_git(err, rc, "cannot write a commit");
	if ((rc = sign_buffer(&sig, s, content.ptr, content.size, err)) < 0)
		goto out;
	rc = git_commit_create_with_signature(out, repo, content.ptr, sig,
					      "gpgsig");
	if (rc < 0)
		rc = error_git(err, rc, "cannot write a signed commit");
out:
	free(sig);
	git_buf_dispose(&content);
	return rc;
}

int stack_signer_check(const struct stack_signer *s, struct error *err)
{
	static const char probe[] = "git-campaign signing probe\n";
	char *sig = NULL;
	int rc;

	if (!s->on)
		return 0;
	rc = sign_buffer(&sig, s, probe, sizeof(probe) - 1, err);
	free(sig);
	return rc;
}
