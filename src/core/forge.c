/* Remote URL parsing for the forge repository name. */
#include "core/forge.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

void forge_url_release(struct forge_url *u)
{
	if (!u)
		return;
	free(u->host);
	free(u->owner);
	free(u->repo);
	u->host = u->owner = u->repo = NULL;
}

static int valid_part(const char *s, size_t n)
{
	size_t i;

	if (!n || (n == 1 && s[0] == '.') || (n == 2 && !strncmp(s, "..", 2)))
		return 0;
	for (i = 0; i < n; i++)
		if (isspace((unsigned char)s[i]) ||
		    iscntrl((unsigned char)s[i]) || s[i] == '/' ||
		    s[i] == ':' || s[i] == '@')
			return 0;
	return 1;
}

int forge_name_valid(const char *s)
{
	const char *slash = strchr(s, '/');

	if (!slash || !valid_part(s, (size_t)(slash - s)) ||
	    !valid_part(slash + 1, strlen(slash + 1)))
		return -1;
	return 0;
}

/* host and path ("OWNER/REPO[.git][/]") into out */
static int split(struct forge_url *out, const char *host, size_t hlen,
		 const char *path)
{
	size_t plen;
	const char *slash;
	char *p;

	while (*path == '/')
		path++;
	plen = strlen(path);
	while (plen && path[plen - 1] == '/')
		plen--;
	if (plen > 4 && !strncmp(path + plen - 4, ".git", 4))
		plen -= 4;
	slash = memchr(path, '/', plen);
	if (!hlen || !slash || !valid_part(path, (size_t)(slash - path)) ||
	    !valid_part(slash + 1, plen - (size_t)(slash - path) - 1))
		return -1;
	out->host = xstrndup(host, hlen);
	for (p = out->host; *p; p++)
		*p = (char)tolower((unsigned char)*p);
	out->owner = xstrndup(path, (size_t)(slash - path));
	out->repo = xstrndup(slash + 1, plen - (size_t)(slash - path) - 1);
	return 0;
}

int forge_url_parse(struct forge_url *out, const char *url)
{
	static const char *const schemes[] = {"https://",   "http://",
					      "ssh://",	    "git://",
					      "git+ssh://", "ssh+git://"};
	const char *rest = NULL, *host, *end, *at, *colon;
	size_t i;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < sizeof(schemes) / sizeof(*schemes); i++)
		if (!strncmp(url, schemes[i], strlen(schemes[i]))) {
			rest = url + strlen(schemes[i]);
			break;
		}
	if (rest) {
		end = strchr(rest, '/');
		if (!end)
			return -1;
		/* userinfo ends at the last '@' before the path */
		host = rest;
		for (at = rest; at < end; at++)
			if (*at == '@')
				host = at + 1;
		colon = memchr(host, ':', (size_t)(end - host));
		return split(out, host, (size_t)((colon ? colon : end) - host),
			     end);
	}
	if (strstr(url, "://"))
		return -1; /* file:// and schemes without a forge */
	/* scp-like: [user@]host:path, where host has no slash */
	colon = strchr(url, ':');
	if (!colon || memchr(url, '/', (size_t)(colon - url)))
		return -1;
	host = url;
	at = memchr(url, '@', (size_t)(colon - url));
	if (at)
		host = at + 1;
	return split(out, host, (size_t)(colon - host), colon + 1);
}
