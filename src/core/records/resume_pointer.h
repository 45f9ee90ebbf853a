/* The saved resume pointers, table resume_pointer (`resume --save`): the
 * rendered text and the data it was rendered from, with who saved it and
 * when; the last saved is the one with the highest id. */
#ifndef GCAMP_RECORDS_RESUME_POINTER_H
#define GCAMP_RECORDS_RESUME_POINTER_H

#include "core/base/ctx.h"

/* A saved pointer: one row. */
struct resume_saved {
	long long id;
	char *at;     /* "2026-11-29T12:00:00Z", UTC */
	char *author; /* "A U Thor <author@example.com>" */
	char *branch; /* NULL when HEAD was detached */
	char *head;   /* NULL on an unborn branch */
	char *text;   /* the rendered pointer */
	char *data;   /* the JSON it was rendered from, "saved" included */
};

/* Stores s (its id is ignored) in the campaign database, created when
 * missing, and sets s->id to the new row's. */
int resume_pointer_add(struct resume_saved *s, struct ctx *ctx);

/* The pointer saved last (highest id) into *out, *found 0 when none was
 * saved or there is no database; for `resume --saved` and the umbrella
 * section. Release with resume_saved_release. */
int resume_pointer_last(struct resume_saved *out, int *found, struct ctx *ctx);

/* Frees the strings of s and clears it. Accepts NULL. */
void resume_saved_release(struct resume_saved *s);

#endif
