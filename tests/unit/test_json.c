/* Unit tests for src/util/json: members read case-sensitively, borrowed or
 * copied, and written as null or left out. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/json.h"

static const char doc[] = "{\"name\": \"a\", \"Name\": \"B\", \"n\": 3.5, "
			  "\"s\": \"7\", \"t\": true, \"f\": false, "
			  "\"z\": null, \"o\": {\"k\": \"v\"}}";

static void get_str_borrows_and_reads_only_strings(void **state)
{
	cJSON *j = cJSON_Parse(doc);

	(void)state;
	assert_non_null(j);
	assert_string_equal(json_get_str(j, "name"), "a");
	assert_ptr_equal(
		json_get_str(j, "name"),
		cJSON_GetObjectItemCaseSensitive(j, "name")->valuestring);
	assert_null(json_get_str(j, "n"));
	assert_null(json_get_str(j, "z"));
	assert_null(json_get_str(j, "o"));
	assert_null(json_get_str(j, "missing"));
	assert_null(json_get_str(NULL, "name"));
	assert_null(json_get_str(cJSON_GetObjectItem(j, "name"), "name"));
	assert_string_equal(json_get_str_or(j, "missing", "def"), "def");
	assert_string_equal(json_get_str_or(j, "n", "def"), "def");
	assert_string_equal(json_get_str_or(j, "name", "def"), "a");
	assert_null(json_get_str_or(j, "missing", NULL));
	cJSON_Delete(j);
}

static void lookups_are_case_sensitive(void **state)
{
	cJSON *j = cJSON_Parse(doc);

	(void)state;
	assert_string_equal(json_get_str(j, "Name"), "B");
	assert_string_equal(json_get_str(j, "name"), "a");
	assert_null(json_get_str(j, "NAME"));
	assert_null(json_get_str(j, "S"));
	assert_true(isnan(json_get_num(j, "N", NAN)));
	assert_int_equal(json_get_bool(j, "T"), 0);
	cJSON_Delete(j);
}

static void dup_str_hands_over_a_copy(void **state)
{
	cJSON *j = cJSON_Parse(doc);
	char *s;

	(void)state;
	s = json_dup_str(j, "name");
	assert_string_equal(s, "a");
	assert_ptr_not_equal(s, json_get_str(j, "name"));
	cJSON_Delete(j);
	assert_string_equal(s, "a"); /* outlives the document */
	free(s);
	assert_null(json_dup_str(NULL, "name"));
}

static void get_num_and_bool_fall_back_on_anything_else(void **state)
{
	cJSON *j = cJSON_Parse(doc);

	(void)state;
	assert_true(json_get_num(j, "n", 0) == 3.5);
	assert_true(json_get_num(j, "s", -1) == -1); /* "7" is no number */
	assert_true(json_get_num(j, "missing", 42) == 42);
	assert_true(isnan(json_get_num(j, "z", NAN)));
	assert_int_equal(json_get_bool(j, "t"), 1);
	assert_int_equal(json_get_bool(j, "f"), 0);
	assert_int_equal(json_get_bool(j, "s"), 0);
	assert_int_equal(json_get_bool(j, "missing"), 0);
	cJSON_Delete(j);
}

static char *printed(const cJSON *j)
{
	char *text = cJSON_PrintUnformatted(j);
	char *s = strdup(text);

	cJSON_free(text);
	return s;
}

static void setters_write_null_or_leave_the_key_out(void **state)
{
	cJSON *j = cJSON_CreateObject();
	char *text;

	(void)state;
	json_add_str_or_null(j, "a", "x");
	json_add_str_or_null(j, "b", NULL);
	json_add_str_or_null(j, "c", "");
	json_add_str_if_set(j, "d", "y");
	json_add_str_if_set(j, "e", NULL);
	json_add_str_if_set(j, "f", "");
	json_add_num_or_null(j, "g", 1.5);
	json_add_num_or_null(j, "h", NAN);
	json_add_num_or_null(j, "i", INFINITY);
	json_add_num_or_null(j, "k", -INFINITY);
	text = printed(j);
	assert_string_equal(text, "{\"a\":\"x\",\"b\":null,\"c\":\"\","
				  "\"d\":\"y\",\"g\":1.5,\"h\":null,"
				  "\"i\":null,\"k\":null}");
	free(text);
	assert_true(cJSON_IsNull(cJSON_GetObjectItem(j, "i")));
	cJSON_Delete(j);
}

static void item_makers_give_null_for_nothing(void **state)
{
	cJSON *a = cJSON_CreateArray();
	char *text;

	(void)state;
	cJSON_AddItemToArray(a, json_str_or_null("s"));
	cJSON_AddItemToArray(a, json_str_or_null(NULL));
	cJSON_AddItemToArray(a, json_num_or_null(2));
	cJSON_AddItemToArray(a, json_num_or_null(NAN));
	text = printed(a);
	assert_string_equal(text, "[\"s\",null,2,null]");
	free(text);
	cJSON_Delete(a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(get_str_borrows_and_reads_only_strings),
		cmocka_unit_test(lookups_are_case_sensitive),
		cmocka_unit_test(dup_str_hands_over_a_copy),
		cmocka_unit_test(get_num_and_bool_fall_back_on_anything_else),
		cmocka_unit_test(setters_write_null_or_leave_the_key_out),
		cmocka_unit_test(item_makers_give_null_for_nothing),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
