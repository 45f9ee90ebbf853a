/* HTTP through libcurl opened with dlopen: curl's headers give the types and
 * constants, dlsym the few functions, so the binary does not need libcurl
 * (linking it costs every process start ~13 ms; status and hooks must stay
 * fast). */
#define CURL_DISABLE_TYPECHECK 1
#include "io/http.h"

#include <ctype.h>
#include <curl/curl.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <cjson/cJSON.h>

#include "util/json.h"
#include "util/trace.h"
#include "util/xalloc.h"

struct curl_api {
	CURLcode (*global_init)(long);
	CURL *(*easy_init)(void);
	CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
	CURLcode (*easy_perform)(CURL *);
	CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
	void (*easy_cleanup)(CURL *);
	void (*easy_reset)(CURL *);
	const char *(*easy_strerror)(CURLcode);
	struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
	void (*slist_free_all)(struct curl_slist *);
};

struct http {
	void *lib;
	struct curl_api api;
	CURL *curl;
	char errbuf[CURL_ERROR_SIZE];
};

/* what the write and header callbacks fill */
struct sink {
	struct http_response *resp;
	int too_big;
};

static int load_symbols(struct curl_api *a, void *lib)
{
	/* dlsym returns void *; POSIX guarantees the conversion works */
#define SYM(field, name)                                                       \
	do {                                                                   \
		*(void **)(&a->field) = dlsym(lib, name);                      \
		if (!a->field)                                                 \
			return -1;                                             \
	} while (0)
	SYM(global_init, "curl_global_init");
	SYM(easy_init, "curl_easy_init");
	SYM(easy_setopt, "curl_easy_setopt");
	SYM(easy_perform, "curl_easy_perform");
	SYM(easy_getinfo, "curl_easy_getinfo");
	SYM(easy_cleanup, "curl_easy_cleanup");
	SYM(easy_reset, "curl_easy_reset");
	SYM(easy_strerror, "curl_easy_strerror");
	SYM(slist_append, "curl_slist_append");
	SYM(slist_free_all, "curl_slist_free_all");
#undef SYM
	return 0;
}

int http_new(struct http **out, struct error *err)
{
	const char *name = getenv("GIT_CAMPAIGN_LIBCURL");
	struct http *h = xcalloc(1, sizeof(*h));
	int rc = 0;

	*out = NULL;
	if (!name || !*name)
		name = "libcurl.so.4";
	h->lib = dlopen(name, RTLD_NOW | RTLD_LOCAL);
	if (!h->lib) {
		rc = error_set(err, GCAMP_EFATAL, "cannot load '%s': %s", name,
			       dlerror());
		error_hint(err, "install the Debian package libcurl4");
		goto out;
	}
	if (load_symbols(&h->api, h->lib) < 0) {
		rc = error_set(err, GCAMP_EFATAL,
			       "'%s' is not a usable libcurl", name);
		goto out;
	}
	if (h->api.global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK ||
	    !(h->curl = h->api.easy_init())) {
		rc = error_set(err, GCAMP_EFATAL, "cannot start libcurl");
		goto out;
	}
	*out = h;
	h = NULL;
out:
	http_free(h);
	return rc;
}

void http_free(struct http *h)
{
	if (!h)
		return;
	if (h->curl)
		h->api.easy_cleanup(h->curl);
	/* libcurl stays loaded: its TLS library registers atexit handlers */
	free(h);
}

void http_response_release(struct http_response *resp)
{
	buf_release(&resp->body);
	strvec_clear(&resp->heads);
	resp->status = 0;
}

static size_t on_body(char *data, size_t size, size_t n, void *p)
{
	struct sink *s = p;

	if (s->resp->body.len + n > HTTP_BODY_MAX) {
		s->too_big = 1;
		return 0; /* curl stops with CURLE_WRITE_ERROR */
	}
	buf_add(&s->resp->body, data, n * size);
	return n * size;
}

static size_t on_header(char *data, size_t size, size_t n, void *p)
{
	struct sink *s = p;
	size_t len = n * size, i;
	char *line;

	/* a new status line (after a redirect or a 100) starts over */
	if (len >= 5 && !strncmp(data, "HTTP/", 5)) {
		strvec_clear(&s->resp->heads);
		return len;
	}
	while (len && (data[len - 1] == '\n' || data[len - 1] == '\r'))
		len--;
	if (!len || !memchr(data, ':', len) || s->resp->heads.nr > 200)
		return n * size;
	line = xstrndup(data, len);
	for (i = 0; line[i] && line[i] != ':'; i++)
		line[i] = (char)tolower((unsigned char)line[i]);
	strvec_push_owned(&s->resp->heads, line);
	return n * size;
}

const char *http_header(const struct http_response *resp, const char *name)
{
	size_t i, n = strlen(name);

	for (i = 0; i < resp->heads.nr; i++) {
		const char *l = resp->heads.v[i];

		if (!strncasecmp(l, name, n) && l[n] == ':') {
			l += n + 1;
			while (*l == ' ' || *l == '\t')
				l++;
			return l;
		}
	}
	return NULL;
}

void http_redact(struct buf *out, const char *line)
{
	static const char key[] = "authorization:";

	if (!strncasecmp(line, key, sizeof(key) - 1)) {
		buf_add(out, line, sizeof(key) - 1);
		buf_puts(out, " <redacted>");
		return;
	}
	buf_puts(out, line);
}

static void trace_request(const struct http_request *req)
{
	struct buf b = BUF_INIT;
	size_t i;

	buf_addf(&b, "http: > %s %s", req->method, req->url);
	for (i = 0; req->headers && req->headers[i]; i++) {
		buf_puts(&b, "\n    > ");
		http_redact(&b, req->headers[i]);
	}
	trace_printf("%s", b.ptr);
	if (req->body)
		trace_printf("http: > body %zu bytes", req->body_len);
	buf_release(&b);
}

static void trace_response(const struct http_response *resp)
{
	struct buf b = BUF_INIT;
	size_t i;

	buf_addf(&b, "http: < %ld, %zu bytes", resp->status, resp->body.len);
	for (i = 0; i < resp->heads.nr; i++) {
		buf_puts(&b, "\n    < ");
		http_redact(&b, resp->heads.v[i]);
	}
	trace_printf("%s", b.ptr);
	buf_release(&b);
}

static long timeout_s(void)
{
	const char *v = getenv("GIT_CAMPAIGN_HTTP_TIMEOUT");
	long t = v ? strtol(v, NULL, 10) : 0;

	return t > 0 ? t : 30;
}

int http_send(struct http_response *resp, struct http *h,
	      const struct http_request *req, int *curl_code, struct error *err)
{
	struct curl_api *a = &h->api;
	struct curl_slist *hl = NULL;
	struct sink sink = {resp, 0};
	CURLcode c;
	size_t i;
	int rc = 0;

	http_response_release(resp);
	for (i = 0; req->headers && req->headers[i]; i++)
		hl = a->slist_append(hl, req->headers[i]);
	/* curl would add "Expect: 100-continue" to large bodies */
	hl = a->slist_append(hl, "Expect:");
	a->easy_reset(h->curl);
	h->errbuf[0] = '\0';
	a->easy_setopt(h->curl, CURLOPT_URL, req->url);
	a->easy_setopt(h->curl, CURLOPT_CUSTOMREQUEST, req->method);
	a->easy_setopt(h->curl, CURLOPT_HTTPHEADER, hl);
	a->easy_setopt(h->curl, CURLOPT_NOSIGNAL, 1L);
	if (req->timeout_ms > 0) {
		a->easy_setopt(h->curl, CURLOPT_CONNECTTIMEOUT_MS,
			       req->timeout_ms < 10000 ? req->timeout_ms
						       : 10000L);
		a->easy_setopt(h->curl, CURLOPT_TIMEOUT_MS, req->timeout_ms);
	} else {
		a->easy_setopt(h->curl, CURLOPT_CONNECTTIMEOUT, 10L);
		a->easy_setopt(h->curl, CURLOPT_TIMEOUT, timeout_s());
	}
	a->easy_setopt(h->curl, CURLOPT_ERRORBUFFER, h->errbuf);
	a->easy_setopt(h->curl, CURLOPT_ACCEPT_ENCODING, "");
	a->easy_setopt(h->curl, CURLOPT_PROTOCOLS_STR, "http,https");
	a->easy_setopt(h->curl, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
	a->easy_setopt(h->curl, CURLOPT_WRITEFUNCTION, on_body);
	a->easy_setopt(h->curl, CURLOPT_WRITEDATA, &sink);
	a->easy_setopt(h->curl, CURLOPT_HEADERFUNCTION, on_header);
	a->easy_setopt(h->curl, CURLOPT_HEADERDATA, &sink);
	/* curl silently sends a request again when a reused connection
	 * dies without an answer; a POST may have been applied, so it goes
	 * on a fresh connection, which curl never retries */
	if (!strcmp(req->method, "POST"))
		a->easy_setopt(h->curl, CURLOPT_FRESH_CONNECT, 1L);
	if (req->follow) {
		a->easy_setopt(h->curl, CURLOPT_FOLLOWLOCATION, 1L);
		a->easy_setopt(h->curl, CURLOPT_MAXREDIRS, 5L);
	}
	if (req->body) {
		a->easy_setopt(h->curl, CURLOPT_POSTFIELDS, req->body);
		a->easy_setopt(h->curl, CURLOPT_POSTFIELDSIZE_LARGE,
			       (curl_off_t)req->body_len);
	} else if (!strcmp(req->method, "GET")) {
		a->easy_setopt(h->curl, CURLOPT_HTTPGET, 1L);
	}
	trace_request(req);
	c = a->easy_perform(h->curl);
	if (curl_code)
		*curl_code = (int)c;
	if (c != CURLE_OK) {
		resp->status = 0;
		rc = error_curl(err, (int)c, req->url,
				sink.too_big   ? "the response is larger than "
						 "8 MiB"
				: h->errbuf[0] ? h->errbuf
					       : a->easy_strerror(c));
		trace_printf("http: < no response: %s", err->msg);
		goto out;
	}
	a->easy_getinfo(h->curl, CURLINFO_RESPONSE_CODE, &resp->status);
	trace_response(resp);
out:
	a->slist_free_all(hl);
	return rc;
}

char *http_link_next(const char *link)
{
	const char *p = link;

	/* <URL>; rel="next", <URL>; rel="last" (cli/cli's pattern) */
	while (p && (p = strchr(p, '<'))) {
		const char *end = strchr(p, '>'), *q, *stop;

		if (!end)
			return NULL;
		stop = strchr(end, ',');
		if (!stop)
			stop = end + strlen(end);
		for (q = end + 1; q < stop; q++) {
			if (!strncmp(q, "rel=\"", 5)) {
				const char *r = q + 5, *e = strchr(r, '"');

				/* rel may hold several words */
				while (e && r < e) {
					size_t wl = strcspn(r, " \"");

					if (wl == 4 && !strncmp(r, "next", 4))
						return xstrndup(
							p + 1,
							(size_t)(end - p - 1));
					r += wl;
					while (*r == ' ')
						r++;
				}
			}
		}
		p = stop;
	}
	return NULL;
}

/* "https://user@host:port/path" -> "host:port" into out */
static void host_of_url(char *out, size_t n, const char *url)
{
	const char *p = strstr(url, "://"), *end, *at;
	size_t len;

	p = p ? p + 3 : url;
	end = p + strcspn(p, "/?#");
	at = memchr(p, '@', (size_t)(end - p));
	if (at)
		p = at + 1;
	len = (size_t)(end - p);
	if (len >= n)
		len = n - 1;
	memcpy(out, p, len);
	out[len] = '\0';
}

int error_curl(struct error *err, int code, const char *url, const char *detail)
{
	char host[256];

	host_of_url(host, sizeof(host), url);
	error_set(err, GCAMP_EFATAL, "cannot reach '%s': %s", host,
		  detail && *detail ? detail : "network error");
	if (code == CURLE_OPERATION_TIMEDOUT)
		error_hint(err, "campaign.github.timeout sets the limit in "
				"seconds");
	return GCAMP_EFATAL;
}

/* GitHub's "errors": objects {resource, field, code, message} or strings */
static void add_errors(struct buf *b, const cJSON *errs)
{
	const cJSON *e;
	int n = 0;

	cJSON_ArrayForEach(e, errs) {
		const char *m = json_get_str(e, "message");
		const char *f = json_get_str(e, "field");
		const char *c = json_get_str(e, "code");

		if (cJSON_IsString(e))
			m = e->valuestring;
		if (!m && !f && !c)
			continue;
		buf_puts(b, n++ ? "; " : " (");
		if (m)
			buf_puts(b, m);
		else
			buf_addf(b, "%s %s", f ? f : "?", c ? c : "invalid");
		if (n == 3)
			break;
	}
	if (n)
		buf_putc(b, ')');
}

int error_http(struct error *err, long status, const char *body,
	       const char *what)
{
	cJSON *j = body ? cJSON_Parse(body) : NULL;
	const char *msg = json_get_str(j, "message");
	struct buf b = BUF_INIT;
	size_t i;
	int code = status == 404 ? GCAMP_ENOTFOUND : GCAMP_EFATAL;

	buf_addf(&b, "%s: HTTP %ld", what, status);
	if (msg && *msg)
		buf_addf(&b, ": %s", msg);
	add_errors(&b, cJSON_GetObjectItemCaseSensitive(j, "errors"));
	/* one line, whatever the server sent */
	for (i = 0; i < b.len; i++)
		if (b.ptr[i] == '\n' || b.ptr[i] == '\r' || b.ptr[i] == '\t')
			b.ptr[i] = ' ';
	if (b.len > 600) {
		b.len = 600;
		b.ptr[600] = '\0';
	}
	error_set(err, code, "%s", b.ptr);
	if (status == 401)
		error_hint(err, "the token was refused: check GH_TOKEN or "
				"'gh auth status'");
	else if (status == 404 || status == 403)
		error_hint(err, "check the repository's name and that the "
				"token may read and write its issues and pull "
				"requests");
	cJSON_Delete(j);
	buf_release(&b);
	return code;
}
