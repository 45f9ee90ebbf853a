/* Signing of the commits a restack writes, as git signs the commits of a
 * rebase: commit.gpgSign, gpg.format, user.signingKey and the program of
 * the format (gpg.program, gpg.ssh.program, gpg.x509.program). */
#ifndef GCAMP_STACK_SIGN_H
#define GCAMP_STACK_SIGN_H

#include <git2.h>

#include "core/base/ctx.h"

struct stack_signer {
	int on;	       /* commit.gpgSign */
	char *format;  /* "openpgp", "ssh", "x509" */
	char *program; /* what signs */
	char *key;     /* user.signingKey, or the committer's "Name <email>" */
};

/* Reads the signing configuration into s (s->on 0 when commit.gpgSign is
 * off or unset). Release with stack_signer_release(). */
int stack_signer_load(struct stack_signer *s, struct ctx *ctx,
		      const git_signature *committer);
void stack_signer_release(struct stack_signer *s);

/*
 * Writes a commit as git_commit_create does (one parent), signed by s when
 * s->on, into *out. A signature that cannot be made is GCAMP_EFATAL with
 * the program's last line and a hint: no unsigned commit is written in its
 * place.
 */
int stack_signer_commit(git_oid *out, const struct stack_signer *s,
			git_repository *repo, const git_signature *author,
			const git_signature *committer, const char *encoding,
			const char *message, const git_tree *tree,
			const git_commit *parent, struct error *err);

/* Signs a throw-away buffer, to refuse before anything starts when
 * signing is on and does not work; 0 when it works or is off. */
int stack_signer_check(const struct stack_signer *s, struct error *err);

#endif
