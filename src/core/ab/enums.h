/* The A/B enums and their names, one X-macro table each (tig's
 * STATUS_CODE_INFO): the mode, the order of the runs, the verdict and what
 * the controls say of the run. The tables are the only place a name is
 * written; options, JSON and tables all read them. */
#ifndef GCAMP_AB_ENUMS_H
#define GCAMP_AB_ENUMS_H

/* _(MEMBER, name) */
#define AB_MODE_INFO(_)                                                        \
	/* A built in a kept worktree; runs interleaved */                     \
	_(WORKTREE, "worktree")                                                \
	/* the user's procedure: stash, build A, measure, restore, build B,    \
	 * measure; runs blocked */                                            \
	_(STASH, "stash")                                                      \
	/* each build's output copied aside by tree id; runs interleaved,      \
	 * cached builds reused */                                             \
	_(ARTIFACT, "artifact")

/* _(MEMBER, name, words): words as the A/B table's footer says it */
#define AB_ORDER_INFO(_)                                                       \
	_(ABBA, "abba", "A B B A")                                             \
	_(RANDOM, "random", "random")                                          \
	_(BLOCKED, "blocked", "blocked (all A, then all B)")

/* _(MEMBER, name): a workload's verdict; NONE is no verdict judged or
 * read (drawn "-" in the table, "" in JSON) */
#define AB_VERDICT_INFO(_)                                                     \
	_(NONE, "")                                                            \
	_(FASTER, "faster")                                                    \
	_(SLOWER, "slower")                                                    \
	_(SAME, "~")                                                           \
	_(INCONCLUSIVE, "inconclusive")                                        \
	_(NO_VERDICT, "no verdict")                                            \
	_(FAILED, "failed")                                                    \
	/* a control's: moved past the tolerance, its interval inside it,      \
	 * or neither (NOISY only in results of earlier versions) */           \
	_(MOVED, "moved")                                                      \
	_(STEADY, "steady")                                                    \
	_(NOISY, "noisy")                                                      \
	_(CANNOT_VOUCH, "cannot vouch")

/* _(MEMBER, name): what the controls say of the whole run */
#define AB_VOUCH_INFO(_)                                                       \
	/* no control was run: nothing vouches for the machine */              \
	_(NONE, "none")                                                        \
	/* every control steady: the run is vouched for */                     \
	_(STEADY, "steady")                                                    \
	/* a control cannot vouch: the verdicts stand, unvouched */            \
	_(UNVOUCHED, "unvouched")                                              \
	/* a control moved: the run is INVALID */                              \
	_(MOVED, "moved")

#define AB_MODE_MEMBER_(m, name) AB_MODE_##m,
#define AB_ORDER_MEMBER_(m, name, words) AB_ORDER_##m,
#define AB_VERDICT_MEMBER_(m, name) AB_VERDICT_##m,
#define AB_VOUCH_MEMBER_(m, name) AB_VOUCH_##m,

enum ab_mode { AB_MODE_INFO(AB_MODE_MEMBER_) };
enum ab_order { AB_ORDER_INFO(AB_ORDER_MEMBER_) };
enum ab_verdict { AB_VERDICT_INFO(AB_VERDICT_MEMBER_) };
enum ab_vouch { AB_VOUCH_INFO(AB_VOUCH_MEMBER_) };

/* The names in enum order, NULL-terminated: what OPT_CHOICE parses. */
extern const char *const ab_mode_names[];
extern const char *const ab_order_names[];

/* The name of m, o or v ("worktree", "abba", "faster"; "" for
 * AB_VERDICT_NONE): a static string. */
const char *ab_mode_name(enum ab_mode m);
const char *ab_order_name(enum ab_order o);
const char *ab_verdict_name(enum ab_verdict v);
/* "none", "steady", "unvouched" or "moved": a static string. */
const char *ab_vouch_name(enum ab_vouch v);
/* "A B B A", "random" or "blocked (all A, then all B)": a static string. */
const char *ab_order_words(enum ab_order o);

/* The member named s, or def when s is NULL or names none (a result written
 * by another version reads as the default). */
enum ab_mode ab_mode_from_name(const char *s, enum ab_mode def);
enum ab_order ab_order_from_name(const char *s, enum ab_order def);
enum ab_verdict ab_verdict_from_name(const char *s, enum ab_verdict def);
enum ab_vouch ab_vouch_from_name(const char *s, enum ab_vouch def);

#endif
