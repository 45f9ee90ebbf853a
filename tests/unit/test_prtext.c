/* Unit tests for src/core/forge/prtext.c: placeholders left out, sections
 * between hashed markers, refreshed only where nobody edited them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "core/forge/prtext.h"
#include "core/views/prlint.h"

static void placeholders_are_left_out(void **state)
{
	struct buf out = BUF_INIT;

	(void)state;
	prtext_strip_placeholders(&out, "## 1. Bug\n\n- " PRBODY_TODO
					" **To do:** say it\nkept\n");
	assert_string_equal(out.ptr, "## 1. Bug\n\nkept\n");
	buf_release(&out);
}

static void each_section_is_wrapped_with_its_hash(void **state)
{
	struct buf out = BUF_INIT;
	const char *p;
	int n = 0;

	(void)state;
	prtext_wrap(&out, "intro\n## 1. Bug\none\n## 2. Cause\ntwo\n");
	/* three parts, each opened and closed */
	for (p = out.ptr; (p = strstr(p, PRTEXT_GEN_END)); p++)
		n++;
	assert_int_equal(n, 3);
	assert_non_null(strstr(out.ptr, "-->\n## 1. Bug\none\n" PRTEXT_GEN_END
					"\n" PRTEXT_GEN));
	assert_int_equal(strncmp(out.ptr, PRTEXT_GEN, strlen(PRTEXT_GEN)), 0);
	buf_release(&out);
}

static void untouched_sections_follow_edited_ones_stay(void **state)
{
	struct buf old = BUF_INIT, fresh = BUF_INIT, out = BUF_INIT,
		   edited = BUF_INIT;
	char *at;

	(void)state;
	prtext_wrap(&old, "## 1. Bug\nold bug\n## 4. Numbers\nnone yet\n");
	prtext_wrap(&fresh, "## 1. Bug\nnew bug\n## 4. Numbers\n| table |\n");
	/* a person edits section 1 and writes above everything */
	buf_puts(&edited, "A note.\n");
	buf_puts(&edited, old.ptr);
	at = strstr(edited.ptr, "old bug");
	memcpy(at, "own bug", 7);
	assert_int_equal(prtext_refresh(&out, edited.ptr, fresh.ptr), 1);
	assert_non_null(strstr(out.ptr, "own bug"));
	assert_null(strstr(out.ptr, "new bug"));
	assert_non_null(strstr(out.ptr, "| table |"));
	assert_int_equal(strncmp(out.ptr, "A note.\n", 8), 0);
	/* refreshed again with the same: nothing changes */
	buf_reset(&edited);
	buf_puts(&edited, out.ptr);
	assert_int_equal(prtext_refresh(&out, edited.ptr, fresh.ptr), 0);
	assert_string_equal(out.ptr, edited.ptr);
	buf_release(&old);
	buf_release(&fresh);
	buf_release(&out);
	buf_release(&edited);
}

static void new_commit_ids_alone_refresh_nothing(void **state)
{
	struct buf old = BUF_INIT, fresh = BUF_INIT, out = BUF_INIT;

	(void)state;
	prtext_wrap(&old, "## 3. Change\n- 0123456789ab s1 change\n");
	prtext_wrap(&fresh, "## 3. Change\n- fedcba987654 s1 change\n");
	assert_int_equal(prtext_refresh(&out, old.ptr, fresh.ptr), 0);
	assert_string_equal(out.ptr, old.ptr);
	buf_reset(&fresh);
	prtext_wrap(&fresh, "## 3. Change\n- fedcba987654 s1 better\n");
	assert_int_equal(prtext_refresh(&out, old.ptr, fresh.ptr), 1);
	buf_release(&old);
	buf_release(&fresh);
	buf_release(&out);
}

static void an_edited_title_is_seen(void **state)
{
	struct buf body = BUF_INIT;

	(void)state;
	buf_puts(&body, "text\n");
	prtext_title_marker(&body, "s1 change");
	assert_int_equal(prtext_title_unedited(body.ptr, "s1 change"), 1);
	assert_int_equal(prtext_title_unedited(body.ptr, "A person's"), 0);
	assert_int_equal(prtext_title_unedited("no marker", "s1"), -1);
	buf_release(&body);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(placeholders_are_left_out),
		cmocka_unit_test(each_section_is_wrapped_with_its_hash),
		cmocka_unit_test(untouched_sections_follow_edited_ones_stay),
		cmocka_unit_test(new_commit_ids_alone_refresh_nothing),
		cmocka_unit_test(an_edited_title_is_seen),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
