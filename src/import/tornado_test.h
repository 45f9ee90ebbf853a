/* tornado-test -V output: per test class counts, stat "count", config
 * "class=<fully qualified class>": tests.passed, tests.failed (also an
 * OOM-killed class), tests.unsupported ([... UNSUPPORTED ...]) and, when the
 * driver printed its summary, tests.whitelisted (failed tests on the
 * driver's whitelist). The contracts are those of struct import_format. */
#ifndef GCAMP_IMPORT_TORNADO_TEST_H
#define GCAMP_IMPORT_TORNADO_TEST_H

#include <stddef.h>

#include "import/rec.h"
#include "util/error.h"

int tornado_test_detect(const char *data, size_t len);
int tornado_test_parse(struct import_set *out, const char *data, size_t len,
		       const char *path, struct error *err);

#endif
