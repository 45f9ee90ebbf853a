/* Renderings kept between runs, keyed by what they depend on. */
#include "core/base/outcache.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "io/gitlite.h"
#include "util/sha256.h"
#include "util/trace.h"
#include "util/xalloc.h"

/* a change younger than this may share its time with the next one */
#define SETTLE_NS 2000000000LL

static void add_stat(struct buf *out, const struct stat *st)
{
	buf_addf(out, "%ju %ju %jd %jd.%09ld", (uintmax_t)st->st_dev,
		 (uintmax_t)st->st_ino, (intmax_t)st->st_size,
		 (intmax_t)st->st_mtim.tv_sec, st->st_mtim.tv_nsec);
}

void outcache_file_fact(struct buf *facts, const char *path)
{
	struct stat st;

	buf_addf(facts, "file %s ", path);
	if (stat(path, &st) == 0)
		add_stat(facts, &st);
	else
		buf_puts(facts, "none");
	buf_putc(facts, '\n');
}

/* The database file's identity, size and time in out, and in *age_ns how
 * long ago it last changed; -1 when it is missing, or open for writing
 * (its -wal file is there: committed pages may not be in the file yet). */
static int db_stamp(struct buf *out, long long *age_ns, const char *path)
{
	struct timespec now;
	struct stat st;
	char *wal = xasprintf("%s-wal", path);
	int busy = lstat(wal, &st) == 0 || errno != ENOENT;

	free(wal);
	if (busy || stat(path, &st) < 0 || !S_ISREG(st.st_mode))
		return -1;
	buf_reset(out);
	add_stat(out, &st);
	clock_gettime(CLOCK_REALTIME, &now);
	*age_ns = (now.tv_sec - st.st_mtim.tv_sec) * 1000000000LL +
		  (now.tv_nsec - st.st_mtim.tv_nsec);
	return 0;
}

void outcache_begin(struct outcache *oc, struct ctx *ctx, const char *what,
		    const char *facts)
{
	struct buf key = BUF_INIT, name = BUF_INIT;
	struct gitlite *lite;
	struct stat exe;
	const char *off;
	long long age;
	char hex[65];

	memset(oc, 0, sizeof(*oc));
	buf_init(&oc->stamp);
	if ((off = getenv("GIT_CAMPAIGN_NO_CACHE")) && *off && strcmp(off, "0"))
		return;
	if (ctx_lite(&lite, ctx) < 0 || ctx_db_path(&oc->db_path, ctx) < 0 ||
	    db_stamp(&oc->stamp, &age, oc->db_path) < 0) {
		error_clear(&ctx->err);
		return;
	}
	/* this build: another one may render the same facts otherwise */
	buf_addf(&key, "git-campaign %s\n", GCAMP_VERSION);
	if (stat("/proc/self/exe", &exe) == 0)
		add_stat(&key, &exe);
	buf_addf(&key, "\n%s\n%s\n%s\n%s\n", what, oc->db_path, oc->stamp.ptr,
		 facts);
	sha256_hex(oc->key, key.ptr, key.len);
	/* one file per worktree and rendering */
	buf_addf(&name, "%s%c%s", lite->git_dir, '\0', what);
	sha256_hex(hex, name.ptr, name.len);
	hex[16] = '\0';
	oc->path = xasprintf("%s/campaign/cache/out-%s", lite->common_dir, hex);
	buf_release(&key);
	buf_release(&name);
}

int outcache_get(struct outcache *oc, struct buf *out)
{
	FILE *f;
	char head[66];
	char chunk[8192];
	size_t n;

	if (!oc->path || !(f = fopen(oc->path, "rb")))
		return 0;
	if (!fgets(head, sizeof(head), f) || strlen(head) != 65 ||
	    head[64] != '\n' || memcmp(head, oc->key, 64)) {
		fclose(f);
		return 0;
	}
	buf_reset(out);
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		buf_add(out, chunk, n);
	n = (size_t)ferror(f);
	fclose(f);
	if (n)
		return 0;
	trace_printf("outcache: %s", oc->path);
	return 1;
}

void outcache_put(struct outcache *oc, const char *text, size_t len)
{
	struct buf now = BUF_INIT;
	char *dir, *tmp = NULL, *slash;
	long long age;
	FILE *f = NULL;
	int fd, ok = 0;

	if (!oc->path || db_stamp(&now, &age, oc->db_path) < 0 ||
	    strcmp(now.ptr, oc->stamp.ptr) || age < SETTLE_NS)
		goto out;
	dir = xstrdup(oc->path);
	if ((slash = strrchr(dir, '/')))
		*slash = '\0';
	if (mkdir(dir, 0777) < 0 && errno != EEXIST) {
		free(dir);
		goto out;
	}
	tmp = xasprintf("%s/.out-XXXXXX", dir);
	free(dir);
	if ((fd = mkstemp(tmp)) < 0)
		goto out;
	if (!(f = fdopen(fd, "wb"))) {
		close(fd);
		goto out;
	}
	ok = fprintf(f, "%s\n", oc->key) == 65 &&
	     fwrite(text, 1, len, f) == len;
	ok = !fclose(f) && ok && rename(tmp, oc->path) == 0;
out:
	if (tmp && !ok)
		unlink(tmp);
	free(tmp);
	buf_release(&now);
}

void outcache_release(struct outcache *oc)
{
	free(oc->path);
	free(oc->db_path);
	buf_release(&oc->stamp);
	memset(oc, 0, sizeof(*oc));
}
