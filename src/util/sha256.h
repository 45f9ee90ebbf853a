/* SHA-256 (FIPS 180-4), small and dependency-free: the environment id is a
 * hash of the fingerprint's identity keys. */
#ifndef GCAMP_SHA256_H
#define GCAMP_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define SHA256_DIGEST_LEN 32

struct sha256 {
	uint32_t h[8];
	uint64_t len; /* bytes hashed so far */
	unsigned char block[64];
	size_t fill; /* bytes waiting in block */
};

void sha256_init(struct sha256 *s);
void sha256_update(struct sha256 *s, const void *data, size_t len);
/* Writes the digest and leaves s unusable until sha256_init. */
void sha256_final(unsigned char out[SHA256_DIGEST_LEN], struct sha256 *s);
/* The digest of len bytes as 64 lowercase hexadecimal digits and a NUL. */
void sha256_hex(char out[2 * SHA256_DIGEST_LEN + 1], const void *data,
		size_t len);

#endif
