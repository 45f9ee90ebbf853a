/* What linking libgit2 statically needs from us (see GIT_LIBS in the
 * Makefile): libgit2 is linked into the binary with its own dependencies so
 * that a process start maps three shared objects, not twenty; `status` and
 * every other command pay the difference (bench/status.sh measures it).
 * Fetch and push go through the git program and the forge through libcurl,
 * so libgit2's network transports are never used: the two stand-ins below
 * only keep them from costing a start. */
#include <stddef.h>

/*
 * Debian's libgit2 is built with mbedTLS and parses the whole system CA
 * bundle inside git_libgit2_init(): about 10 ms, on every run, for a
 * transport this tool never uses. The link wraps libgit2's call to
 * mbedtls_x509_crt_parse_file (-Wl,--wrap) to this one, which loads no
 * certificate: should libgit2's own HTTPS ever be used, it would fail to
 * verify the peer, never trust it.
 */
int __wrap_mbedtls_x509_crt_parse_file(void *chain, const char *path);
int __wrap_mbedtls_x509_crt_parse_file(void *chain, const char *path)
{
	(void)chain;
	(void)path;
	return 0;
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
