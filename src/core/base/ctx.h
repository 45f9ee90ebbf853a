/* What a command works with: the error context, and the repository, its
 * configuration and the database, each opened on first use. */
#ifndef GCAMP_CTX_H
#define GCAMP_CTX_H

#include <git2.h>

#include "io/db.h"
#include "io/gitcfg.h"
#include "io/gitlite.h"
#include "util/buf.h"
#include "util/error.h"

struct ctx {
	struct error err;
	struct gitlite *lite; /* NULL until ctx_lite() */
	git_repository *repo; /* NULL until ctx_repo() */
	struct gitcfg *cfg;   /* NULL until ctx_config() */
	struct db *db;	      /* NULL until ctx_db() */
	char *db_backup;      /* the copy opening the database kept before
				 it upgraded the schema (db_backup), or
				 NULL; it outlives ctx_db_close() */
	int db_backup_from;   /* the schema that copy has */
	struct buf warn;      /* "warning: ..." lines (ctx_warn) that main
				 prints on stderr once the command is done */
};

#define CTX_INIT                                                               \
	{                                                                      \
		ERROR_INIT, NULL, NULL, NULL, NULL, NULL, 0, BUF_INIT          \
	}

/* Adds the line "warning: " FMT to ctx->warn, for main to print once the
 * command is done (after its output, as git's advice comes). */
void ctx_warn(struct ctx *ctx, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* The repository's files as gitlite reads them (without libgit2): its git
 * directories, work tree, configuration and refs. Borrowed. Outside a
 * repository GCAMP_ENOREPO, with the message repo_open gives. */
int ctx_lite(struct gitlite **out, struct ctx *ctx);
/* The top of the work tree (absolute, no final slash); borrowed. A bare
 * repository is refused. */
int ctx_work_tree(const char **out, struct ctx *ctx);
/* Opens the repository (see repo_open) unless already open; *out is
 * borrowed from ctx. With need_worktree, a bare repository is refused. */
int ctx_repo(git_repository **out, struct ctx *ctx, int need_worktree);
/* The repository's configuration with `-c` overrides; borrowed. */
int ctx_config(struct gitcfg **out, struct ctx *ctx);
/* The campaign database: GIT_CAMPAIGN_DB, else
 * $GIT_COMMON_DIR/campaign/campaign.db; with DB_CREATE created when
 * missing, else a missing one is GCAMP_ENOTFOUND. Borrowed. */
int ctx_db(struct db **out, struct ctx *ctx, int flags);
/* ctx_db for a reader: *out NULL (and 0, no error) when there is no
 * database yet, which means nothing was recorded. */
int ctx_db_if_any(struct db **out, struct ctx *ctx);
/* The database path ctx_db() uses; the caller frees it. */
int ctx_db_path(char **out, struct ctx *ctx);
/* The campaign's scratch folder for probes, $GIT_COMMON_DIR/campaign/
 * scratch/ (with the final slash), created when missing; outside every
 * working tree. The caller frees *out. */
int ctx_scratch_dir(char **out, struct ctx *ctx);
/* A signature for a commit or reflog entry made now (see signature_now in
 * src/io/signature.h: who is SIG_AUTHOR, SIG_COMMITTER or SIG_TOOL). The
 * caller frees *out with git_signature_free(). */
int ctx_signature(git_signature **out, struct ctx *ctx, int who);
/* Closes the database, if open: a later ctx_db() opens it again. */
void ctx_db_close(struct ctx *ctx);
/* Releases everything ctx opened and forgets its error. */
void ctx_release(struct ctx *ctx);

#endif
