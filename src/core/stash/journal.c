/* The stash journals (see journal.h): a few lines of text, written to a
 * temporary file, synced and renamed into place, so that a reader sees the
 * whole journal or none. */
#include "core/stash/journal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
