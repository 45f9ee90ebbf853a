/* The only cJSON helpers: members read and written by key, with the
 * ownership in the name (get: borrowed, dup: the caller's). */
#ifndef GCAMP_JSON_H
#define GCAMP_JSON_H

#include <cjson/cJSON.h>

/*
 * Every lookup is case-sensitive (cJSON_GetObjectItemCaseSensitive): the
 * keys read are ours or a producer's whose case is fixed. o may be NULL or
 * not an object; that reads as a missing member.
 */

/* The string value of member key of o, borrowed from o (valid while o
 * lives and the member is not replaced), or NULL when the member is
 * missing or not a string. */
const char *json_get_str(const cJSON *o, const char *key);
/* As json_get_str, but def where that gives NULL. */
const char *json_get_str_or(const cJSON *o, const char *key, const char *def);
/* A copy of the string value of member key (xstrdup: the caller frees
 * it), or NULL when the member is missing or not a string. */
char *json_dup_str(const cJSON *o, const char *key);
/* The number value of member key, or def when it is missing or not a
 * number. */
double json_get_num(const cJSON *o, const char *key, double def);
/* 1 when member key is true, 0 when it is false, missing or no boolean. */
int json_get_bool(const cJSON *o, const char *key);

/* A new string item holding a copy of s, or a null item when s is NULL;
 * the caller owns it until it is added to an array or object. */
cJSON *json_str_or_null(const char *s);
/* A new number item, or a null item when v is NaN or infinite (JSON has
 * neither); owned as json_str_or_null's. */
cJSON *json_num_or_null(double v);

/* Adds member key to o: a copy of s, or null when s is NULL. */
void json_add_str_or_null(cJSON *o, const char *key, const char *s);
/* Adds member key to o with a copy of s when s is set (neither NULL nor
 * empty); otherwise o is left without the key. */
void json_add_str_if_set(cJSON *o, const char *key, const char *s);
/* Adds member key to o: the number v, or null when v is NaN or infinite. */
void json_add_num_or_null(cJSON *o, const char *key, double v);

/* Every string value in v, at any depth, made safe to render into a
 * marked section (text_defuse: invalid UTF-8 and control characters to
 * U+FFFD, the tool's section markers written as "&lt;!-- ..."); keys
 * are left alone. */
void json_defuse_strings(cJSON *v);

#endif
