/* A/B results as measurement records in the notes, their move to the
 * commit that holds the change, and the env line of a result's table. */
#ifndef GCAMP_AB_NOTES_H
#define GCAMP_AB_NOTES_H

#include <cjson/cJSON.h>
#include <stddef.h>

#include "core/ab/ab.h"
#include "core/base/ctx.h"
#include "core/measure/stored.h"
#include "core/probe/floor.h"

/* Sets r->env (this machine's fingerprint, stored), r->env_line, the
 * line the table prints under it, r->gpu and, on a GPU env whose floor is
 * stored (env --floor), r->floor and r->has_floor. */
int ab_describe_env(struct ab_result *r, struct ctx *ctx);

/* The same for the env already in r->env (a stored run read back): the
 * line is "env ID: CPU, OS, GPU ..., driver ..., JDK ..., backend B", from
 * the env's stored fingerprint. GCAMP_ENOTFOUND when the env is not known
 * here (r->env_line is then NULL). */
int ab_describe_stored_env(struct ab_result *r, struct ctx *ctx);

/* The same from what the caller has read already: fp, the fingerprint of
 * r->env (NULL when not known: r is left without a line), and floor, its
 * stored floor (fingerprint_load_jsons and floor_stored_envs). */
void ab_describe_known_env(struct ab_result *r, const cJSON *fp,
			   const struct floor_ref *floor);

/* Writes the result as schema-1 records, in one notes commit on A's
 * commit: per workload, iteration count and arm, the median with every
 * sample, arm "A" or "B", ctl for controls, and config holding the user's
 * labels, workload=CMD and, for B, b_tree=TREE (so that `ab attach` can
 * find them once the change is committed). source "ab", one run id. */
int ab_record(struct ctx *ctx, const struct ab_result *r,
	      const struct ab_opts *o);

/* Copies the B records whose b_tree is rev's tree, from the notes of up to
 * 50 first-parent ancestors of rev, to rev: the numbers of a change follow
 * it into the commit that holds it; a record already on rev is not copied
 * again. *out_n gets how many were copied (written); none is not an
 * error. */
int ab_attach(size_t *out_n, struct ctx *ctx, const char *rev);

#endif
