/* The gathering of a PR body's data (struct pb) and the helpers its parts
 * share: gather.c collects the notes, tests and environments and holds the
 * helpers; prbody.c, above it, the commits, PR, A/B runs, hypotheses and
 * findings. Internal to those two files. */
#ifndef GCAMP_VIEWS_GATHER_H
#define GCAMP_VIEWS_GATHER_H

#include <cjson/cJSON.h>
#include <git2.h>

#include "core/campaign/campaign.h"
#include "core/base/ctx.h"
#include "util/buf.h"
#include "util/strvec.h"

/* Caps, so that a long-lived branch still gives a body people read */
#define MAX_COMMITS 500
#define MAX_ROWS 50
#define BASE_DEPTH 200

/* What the gathering carries along */
struct pb {
	struct ctx *ctx;
	git_repository *repo;
	struct campaign c;
	cJSON *d;
	struct strvec commits; /* 40 hex, newest first */
	struct strvec trees;   /* their trees */
	git_oid merge_base;
	long pr;
	struct strvec runs; /* ids of the branch's A/B runs, "12" */
	struct strvec envs; /* every env measured on the branch */
	cJSON *negatives;
};

/* Adds env to the envs measured on the branch, once. */
void pb_add_env(struct pb *b, const char *env);
/* 1 when s is one of v's strings. */
int pb_in_list(const struct strvec *v, const char *s);
/* "%.4g" with the unit, no exponent for large values; caller frees. */
char *pb_value_text(double v, const char *unit);
/* The first 12 digits of hex, as key. */
void pb_add_short(cJSON *o, const char *key, const char *hex);
/* 1116 as "1,116". */
void pb_count_str(struct buf *out, long v);
/* {"id", "label": "NVIDIA H200 · cuda · JDK 21.0.5", "os", "backend"} */
cJSON *pb_env_json(struct ctx *ctx, const char *env);

/* notes: the measurements on the branch's commits and the profiles on it
 * and its merge base (gather.c) */
int pb_gather_notes(struct pb *b);
/* tests: per env, the branch's newest tested commit and its base's */
int pb_gather_tests(struct pb *b);
/* envs: the environments measured, and the backends not tested */
int pb_gather_envs(struct pb *b);

#endif
