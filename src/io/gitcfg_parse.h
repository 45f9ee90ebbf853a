/* Git configuration text and git's command-line overrides
 * (GIT_CONFIG_PARAMETERS, GIT_CONFIG_COUNT/KEY/VALUE), parsed into
 * normalised key, value pairs: what io/gitlite and io/gitcfg read with. */
#ifndef GCAMP_GITCFG_PARSE_H
#define GCAMP_GITCFG_PARSE_H

#include <stddef.h>

#include "util/strvec.h"

/*
 * Parses the text of one config file, appending key, value pairs
 * (normalised keys; a key without "=" gets "true") to out. *includes is
 * set when the text has an include or includeIf section. Returns 0, or -1
 * at the first line git would refuse (what was read so far is kept).
 */
int gitcfg_parse_config(struct strvec *out, const char *text, size_t len,
			int *includes);

/* Normalises "Section.Sub.Name" to "section.Sub.name" in place; returns -1
 * when key has no dot or an empty part (not a valid config key). */
int gitcfg_normalize_key(char *key);

/* Parses a GIT_CONFIG_PARAMETERS value (both of git's quoting forms) into
 * alternating key, value entries; `-c key` without "=" gives "true".
 * Returns -1 on a quoting error. */
int gitcfg_parse_parameters(struct strvec *out, const char *env);

/* Appends GIT_CONFIG_COUNT/KEY/VALUE then GIT_CONFIG_PARAMETERS (so -c
 * wins, the last value winning), keys normalised. */
void gitcfg_load_env(struct strvec *out);

#endif
