/* The Nsight Systems importer: the summary reports of nsys stats --format
 * csv, several in one input. */
#ifndef GCAMP_IMPORT_NSYS_H
#define GCAMP_IMPORT_NSYS_H

#include <stddef.h>

#include "import/rec.h"
#include "util/error.h"

/* nsys stats --format csv reports; nsys.c documents the records. */
int nsys_detect(const char *data, size_t len);
int nsys_parse(struct import_set *out, const char *data, size_t len,
	       const char *path, struct error *err);

#endif
