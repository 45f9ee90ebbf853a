/* JUnit/Surefire XML (TEST-*.xml; a directory reads every TEST-*.xml in
 * it): per test class counts, stat "count", config "class=<fully qualified
 * class>": tests.passed (counting flaky ones), tests.failed, tests.errored
 * (<error>), tests.skipped (<skipped>), tests.flaky (passed on a Surefire
 * rerun: flakyFailure, flakyError; a subset of tests.passed). The contracts
 * are those of struct import_format (import/formats.h). */
#ifndef GCAMP_IMPORT_JUNIT_H
#define GCAMP_IMPORT_JUNIT_H

#include <stddef.h>

#include "import/rec.h"
#include "util/error.h"

int junit_detect(const char *data, size_t len);
int junit_parse(struct import_set *out, const char *data, size_t len,
		const char *path, struct error *err);

#endif
