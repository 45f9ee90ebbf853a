/* Unit tests for src/util/csv: RFC 4180 quoting, row ends, and numbers
 * that read back as the same double. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/csv.h"

static void fields_with_commas_quotes_and_newlines_are_quoted(void **state)
{
	struct buf out = BUF_INIT;

	(void)state;
	csv_field(&out, "plain");
	csv_field(&out, "a,b");
	csv_field(&out, "say \"hi\"");
	csv_field(&out, "two\nlines");
	csv_field(&out, "cr\r");
	csv_field(&out, " edge");
	csv_end(&out);
	assert_string_equal(out.ptr, "plain,\"a,b\",\"say \"\"hi\"\"\","
				     "\"two\nlines\",\"cr\r\",\" edge\"\n");
	buf_release(&out);
}

static void an_empty_first_field_keeps_the_columns(void **state)
{
	struct buf out = BUF_INIT;
	static const char *const head[] = {"", "x", NULL};

	(void)state;
	csv_row(&out, head, 2);
	csv_field(&out, NULL);
	csv_field(&out, NULL);
	csv_end(&out);
	/* a row of "" alone still reads as a row of one empty field */
	csv_field(&out, "");
	csv_end(&out);
	assert_string_equal(out.ptr, "\"\",x\n\"\",\n\"\"\n");
	buf_release(&out);
}

static void numbers_read_back_as_the_same_double(void **state)
{
	static const double v[] = {12, 0.1, 1.0 / 3, 1e-9, 123456789.125, -2.5};
	struct buf out = BUF_INIT;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(v) / sizeof(*v); i++) {
		buf_reset(&out);
		csv_number(&out, v[i]);
		assert_true(strtod(out.ptr, NULL) == v[i]);
	}
	buf_reset(&out);
	csv_number(&out, 0.1);
	csv_number(&out, NAN);
	csv_count(&out, 42);
	csv_end(&out);
	assert_string_equal(out.ptr, "0.1,,42\n");
	buf_release(&out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(
			fields_with_commas_quotes_and_newlines_are_quoted),
		cmocka_unit_test(an_empty_first_field_keeps_the_columns),
		cmocka_unit_test(numbers_read_back_as_the_same_double),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
