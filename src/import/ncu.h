/* The Nsight Compute (ncu) importer: the --csv details page (stdout or
 * --import), the wide --page raw CSV, and the details page as text. */
#ifndef GCAMP_IMPORT_NCU_H
#define GCAMP_IMPORT_NCU_H

#include <stddef.h>

#include "import/rec.h"
#include "util/error.h"

/* ncu --csv (details page, stdout or --import form, raw page) and the
 * details page as text. The contracts are those of struct import_format;
 * ncu.c documents the records. */
int ncu_detect(const char *data, size_t len);
int ncu_parse(struct import_set *out, const char *data, size_t len,
	      const char *path, struct error *err);

#endif
