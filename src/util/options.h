/* Command-line option parsing with generated usage text (git's
 * parse-options, smaller): every command describes its options once, and
 * -h, errors and the man page SYNOPSIS all come from that one table. */
#ifndef GCAMP_OPTIONS_H
#define GCAMP_OPTIONS_H

#include <stddef.h>

enum option_type {
	OPTION_END = 0,
	OPTION_BOOL,   /* int *: set to 1 (--no-NAME sets 0) */
	OPTION_STRING, /* const char **: borrowed from argv */
	OPTION_INT,    /* long *: decimal, whole argument */
	OPTION_LIST,   /* struct strvec *: repeatable, each value appended */
	OPTION_CHOICE, /* int *: the index of the value in choices */
	OPTION_GROUP,  /* a heading in the usage text */
};

struct option {
	enum option_type type;
	char short_name; /* 0 when none */
	const char *long_name;
	void *value;
	const char *argh; /* placeholder in usage, e.g. "BRANCH" */
	const char *help;
	/* OPTION_CHOICE: the names the value may be, NULL-terminated */
	const char *const *choices;
};

#define OPT_BOOL(s, l, v, h)                                                   \
	{                                                                      \
		OPTION_BOOL, (s), (l), (v), NULL, (h), NULL                    \
	}
#define OPT_STRING(s, l, v, a, h)                                              \
	{                                                                      \
		OPTION_STRING, (s), (l), (v), (a), (h), NULL                   \
	}
#define OPT_INT(s, l, v, a, h)                                                 \
	{                                                                      \
		OPTION_INT, (s), (l), (v), (a), (h), NULL                      \
	}
#define OPT_LIST(s, l, v, a, h)                                                \
	{                                                                      \
		OPTION_LIST, (s), (l), (v), (a), (h), NULL                     \
	}
/* A string option whose value must be one of the NULL-terminated names
 * table c; *v gets its index. A value not in the table is a usage error
 * that names the closest ones. */
#define OPT_CHOICE(s, l, v, c, a, h)                                           \
	{                                                                      \
		OPTION_CHOICE, (s), (l), (v), (a), (h), (c)                    \
	}
#define OPT_GROUP(h)                                                           \
	{                                                                      \
		OPTION_GROUP, 0, NULL, NULL, NULL, (h), NULL                   \
	}
#define OPT_END()                                                              \
	{                                                                      \
		OPTION_END, 0, NULL, NULL, NULL, NULL, NULL                    \
	}

/* Returned by parse_options when the process should exit 129 now: the usage
 * was printed (to stdout for -h, to stderr after an error). */
#define PARSE_OPTIONS_EXIT (-129)
/* Returned by parse_options after --help showed the manual: exit 0. */
#define PARSE_OPTIONS_DONE (-1)

/*
 * Parses argv[1..argc-1] (argv[0] is the command name) against opts.
 * usage is a NULL-terminated list of synopsis lines, each starting with
 * "git campaign NAME". Options and operands may be mixed; "--" ends options
 * and everything after it is an operand. On success the operands are moved
 * to argv[0..n-1] (argv[n] = NULL) and n is returned. "-h" prints the usage
 * on stdout and returns PARSE_OPTIONS_EXIT; "--help" shows the command's man
 * page (git-campaign-NAME) and returns PARSE_OPTIONS_DONE, or when it cannot,
 * says so and prints the usage (PARSE_OPTIONS_EXIT); an unknown option or a
 * bad value prints one "error:" line and the usage on stderr
 * (PARSE_OPTIONS_EXIT). parse_options_status() turns these into the exit
 * status.
 */
int parse_options(int argc, const char **argv, const struct option *opts,
		  const char *const *usage);

/* Returned by parse_subcommand when argv names no subcommand. */
#define PARSE_SUBCOMMAND_NONE (-2)

/*
 * The subcommand argv[1] names, among the n names (git's OPT_SUBCOMMAND):
 * returns its index. usage is the command's, every subcommand's synopsis.
 * No argv[1] returns PARSE_SUBCOMMAND_NONE and prints nothing (the caller
 * runs its default or reports the missing name). "-h" and "--help" in
 * argv[1] behave as in parse_options (PARSE_OPTIONS_EXIT or
 * PARSE_OPTIONS_DONE); an unknown name prints one "error:" line with the
 * closest names and the usage on stderr, and returns PARSE_OPTIONS_EXIT.
 */
int parse_subcommand(int argc, const char **argv, const char *const *names,
		     size_t n, const char *const *usage);

/* Prints the usage block (synopsis and option help) to stdout or stderr. */
void usage_print(const char *const *usage, const struct option *opts,
		 int to_stderr);

/* The exit status for a negative parse_options result: 129 or 0. */
int parse_options_status(int n);

/* Prints "error: MESSAGE" and the usage on stderr; returns 129, the exit
 * status of a usage error. */
int usage_error(const char *const *usage, const struct option *opts,
		const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* What -q/--quiet and --color[=WHEN]/--no-color, which parse_options
 * takes for every command that does not define them itself, asked for:
 * options_quiet() is 1 after -q (progress and confirmations are then left
 * out); options_color_mode() is OPTIONS_COLOR_UNSET when neither was
 * given (the configuration decides). */
enum options_color {
	OPTIONS_COLOR_NEVER,
	OPTIONS_COLOR_ALWAYS,
	OPTIONS_COLOR_AUTO,
	OPTIONS_COLOR_UNSET,
};
int options_quiet(void);
enum options_color options_color_mode(void);

/* Sets what "--help" calls to show the man page PAGE ("git-campaign-init"):
 * fn returns 0 when it showed the page, -1 when it could not (having said
 * why on stderr). main sets it once; until then, or with NULL, "--help"
 * prints the usage as when the page is missing. */
void options_set_man(int (*fn)(const char *page));

#endif
