/* jitllm/GPULlama3: metrics JSON keys as named (eval_rate tok/s,
 * *_duration ns, *_count, tornadovm.jit_duration, ...) and bench rows as
 * tok_s (tok/s, stat mean, samples from samples_ts) with config test=,
 * model=, ... The contracts are those of struct import_format. */
#ifndef GCAMP_IMPORT_LLM_H
#define GCAMP_IMPORT_LLM_H

#include <stddef.h>

#include "import/rec.h"
#include "util/error.h"

int llm_detect(const char *data, size_t len);
int llm_parse(struct import_set *out, const char *data, size_t len,
	      const char *path, struct error *err);

#endif
