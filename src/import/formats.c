/* The format table: reading the input, detecting its format, handing it
 * to the format's parser. */
#include "import/formats.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "import/benchmark_runner.h"
#include "import/hyperfine.h"
#include "import/input.h"
#include "import/jfr.h"
#include "import/junit.h"
#include "import/llm.h"
#include "import/ncu.h"
#include "import/nsys.h"
#include "import/tornado_test.h"
#include "util/buf.h"
#include "util/xalloc.h"

/* Detectors see at most this much of the input. */
#define IMPORT_DETECT_BYTES ((size_t)64 << 10)

const struct import_format import_formats[] = {
	{"ncu", "Nsight Compute: ncu --csv (details or raw page), or its text",
	 NULL, ncu_detect, ncu_parse},
	{"nsys", "Nsight Systems: nsys stats --format csv summary reports",
	 NULL, nsys_detect, nsys_parse},
	{"jfr",
	 "JFR method samples: jfr print --json, jfr view hot-methods, .jfr",
	 NULL, jfr_detect, jfr_parse},
	{"hyperfine", "hyperfine --export-json results (times in ns)", NULL,
	 hyperfine_detect, hyperfine_parse},
	{"junit", "JUnit/Surefire XML, a file or a directory of TEST-*.xml",
	 "TEST-*.xml", junit_detect, junit_parse},
	{"tornado-test", "tornado-test -V output", NULL, tornado_test_detect,
	 tornado_test_parse},
	{"benchmark-runner",
	 "TornadoVM BenchmarkRunner 'Performance: bm=' lines", NULL,
	 benchmark_runner_detect, benchmark_runner_parse},
	{"llm", "jitllm/GPULlama3 metrics JSON and --bench json/jsonl", NULL,
	 llm_detect, llm_parse},
	{NULL, NULL, NULL, NULL, NULL},
};

const struct import_format *import_format_find(const char *name)
{
	const struct import_format *f;

	for (f = import_formats; f->name; f++)
		if (!strcmp(f->name, name))
			return f;
	return NULL;
}

/* Whether f is one of only (NULL: every format is). */
static int among(const struct import_format *f, const char *const *only)
{
	if (!only)
		return 1;
	for (; *only; only++)
		if (!strcmp(*only, f->name))
			return 1;
	return 0;
}

/* Whether data opens as XML: the document's root then decides its
 * format, whatever its text holds (program output captured in a JUnit
 * <system-out> may hold ncu's ==PROF== lines). */
static int opens_as_xml(const char *data, size_t len)
{
	size_t i = 0;

	if (len >= 3 && !memcmp(data, "\xef\xbb\xbf", 3))
		i = 3;
	while (i < len && strchr(" \t\r\n", data[i]) && data[i])
		i++;
	return i < len && data[i] == '<';
}

/* Formats read line by line, whose lines may come after any amount of
 * other output (a build log before the benchmark): their detectors may
 * scan the whole input when the first window matched nothing. */
static int line_format(const struct import_format *f)
{
	return !strcmp(f->name, "tornado-test") ||
	       !strcmp(f->name, "benchmark-runner") ||
	       !strcmp(f->name, "nsys") || !strcmp(f->name, "ncu");
}

const struct import_format *import_detect_among(const char *data, size_t len,
						const char *const *only)
{
	const struct import_format *f;
	size_t head = len > IMPORT_DETECT_BYTES ? IMPORT_DETECT_BYTES : len;

	if (opens_as_xml(data, head)) {
		for (f = import_formats; f->name; f++)
			if (!strcmp(f->name, "junit") && among(f, only) &&
			    f->detect(data, head))
				return f;
		return NULL;
	}
	for (f = import_formats; f->name; f++)
		if (among(f, only) && f->detect(data, head))
			return f;
	if (head < len)
		for (f = import_formats; f->name; f++)
			if (among(f, only) && line_format(f) &&
			    f->detect(data, len))
				return f;
	return NULL;
}

const struct import_format *import_detect(const char *data, size_t len)
{
	return import_detect_among(data, len, NULL);
}

/* "a, b or c": the names of the formats of only. */
static void format_names(struct buf *out, const char *const *only)
{
	const struct import_format *f;
	size_t n = 0, i = 0;

	for (f = import_formats; f->name; f++)
		n += among(f, only);
	for (f = import_formats; f->name; f++)
		if (among(f, only)) {
			i++;
			buf_addf(out, "%s%s",
				 i == 1	  ? ""
				 : i == n ? " or "
					  : ", ",
				 f->name);
		}
}

static const char *display_name(const char *path)
{
	return strcmp(path, "-") ? path : "stdin";
}

static int read_fd(struct buf *out, int fd, const char *path, struct error *err)
{
	char chunk[65536];
	ssize_t n;

	for (;;) {
		n = read(fd, chunk, sizeof(chunk));
		if (n == 0)
			return 0;
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return error_set(err, GCAMP_EFATAL,
					 "cannot read '%s': %s",
					 display_name(path), strerror(errno));
		}
		if (out->len + (size_t)n > IMPORT_MAX_BYTES)
			return error_set(
				err, GCAMP_EFATAL,
				"cannot read '%s': larger than %zu MiB",
				display_name(path), IMPORT_MAX_BYTES >> 20);
		buf_add(out, chunk, (size_t)n);
	}
}

int import_read_file(struct buf *out, const char *path, struct error *err)
{
	int fd, rc;

	if (!strcmp(path, "-"))
		return read_fd(out, 0, path, err);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return error_set(err, GCAMP_EFATAL, "cannot open '%s': %s",
				 path, strerror(errno));
	rc = read_fd(out, fd, path, err);
	close(fd);
	return rc;
}

int import_data(struct import_set *out, const struct import_format *fmt,
		const char *data, size_t len, const char *path,
		struct error *err)
{
	return import_data_among(out, fmt, NULL, data, len, path, err);
}

int import_data_among(struct import_set *out, const struct import_format *fmt,
		      const char *const *only, const char *data, size_t len,
		      const char *path, struct error *err)
{
	int rc;

	if (!fmt) {
		fmt = import_detect_among(data, len, only);
		if (!fmt) {
			struct buf names = BUF_INIT;

			format_names(&names, only);
			error_set(err, GCAMP_EFATAL,
				  "cannot tell the format of '%s'",
				  display_name(path));
			error_hint(err, "name it with --format %s", names.ptr);
			buf_release(&names);
			return GCAMP_EFATAL;
		}
	}
	rc = fmt->parse(out, data, len, path, err);
	if (rc < 0)
		return rc;
	out->format = fmt->name;
	return 0;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The one format of only that reads directories, or NULL when none or
 * several do. */
static const struct import_format *dir_format(const char *const *only)
{
	const struct import_format *f, *found = NULL;

	for (f = import_formats; f->name; f++)
		if (f->dir_pattern && among(f, only)) {
			if (found)
				return NULL;
			found = f;
		}
	return found;
}

static int import_dir(struct import_set *out, const struct import_format *fmt,
		      const char *const *only, const char *path,
		      struct error *err)
{
	struct strvec names = STRVEC_INIT;
	struct dirent *de;
	DIR *dir;
	size_t i;
	int rc = 0;

	/* a directory is read by the one format that reads them */
	if (!fmt)
		fmt = dir_format(only);
	if (!fmt || !fmt->dir_pattern) {
		if (fmt)
			return error_set(err, GCAMP_EFATAL,
					 "'%s' is a directory; %s reads files",
					 path, fmt->name);
		error_set(err, GCAMP_EFATAL,
			  "'%s' is a directory: name its format", path);
		error_hint(err, "directories of TEST-*.xml files are read "
				"with --format junit");
		return GCAMP_EFATAL;
	}
	dir = opendir(path);
	if (!dir)
		return error_set(err, GCAMP_EFATAL, "cannot open '%s': %s",
				 path, strerror(errno));
	while ((de = readdir(dir)))
		if (!fnmatch(fmt->dir_pattern, de->d_name, 0))
			strvec_push(&names, de->d_name);
	closedir(dir);
	if (!names.nr) {
		rc = error_set(err, GCAMP_EFATAL, "no %s files in '%s'",
			       fmt->dir_pattern, path);
		goto out;
	}
	qsort(names.v, names.nr, sizeof(*names.v), cmp_names);
	for (i = 0; i < names.nr; i++) {
		char *file = xasprintf("%s/%s", path, names.v[i]);
		struct import_input in = IMPORT_INPUT_INIT;

		rc = import_input_open(&in, file, err);
		if (!rc)
			rc = import_data(out, fmt, in.data, in.len, file, err);
		import_input_release(&in);
		free(file);
		if (rc < 0)
			goto out;
	}
out:
	strvec_clear(&names);
	return rc;
}

int import_path(struct import_set *out, const struct import_format *fmt,
		const char *path, struct error *err)
{
	return import_path_among(out, fmt, NULL, path, err);
}

int import_path_among(struct import_set *out, const struct import_format *fmt,
		      const char *const *only, const char *path,
		      struct error *err)
{
	struct import_input in = IMPORT_INPUT_INIT;
	struct stat st;
	int rc;

	if (strcmp(path, "-") && !stat(path, &st) && S_ISDIR(st.st_mode))
		return import_dir(out, fmt, only, path, err);
	rc = import_input_open(&in, path, err);
	if (!rc)
		rc = import_data_among(out, fmt, only, in.data, in.len, path,
				       err);
	import_input_release(&in);
	return rc;
}
