/* Unit tests for the PR body lint (src/core/views/prlint.c): a clean body, then
 * for each rule a body that breaks it alone, compared with the whole list
 * of problems. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/views/prlint.h"
#include "util/buf.h"
#include "util/xalloc.h"

#define BUG "## 1. The bug and its cost\n\nEach launch uploads 24 bytes.\n\n"
#define CAUSE "## 2. Cause\n\n`upload()` runs on every launch.\n\n"
#define CHANGE "## 3. Change\n\nSkip it when unchanged. Not changed: X.\n\n"
#define TABLE                                                                  \
	"| workload | A | B | B/A [95% CI] | p | verdict |\n"                  \
	"|---|---:|---:|---:|---:|---|\n"                                      \
	"| `saxpy` | 17.46 us | 8.62 us | 0.494 [0.49, 0.50] | 0.0079 | "      \
	"faster |\n"
#define CONTROL "| control: `nbody` | 2 s | 2 s | 1.000 | 1 | steady |\n"
#define NUMBERS                                                                \
	"## 4. Numbers\n\n" TABLE CONTROL                                      \
	"\nwall, median of n = 5 per arm.\nenv 0123456789abcdef: x.\n\n"
#define TESTING                                                                \
	"## 5. Testing\n\n- this branch (abc): 9 failed of 1,040\n"            \
	"- base develop (def): 9 failed of 1,040\n\n"
#define BACKENDS "## 6. Backends and OS tested\n\n- cuda on H200, Linux\n\n"
#define NEG "## 7. Negatives\n\nNo gain below 1,000 elements.\n"

/* The problems lint finds in body, one a line, "" when none */
static char *lint(const char *body)
{
	struct strvec v = STRVEC_INIT;
	struct buf out = BUF_INIT;
	size_t i, n = prlint_check(&v, body, "develop");

	assert_int_equal(n, v.nr);
	buf_puts(&out, "");
	for (i = 0; i < v.nr; i++)
		buf_addf(&out, "%s%s", i ? "\n" : "", v.v[i]);
	strvec_clear(&v);
	return buf_detach(&out);
}

#define assert_lint(body, want)                                                \
	do {                                                                   \
		char *got_ = lint(body);                                       \
		assert_string_equal(got_, want);                               \
		free(got_);                                                    \
	} while (0)

static void clean_body(void **state)
{
	(void)state;
	assert_lint(BUG CAUSE CHANGE NUMBERS TESTING BACKENDS NEG, "");
	/* other levels, no numbers, any case, CRLF */
	assert_lint("# The Bug\r\nx\r\n### cause\ny\n## CHANGES\nz\n" NUMBERS
			    TESTING "#### 6) backends\nq\n" NEG,
		    "");
}

static void missing_empty_and_placeholder(void **state)
{
	(void)state;
	assert_lint(BUG CHANGE NUMBERS TESTING BACKENDS NEG,
		    "section 'Cause' is missing");
	assert_lint(BUG "## 2. Cause\n\n<!-- a comment -->\n\n" CHANGE NUMBERS
			    TESTING BACKENDS NEG,
		    "section 'Cause' is empty");
	assert_lint(BUG "## 2. Cause\n\n" PRBODY_TODO
			" **To do:** x\n" CHANGE NUMBERS TESTING BACKENDS NEG,
		    "section 'Cause' has a placeholder left");
	/* a subsection is content of its section; a heading in code is not
	 * a heading */
	assert_lint(BUG "## Cause\n### detail\ntext\n" CHANGE NUMBERS TESTING
			    BACKENDS NEG,
		    "");
	assert_lint(BUG CAUSE
		    "```\n## 3. Change\n```\n" NUMBERS TESTING BACKENDS NEG,
		    "section 'Change' is missing");
	assert_lint(BUG CAUSE CHANGE NUMBERS TESTING BACKENDS NEG
		    "\n" PRBODY_TODO " trailing\n",
		    "section 'Negatives' has a placeholder left");
	assert_lint("intro " PRBODY_TODO
		    "\n" BUG CAUSE CHANGE NUMBERS TESTING BACKENDS NEG,
		    "a placeholder is left outside the sections (line 1)");
	assert_lint("", "section 'The bug and its cost' is missing\n"
			"section 'Cause' is missing\n"
			"section 'Change' is missing\n"
			"section 'Numbers' is missing\n"
			"section 'Testing' is missing\n"
			"section 'Backends and OS tested' is missing\n"
			"section 'Negatives' is missing");
}

static void numbers_rules(void **state)
{
	(void)state;
	assert_lint(BUG CAUSE CHANGE
		    "## 4. Numbers\n\n2.03x faster.\n" TESTING BACKENDS NEG,
		    "no numbers table in section 'Numbers'");
	/* a header and a rule without rows is no table */
	assert_lint(BUG CAUSE CHANGE
		    "## 4. Numbers\n\n| a |\n|---|\n\nx\n" TESTING BACKENDS NEG,
		    "no numbers table in section 'Numbers'");
	assert_lint(BUG CAUSE CHANGE
		    "## 4. Numbers\n\n" TABLE
		    "\nenv 0123456789abcdef.\n\n" TESTING BACKENDS NEG,
		    "no control row in the numbers table");
	/* two envs, each table labelled by its caption */
	assert_lint(BUG CAUSE CHANGE
		    "## 4. Numbers\n\n" TABLE CONTROL
		    "\nenv 0123456789abcdef: a.\n\n" TABLE
		    "\nenv fedcba9876543210: b.\n\n" TESTING BACKENDS NEG,
		    "");
	/* two envs under one table, and rows without them */
	assert_lint(
		BUG CAUSE CHANGE
		"## 4. Numbers\n\n" TABLE CONTROL
		"\nenv 0123456789abcdef and env fedcba9876543210.\n\n" TESTING
			BACKENDS NEG,
		"numbers table 1 is not labelled with its env (the numbers "
		"come from 2 envs)");
	/* a second table with no env of its own */
	assert_lint(BUG CAUSE CHANGE "## 4. Numbers\n\n" TABLE CONTROL
				     "\nenv 0123456789abcdef: a.\n\n" TABLE
				     "\nenv fedcba9876543210: b.\n\n" TABLE
				     "\nno env\n" TESTING BACKENDS NEG,
		    "numbers table 3 is not labelled with its env (the numbers "
		    "come from 2 envs)");
	/* rows that each name their env are labelled */
	assert_lint(
		BUG CAUSE CHANGE
		"## 4. Numbers\n\n| m | v | env |\n|---|---|---|\n"
		"| t | 1 | env 0123456789abcdef |\n"
		"| control t | 1 | env fedcba9876543210 |\n\n" TESTING BACKENDS
			NEG,
		"");
}

static void testing_and_negatives(void **state)
{
	(void)state;
	assert_lint(
		BUG CAUSE CHANGE NUMBERS
		"## 5. Testing\n\n- this branch: 9 failed of 1,040\n\n" BACKENDS
			NEG,
		"section 'Testing' lacks the test-suite numbers of the "
		"base");
	assert_lint(
		BUG CAUSE CHANGE NUMBERS
		"## 5. Testing\n\ndevelop: 1031 PASS / 9 FAILED\n\n" BACKENDS
			NEG,
		"section 'Testing' lacks the test-suite numbers of the "
		"branch");
	assert_lint(BUG CAUSE CHANGE NUMBERS
		    "## 5. Testing\n\nRan the quick pass.\n\n" BACKENDS NEG,
		    "section 'Testing' lacks the test-suite numbers of the "
		    "branch and of the base");
	assert_lint(BUG CAUSE CHANGE NUMBERS TESTING BACKENDS
		    "## 7. Negatives\n\n- None.\n",
		    "section 'Negatives' states no negative");
	assert_lint(BUG CAUSE CHANGE NUMBERS TESTING BACKENDS
		    "## Negatives\n\n*n/a*\n",
		    "section 'Negatives' states no negative");
	assert_lint(BUG CAUSE CHANGE NUMBERS TESTING BACKENDS
		    "## Negatives\n\n-\n",
		    "section 'Negatives' states no negative");
	assert_lint(BUG CAUSE CHANGE NUMBERS TESTING BACKENDS
		    "## Negatives\n\nNone at 1M elements; 2% slower at 10.\n",
		    "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(clean_body),
		cmocka_unit_test(missing_empty_and_placeholder),
		cmocka_unit_test(numbers_rules),
		cmocka_unit_test(testing_and_negatives),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
