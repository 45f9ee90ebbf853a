/* tornado-test -V output: per test class, the tests that passed, failed and
 * were unsupported on this device, and how many failures the driver's
 * whitelist excuses. Without -V there are no per-test lines, and the
 * output is refused rather than read as "no failures". */
#include <stdlib.h>
#include <string.h>

#include "import/tornado_test.h"
#include "import/textscan.h"
#include "util/xalloc.h"

enum { T_PASSED, T_FAILED, T_UNSUPPORTED, T_WHITELISTED, T_NR };

static const struct {
	const char *metric;
	int better;
} tcounts[T_NR] = {
	{"tests.passed", IMPORT_BETTER_HIGHER},
	{"tests.failed", IMPORT_BETTER_LOWER},
	{"tests.unsupported", IMPORT_BETTER_UNKNOWN},
	{"tests.whitelisted", IMPORT_BETTER_UNKNOWN},
};

struct tstate {
	struct textscan_names names; /* the classes */
	double (*n)[T_NR];	     /* their counts */
	size_t alloc;
	const char *path;
	size_t lineno;
	/* the open block: "Test: class" seen, "Test ran:" not yet */
	int open;
	size_t block_cls, block_line;
	long block[3];
	/* the driver's FAILED TESTS list: 0 none, 1 its title seen, 2 inside
	 * it (after the '=====' under the title), 3 closed by '=====' */
	int summary;
	size_t summary_line;
};

/* "=====...": the rules tornado-test draws around its summary lists. */
static int is_rule(const char *s)
{
	size_t n = strspn(s, "=");

	return n >= 10 && !s[n + strspn(s + n, " \t")];
}

static size_t tclass_index(struct tstate *st, const char *name, size_t len)
{
	size_t i = textscan_name(&st->names, name, len);

	if (i < st->alloc)
		return i;
	/* new: names are added one at a time */
	st->alloc = st->alloc ? 2 * st->alloc : 64;
	st->n = xrealloc(st->n, st->alloc * sizeof(*st->n));
	memset(st->n + i, 0, (st->alloc - i) * sizeof(*st->n));
	return i;
}

static int bad(struct tstate *st, struct error *err, const char *what)
{
	return error_set(err, GCAMP_EFATAL, "%s:%zu: expected %s",
			 textscan_path(st->path), st->lineno, what);
}

/* The class in "uk.x.TestY#method" or "\"uk.x.TestY#m\"": up to '#'. */
static size_t class_len(const char *s)
{
	size_t n = 0;

	while (s[n] && s[n] != '#' && s[n] != '"' && s[n] != ' ' &&
	       s[n] != '\t')
		n++;
	return n;
}

static int block_start(struct tstate *st, const char *name, struct error *err)
{
	size_t n = class_len(name);

	if (st->open)
		return error_set(err, GCAMP_EFATAL,
				 "%s:%zu: expected 'Test ran: ...' to end "
				 "the tests of class '%s' (line %zu) before "
				 "the next class",
				 textscan_path(st->path), st->lineno,
				 st->names.v[st->block_cls], st->block_line);
	if (!n)
		return bad(st, err, "a class name after 'Test: class'");
	st->open = 1;
	st->block_cls = tclass_index(st, name, n);
	st->block_line = st->lineno;
	memset(st->block, 0, sizeof(st->block));
	return 0;
}

/* "\tRunning test: NAME ........ [STATUS] ": classified as the Java
 * runner counts it in its "Test ran:" line, which is checked below. */
static int running_test(struct tstate *st, const char *line, struct error *err)
{
	const char *dots = strstr(line, "....");
	const char *open, *close;
	size_t n;

	if (!st->open)
		return bad(st, err,
			   "a 'Test: class' line before "
			   "'Running test:'");
	open = dots ? strchr(dots, '[') : NULL;
	close = open ? strrchr(open, ']') : NULL;
	if (!close)
		return bad(st, err,
			   "a status such as '[PASS]' after the "
			   "dots of 'Running test:'");
	open++;
	n = (size_t)(close - open);
	if (n == 4 && !memcmp(open, "PASS", 4)) {
		st->block[T_PASSED]++;
	} else if (n == 6 && !memcmp(open, "FAILED", 6)) {
		st->block[T_FAILED]++;
	} else {
		char *status = xstrndup(open, n);

		if (strstr(status, "UNSUPPORTED"))
			st->block[T_UNSUPPORTED]++;
		else if (strstr(status, "NOT SUPPORTED"))
			/* [SPIRV OPTIMIZATION NOT SUPPORTED]: failed, to
			 * the Java runner */
			st->block[T_FAILED]++;
		else
			n = 0;
		free(status);
		if (!n)
			return bad(st, err,
				   "a status '[PASS]', '[FAILED]' "
				   "or '[... UNSUPPORTED ...]'");
	}
	return 0;
}

static int read_long(const char **s, long *out)
{
	char *end;

	if (**s < '0' || **s > '9')
		return -1;
	*out = strtol(*s, &end, 10);
	if (*out < 0 || *out > 100000000)
		return -1;
	*s = end;
	return 0;
}

static int test_ran(struct tstate *st, const char *s, struct error *err)
{
	long ran, failed, unsup;
	double *n;

	if (read_long(&s, &ran) < 0 || !(s = textscan_skip(s, ", Failed: ")) ||
	    read_long(&s, &failed) < 0)
		return bad(st, err, "'Test ran: N, Failed: N, Unsupported: N'");
	if (!*s || *s == ' ' || *s == '\t') {
		error_set(err, GCAMP_EFATAL,
			  "%s:%zu: expected per-test lines ('Running test: "
			  "...'): this is tornado-test output without -V",
			  textscan_path(st->path), st->lineno);
		error_hint(err, "rerun tornado-test with -V (--verbose): "
				"without it the runner prints no per-test "
				"lines, and tornado-test exits 0 even when "
				"tests fail");
		return GCAMP_EFATAL;
	}
	if (!(s = textscan_skip(s, ", Unsupported: ")) ||
	    read_long(&s, &unsup) < 0)
		return bad(st, err, "'Test ran: N, Failed: N, Unsupported: N'");
	if (!st->open)
		return bad(st, err, "a 'Test: class' line before 'Test ran:'");
	if (ran != st->block[0] + st->block[1] + st->block[2] ||
	    failed != st->block[T_FAILED] || unsup != st->block[T_UNSUPPORTED])
		return error_set(err, GCAMP_EFATAL,
				 "%s:%zu: expected 'Test ran: %ld, Failed: "
				 "%ld, Unsupported: %ld' after the test lines "
				 "of class '%s'",
				 textscan_path(st->path), st->lineno,
				 st->block[0] + st->block[1] + st->block[2],
				 st->block[T_FAILED], st->block[T_UNSUPPORTED],
				 st->names.v[st->block_cls]);
	n = st->n[st->block_cls];
	n[T_PASSED] += (double)st->block[T_PASSED];
	n[T_FAILED] += (double)st->block[T_FAILED];
	n[T_UNSUPPORTED] += (double)st->block[T_UNSUPPORTED];
	st->open = 0;
	return 0;
}

/* "uk.x.TestIf#test06 - [WHITELISTED]: YES" from the driver's summary. */
static int whitelisted(struct tstate *st, const char *s, const char *mark,
		       struct error *err)
{
	const char *verdict = mark + strlen(" - [WHITELISTED]: ");
	size_t n = class_len(s);

	if (!n || s + n > mark)
		return bad(st, err, "'CLASS#METHOD - [WHITELISTED]: YES|NO'");
	if (!strcmp(verdict, "YES")) {
		size_t i = tclass_index(st, s, n);

		st->n[i][T_WHITELISTED]++;
	} else if (strcmp(verdict, "NO"))
		return bad(st, err, "YES or NO after '[WHITELISTED]:'");
	return 0;
}

static int read_line(struct tstate *st, const char *line, struct error *err)
{
	const char *s = line, *p;
	size_t i;

	while (*s == ' ' || *s == '\t')
		s++;
	/* the driver's out-of-memory monitor killed the JVM:
	 * "[FAILED] Test: class \"uk.x.TestY#method\"" */
	if ((p = strstr(s, "[FAILED] Test: class "))) {
		p += strlen("[FAILED] Test: class ");
		if (*p == '"')
			p++;
		if (!class_len(p))
			return bad(st, err,
				   "a class name after "
				   "'[FAILED] Test: class'");
		/* the index first: tclass_index may move st->n */
		i = tclass_index(st, p, class_len(p));
		st->n[i][T_FAILED]++;
		return 0;
	}
	if ((p = textscan_skip(s, "Test: class ")))
		return block_start(st, p, err);
	if ((p = textscan_skip(s, "Running test:")))
		return running_test(st, p, err);
	if ((p = textscan_skip(s, "Test ran: ")))
		return test_ran(st, p, err);
	if (!strcmp(s, "FAILED TESTS")) {
		st->summary = 1;
		st->summary_line = st->lineno;
		return 0;
	}
	if ((st->summary == 1 || st->summary == 2) && is_rule(s)) {
		st->summary++;
		return 0;
	}
	if (st->summary == 2 && (p = strstr(s, " - [WHITELISTED]: ")))
		return whitelisted(st, s, p, err);
	return 0;
}

int tornado_test_parse(struct import_set *out, const char *data, size_t len,
		       const char *path, struct error *err)
{
	struct tstate st;
	struct textscan ts;
	size_t i, j;
	int rc = 0;

	memset(&st, 0, sizeof(st));
	st.path = path;
	textscan_init(&ts, data, len);
	while (textscan_next(&ts)) {
		st.lineno = ts.lineno;
		if ((rc = read_line(&st, ts.line.ptr, err)) < 0)
			goto out;
	}
	st.lineno = textscan_eof_line(&ts);
	if (st.open) {
		rc = error_set(err, GCAMP_EFATAL,
			       "%s:%zu: expected 'Test ran: ...' to end the "
			       "tests of class '%s' (line %zu), found the "
			       "end of the file",
			       textscan_path(path), st.lineno,
			       st.names.v[st.block_cls], st.block_line);
		goto out;
	}
	/* tornado-test always closes the list with a rule: without it the
	 * output was cut inside the list, and its counts would be low */
	if (st.summary == 1 || st.summary == 2) {
		rc = error_set(err, GCAMP_EFATAL,
			       "%s:%zu: expected a '=====' line to close the "
			       "FAILED TESTS list (line %zu), found the end "
			       "of the file",
			       textscan_path(path), st.lineno, st.summary_line);
		goto out;
	}
	if (!st.names.nr) {
		rc = bad(&st, err,
			 "'Test: class' lines of tornado-test -V "
			 "output, found none");
		goto out;
	}
	for (i = 0; i < st.names.nr; i++)
		for (j = 0; j < T_NR; j++) {
			struct import_rec *r;

			if (j == T_WHITELISTED && !st.summary)
				continue;
			r = import_add(out, tcounts[j].metric, st.n[i][j],
				       NULL);
			r->better = tcounts[j].better;
			import_rec_stat(r, "count");
			import_rec_config(r, "class", "%s", st.names.v[i]);
		}
out:
	textscan_names_release(&st.names);
	free(st.n);
	textscan_release(&ts);
	return rc;
}

int tornado_test_detect(const char *data, size_t len)
{
	struct textscan ts;
	int found = 0;

	textscan_init(&ts, data, len);
	while (!found && textscan_next(&ts)) {
		const char *s = ts.line.ptr;

		while (*s == ' ' || *s == '\t')
			s++;
		found = textscan_skip(s, "Test: class ") ||
			textscan_skip(s, "Running test: ") ||
			(textscan_skip(s, "Test ran: ") &&
			 strstr(s, ", Failed: ")) ||
			strstr(s, "unittests.tools.TornadoTestRunner");
	}
	textscan_release(&ts);
	return found;
}
