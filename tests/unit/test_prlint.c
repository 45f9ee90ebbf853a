/* Unit tests for the PR body lint (src/core/views/prlint.c): a clean body,
 * the headings maintainers use, the kinds of PR, then for each rule a body
 * that breaks it alone, compared with the whole list of problems. */
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
#define ALL BUG CAUSE CHANGE NUMBERS TESTING BACKENDS NEG

/* The problems lint finds in body as a PR of kind, one a line, "" when
 * none; the notes after a "notes:" line when there are some */
static char *lint_as(const char *body, enum prlint_kind kind)
{
	struct prlint l = PRLINT_INIT;
	struct buf out = BUF_INIT;
	size_t i, n;

	l.base = "develop";
	l.kind = kind;
	n = prlint_check(&l, body);
	assert_int_equal(n, l.problems.nr);
	assert_int_not_equal(l.kind, PRLINT_AUTO);
	assert_non_null(l.kind_why);
	buf_puts(&out, "");
	for (i = 0; i < l.problems.nr; i++)
		buf_addf(&out, "%s%s", i ? "\n" : "", l.problems.v[i]);
	for (i = 0; i < l.notes.nr; i++)
		buf_addf(&out, "%snote: %s", out.len ? "\n" : "", l.notes.v[i]);
	prlint_release(&l);
	return buf_detach(&out);
}

#define assert_lint_as(body, kind, want)                                       \
	do {                                                                   \
		char *got_ = lint_as(body, kind);                              \
		assert_string_equal(got_, want);                               \
		free(got_);                                                    \
	} while (0)
#define assert_lint(body, want) assert_lint_as(body, PRLINT_AUTO, want)

/* The kind lint judges body to be */
static enum prlint_kind kind_of(const char *body, int has_ab)
{
	struct prlint l = PRLINT_INIT;

	l.has_ab = has_ab;
	prlint_check(&l, body);
	prlint_release(&l);
	return l.kind;
}

static void clean_body(void **state)
{
	(void)state;
	assert_lint(ALL, "");
	/* CRLF, other levels, any case */
	assert_lint("# The Bug\r\n\r\nIt costs 12 us.\r\n### cause\n`f()`\n"
		    "## CHANGES\nz only.\n" NUMBERS TESTING
		    "#### 6) backends\nopencl on linux\n" NEG,
		    "");
}

static void headings_maintainers_use(void **state)
{
	(void)state;
	/* setext headings */
	assert_lint(
		"The problem\n-----------\n\nIt costs 12 us.\n\n"
		"Cause\n=====\n\n`f()`\n\n"
		"The change\n----------\n\nOnly f; g is unchanged.\n\n" NUMBERS
			TESTING BACKENDS NEG,
		"");
	/* a thematic break after a blank line is no heading */
	assert_lint(ALL "\n---\n\nMore text.\n", "");
	/* synonyms, articles, Backend/s, a cause quoted under the bug, the
	 * change as commits, numbers under their own title */
	assert_lint(
		"Fixes #12.\n\n## Why\n\nIt costs 12 us.\n\n```c\nf();\n```\n\n"
		"## Commit 1 — the test\n\nAdds a test; g unchanged.\n\n"
		"## Commit 2 — the fix\n\nx.\n\n"
		"## 100-launch comparison against CUDA\n\n" TABLE CONTROL
		"\nmedian of n = 5.\n\n"
		"## Tests\n\nbranch: 1 failed of 9; develop: 1 failed of 9\n\n"
		"#### Backend/s tested\n\n- [x] CUDA\n\n#### OS tested\n\n"
		"- [x] Linux\n\n## Limitations\n\nNothing below 10 "
		"elements.\n",
		"");
	/* any section whose table has a median column holds numbers */
	assert_lint(BUG CAUSE CHANGE
		    "## What we saw\n\nH200, 5 runs.\n\n"
		    "| arm | median |\n|---|---|\n"
		    "| control: `nbody` | 2 s |\n\n" TESTING BACKENDS NEG,
		    "");
}

static void kinds_of_pr(void **state)
{
	(void)state;
	assert_int_equal(kind_of(ALL, 0), PRLINT_PERF);
	assert_int_equal(kind_of(BUG CHANGE, 1), PRLINT_PERF);
	assert_int_equal(kind_of("## The bug\n\nIt is 2x slower.\n", 0),
			 PRLINT_PERF);
	assert_int_equal(kind_of("## The bug\n\nA wrong answer.\n", 0),
			 PRLINT_FIX);
	assert_int_equal(kind_of("## What is in it\n\nThe docs.\n", 0),
			 PRLINT_DOCS);
	/* a docs change needs its change only */
	assert_lint("## What is in it\n\nThe skill, as it is.\n", "");
	assert_lint_as("Some prose.\n", PRLINT_DOCS,
		       "section 'Change' is missing");
	/* a fix: no numbers, no negatives, but the test that shows it */
	assert_lint("## The bug\n\nA wrong answer for `IntArray`.\n\n"
		    "## Cause\n\n`useDeps = !useDeps;`\n\n"
		    "## Change\n\nFlip it; nothing else changes.\n\n"
		    "## Testing\n\nquickPass: 9 failed of 1,040 on the branch "
		    "and 9 failed of 1,040 on develop.\n\n" BACKENDS,
		    "section 'Testing' names no test that shows the failure "
		    "(name it, or add a Reproduction section)");
	assert_lint("## The bug\n\nA wrong answer.\n\n## Cause\n\n`f()`\n\n"
		    "## Change\n\nFlip it; g unchanged.\n\n"
		    "## Reproduction\n\nRun it twice.\n\n"
		    "## Testing\n\n9 failed of 10 on the branch and 9 failed "
		    "of 10 on develop.\n\n" BACKENDS,
		    "");
	/* --kind perf asks a fix for its numbers */
	assert_lint_as(BUG CAUSE CHANGE TESTING BACKENDS NEG, PRLINT_PERF,
		       "section 'Numbers' is missing");
}

static void missing_empty_and_placeholder(void **state)
{
	(void)state;
	assert_lint(BUG CHANGE NUMBERS TESTING BACKENDS NEG,
		    "section 'Cause' is missing (or the code behind the bug, "
		    "quoted under it)");
	assert_lint(BUG "## 2. Cause\n\n<!-- a comment -->\n\n" CHANGE NUMBERS
			    TESTING BACKENDS NEG,
		    "section 'Cause' is empty");
	assert_lint(BUG "## 2. Cause\n\n" PRBODY_TODO
			" **To do:** x\n" CHANGE NUMBERS TESTING BACKENDS NEG,
		    "section 'Cause' has a placeholder left");
	/* a subsection is content of its section; a heading in code is not
	 * a heading */
	assert_lint(BUG "## Cause\n### detail\n`text`\n" CHANGE NUMBERS TESTING
			    BACKENDS NEG,
		    "");
	assert_lint(BUG CAUSE
		    "```\n## 3. Change\n```\n" NUMBERS TESTING BACKENDS NEG,
		    "section 'Change' is missing");
	assert_lint(ALL "\n" PRBODY_TODO " trailing\n",
		    "section 'Negatives' has a placeholder left");
	assert_lint("intro " PRBODY_TODO "\n" ALL,
		    "a placeholder is left outside the sections (line 1)");
	assert_lint_as("", PRLINT_PERF,
		       "section 'The bug and its cost' is missing\n"
		       "section 'Cause' is missing (or the code behind the "
		       "bug, quoted under it)\n"
		       "section 'Change' is missing\n"
		       "section 'Numbers' is missing\n"
		       "section 'Testing' is missing\n"
		       "section 'Backends and OS tested' is missing\n"
		       "section 'Negatives' is missing");
}

static void content_rules(void **state)
{
	(void)state;
	assert_lint("## The bug\n\nIt is slow.\n\n" CAUSE CHANGE NUMBERS TESTING
			    BACKENDS NEG,
		    "section 'The bug and its cost' gives no measured figure "
		    "(the profile line: where the time goes, with its number)");
	assert_lint(BUG
		    "## Cause\n\nSomething in the runtime.\n\n" CHANGE NUMBERS
			    TESTING BACKENDS NEG,
		    "section 'Cause' quotes no code (the 3 to 5 lines behind "
		    "the bug, fenced or `inline`)");
	assert_lint(
		BUG CAUSE
		"## Change\n\nMade it faster.\n\n" NUMBERS TESTING BACKENDS NEG,
		"section 'Change' does not say what is deliberately not "
		"changed");
	assert_lint(BUG CAUSE CHANGE NUMBERS TESTING
		    "## Backends\n\nSome.\n\n" NEG,
		    "section 'Backends and OS tested' names no backend\n"
		    "section 'Backends and OS tested' names no OS");
	assert_lint(BUG CAUSE CHANGE NUMBERS TESTING
		    "## Backends\n\n- [x] CUDA\n- [ ] OpenCL\n- [ ] Metal: no "
		    "Mac\n- [x] Linux\n\n" NEG,
		    "section 'Backends and OS tested' leaves OpenCL unticked "
		    "without saying why");
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
		    "## 4. Numbers\n\n" TABLE "\nmedian of n = 5, "
		    "env 0123456789abcdef.\n\n" TESTING BACKENDS NEG,
		    "no control row in the numbers table (a workload that "
		    "must not move, or a reference row)");
	assert_lint(BUG CAUSE CHANGE
		    "## 4. Numbers\n\n" TABLE CONTROL
		    "\nn = 5 per arm.\n\n" TESTING BACKENDS NEG,
		    "the numbers table gives no medians (a median column, or "
		    "'median of n = N per arm')");
	assert_lint(BUG CAUSE CHANGE "## 4. Numbers\n\n" TABLE CONTROL
				     "\nThe medians.\n\n" TESTING BACKENDS NEG,
		    "section 'Numbers' gives no configuration line (machine, "
		    "build, workload and its arguments)");
	/* a control that could not vouch */
	assert_lint(BUG CAUSE CHANGE
		    "## 4. Numbers\n\n" TABLE
		    "| control: `nbody` | 2 s | 3 s | 1.5 | "
		    "0.01 | moved |\n"
		    "| control: `saxpy` | 2 s | 2 s | 1.0 | "
		    "0.8 | noisy |\n"
		    "\nmedian of n = 5.\n\n" TESTING BACKENDS NEG,
		    "control 'nbody' moved: the run is not vouched for\n"
		    "control 'saxpy' is noisy: the run is not vouched for");
	/* a reference row stands for the control, and the lint says so */
	assert_lint(BUG CAUSE CHANGE "## 4. Numbers\n\nRTX 4090, n=1024.\n\n"
				     "| arm | median |\n|---|---|\n"
				     "| after | 68 us |\n"
				     "| hand-written CUDA (reference) | 67 us "
				     "|\n\n" TESTING BACKENDS NEG,
		    "note: row 'hand-written CUDA (reference)' taken as the "
		    "control row");
	/* two envs, each table labelled by its caption */
	assert_lint(BUG CAUSE CHANGE
		    "## 4. Numbers\n\n" TABLE CONTROL
		    "\nenv 0123456789abcdef: median of 5.\n\n" TABLE
		    "\nenv fedcba9876543210: b.\n\n" TESTING BACKENDS NEG,
		    "");
	/* two envs under one table, and rows without them */
	assert_lint(BUG CAUSE CHANGE
		    "## 4. Numbers\n\n" TABLE CONTROL
		    "\nmedian of 5, env 0123456789abcdef and "
		    "env fedcba9876543210.\n\n" TESTING BACKENDS NEG,
		    "numbers table 1 is not labelled with its env (the numbers "
		    "come from 2 envs)");
	/* rows that each name their env are labelled */
	assert_lint(
		BUG CAUSE CHANGE
		"## 4. Numbers\n\nmedian of 5 runs.\n\n"
		"| m | v | env |\n|---|---|---|\n"
		"| t | 1 | env 0123456789abcdef |\n"
		"| control t | 1 | env fedcba9876543210 |\n\n" TESTING BACKENDS
			NEG,
		"");
}

static void testing_rules(void **state)
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
	/* both counts on one line, or one count matching the base */
	assert_lint(
		BUG CAUSE CHANGE NUMBERS
		"## Testing\n\n9 failed of 1,040 on this branch and 9 "
		"failed of 1,040 on develop, same machine.\n\n" BACKENDS NEG,
		"");
	assert_lint(BUG CAUSE CHANGE NUMBERS
		    "## Testing\n\n`tornado-test`: 1031 PASS / 9 FAILED, "
		    "matching `develop`.\n\n" BACKENDS NEG,
		    "");
	assert_lint(BUG CAUSE CHANGE NUMBERS
		    "## Testing\n\n1 failed.\nbase: 1 failed.\n\n" BACKENDS NEG,
		    "section 'Testing' gives a count without its total (as in "
		    "'9 failed of 1,040')");
	/* more failures on the branch: named, or a problem */
	assert_lint(BUG CAUSE CHANGE NUMBERS
		    "## Testing\n\nthis branch: 2 failed of 10\n"
		    "develop: 1 failed of 10\n\n" BACKENDS NEG,
		    "section 'Testing' shows more failures on the branch than "
		    "on the base (2 against 1) and names no new one");
	assert_lint(BUG CAUSE CHANGE NUMBERS
		    "## Testing\n\nthis branch: 2 failed of 10\n"
		    "develop: 1 failed of 10\n\nThe new failure, `TestX`, is "
		    "flaky on develop too.\n\n" BACKENDS NEG,
		    "");
}

static void negatives_rules(void **state)
{
	(void)state;
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
		    "## Negatives\n\nNo regressions found in quickPass.\n",
		    "section 'Negatives' only says that nothing regressed: say "
		    "where it does not help and what it costs");
	assert_lint(BUG CAUSE CHANGE NUMBERS TESTING BACKENDS
		    "## Negatives\n\nMaybe.\n",
		    "section 'Negatives' is too short to state a negative "
		    "(where it does not help, what it costs)");
	assert_lint(BUG CAUSE CHANGE NUMBERS TESTING BACKENDS
		    "## Negatives\n\nNone at 1M elements; 2% slower at 10.\n",
		    "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(clean_body),
		cmocka_unit_test(headings_maintainers_use),
		cmocka_unit_test(kinds_of_pr),
		cmocka_unit_test(missing_empty_and_placeholder),
		cmocka_unit_test(content_rules),
		cmocka_unit_test(numbers_rules),
		cmocka_unit_test(testing_rules),
		cmocka_unit_test(negatives_rules),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
