/* Option parsing and usage text. */
#include "util/options.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/buf.h"
#include "util/strvec.h"
#include "util/suggest.h"

void usage_print(const char *const *usage, const struct option *opts,
		 int to_stderr)
{
	FILE *fp = to_stderr ? stderr : stdout;
	const struct option *o;
	size_t i;

	for (i = 0; usage[i]; i++)
		fprintf(fp, "%s %s\n", i ? "   or:" : "usage:", usage[i]);
	if (opts && opts->type != OPTION_END)
		fputc('\n', fp);
	for (o = opts; o && o->type != OPTION_END; o++) {
		struct buf b = BUF_INIT;

		if (o->type == OPTION_GROUP) {
			fprintf(fp, "%s%s\n", o == opts ? "" : "\n", o->help);
			continue;
		}
		buf_puts(&b, "    ");
		if (o->short_name)
			buf_addf(&b, "-%c", o->short_name);
		if (o->short_name && o->long_name)
			buf_puts(&b, ", ");
		if (o->long_name)
			buf_addf(&b, "--%s", o->long_name);
		if (o->argh)
			buf_addf(&b, " %s", o->argh);
		if (b.len >= 26)
			fprintf(fp, "%s\n%26s%s\n", b.ptr, "", o->help);
		else
			fprintf(fp, "%-26s%s\n", b.ptr, o->help);
		buf_release(&b);
	}
}

/* set once by main (options_set_man): util/ runs no programs itself */
static int (*show_man)(const char *page);

void options_set_man(int (*fn)(const char *page))
{
	show_man = fn;
}

/* The options every command takes, as git's porcelain does (set once per
 * process; a command's own -q or --color takes precedence). */
static int quiet;
static enum options_color color_mode = OPTIONS_COLOR_UNSET;

int options_quiet(void)
{
	return quiet;
}

enum options_color options_color_mode(void)
{
	return color_mode;
}

int parse_options_status(int n)
{
	return n == PARSE_OPTIONS_DONE ? 0 : 129;
}

/* "git campaign init [NAME]" -> "git-campaign-init" */
static void man_page_name(struct buf *out, const char *synopsis)
{
	const char *p = synopsis;
	int words = 0;

	buf_reset(out);
	while (*p && words < 3) {
		size_t n = strcspn(p, " ");

		if (words)
			buf_putc(out, '-');
		buf_add(out, p, n);
		words++;
		p += n;
		while (*p == ' ')
			p++;
		if (*p == '[' || *p == '-' || (*p >= 'A' && *p <= 'Z'))
			break;
	}
}

static void usage_verror(const char *const *usage, const struct option *opts,
			 const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));

static void usage_verror(const char *const *usage, const struct option *opts,
			 const char *fmt, va_list ap)
{
	fprintf(stderr, "error: ");
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	usage_print(usage, opts, 1);
}

int usage_error(const char *const *usage, const struct option *opts,
		const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	usage_verror(usage, opts, fmt, ap);
	va_end(ap);
	return 129;
}

/* a usage error inside parse_options */
static int bad(const char *const *usage, const struct option *opts,
	       const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static int bad(const char *const *usage, const struct option *opts,
	       const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	usage_verror(usage, opts, fmt, ap);
	va_end(ap);
	return PARSE_OPTIONS_EXIT;
}

/* --mode 'stsh' is not one of worktree, stash, artifact; did you mean ...? */
static int bad_choice(const struct option *o, const char *val,
		      const char *const *usage, const struct option *opts)
{
	const char *best[3];
	struct buf list = BUF_INIT;
	size_t n, k, i;

	for (n = 0; o->choices[n]; n++)
		buf_addf(&list, "%s%s", n ? ", " : "", o->choices[n]);
	k = suggest_closest(best, 3, val, o->choices, n);
	if (o->long_name)
		fprintf(stderr, "error: --%s", o->long_name);
	else
		fprintf(stderr, "error: -%c", o->short_name);
	fprintf(stderr, " '%s' is not one of %s", val, list.ptr);
	for (i = 0; i < k; i++)
		fprintf(stderr, "%s'%s'", i ? ", " : "; did you mean ",
			best[i]);
	fputs(k ? "?\n" : "\n", stderr);
	usage_print(usage, opts, 1);
	buf_release(&list);
	return PARSE_OPTIONS_EXIT;
}

static int take_value(const struct option *o, const char *val,
		      const char *const *usage, const struct option *opts)
{
	char *end;
	long n;
	int i;

	switch (o->type) {
	case OPTION_STRING:
		*(const char **)o->value = val;
		return 0;
	case OPTION_LIST:
		strvec_push(o->value, val);
		return 0;
	case OPTION_INT:
		errno = 0;
		n = strtol(val, &end, 10);
		if (!*val || *end || errno)
			return bad(usage, opts, "'%s' is not a whole number",
				   val);
		*(long *)o->value = n;
		return 0;
	case OPTION_CHOICE:
		for (i = 0; o->choices[i]; i++)
			if (!strcmp(o->choices[i], val)) {
				*(int *)o->value = i;
				return 0;
			}
		return bad_choice(o, val, usage, opts);
	default:
		return 0;
	}
}

static const struct option *find_long(const struct option *opts,
				      const char *name, size_t len, int *neg)
{
	const struct option *o;

	*neg = 0;
	for (o = opts; o->type != OPTION_END; o++)
		if (o->long_name && strlen(o->long_name) == len &&
		    !strncmp(o->long_name, name, len))
			return o;
	if (len > 3 && !strncmp(name, "no-", 3))
		for (o = opts; o->type != OPTION_END; o++)
			if (o->type == OPTION_BOOL && o->long_name &&
			    strlen(o->long_name) == len - 3 &&
			    !strncmp(o->long_name, name + 3, len - 3)) {
				*neg = 1;
				return o;
			}
	return NULL;
}

static const struct option *find_short(const struct option *opts, char c)
{
	const struct option *o;

	for (o = opts; o->type != OPTION_END; o++)
		if (o->short_name == c)
			return o;
	return NULL;
}

/* "--name", "--no-name" or "--name=value" at argv[*i]; a value in the next
 * argument moves *i on. 0, or PARSE_OPTIONS_EXIT after a usage error. */
static int parse_long(int argc, const char **argv, int *i,
		      const struct option *opts, const char *const *usage)
{
	const char *a = argv[*i], *name = a + 2, *eq = strchr(name, '=');
	size_t len = eq ? (size_t)(eq - name) : strlen(name);
	const struct option *o;
	int neg;

	o = find_long(opts, name, len, &neg);
	if (!o)
		return bad(usage, opts, "unknown option '%s'", a);
	if (o->type == OPTION_BOOL) {
		if (eq)
			return bad(usage, opts, "option '%s' takes no value",
				   a);
		*(int *)o->value = !neg;
		return 0;
	}
	if (!eq && *i + 1 >= argc)
		return bad(usage, opts, "option '%s' requires a value", a);
	return take_value(o, eq ? eq + 1 : argv[++*i], usage, opts);
}

/* "-vf", "-mNAME" or "-m NAME" at argv[*i]: switches up to the first that
 * takes a value, which is the rest of the cluster or the next argument
 * (moving *i on). 0, or PARSE_OPTIONS_EXIT after a usage error. */
static int parse_short_cluster(int argc, const char **argv, int *i,
			       const struct option *opts,
			       const char *const *usage)
{
	const struct option *o;
	const char *p;

	for (p = argv[*i] + 1; *p; p++) {
		char flag[3] = {'-', *p, '\0'};

		o = find_short(opts, *p);
		if (!o)
			return bad(usage, opts, "unknown switch '%s'", flag);
		if (o->type == OPTION_BOOL) {
			*(int *)o->value = 1;
			continue;
		}
		if (!p[1] && *i + 1 >= argc)
			return bad(usage, opts, "switch '%s' requires a value",
				   flag);
		return take_value(o, p[1] ? p + 1 : argv[++*i], usage, opts);
	}
	return 0;
}

/* -q, --quiet, --no-color, --color[=WHEN] when opts does not define them:
 * 1 when a was one (taken), 0 when not, PARSE_OPTIONS_EXIT on a bad WHEN. */
static int common_option(const char *a, const struct option *opts,
			 const char *const *usage)
{
	static const char *const whens[] = {"never", "always", "auto", NULL};
	int neg;
	size_t i;

	if ((!strcmp(a, "-q") && !find_short(opts, 'q')) ||
	    (!strcmp(a, "--quiet") && !find_long(opts, "quiet", 5, &neg))) {
		quiet = 1;
		return 1;
	}
	if (find_long(opts, "color", 5, &neg))
		return 0;
	if (!strcmp(a, "--no-color")) {
		color_mode = OPTIONS_COLOR_NEVER;
		return 1;
	}
	if (!strcmp(a, "--color")) {
		color_mode = OPTIONS_COLOR_ALWAYS;
		return 1;
	}
	if (strncmp(a, "--color=", 8))
		return 0;
	for (i = 0; whens[i]; i++)
		if (!strcmp(a + 8, whens[i])) {
			color_mode = (enum options_color)i;
			return 1;
		}
	return bad(usage, opts,
		   "option '--color' takes never, always or auto, not '%s'",
		   a + 8);
}

int parse_options(int argc, const char **argv, const struct option *opts,
		  const char *const *usage)
{
	static const struct option none[] = {OPT_END()};
	int i, k, n = 0;

	if (!opts)
		opts = none;
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--")) {
			for (i++; i < argc; i++)
				argv[n++] = argv[i];
			break;
		}
		if (!strcmp(a, "-h")) {
			usage_print(usage, opts, 0);
			return PARSE_OPTIONS_EXIT;
		}
		if (!strcmp(a, "--help")) {
			struct buf page = BUF_INIT;

			man_page_name(&page, usage[0]);
			n = show_man ? show_man(page.ptr) : -1;
			buf_release(&page);
			if (n == 0)
				return PARSE_OPTIONS_DONE;
			usage_print(usage, opts, 0);
			return PARSE_OPTIONS_EXIT;
		}
		if ((k = common_option(a, opts, usage)) != 0) {
			if (k < 0)
				return PARSE_OPTIONS_EXIT;
			continue;
		}
		if (a[0] == '-' && a[1] == '-') {
			if (parse_long(argc, argv, &i, opts, usage) < 0)
				return PARSE_OPTIONS_EXIT;
			continue;
		}
		if (a[0] == '-' && a[1]) {
			if (parse_short_cluster(argc, argv, &i, opts, usage) <
			    0)
				return PARSE_OPTIONS_EXIT;
			continue;
		}
		argv[n++] = a;
	}
	argv[n] = NULL;
	return n;
}

int parse_subcommand(int argc, const char **argv, const char *const *names,
		     size_t n, const char *const *usage)
{
	const char *best[3], *name = argc > 1 ? argv[1] : NULL;
	size_t i, k;

	if (!name)
		return PARSE_SUBCOMMAND_NONE;
	if (!strcmp(name, "-h") || !strcmp(name, "--help"))
		return parse_options(argc, argv, NULL, usage);
	for (i = 0; i < n; i++)
		if (!strcmp(names[i], name))
			return (int)i;
	k = suggest_closest(best, 3, name, names, n);
	/* with nothing close, the shorter line says all there is to say */
	if (!k)
		fprintf(stderr, "error: unknown subcommand '%s'\n", name);
	else
		fprintf(stderr, "error: '%s' is not a subcommand of '%s'", name,
			argv[0]);
	for (i = 0; i < k; i++)
		fprintf(stderr, "%s'%s'", i ? ", " : "; did you mean ",
			best[i]);
	if (k)
		fputs("?\n", stderr);
	usage_print(usage, NULL, 1);
	return PARSE_OPTIONS_EXIT;
}
