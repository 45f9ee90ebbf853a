/* Remote URL parsing for the forge repository name. */
#include "core/base/forge_url.h"

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

/* a DNS name, or an IPv6 literal in brackets */
static int valid_host(const char *h, size_t n)
{
	size_t i;

	if (n >= 3 && h[0] == '[' && h[n - 1] == ']') {
		for (i = 1; i < n - 1; i++)
			if (!isxdigit((unsigned char)h[i]) && h[i] != ':' &&
			    h[i] != '.')
				return 0;
		return 1;
	}
	for (i = 0; i < n; i++)
		if (!isalnum((unsigned char)h[i]) && !strchr(".-_", h[i]))
			return 0;
	return n > 0;
}

/* [user@]host[:port] -> host, the user part ending at the last '@' */
static void host_of(const char **host, size_t *len, const char *auth, size_t n)
{
	const char *end = auth + n, *p, *colon;

	for (p = auth; p < end; p++)
		if (*p == '@')
			auth = p + 1;
	if (*auth == '[') {
		p = memchr(auth, ']', (size_t)(end - auth));
		*host = auth;
		*len = p ? (size_t)(p + 1 - auth) : (size_t)(end - auth);
		return;
	}
	colon = memchr(auth, ':', (size_t)(end - auth));
	*host = auth;
	*len = (size_t)((colon ? colon : end) - auth);
}

/* host and path ("OWNER/REPO[.git][/][?query][#fragment]") into out */
static int split(struct forge_url *out, const char *host, size_t hlen,
		 const char *path)
{
	size_t plen;
	const char *slash;
	char *p;

	while (*path == '/')
		path++;
	plen = strcspn(path, "?#");
	while (plen && path[plen - 1] == '/')
		plen--;
	if (plen > 4 && !strncmp(path + plen - 4, ".git", 4))
		plen -= 4;
	slash = memchr(path, '/', plen);
	if (!valid_host(host, hlen) || !slash ||
	    !valid_part(path, (size_t)(slash - path)) ||
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
	static const char *const schemes[] = {
		"https://", "http://",	  "ssh://",
		"git://",   "git+ssh://", "ssh+git://",
	};
	const char *rest = NULL, *end, *host, *colon;
	size_t i, hlen;

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
		host_of(&host, &hlen, rest, (size_t)(end - rest));
		out->ssh = !!strstr(schemes[i], "ssh");
		return split(out, host, hlen, end);
	}
	if (strstr(url, "://"))
		return -1; /* file:// and schemes without a forge */
	/* scp-like: [user@]host:path, the host holding no slash */
	end = strchr(url, '/');
	colon = strrchr(url, ']');
	colon = strchr(colon ? colon : url, ':');
	if (!colon || (end && end < colon))
		return -1;
	host_of(&host, &hlen, url, (size_t)(colon - url));
	out->ssh = 1;
	return split(out, host, hlen, colon + 1);
}
