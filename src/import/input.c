/* Mapped inputs whose pages are handed back behind the scanners (see
 * input.h). One input is registered at a time: the program imports one
 * file after another. */
/* madvise and MADV_DONTNEED are not POSIX (posix_madvise's DONTNEED is a
 * no-op in glibc) */
#define _DEFAULT_SOURCE
#include "import/input.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* The pages behind a scanner that stay (a look back within them costs
 * nothing), and how far it moves before pages are handed back. */
#define KEEP_BEHIND ((size_t)2 << 20)
#define STEP ((size_t)4 << 20)

static const char *reg_base;
static size_t reg_len, reg_done; /* reg_done: bytes handed back so far */

static int read_stream(struct buf *out, int fd, const char *path,
		       struct error *err)
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
					 strcmp(path, "-") ? path : "stdin",
					 strerror(errno));
		}
		if (out->len + (size_t)n > IMPORT_MAX_BYTES)
			return error_set(
				err, GCAMP_EFATAL,
				"cannot read '%s': larger than %zu MiB",
				strcmp(path, "-") ? path : "stdin",
				IMPORT_MAX_BYTES >> 20);
		buf_add(out, chunk, (size_t)n);
	}
}

int import_input_open(struct import_input *in, const char *path,
		      struct error *err)
{
	struct stat st;
	int fd, rc = 0;

	if (!strcmp(path, "-")) {
		rc = read_stream(&in->mem, 0, path, err);
		in->data = in->mem.ptr;
		in->len = in->mem.len;
		return rc;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return error_set(err, GCAMP_EFATAL, "cannot open '%s': %s",
				 path, strerror(errno));
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
		void *m;

		if ((size_t)st.st_size > IMPORT_MAX_BYTES) {
			rc = error_set(err, GCAMP_EFATAL,
				       "cannot read '%s': larger than %zu MiB",
				       path, IMPORT_MAX_BYTES >> 20);
			goto out;
		}
		m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd,
			 0);
		if (m != MAP_FAILED) {
			in->map = m;
			in->data = m;
			in->len = (size_t)st.st_size;
			reg_base = in->data;
			reg_len = in->len;
			reg_done = 0;
			goto out;
		}
	}
	rc = read_stream(&in->mem, fd, path, err);
	in->data = in->mem.ptr;
	in->len = in->mem.len;
out:
	close(fd);
	return rc;
}

void import_input_release(struct import_input *in)
{
	if (in->map) {
		if (reg_base == in->data)
			reg_base = NULL;
		munmap(in->map, in->len);
	}
	buf_release(&in->mem);
	in->map = NULL;
	in->data = NULL;
	in->len = 0;
}

void import_input_reached(const char *p)
{
	size_t off, page, upto;

	if (!reg_base || p < reg_base || p > reg_base + reg_len)
		return;
	off = (size_t)(p - reg_base);
	page = (size_t)sysconf(_SC_PAGESIZE);
	/* a second pass (a parser that looks for something first): the
	 * pages it reads again are handed back again */
	if (off < reg_done) {
		reg_done = off / page * page;
		return;
	}
	if (off < reg_done + KEEP_BEHIND + STEP)
		return;
	upto = (off - KEEP_BEHIND) / page * page;
	/* a private, read-only file mapping: the pages come back from the
	 * file when touched again */
	if (upto > reg_done && !madvise((void *)(reg_base + reg_done),
					upto - reg_done, MADV_DONTNEED))
		reg_done = upto;
}

void import_input_rewind(void)
{
	reg_done = 0;
}
