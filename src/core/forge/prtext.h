/* The generated parts of a PR's body on GitHub: placeholders left out,
 * each section between markers that carry a hash of what was sent, so that
 * a later submit refreshes the sections nobody edited and keeps the rest;
 * and the hash of the title sent, so that an edited title is kept. */
#ifndef GCAMP_FORGE_PRTEXT_H
#define GCAMP_FORGE_PRTEXT_H

#include "util/buf.h"

#define PRTEXT_GEN "<!-- git-campaign:gen "
#define PRTEXT_GEN_END "<!-- git-campaign:gen-end -->"
#define PRTEXT_TITLE "<!-- git-campaign:title "

/* body (LF line ends) into out without the lines that hold a placeholder
 * (PRBODY_TODO). */
void prtext_strip_placeholders(struct buf *out, const char *body);

/* generated (LF) into out with each part, the text before the first "## "
 * heading and then each "## " section, between a PRTEXT_GEN line holding
 * the hash of the part ("<!-- git-campaign:gen 0123456789ab -->") and a
 * PRTEXT_GEN_END line. Empty parts are left out. */
void prtext_wrap(struct buf *out, const char *generated);

/*
 * The body on GitHub, old, refreshed from fresh (prtext_wrap's output)
 * into out: each block of old whose text still has the hash its marker
 * names (nobody edited it) is replaced by the block of fresh that starts
 * with the same line (its heading), when fresh has one; an edited block,
 * and everything outside the blocks, is kept byte for byte. The blocks of
 * fresh that old lacks are not added (the human may have deleted them).
 * A block whose new text differs only in commit ids (after a restack)
 * is kept: the records say nothing new. Returns how many blocks changed.
 */
int prtext_refresh(struct buf *out, const char *old, const char *fresh);

/* The marker line of title, "<!-- git-campaign:title HASH -->\n", added
 * to out. */
void prtext_title_marker(struct buf *out, const char *title);

/* 1 when body holds a title marker and title still has its hash (the
 * human did not retitle the PR); 0 when it does not, -1 when body has no
 * title marker. */
int prtext_title_unedited(const char *body, const char *title);

#endif
