/* The profile line of a PR body: one per profile import (a JFR recording,
 * an Nsight Compute or Nsight Systems report), naming where the time went,
 * as the campaign's merged bodies give it. */
#ifndef GCAMP_VIEWS_PROFILE_H
#define GCAMP_VIEWS_PROFILE_H

#include <cjson/cJSON.h>
#include <stddef.h>

#include "core/measure/line.h"

/* 1 when records of source (an import format) are a profile: jfr, ncu,
 * nsys. */
int profile_source(const char *source);

/*
 * Appends to the array out one object per profile import among recs[0..n)
 * (the records of commit's note; an import is a run id): "source", "run",
 * "env", "commit", "commit_short", "records" (how many it has), and
 * "text", where the time went: for JFR the most sampled method of the
 * event with the most samples ("98.9 % of 275 samples in `Hot.slow(int)`
 * (jdk.ExecutionSample)"), for ncu the kernel with the most summed
 * Duration over its launches, for nsys the kernel with the most total
 * time of cuda_gpu_kern_sum; "top" and "share" (0 to 1) with it. An import
 * with none of those says so in "text" and has no "top".
 */
void profile_summarize(cJSON *out, const struct record *recs, size_t n,
		       const char *commit);

#endif
