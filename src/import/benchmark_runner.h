/* TornadoVM BenchmarkRunner: one record per number of a "Performance: bm="
 * line, named by its field (average, median, firstIteration, best,
 * speedupAvg, CV, kernelAvg, ...), times in ns; config bm=, device= or id=,
 * deviceName=, profiler=on for profiler lines. The contracts are those of
 * struct import_format. */
#ifndef GCAMP_IMPORT_BENCHMARK_RUNNER_H
#define GCAMP_IMPORT_BENCHMARK_RUNNER_H

#include <stddef.h>

#include "import/rec.h"
#include "util/error.h"

int benchmark_runner_detect(const char *data, size_t len);
int benchmark_runner_parse(struct import_set *out, const char *data, size_t len,
			   const char *path, struct error *err);

#endif
