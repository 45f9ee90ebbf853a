/* What linking libgit2 statically needs from us (see GIT_LIBS in the
 * Makefile): libgit2 is linked into the binary with its own dependencies so
 * that a process start maps three shared objects, not twenty; `status` and
 * every other command pay the difference (bench/status.sh measures it).
 * Fetch and push go through the git program and the forge through libcurl,
 * so libgit2's network transports are never used: the stand-ins below
 * only keep them from costing a start. */
#include <stddef.h>

#include <git2/errors.h>

/*
 * Debian's libgit2 is built with mbedTLS and libssh2, and sets both up
 * inside git_libgit2_init(): it parses the system's CA bundle (about
 * 10 ms), gathers entropy for a random generator and initialises OpenSSL
 * for libssh2, on every run, for transports this tool never uses. The link
 * wraps (-Wl,--wrap) the two set-ups to do nothing, and libgit2's TLS
 * stream and SSH transport to fail with a clear error, should anything
 * ever ask libgit2 for them.
 */
typedef struct git_stream git_stream;
typedef struct git_transport git_transport;
typedef struct git_smart_subtransport git_smart_subtransport;

int __wrap_git_mbedtls_stream_global_init(void);
int __wrap_git_mbedtls_stream_global_init(void)
{
	return 0;
}

int __wrap_git_transport_ssh_global_init(void);
int __wrap_git_transport_ssh_global_init(void)
{
	return 0;
}

static int not_built_in(const char *what)
{
	git_error_set_str(GIT_ERROR_NET,
			  what); /* libgit2's last error, as callers read it */
	return -1;
}

int __wrap_git_mbedtls_stream_new(git_stream **out, const char *host,
				  const char *port);
int __wrap_git_mbedtls_stream_new(git_stream **out, const char *host,
				  const char *port)
{
	(void)host;
	(void)port;
	*out = NULL;
	return not_built_in("git-campaign has no TLS in libgit2: use git");
}

int __wrap_git_mbedtls_stream_wrap(git_stream **out, git_stream *in,
				   const char *host);
int __wrap_git_mbedtls_stream_wrap(git_stream **out, git_stream *in,
				   const char *host)
{
	(void)in;
	(void)host;
	*out = NULL;
	return not_built_in("git-campaign has no TLS in libgit2: use git");
}

int __wrap_git_smart_subtransport_ssh(git_smart_subtransport **out,
				      git_transport *owner, void *param);
int __wrap_git_smart_subtransport_ssh(git_smart_subtransport **out,
				      git_transport *owner, void *param)
{
	(void)owner;
	(void)param;
	*out = NULL;
	return not_built_in("git-campaign has no SSH in libgit2: use git");
}

/*
 * GSSAPI, for libgit2's HTTP "Negotiate" authentication. Debian ships no
 * static libgssapi_krb5, and loading the shared one brings Kerberos' five
 * libraries into every start. Every call fails with GSS_S_FAILURE, which
 * libgit2 reports as a failed authentication.
 */
typedef unsigned int gcamp_gss_status;
#define GSS_S_FAILURE (13u << 16)
const void *GSS_C_NT_HOSTBASED_SERVICE = NULL;
#define GSS_FAILS(name)                                                        \
	gcamp_gss_status name(void);                                           \
	gcamp_gss_status name(void)                                            \
	{                                                                      \
		return GSS_S_FAILURE;                                          \
	}
GSS_FAILS(gss_delete_sec_context)
GSS_FAILS(gss_display_status)
GSS_FAILS(gss_import_name)
GSS_FAILS(gss_indicate_mechs)
GSS_FAILS(gss_init_sec_context)
GSS_FAILS(gss_release_buffer)
GSS_FAILS(gss_release_name)
GSS_FAILS(gss_release_oid_set)
