/* Unit tests for src/util/sha256: the FIPS 180-4 / NIST CAVP example
 * vectors, and hashing in pieces. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/sha256.h"

static void fips_vectors(void **state)
{
	char hex[65];

	(void)state;
	/* FIPS 180-2 appendix B.1, B.2; the empty message */
	sha256_hex(hex, "abc", 3);
	assert_string_equal(hex, "ba7816bf8f01cfea414140de5dae2223"
				 "b00361a396177a9cb410ff61f20015ad");
	sha256_hex(hex,
		   "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
		   56);
	assert_string_equal(hex, "248d6a61d20638b8e5c026930c3e6039"
				 "a33ce45964ff2167f6ecedd419db06c1");
	sha256_hex(hex, "", 0);
	assert_string_equal(hex, "e3b0c44298fc1c149afbf4c8996fb924"
				 "27ae41e4649b934ca495991b7852b855");
}

static void million_a_in_pieces(void **state)
{
	static const char hex[] = "0123456789abcdef";
	unsigned char d[SHA256_DIGEST_LEN];
	char chunk[997], out[65];
	struct sha256 s;
	size_t left = 1000000;
	int i;

	(void)state;
	/* FIPS 180-2 appendix B.3, fed in odd-sized pieces */
	memset(chunk, 'a', sizeof(chunk));
	sha256_init(&s);
	while (left) {
		size_t n = left < sizeof(chunk) ? left : sizeof(chunk);

		sha256_update(&s, chunk, n);
		left -= n;
	}
	sha256_final(d, &s);
	for (i = 0; i < SHA256_DIGEST_LEN; i++) {
		out[2 * i] = hex[d[i] >> 4];
		out[2 * i + 1] = hex[d[i] & 15];
	}
	out[64] = '\0';
	assert_string_equal(out, "cdc76e5c9914fb9281a1c7e284d73e67"
				 "f1809a48a497200e046d39ccc7112cd0");
}

static void block_boundaries(void **state)
{
	char buf[130], a[65], b[65];
	struct sha256 s;
	unsigned char d[SHA256_DIGEST_LEN];
	size_t n;

	(void)state;
	/* lengths around 55/56/64 bytes take the padding's other branch;
	 * one update and byte-at-a-time must agree */
	memset(buf, 'x', sizeof(buf));
	for (n = 50; n < sizeof(buf); n++) {
		size_t i;
		int j;

		sha256_hex(a, buf, n);
		sha256_init(&s);
		for (i = 0; i < n; i++)
			sha256_update(&s, buf + i, 1);
		sha256_final(d, &s);
		for (j = 0; j < SHA256_DIGEST_LEN; j++)
			snprintf(b + 2 * j, 3, "%02x", d[j]);
		assert_string_equal(a, b);
	}
	/* 64 bytes of "x", from sha256sum */
	sha256_hex(a, buf, 64);
	assert_string_equal(a, "7ce100971f64e7001e8fe5a51973ecdf"
			       "e1ced42befe7ee8d5fd6219506b5393c");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(fips_vectors),
		cmocka_unit_test(million_a_in_pieces),
		cmocka_unit_test(block_boundaries),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
