/* Unit tests for src/util/text: marked blocks spliced into a document, and
 * UTF-8 lengths. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "util/text.h"

#define B "<!-- b -->"
#define E "<!-- e -->"

static void splice_replaces_only_the_marked_block(void **state)
{
	struct buf out = BUF_INIT;

	(void)state;
	assert_int_equal(text_splice_markers(&out,
					     "top\n" B "\nold\n" E "\nbottom",
					     B, E, "new\n"),
			 0);
	assert_string_equal(out.ptr, "top\n" B "\nnew\n" E "\nbottom");
	/* CRLF bodies get the block in CRLF; bytes around it stay */
	assert_int_equal(text_splice_markers(&out, "a\r\n" B "\r\nx\r\n" E "z",
					     B, E, "l1\nl2\n"),
			 0);
	assert_string_equal(out.ptr, "a\r\n" B "\r\nl1\r\nl2\r\n" E "z");
	/* out is reset first */
	assert_int_equal(text_splice_markers(&out, B E, B, E, ""), 0);
	assert_string_equal(out.ptr, B "\n" E);
	buf_release(&out);
}

static void splice_appends_a_block_when_there_is_none(void **state)
{
	struct buf out = BUF_INIT;

	(void)state;
	assert_int_equal(text_splice_markers(&out, "human", B, E, "s\n"), 1);
	assert_string_equal(out.ptr, "human\n\n" B "\ns\n" E "\n");
	assert_int_equal(text_splice_markers(&out, "human\n", B, E, "s\n"), 1);
	assert_string_equal(out.ptr, "human\n\n" B "\ns\n" E "\n");
	assert_int_equal(text_splice_markers(&out, "", B, E, "s\n"), 1);
	assert_string_equal(out.ptr, B "\ns\n" E "\n");
	buf_release(&out);
}

static void splice_refuses_a_begin_without_an_end(void **state)
{
	struct buf out = BUF_INIT;

	(void)state;
	assert_int_equal(text_splice_markers(&out, "x " B " y", B, E, "s"), -1);
	assert_int_equal(out.len, 0);
	/* an end before the begin does not count */
	assert_int_equal(text_splice_markers(&out, E " " B, B, E, "s"), -1);
	assert_int_equal(out.len, 0);
	buf_release(&out);
}

static void splice_with_one_marker_twice_ends_at_the_second(void **state)
{
	struct buf out = BUF_INIT;

	(void)state;
	assert_int_equal(text_splice_markers(
				 &out, "pr text\n<!-- s -->\nold\n<!-- s -->",
				 "<!-- s -->", "<!-- s -->", "new\n"),
			 0);
	assert_string_equal(out.ptr, "pr text\n<!-- s -->\nnew\n<!-- s -->");
	buf_release(&out);
}

static void utf8_length_counts_code_points(void **state)
{
	(void)state;
	assert_int_equal(text_utf8_length(""), 0);
	assert_int_equal(text_utf8_length("abc"), 3);
	assert_int_equal(text_utf8_length("\xc3\xa9t\xc3\xa9"), 3); /* été */
	assert_int_equal(text_utf8_length("\xe2\x80\x94"), 1);	    /* — */
	assert_int_equal(text_utf8_length("\xf0\x9f\x9a\x80"), 1);  /* rocket */
	assert_int_equal(text_utf8_length("\xff\xc3"), 2);	    /* bad */
	/* a lead byte whose continuation is missing counts one */
	assert_int_equal(text_utf8_length("\xe2\x80x"), 3);
}

static void names_that_are_not_clean_utf8_text_are_refused(void **state)
{
	char big[1100];

	(void)state;
	assert_null(text_name_problem("kernel_ms", 1024));
	assert_null(text_name_problem("time \xce\xbcs/op", 1024));
	assert_string_equal(text_name_problem("bad\xff\xfe", 1024),
			    "is not valid UTF-8");
	/* an overlong '/', a surrogate, past U+10FFFF, a cut sequence */
	assert_non_null(text_name_problem("\xc0\xaf", 1024));
	assert_non_null(text_name_problem("\xed\xa0\x80", 1024));
	assert_non_null(text_name_problem("\xf4\x90\x80\x80", 1024));
	assert_non_null(text_name_problem("a\xe2\x82", 1024));
	assert_string_equal(text_name_problem("esc\x1b]0;t\x07", 1024),
			    "holds a control character");
	assert_string_equal(text_name_problem("two\nlines", 1024),
			    "holds a control character");
	assert_string_equal(text_name_problem("c1\xc2\x9b", 1024),
			    "holds a control character");
	assert_string_equal(text_name_problem(" ", 1024),
			    "begins or ends with a space");
	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	assert_string_equal(text_name_problem(big, 1024),
			    "is longer than 1024 bytes");
}

static void defused_text_cannot_end_a_section(void **state)
{
	struct buf b = BUF_INIT;

	(void)state;
	buf_puts(&b, "evil <!-- git-campaign:end --> tail\tok\n\xff\x1b[31m");
	text_defuse(&b);
	assert_string_equal(b.ptr,
			    "evil &lt;!-- git-campaign:end --> tail\tok\n"
			    "\xef\xbf\xbd\xef\xbf\xbd[31m");
	assert_null(strstr(b.ptr, "<!-- git-campaign:"));
	/* other comments and clean text are left alone */
	buf_reset(&b);
	buf_puts(&b, "<!-- note --> <!-- git-campaign:todo --> \xce\xbc");
	text_defuse(&b);
	assert_string_equal(
		b.ptr, "<!-- note --> <!-- git-campaign:todo --> \xce\xbc");
	buf_reset(&b);
	buf_puts(&b, "<!-- git-campaign:begin --><!-- git-campaign:stack -->");
	text_defuse(&b);
	assert_string_equal(b.ptr, "&lt;!-- git-campaign:begin -->"
				   "&lt;!-- git-campaign:stack -->");
	buf_release(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(splice_replaces_only_the_marked_block),
		cmocka_unit_test(splice_appends_a_block_when_there_is_none),
		cmocka_unit_test(splice_refuses_a_begin_without_an_end),
		cmocka_unit_test(
			splice_with_one_marker_twice_ends_at_the_second),
		cmocka_unit_test(utf8_length_counts_code_points),
		cmocka_unit_test(
			names_that_are_not_clean_utf8_text_are_refused),
		cmocka_unit_test(defused_text_cannot_end_a_section),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
