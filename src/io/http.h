/* HTTP over libcurl, loaded at run time (dlopen) so that commands that never
 * talk to a forge do not pay for it at start: one reused handle, capped
 * bodies, redacted traces, and the one place that words curl and HTTP
 * errors. */
#ifndef GCAMP_HTTP_H
#define GCAMP_HTTP_H

#include <stddef.h>

#include "util/buf.h"
#include "util/error.h"
#include "util/strvec.h"

/* Response bodies larger than this are refused (GCAMP_EFATAL). */
#define HTTP_BODY_MAX (8u << 20)

struct http;

struct http_request {
	const char *method;	    /* "GET", "POST", "PATCH" */
	const char *url;	    /* absolute */
	const char *const *headers; /* "Name: value", NULL-terminated */
	const char *body;	    /* NULL: none */
	size_t body_len;
	int follow; /* follow redirects (GETs only) */
	/* > 0: the whole request's limit in ms; 0: GIT_CAMPAIGN_HTTP_TIMEOUT
	 * seconds, else 30 s */
	long timeout_ms;
};

struct http_response {
	long status;	     /* 0 when no response came */
	struct buf body;     /* at most HTTP_BODY_MAX bytes */
	struct strvec heads; /* "name: value", names in lower case */
};

#define HTTP_RESPONSE_INIT                                                     \
	{                                                                      \
		0, BUF_INIT, STRVEC_INIT                                       \
	}

/* Loads libcurl (GIT_CAMPAIGN_LIBCURL names another file, tests) and makes
 * the one handle every request of *out reuses. GCAMP_EFATAL when libcurl
 * cannot be loaded. Free with http_free. */
int http_new(struct http **out, struct error *err);
/* Frees the handle. Accepts NULL. */
void http_free(struct http *h);

/*
 * Performs one request (no retries: the caller decides) and fills resp,
 * which it resets first. Returns 0 when a response came, whatever its
 * status; GCAMP_EFATAL with the message in err (via error_curl) when none
 * came: connection refused, time out (GIT_CAMPAIGN_HTTP_TIMEOUT seconds,
 * default 30), a body over HTTP_BODY_MAX. *curl_code, when not NULL, gets
 * curl's code (0 on success). Headers and the body are traced with the
 * Authorization value redacted.
 */
int http_send(struct http_response *resp, struct http *h,
	      const struct http_request *req, int *curl_code,
	      struct error *err);
void http_response_release(struct http_response *resp);

/* The value of the response header name (case-insensitive), borrowed from
 * resp, or NULL. */
const char *http_header(const struct http_response *resp, const char *name);

/* The URL of Link's rel="next" as given (a new string the caller frees), or
 * NULL when the header names none. */
char *http_link_next(const char *link);

/* Writes line into out with the value of an Authorization header replaced by
 * "<redacted>"; other lines are copied unchanged. */
void http_redact(struct buf *out, const char *line);

/* Records a transport failure of curl code `code` for url: "cannot reach
 * 'HOST': why". Returns GCAMP_EFATAL. */
int error_curl(struct error *err, int code, const char *url,
	       const char *detail);
/* Records an HTTP failure: "WHAT: HTTP STATUS: MESSAGE (ERRORS)" with
 * GitHub's JSON `message` and `errors[]` from body when it has them.
 * Returns GCAMP_EFATAL (GCAMP_ENOTFOUND for 404). */
int error_http(struct error *err, long status, const char *body,
	       const char *what);

#endif
