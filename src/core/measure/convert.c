/* Converting what importers cannot read as it is: a binary JFR recording
 * runs through `jfr print --json`, and the importer gets its output. */
#include "core/measure/convert.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "import/jfr.h"
#include "io/proc.h"
#include "util/buf.h"
#include "util/xalloc.h"

#define JFR_EVENTS "jdk.ExecutionSample,jdk.NativeMethodSample"
/* Only the top frame is read; jfr's default depth (5) is never relied on. */
#define JFR_STACK_DEPTH "1"
/* What `jfr print` may write before it is stopped, and what of its
 * standard error is kept for the message. */
#define JFR_MAX_OUTPUT ((size_t)256 << 20)

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

int convert_import_path_among(struct import_set *out,
			      const struct import_format *fmt,
			      const char *const *only, const char *path,
			      struct error *err)
{
	struct buf data = BUF_INIT, json = BUF_INIT;
	const struct import_format *f;
	char *label = NULL;
	struct stat st;
	int rc;

	/* stdin cannot be handed to jfr, and directories hold no recording */
	if (!strcmp(path, "-") || (!stat(path, &st) && S_ISDIR(st.st_mode)))
		return import_path_among(out, fmt, only, path, err);
	if ((rc = import_read_file(&data, path, err)) < 0)
		goto out;
	f = fmt ? fmt : import_detect_among(data.ptr, data.len, only);
	if (!f || strcmp(f->name, "jfr") ||
	    !jfr_is_recording(data.ptr, data.len)) {
		rc = import_data_among(out, fmt, only, data.ptr, data.len, path,
				       err);
		goto out;
	}
	if ((rc = run_jfr(&json, path, err)) < 0)
		goto out;
	label = xasprintf("%s (jfr print)", path);
	rc = import_data(out, f, json.ptr, json.len, label, err);
out:
	free(label);
	buf_release(&json);
	buf_release(&data);
	return rc;
}
