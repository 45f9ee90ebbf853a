/* The commit-msg rules: git's cleanup of a message, and the judging of the
 * cleaned message. */
#ifndef GCAMP_HOOKS_MSG_H
#define GCAMP_HOOKS_MSG_H

#include <stddef.h>

#include "util/buf.h"
#include "util/error.h"
#include "util/strvec.h"

/* How the commit-msg hook cleans a message before judging it: as git
 * commit's --cleanup modes. */
enum msg_cleanup {
	MSG_STRIP,	/* comments, blank runs and outer blank lines */
	MSG_WHITESPACE, /* as strip, comments kept */
	MSG_VERBATIM,
	MSG_SCISSORS, /* whitespace, and cut at the scissors line */
};

/* Appends to out the message text[0..len) as `git commit` would store it
 * under mode, comment_char starting comment lines (core.commentChar). */
void hooks_msg_cleanup(struct buf *out, const char *text, size_t len,
		       enum msg_cleanup mode, char comment_char);

struct msg_rules {
	int one_line;		   /* a subject and nothing else */
	int attribution;	   /* no line crediting an AI tool or bot */
	int merge;		   /* a merge commit: its body is git's */
	const struct strvec *deny; /* extended regexes, any case, per line */
};

/*
 * Judges a cleaned message. 0 when it passes; GCAMP_EREFUSED with the
 * reason, quoting the offending line, in err (and a hint); GCAMP_EUSAGE
 * when a deny pattern is not a valid regular expression. "fixup!" and
 * "squash!" messages keep their bodies (git folds them in at rebase
 * --autosquash); the body of an "amend!" message, which replaces the
 * amended commit's message, is judged as a message. The lines git writes
 * itself, "(cherry picked from commit X)" (cherry-pick -x) and "This
 * reverts commit X." (revert), are not a body.
 */
int hooks_msg_check(const char *msg, const struct msg_rules *rules,
		    struct error *err);

/* 1 when text[0..len) is valid UTF-8; else 0 with the 1-based line of
 * the first bad byte in *line. */
int hooks_utf8_valid(const char *text, size_t len, size_t *line);

#endif
