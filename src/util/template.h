/* Logic-less templates for the texts the tool writes (PR bodies, the umbrella
 * section, the resume pointer): a small subset of Mustache over cJSON data.
 * No code runs from a template: no shell, no system(), no file access. */
#ifndef GCAMP_TEMPLATE_H
#define GCAMP_TEMPLATE_H

#include <cjson/cJSON.h>

#include "util/buf.h"
#include "util/error.h"

/* Renders TEXT (NUL-terminated; NAME is used in messages only) with DATA
 * into OUT, appending. The syntax:
 *   {{key}}  {{a.b}}  {{.}}       the value, looked up from the innermost
 *                                 section outwards; strings as they are,
 *                                 numbers as %.15g, true/false, a missing
 *                                 key or null as nothing; never escaped
 *   {{#key}}...{{/key}}           an array: once per element, the element
 *                                 innermost; an object: once, inside it;
 *                                 any other truthy value: once; false,
 *                                 null, "", 0, [] and a missing key: never
 *   {{^key}}...{{/key}}           once when {{#key}} would not render
 *   {{! comment }}                nothing
 * A section, inverted or comment tag alone on its line takes the line with
 * it. A malformed template (an unclosed tag or section, a close that does
 * not match, a bad name, nesting over 32) is GCAMP_EUSAGE naming the line,
 * and so is one whose output passes 16 MiB or whose rendering visits more
 * than 4 million tokens (loops nested over lists multiply, even when they
 * print nothing); OUT is then left as it was. */
int template_render(const char *name, const char *text, const cJSON *data,
		    struct buf *out, struct error *err);

/* template_render, and for UNKNOWN (may be NULL) a line "line N: {{name}}"
 * (with '#' or '^' for a section) per tag whose name no lookup found while
 * rendering: a misspelt key, which Mustache renders as nothing. A tag only
 * in sections that never rendered is not judged. */
int template_render_checked(const char *name, const char *text,
			    const cJSON *data, struct buf *out,
			    struct buf *unknown, struct error *err);

/* The file in workdir that overrides the built-in template name:
 * .campaign/templates/NAME. The caller frees it. */
char *template_override_path(const char *workdir, const char *name);

/* The largest override template read, in bytes. */
#define TEMPLATE_MAX_FILE (1 << 20)

/* Loads template NAME ("pr-body.md", "umbrella.md", "resume.md"): the
 * repository's override WORKDIR/.campaign/templates/NAME when WORKDIR is
 * not NULL and the file exists, else the built-in one. Appends the text to
 * OUT; *from (may be NULL) is set to the override's path (malloc'd) or
 * NULL for the built-in. An override comes from the clone, so it must be a
 * regular file reached through no symbolic link (.campaign, templates and
 * the file itself are opened with O_NOFOLLOW), of at most
 * TEMPLATE_MAX_FILE bytes; anything else (a symlink, a device, a FIFO, a
 * larger file) is GCAMP_EFATAL with OUT left as it was, and nothing is
 * read from where it points. An unknown NAME with no override is
 * GCAMP_ENOTFOUND; an unreadable override is GCAMP_EFATAL. */
int template_load(const char *workdir, const char *name, struct buf *out,
		  char **from, struct error *err);

/* The built-in templates, in name order, ending with a NULL name. */
struct template_builtin {
	const char *name;
	const char *text;
};
extern const struct template_builtin template_builtins[];

#endif
