/* Forge repository names from remote URLs: both SSH forms and HTTPS. */
#ifndef GCAMP_FORGE_H
#define GCAMP_FORGE_H

struct forge_url {
	char *host;  /* "github.com", lower case */
	char *owner; /* "beehive-lab" */
	char *repo;  /* "TornadoVM", without ".git" */
	int ssh;     /* 1 for the SSH forms: host may be an ssh_config alias */
};

/*
 * Parses a git remote URL: "git@HOST:OWNER/REPO(.git)",
 * "ssh://[USER@]HOST[:PORT]/OWNER/REPO(.git)",
 * "http(s)://[USER[:PASS]@]HOST[:PORT]/OWNER/REPO(.git)(/)" and
 * "git://HOST/OWNER/REPO". Returns 0 and fills out (release with
 * forge_url_release), or -1 when url names no OWNER/REPO on a host (a local
 * path, a deeper path, an empty part).
 */
int forge_url_parse(struct forge_url *out, const char *url);
void forge_url_release(struct forge_url *u);

/* 0 when s is "OWNER/REPO" with both parts non-empty and no other slash,
 * whitespace or control characters; else -1. */
int forge_name_valid(const char *s);

#endif
