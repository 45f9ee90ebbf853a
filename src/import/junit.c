/* JUnit XML as Maven Surefire writes it (TEST-<class>.xml, one suite per
 * file, or a <testsuites> of several): per test class, the tests that
 * passed, failed, errored, were skipped, and passed only on a rerun. */
#include <stdlib.h>
#include <string.h>

#include "import/junit.h"
#include "import/textscan.h"
#include "import/xml.h"
#include "util/xalloc.h"

enum { J_PASSED, J_FAILED, J_ERRORED, J_SKIPPED, J_FLAKY, J_NR };

static const struct {
	const char *metric;
	int better;
} outcomes[J_NR] = {
	{"tests.passed", IMPORT_BETTER_HIGHER},
	{"tests.failed", IMPORT_BETTER_LOWER},
	{"tests.errored", IMPORT_BETTER_LOWER},
	{"tests.skipped", IMPORT_BETTER_UNKNOWN},
	{"tests.flaky", IMPORT_BETTER_LOWER},
};

struct jstate {
	struct textscan_names names; /* the classes */
	double (*n)[J_NR];	     /* their counts */
	size_t alloc;
	struct strvec suites; /* @name of the open <testsuite>s */
	int case_depth;	      /* reader depth inside the open <testcase>,
			       * 0 when none is open */
	size_t case_cls;
	int has_failure, has_error, has_skipped, has_flaky;
};

static size_t class_index(struct jstate *st, const char *name)
{
	size_t i = textscan_name(&st->names, name, strlen(name));

	if (i < st->alloc)
		return i;
	/* new: names are added one at a time */
	st->alloc = st->alloc ? 2 * st->alloc : 64;
	st->n = xrealloc(st->n, st->alloc * sizeof(*st->n));
	memset(st->n + i, 0, (st->alloc - i) * sizeof(*st->n));
	return i;
}

/* Surefire's verdict for one <testcase>: an <error> or <failure> child is
 * the final outcome (its <rerun*> siblings are the failed reruns); only
 * <flaky*> children mean it failed first and passed on a rerun, which
 * counts as passed and as flaky. */
static void tally(struct jstate *st)
{
	double *n = st->n[st->case_cls];

	if (st->has_error)
		n[J_ERRORED]++;
	else if (st->has_failure)
		n[J_FAILED]++;
	else if (st->has_skipped)
		n[J_SKIPPED]++;
	else {
		n[J_PASSED]++;
		if (st->has_flaky)
			n[J_FLAKY]++;
	}
}

/* The outcome some writers put in a status attribute rather than in a
 * child: ctest writes status="disabled" with no child for a DISABLED test
 * (which its summary leaves out of the count of tests run), "notrun" with
 * a <skipped/> child, "fail" with a <failure/> child, "run" for a pass. A
 * test that did not run is skipped, never passed. */
static void case_status(struct jstate *st, const char *status)
{
	static const char *const not_run[] = {"disabled", "notrun", "skipped",
					      "ignored", NULL};
	size_t i;

	if (!status)
		return;
	for (i = 0; not_run[i]; i++)
		if (!strcmp(status, not_run[i]))
			st->has_skipped = 1;
	if (!strcmp(status, "fail") || !strcmp(status, "failed") ||
	    !strcmp(status, "failure"))
		st->has_failure = 1;
	else if (!strcmp(status, "error"))
		st->has_error = 1;
}

static int open_testcase(struct jstate *st, struct xml_reader *x,
			 struct error *err)
{
	const char *cls = xml_attr(x, "classname");

	if (!st->suites.nr)
		return error_set(err, GCAMP_EFATAL,
				 "%s:%zu: expected <testcase> inside "
				 "<testsuite>",
				 textscan_path(x->path), x->ev_line);
	if (st->case_depth)
		return error_set(err, GCAMP_EFATAL,
				 "%s:%zu: expected </testcase> before another "
				 "<testcase>",
				 textscan_path(x->path), x->ev_line);
	/* older writers leave classname out: the suite is the class */
	if (!cls || !*cls)
		cls = st->suites.v[st->suites.nr - 1];
	if (!*cls)
		return error_set(err, GCAMP_EFATAL,
				 "%s:%zu: expected a classname attribute on "
				 "<testcase> (or a name on its <testsuite>)",
				 textscan_path(x->path), x->ev_line);
	st->case_cls = class_index(st, cls);
	st->case_depth = x->depth;
	st->has_failure = st->has_error = 0;
	st->has_skipped = st->has_flaky = 0;
	case_status(st, xml_attr(x, "status"));
	return 0;
}

static void testcase_child(struct jstate *st, const char *name)
{
	if (!strcmp(name, "failure"))
		st->has_failure = 1;
	else if (!strcmp(name, "error"))
		st->has_error = 1;
	else if (!strcmp(name, "skipped"))
		st->has_skipped = 1;
	else if (!strcmp(name, "flakyFailure") || !strcmp(name, "flakyError"))
		st->has_flaky = 1;
	/* rerunFailure, rerunError, system-out, ...: no verdict of their own */
}

static void suite_pop(struct strvec *sv)
{
	free(sv->v[--sv->nr]);
	sv->v[sv->nr] = NULL;
}

static int read_events(struct jstate *st, struct xml_reader *x,
		       struct error *err)
{
	int ev;

	while ((ev = xml_next(x, err)) > 0) {
		const char *name = x->name;

		if (ev == XML_END) {
			if (st->case_depth && x->depth == st->case_depth - 1) {
				tally(st);
				st->case_depth = 0;
			} else if (!strcmp(name, "testsuite") &&
				   !st->case_depth) {
				suite_pop(&st->suites);
			}
			continue;
		}
		if (x->depth == 1 && strcmp(name, "testsuite") &&
		    strcmp(name, "testsuites"))
			return error_set(err, GCAMP_EFATAL,
					 "%s:%zu: expected <testsuite> or "
					 "<testsuites>, found <%.64s>",
					 textscan_path(x->path), x->ev_line,
					 name);
		if (st->case_depth) {
			if (x->depth == st->case_depth + 1)
				testcase_child(st, name);
			else if (!strcmp(name, "testcase"))
				return open_testcase(st, x, err);
		} else if (!strcmp(name, "testsuite")) {
			const char *sname = xml_attr(x, "name");

			strvec_push(&st->suites, sname ? sname : "");
		} else if (!strcmp(name, "testcase")) {
			if (open_testcase(st, x, err) < 0)
				return GCAMP_EFATAL;
		}
	}
	return ev;
}

/* Adds the counts to out, to the records an earlier file of the same
 * directory made for the same class when there are some. */
static void emit(struct import_set *out, struct jstate *st, size_t first)
{
	/* the earlier files' records by "METRIC class=CLASS", to their
	 * index in out: one look-up per class and outcome, not a scan */
	struct textscan_names seen = TEXTSCAN_NAMES_INIT;
	struct buf key = BUF_INIT;
	size_t *at = NULL, i, j, k, n;

	if (out->nr > first)
		at = xcalloc(out->nr - first, sizeof(*at));
	for (k = first; k < out->nr; k++) {
		const struct import_rec *o = &out->recs[k];

		if (o->config.nr != 1)
			continue;
		buf_reset(&key);
		buf_addf(&key, "%s %s", o->metric, o->config.v[0]);
		i = textscan_name(&seen, key.ptr, key.len);
		if (i == seen.nr - 1 && !at[i])
			at[i] = k + 1;
	}
	n = seen.nr; /* keys added below are new records' */
	for (i = 0; i < st->names.nr; i++) {
		for (j = 0; j < J_NR; j++) {
			struct import_rec *r;

			if (n) {
				buf_reset(&key);
				buf_addf(&key, "%s class=%s",
					 outcomes[j].metric, st->names.v[i]);
				k = textscan_name(&seen, key.ptr, key.len);
				if (k < n) {
					out->recs[at[k] - 1].value +=
						st->n[i][j];
					continue;
				}
			}
			r = import_add(out, outcomes[j].metric, st->n[i][j],
				       NULL);
			r->better = outcomes[j].better;
			import_rec_stat(r, "count");
			import_rec_config(r, "class", "%s", st->names.v[i]);
		}
	}
	free(at);
	buf_release(&key);
	textscan_names_release(&seen);
}

/* The first record of out that an earlier junit file made: records of
 * other formats are never merged with. */
static size_t junit_first(const struct import_set *out)
{
	size_t i = out->nr;

	while (i > 0 && !strncmp(out->recs[i - 1].metric, "tests.", 6))
		i--;
	return i;
}

int junit_parse(struct import_set *out, const char *data, size_t len,
		const char *path, struct error *err)
{
	struct jstate st;
	struct xml_reader x;
	int rc;

	memset(&st, 0, sizeof(st));
	xml_reader_init(&x, data, len, path);
	rc = read_events(&st, &x, err);
	if (rc < 0)
		goto out;
	emit(out, &st, junit_first(out));
	rc = 0;
out:
	textscan_names_release(&st.names);
	free(st.n);
	strvec_clear(&st.suites);
	xml_reader_release(&x);
	return rc;
}

static const char *find3(const char *s, size_t n, const char *pat)
{
	size_t i;

	for (i = 0; i + 3 <= n; i++)
		if (!memcmp(s + i, pat, 3))
			return s + i + 2;
	return NULL;
}

int junit_detect(const char *data, size_t len)
{
	size_t i = 0;

	if (len >= 3 && !memcmp(data, "\xef\xbb\xbf", 3))
		i = 3;
	/* the prolog: white space, <?xml ...?>, comments, a DOCTYPE */
	while (i < len) {
		const char *end;

		if (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' ||
		    data[i] == '\r') {
			i++;
			continue;
		}
		if (len - i >= 4 && !memcmp(data + i, "<!--", 4))
			end = find3(data + i, len - i, "-->");
		else if (len - i >= 2 && (!memcmp(data + i, "<?", 2) ||
					  !memcmp(data + i, "<!", 2)))
			end = memchr(data + i, '>', len - i);
		else
			break;
		if (!end)
			return 0;
		i = (size_t)(end - data) + 1;
	}
	if (len - i < 11 || memcmp(data + i, "<testsuite", 10))
		return 0;
	return data[i + 10] && strchr(" \t\r\n>/s", data[i + 10]);
}
