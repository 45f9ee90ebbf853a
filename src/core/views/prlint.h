/* The PR body lint: the seven parts of a campaign PR under the headings
 * maintainers really use, what each part must say for the kind of PR (a
 * performance claim, a correctness fix, a docs change), placeholders left,
 * the numbers table with its medians, configuration and control row, and
 * the test-suite numbers of both the branch and the base. Works on any
 * Markdown text; reads nothing else. */
#ifndef GCAMP_VIEWS_PRLINT_H
#define GCAMP_VIEWS_PRLINT_H

#include <stddef.h>

#include "util/strvec.h"

/* What a section the records cannot fill holds, followed by visible text:
 * the one string the lint looks for. */
#define PRBODY_TODO "<!-- git-campaign:todo -->"

/* The kinds of PR, as --kind names them (prlint_kind_names, in this
 * order; NULL-terminated). AUTO infers the kind from the body. */
enum prlint_kind { PRLINT_AUTO, PRLINT_PERF, PRLINT_FIX, PRLINT_DOCS };
extern const char *const prlint_kind_names[];

struct prlint {
	/* in */
	const char *base;	/* the base branch's name, NULL: develop,
				 * main or master */
	enum prlint_kind kind;	/* AUTO: inferred, then set here */
	int has_ab;		/* the branch has A/B runs: a perf claim */
	const char *checkstyle; /* the checkstyle configuration the repository
				   tracks (its path), or NULL: none, and
				   Testing need not say checkstyle passed */
	/* out */
	const char *kind_why;	/* why the kind was judged so (static) */
	int kind_guessed;	/* judged from the prose alone: say so */
	struct strvec problems; /* one line each, in section order */
	struct strvec notes;	/* what the lint assumed, one line each */
};
#define PRLINT_INIT                                                            \
	{                                                                      \
		NULL, PRLINT_AUTO, 0, NULL, NULL, 0, STRVEC_INIT, STRVEC_INIT  \
	}

/*
 * Lints a PR body (Markdown, NUL-terminated). A section is an ATX or a
 * setext heading whose text (after an optional number and article) starts
 * with one of the names maintainers use for it ("Problem", "Why",
 * "Summary" for the bug; "Fix", "The change", "Commit 1 — …" for the
 * change; "Results", "… comparison" or any section whose table has a
 * median column for the numbers; "Backend/s tested" and "OS tested"; ...,
 * see pr(1)); sections of one part add up. Which parts are required and
 * what they must say depends on l->kind. Appends one line per problem to
 * l->problems, each naming the section and what is missing, and the
 * assumptions (a reference row taken as the control) to l->notes.
 * Returns the number of problems. Free with prlint_release.
 */
size_t prlint_check(struct prlint *l, const char *body);

void prlint_release(struct prlint *l);

#endif
