/* The stash journals (see journal.h): a few lines of text, written to a
 * temporary file, synced and renamed into place, so that a reader sees the
 * whole journal or none; and the check of what a killed write left. */
#include "core/stash/journal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/error.h"
#include "util/xalloc.h"

void stash_journal_release(struct stash_journal *j)
{
	if (!j)
		return;
	free(j->name);
	free(j->verb);
	memset(j, 0, sizeof(*j));
}

static int is_hex40(const char *s)
{
	size_t n = strspn(s, "0123456789abcdef");

	return n == 40 && (!s[n] || s[n] == '\n');
}

/* line without its newline, or "" past the end */
static char *next_line(FILE *f)
{
	char line[1024];

	if (!fgets(line, sizeof(line), f))
		return xstrdup("");
	line[strcspn(line, "\n")] = '\0';
	return xstrdup(line);
}

int stash_journal_read(struct stash_journal *out, const char *path)
{
	FILE *f = fopen(path, "r");
	char *id, *target, *pid;

	memset(out, 0, sizeof(*out));
	if (!f)
		return GCAMP_ENOTFOUND;
	id = next_line(f);
	out->name = next_line(f);
	out->verb = next_line(f);
	target = next_line(f);
	pid = next_line(f);
	fclose(f);
	if (is_hex40(id)) {
		memcpy(out->id, id, 40);
		if (is_hex40(target))
			memcpy(out->target, target, 40);
		out->pid = strtol(pid, NULL, 10);
	}
	free(id);
	free(target);
	free(pid);
	if (!out->id[0]) {
		stash_journal_release(out);
		return GCAMP_ENOTFOUND;
	}
	return 0;
}

int stash_journal_write(const char *path, const struct stash_journal *j)
{
	char *tmp = xasprintf("%s.new", path);
	FILE *f = fopen(tmp, "w");
	int bad;

	if (!f) {
		free(tmp);
		return -1;
	}
	bad = fprintf(f, "%s\n%s\n%s\n%s\n%ld\n", j->id, j->name, j->verb,
		      j->target, (long)getpid()) < 0;
	bad |= fflush(f) != 0 || fsync(fileno(f)) != 0;
	bad |= fclose(f) != 0;
	if (bad || rename(tmp, path) < 0) {
		unlink(tmp);
		free(tmp);
		return -1;
	}
	free(tmp);
	return 0;
}

/* 1 when the working file at path holds blob id already (a regular file
 * of that content), as an apply that was killed half way leaves it */
static int holds_all(git_repository *repo, const char *path, const git_oid *id)
{
	char *full = xasprintf("%s%s", git_repository_workdir(repo), path);
	struct stat st;
	git_oid got;
	int same = !lstat(full, &st) && S_ISREG(st.st_mode) &&
		   !git_odb_hashfile(&got, full, GIT_OBJECT_BLOB) &&
		   git_oid_equal(&got, id);

	free(full);
	return same;
}

/* 1 when the working file at path holds the start of blob id: what an
 * apply killed while writing that file leaves (truncated, part written) */
static int holds_start_of(git_repository *repo, const char *path,
			  const git_oid *id)
{
	char *full = xasprintf("%s%s", git_repository_workdir(repo), path);
	git_blob *blob = NULL;
	struct stat st;
	FILE *f = NULL;
	char chunk[8192];
	size_t n, off = 0, size;
	const char *want;
	int same = 0;

	if (lstat(full, &st) < 0 || !S_ISREG(st.st_mode) ||
	    git_blob_lookup(&blob, repo, id) < 0)
		goto out;
	size = (size_t)git_blob_rawsize(blob);
	want = git_blob_rawcontent(blob);
	if ((size_t)st.st_size > size || !(f = fopen(full, "rb")))
		goto out;
	same = 1;
	while (same && (n = fread(chunk, 1, sizeof(chunk), f)) > 0) {
		same = off + n <= size && !memcmp(chunk, want + off, n);
		off += n;
	}
out:
	if (f)
		fclose(f);
	git_blob_free(blob);
	free(full);
	return same;
}

int stash_path_holds(git_repository *repo, const char *path, const git_oid *id,
		     int or_start)
{
	return holds_all(repo, path, id) ||
	       (or_start && holds_start_of(repo, path, id));
}
