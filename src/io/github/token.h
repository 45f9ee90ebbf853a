/* Finding a GitHub token: environment variables, then `gh auth token`, then
 * `git credential fill` without prompts; and which hosts are GitHub
 * Enterprise Servers. */
#ifndef GCAMP_GITHUB_TOKEN_H
#define GCAMP_GITHUB_TOKEN_H

#include "util/error.h"

/* 1 when host is a GitHub Enterprise Server (its own token variables). */
int github_host_is_enterprise(const char *host);

/*
 * Finds a token for host, first found wins: GH_TOKEN, GITHUB_TOKEN
 * (enterprise hosts: GH_ENTERPRISE_TOKEN, GITHUB_ENTERPRISE_TOKEN), then
 * `gh auth token --hostname HOST` when gh is on PATH, then `git credential
 * fill` with prompts disabled. The token is never traced nor put in an
 * error. *out is the caller's to free. GCAMP_ENOTFOUND naming what was
 * tried when none gives one.
 */
int github_token(char **out, const char *host, struct error *err);

#endif
