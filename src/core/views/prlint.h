/* The PR body lint: the seven sections by their headings, placeholders
 * left, the numbers table with its control row and env labels, the
 * negatives, and the test-suite numbers of both the branch and the base.
 * Works on any Markdown text; reads nothing else. */
#ifndef GCAMP_VIEWS_PRLINT_H
#define GCAMP_VIEWS_PRLINT_H

#include <stddef.h>

#include "util/strvec.h"

/* What a section the records cannot fill holds, followed by visible text:
 * the one string the lint looks for. */
#define PRBODY_TODO "<!-- git-campaign:todo -->"

/* The seven sections in order, by the words their heading starts with
 * ("The bug", "Cause", "Change", "Numbers", "Testing", "Backends",
 * "Negatives"); NULL-terminated. */
extern const char *const prbody_sections[];

/*
 * Lints a PR body (Markdown, NUL-terminated). base (may be NULL) is the
 * base branch's name, also accepted where the Testing section names the
 * base. Appends one line per problem to problems, in section order:
 *   section 'NAME' is missing | is empty | has a placeholder left
 *   no numbers table in section 'Numbers'
 *   no control row in the numbers table
 *   section 'Negatives' states no negative
 *   section 'Testing' lacks the test-suite numbers of the branch | of the
 *     base | of the branch and of the base
 *   numbers table N holds numbers of several envs without an env label
 *   a placeholder is left outside the sections (line N)
 * Pure: reads nothing else. Returns the number of problems.
 */
size_t prlint_check(struct strvec *problems, const char *body,
		    const char *base);

#endif
