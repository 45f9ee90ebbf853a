/* The cJSON helpers of util/json.h: one implementation of each member
 * getter and setter, for every layer. */
#include "util/json.h"

#include <math.h>
#include <string.h>

#include "util/buf.h"
#include "util/text.h"
#include "util/xalloc.h"

const char *json_get_str(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	return cJSON_IsString(v) ? v->valuestring : NULL;
}

const char *json_get_str_or(const cJSON *o, const char *key, const char *def)
{
	const char *s = json_get_str(o, key);

	return s ? s : def;
}

char *json_dup_str(const cJSON *o, const char *key)
{
	const char *s = json_get_str(o, key);

	return s ? xstrdup(s) : NULL;
}

double json_get_num(const cJSON *o, const char *key, double def)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	return cJSON_IsNumber(v) ? v->valuedouble : def;
}

int json_get_bool(const cJSON *o, const char *key)
{
	return cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, key));
}

cJSON *json_str_or_null(const char *s)
{
	return s ? cJSON_CreateString(s) : cJSON_CreateNull();
}

cJSON *json_num_or_null(double v)
{
	return isnan(v) || isinf(v) ? cJSON_CreateNull()
				    : cJSON_CreateNumber(v);
}

void json_add_str_or_null(cJSON *o, const char *key, const char *s)
{
	cJSON_AddItemToObject(o, key, json_str_or_null(s));
}

void json_add_str_if_set(cJSON *o, const char *key, const char *s)
{
	if (s && *s)
		cJSON_AddStringToObject(o, key, s);
}

void json_add_num_or_null(cJSON *o, const char *key, double v)
{
	cJSON_AddItemToObject(o, key, json_num_or_null(v));
}

void json_defuse_strings(cJSON *v)
{
	cJSON *e;

	if (cJSON_IsString(v)) {
		struct buf b = BUF_INIT;

		if (!v->valuestring || !*v->valuestring)
			return;

		buf_puts(&b, v->valuestring);
		text_defuse(&b);
		if (strcmp(b.ptr, v->valuestring))
			cJSON_SetValuestring(v, b.ptr);
		buf_release(&b);
		return;
	}
	cJSON_ArrayForEach(e, v) {
		json_defuse_strings(e);
	}
}
