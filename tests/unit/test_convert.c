/* Unit tests for src/core/measure/convert.c: a binary JFR recording goes
 * through a stand-in `jfr` program on PATH, and import/ runs no program. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/measure/convert.h"
#include "import/formats.h"
#include "util/buf.h"
#include "util/xalloc.h"

#define EXEC "event=jdk.ExecutionSample"

static char *fixture(const char *name)
{
	const char *src = getenv("SRC_DIR");

	return xasprintf("%s/tests/fixtures/jfr/%s", src ? src : ".", name);
}

static void slurp(struct buf *b, const char *path)
{
	char chunk[4096];
	size_t n;
	FILE *f = fopen(path, "rb");

	assert_non_null(f);
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		buf_add(b, chunk, n);
	fclose(f);
}

static void spit(const char *path, const char *data, size_t len, int mode)
{
	FILE *f = fopen(path, "wb");

	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	fclose(f);
	assert_int_equal(chmod(path, (mode_t)mode), 0);
}

static int has_config(const struct import_rec *r, const char *kv)
{
	size_t i;

	for (i = 0; i < r->config.nr; i++)
		if (!strcmp(r->config.v[i], kv))
			return 1;
	return 0;
}

/* The record of metric whose config is exactly c1 (and c2 when given). */
static const struct import_rec *find(const struct import_set *s,
				     const char *metric, const char *c1,
				     const char *c2)
{
	size_t i;

	for (i = 0; i < s->nr; i++) {
		const struct import_rec *r = &s->recs[i];

		if (strcmp(r->metric, metric) || !has_config(r, c1) ||
		    (c2 && !has_config(r, c2)) ||
		    r->config.nr != (c2 ? 2u : 1u))
			continue;
		return r;
	}
	return NULL;
}

/* A world for the binary path: a temp dir with a stand-in `jfr` and a
 * recording that starts with jfr's magic. */
struct world {
	char dir[64];
	char *bin, *rec, *args, *json, *old_path;
};

static void world_make(struct world *w, const char *script)
{
	char *jfr;

	strcpy(w->dir, "/tmp/gcamp-jfr-XXXXXX");
	assert_non_null(mkdtemp(w->dir));
	w->bin = xasprintf("%s/bin", w->dir);
	assert_int_equal(mkdir(w->bin, 0755), 0);
	w->rec = xasprintf("%s/rec.jfr", w->dir);
	w->args = xasprintf("%s/args", w->dir);
	spit(w->rec, "FLR\0\0\2\0\1garbage", 15, 0644);
	w->old_path = xstrdup(getenv("PATH"));
	if (script) {
		jfr = xasprintf("%s/jfr", w->bin);
		spit(jfr, script, strlen(script), 0755);
		free(jfr);
	}
	setenv("PATH", w->bin, 1);
	setenv("JFR_ARGS", w->args, 1);
	w->json = fixture("hot-jdk17-execution-samples.json");
	setenv("JFR_JSON", w->json, 1);
}

static void world_drop(struct world *w)
{
	char *cmd = xasprintf("/bin/rm -rf '%s'", w->dir);

	setenv("PATH", w->old_path, 1);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	free(w->bin);
	free(w->rec);
	free(w->args);
	free(w->json);
	free(w->old_path);
}

static void binary_recording_runs_jfr_with_stack_depth(void **state)
{
	struct import_set s = IMPORT_SET_INIT;
	struct error err = ERROR_INIT;
	struct world w;
	struct buf args = BUF_INIT;
	char *want;

	(void)state;
	world_make(&w, "#!/bin/sh\n"
		       "for a in \"$@\"; do echo \"$a\"; done > \"$JFR_ARGS\"\n"
		       "exec /bin/cat \"$JFR_JSON\"\n");
	assert_int_equal(convert_import_path(&s, NULL, w.rec, &err), 0);
	assert_string_equal(s.format, "jfr");
	assert_true(find(&s, "jfr.samples", EXEC, NULL)->value == 255);
	assert_true(find(&s, "jfr.samples", EXEC, "method=Hot.slowPath(int)")
			    ->value == 243);
	slurp(&args, w.args);
	want = xasprintf("print\n--json\n--stack-depth\n1\n--events\n"
			 "jdk.ExecutionSample,jdk.NativeMethodSample\n%s\n",
			 w.rec);
	assert_string_equal(args.ptr, want);
	free(want);
	buf_release(&args);
	import_set_release(&s);
	world_drop(&w);
}

static void binary_recording_errors(void **state)
{
	struct import_set s = IMPORT_SET_INIT;
	struct error err = ERROR_INIT;
	struct world w;
	struct buf data = BUF_INIT;

	(void)state;
	/* jfr refuses the file: its first stderr line is the reason */
	world_make(&w, "#!/bin/sh\necho '{\"rec'\n"
		       "echo 'jfr print: could not read recording at x. Not "
		       "a complete Chunk header' >&2\necho more >&2\nexit 1\n");
	assert_int_equal(convert_import_path(&s, NULL, w.rec, &err),
			 GCAMP_EFATAL);
	assert_non_null(strstr(err.msg, "jfr print failed on '"));
	assert_non_null(strstr(err.msg, "(exit 1): jfr print: could not read "
					"recording at x. Not a complete Chunk "
					"header"));
	assert_null(strchr(err.msg, '\n'));
	assert_int_equal(s.nr, 0);
	world_drop(&w);

	/* jfr prints JSON that is cut short: the line is in its output */
	error_clear(&err);
	world_make(&w, "#!/bin/sh\nprintf '{\\n\"recording\": {'\n");
	assert_int_equal(convert_import_path(&s, NULL, w.rec, &err),
			 GCAMP_EFATAL);
	assert_non_null(strstr(err.msg, "rec.jfr (jfr print):2: expected"));
	world_drop(&w);

	/* no jfr on PATH */
	error_clear(&err);
	world_make(&w, NULL);
	assert_int_equal(convert_import_path(&s, NULL, w.rec, &err),
			 GCAMP_EFATAL);
	assert_non_null(strstr(err.msg, "no 'jfr' program on PATH"));
	assert_non_null(strstr(err.hint, "--stack-depth"));
	assert_int_equal(s.nr, 0);

	/* a recording cannot come from stdin */
	error_clear(&err);
	slurp(&data, w.rec);
	assert_int_equal(import_data(&s, NULL, data.ptr, data.len, "-", &err),
			 GCAMP_EFATAL);
	assert_string_equal(err.msg,
			    "cannot read a binary JFR recording from stdin");
	world_drop(&w);
	buf_release(&data);
	import_set_release(&s);
}

/* import_path itself runs no program on a recording: only the converter
 * does, so the importers stay parsers over bytes. */
static void importer_runs_no_program_on_a_recording(void **state)
{
	struct import_set s = IMPORT_SET_INIT;
	struct error err = ERROR_INIT;
	struct world w;

	(void)state;
	world_make(&w, "#!/bin/sh\n: > \"$JFR_ARGS\"\n"
		       "exec /bin/cat \"$JFR_JSON\"\n");
	assert_int_equal(import_path(&s, NULL, w.rec, &err), GCAMP_EFATAL);
	assert_non_null(strstr(err.msg, "without jfr print"));
	assert_int_equal(access(w.args, F_OK), -1);
	assert_int_equal(s.nr, 0);
	import_set_release(&s);
	/* the converter runs it, and other input passes through unchanged */
	error_clear(&err);
	assert_int_equal(convert_import_path(&s, NULL, w.rec, &err), 0);
	assert_int_equal(access(w.args, F_OK), 0);
	import_set_release(&s);
	assert_int_equal(convert_import_path(&s, NULL, w.json, &err), 0);
	assert_string_equal(s.format, "jfr");
	assert_true(find(&s, "jfr.samples", EXEC, NULL)->value == 255);
	import_set_release(&s);
	world_drop(&w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(binary_recording_runs_jfr_with_stack_depth),
		cmocka_unit_test(binary_recording_errors),
		cmocka_unit_test(importer_runs_no_program_on_a_recording),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
