/* Converting what importers cannot read as it is: a binary JFR recording
 * runs through `jfr print --json`, and the importer gets its output; a
 * per-launch trace is summarised and the input kept outside the
 * repository. */
#include "core/measure/convert.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "import/input.h"
#include "import/jfr.h"
#include "import/rec.h"
#include "io/proc.h"
#include "util/buf.h"
#include "util/sha256.h"
#include "util/xalloc.h"

#define JFR_EVENTS "jdk.ExecutionSample,jdk.NativeMethodSample"
/* Only the top frame is read; jfr's default depth (5) is never relied on. */
#define JFR_STACK_DEPTH "1"
/* What `jfr print` may write before it is stopped, and what of its
 * standard error is kept for the message. */
#define JFR_MAX_OUTPUT ((size_t)256 << 20)
/* How much of a kept input is hashed or written at a time. */
#define CHUNK ((size_t)1 << 20)

/* Runs `jfr print --json` on the recording at path into out. */
static int run_jfr(struct buf *out, const char *path, struct error *err)
{
	struct proc_result r = PROC_RESULT_INIT;
	struct proc_opts po = {.stdin_null = 1, .cap = JFR_MAX_OUTPUT};
	struct buf last = BUF_INIT;
	char *arg = path[0] == '-' ? xasprintf("./%s", path) : xstrdup(path);
	const char *argv[] = {"jfr",
			      "print",
			      "--json",
			      "--stack-depth",
			      JFR_STACK_DEPTH,
			      "--events",
			      JFR_EVENTS,
			      arg,
			      NULL};
	int rc;

	if (!proc_on_path("jfr")) {
		error_set(err, GCAMP_EFATAL,
			  "cannot read the JFR recording '%s': no 'jfr' "
			  "program on PATH",
			  path);
		error_hint(err,
			   "put a JDK's bin directory on PATH (jfr comes "
			   "with JDK 11 and later), or import the output "
			   "of 'jfr print --json --stack-depth 1 "
			   "--events %s %s'",
			   JFR_EVENTS, path);
		free(arg);
		return GCAMP_EFATAL;
	}
	rc = proc_run(&r, argv, &po, err);
	if (!rc && r.out_truncated) {
		error_set(err, GCAMP_EFATAL,
			  "cannot convert '%s': jfr print wrote more than "
			  "%zu MiB",
			  path, JFR_MAX_OUTPUT >> 20);
		error_hint(err, "import a shorter recording, or filter it "
				"with jfr print --json yourself");
		rc = GCAMP_EFATAL;
	} else if (!rc && r.status) {
		/* jfr names what went wrong on its first line */
		const char *nl = strchr(r.err.ptr, '\n');

		buf_add(&last, r.err.ptr,
			nl ? (size_t)(nl - r.err.ptr) : r.err.len);
		rc = error_set(err, GCAMP_EFATAL,
			       r.signaled ? "jfr print failed on '%s' "
					    "(signal %d)%s%s"
					  : "jfr print failed on '%s' "
					    "(exit %d)%s%s",
			       path, r.signaled ? r.status - 128 : r.status,
			       last.len ? ": " : "", last.ptr);
	} else if (!rc) {
		buf_add(out, r.out.ptr, r.out.len);
	}
	buf_release(&last);
	proc_result_release(&r);
	free(arg);
	return rc;
}

int convert_import_path(struct import_set *out, const struct import_format *fmt,
			const char *path, struct error *err)
{
	return convert_import_path_among(out, fmt, NULL, path, err);
}

/* Parses data, the bytes of path, converting a JFR recording first. */
static int convert_data(struct import_set *out, const struct import_format *fmt,
			const char *const *only, const struct import_input *in,
			const char *path, struct error *err)
{
	const struct import_format *f;
	struct buf json = BUF_INIT;
	char *label = NULL;
	int rc;

	f = fmt ? fmt : import_detect_among(in->data, in->len, only);
	if (!strcmp(path, "-") || !f || strcmp(f->name, "jfr") ||
	    !jfr_is_recording(in->data, in->len))
		return import_data_among(out, fmt, only, in->data, in->len,
					 path, err);
	if ((rc = run_jfr(&json, path, err)) < 0)
		goto out;
	label = xasprintf("%s (jfr print)", path);
	rc = import_data(out, f, json.ptr, json.len, label, err);
out:
	free(label);
	buf_release(&json);
	return rc;
}

int convert_import_path_among(struct import_set *out,
			      const struct import_format *fmt,
			      const char *const *only, const char *path,
			      struct error *err)
{
	struct import_input in = IMPORT_INPUT_INIT;
	struct stat st;
	int rc;

	/* stdin cannot be handed to jfr, and directories hold no recording */
	if (!strcmp(path, "-") || (!stat(path, &st) && S_ISDIR(st.st_mode)))
		return import_path_among(out, fmt, only, path, err);
	if ((rc = import_input_open(&in, path, err)) == 0)
		rc = convert_data(out, fmt, only, &in, path, err);
	import_input_release(&in);
	return rc;
}

/* The extension the kept copy of path gets: path's own when it is 1 to 8
 * letters and digits, else "txt" */
static const char *raw_ext(const char *path)
{
	const char *dot = strrchr(path, '.'), *slash = strrchr(path, '/');
	size_t i, n;

	if (!dot || (slash && dot < slash) || dot == path || !strcmp(path, "-"))
		return "txt";
	n = strlen(dot + 1);
	if (n < 1 || n > 8)
		return "txt";
	for (i = 0; i < n; i++)
		if (!isalnum((unsigned char)dot[1 + i]))
			return "txt";
	return dot + 1;
}

/* The SHA-256 of the input, read a chunk at a time so that a mapped
 * input's pages are handed back behind (import/input.h) */
static void input_sha256(char out[65], const struct import_input *in)
{
	unsigned char d[SHA256_DIGEST_LEN];
	struct sha256 s;
	size_t off, n, i;

	import_input_rewind();
	sha256_init(&s);
	for (off = 0; off < in->len; off += n) {
		n = in->len - off < CHUNK ? in->len - off : CHUNK;
		sha256_update(&s, in->data + off, n);
		import_input_reached(in->data + off + n);
	}
	sha256_final(d, &s);
	for (i = 0; i < sizeof(d); i++)
		snprintf(out + 2 * i, 3, "%02x", d[i]);
}

/* Writes the input to fp a chunk at a time, as input_sha256 reads it */
static int write_input(FILE *fp, const struct import_input *in)
{
	size_t off, n;

	import_input_rewind();
	for (off = 0; off < in->len; off += n) {
		n = in->len - off < CHUNK ? in->len - off : CHUNK;
		if (fwrite(in->data + off, 1, n, fp) != n)
			return -1;
		import_input_reached(in->data + off + n);
	}
	return 0;
}

/* Writes the input to file through a temporary name beside it, unless
 * file exists: its name is its content's hash. */
static int keep_file(const char *file, const struct import_input *in,
		     struct error *err)
{
	char *tmp = NULL;
	struct stat st;
	FILE *fp = NULL;
	int rc = 0;

	if (!stat(file, &st) && S_ISREG(st.st_mode) &&
	    (size_t)st.st_size == in->len)
		return 0;
	tmp = xasprintf("%s.tmp%ld", file, (long)getpid());
	if (!(fp = fopen(tmp, "wb")) || write_input(fp, in) < 0 || fflush(fp) ||
	    fsync(fileno(fp))) {
		rc = error_set(err, GCAMP_EFATAL, "cannot write '%s': %s", tmp,
			       strerror(errno));
		goto out;
	}
	if (fclose(fp)) {
		fp = NULL;
		rc = error_set(err, GCAMP_EFATAL, "cannot write '%s': %s", tmp,
			       strerror(errno));
		goto out;
	}
	fp = NULL;
	if (rename(tmp, file) < 0)
		rc = error_set(err, GCAMP_EFATAL, "cannot rename '%s': %s", tmp,
			       strerror(errno));
out:
	if (fp)
		fclose(fp);
	if (rc < 0)
		unlink(tmp);
	free(tmp);
	return rc;
}

int convert_import_summarised(struct import_set *out,
			      const struct import_format *fmt, const char *path,
			      const char *scratch, struct convert_raw *raw,
			      struct error *err)
{
	struct import_input in = IMPORT_INPUT_INIT;
	char *dir = NULL, *file = NULL;
	struct stat st;
	int rc;

	memset(raw, 0, sizeof(*raw));
	import_set_summarise(out);
	if (strcmp(path, "-") && !stat(path, &st) && S_ISDIR(st.st_mode)) {
		rc = import_path_among(out, fmt, NULL, path, err);
		import_set_finish(out);
		return rc;
	}
	if ((rc = import_input_open(&in, path, err)) < 0 ||
	    (rc = convert_data(out, fmt, NULL, &in, path, err)) < 0)
		goto out;
	import_set_finish(out);
	if (!out->summaries)
		goto out;
	input_sha256(raw->sha256, &in);
	dir = xasprintf("%sraw", scratch);
	if (mkdir(dir, 0777) < 0 && errno != EEXIST) {
		rc = error_set(err, GCAMP_EFATAL, "cannot create '%s': %s", dir,
			       strerror(errno));
		goto out;
	}
	file = xasprintf("%s/%s.%s", dir, raw->sha256, raw_ext(path));
	if ((rc = keep_file(file, &in, err)) < 0)
		goto out;
	raw->path = xasprintf(CONVERT_RAW_PREFIX "%s.%s", raw->sha256,
			      raw_ext(path));
	raw->file = file;
	file = NULL;
out:
	free(file);
	free(dir);
	import_input_release(&in);
	return rc;
}

void convert_raw_release(struct convert_raw *raw)
{
	free(raw->path);
	free(raw->file);
	memset(raw, 0, sizeof(*raw));
}
