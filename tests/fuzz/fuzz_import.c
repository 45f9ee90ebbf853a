/* libFuzzer target for one importer, named at compile time
 * (-DFUZZ_FORMAT="\"jfr\""): every input goes through the detectors and the
 * parser, which must neither crash, leak, read past the input (it is not
 * NUL-terminated), nor break the importer contract. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import/formats.h"

#ifndef FUZZ_FORMAT
#error "build with -DFUZZ_FORMAT='\"name\"'"
#endif

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const struct import_format *fmt;

static void broken(const char *what, const char *detail)
{
	fprintf(stderr, "fuzz-%s: %s%s%s\n", FUZZ_FORMAT, what,
		detail ? ": " : "", detail ? detail : "");
	abort();
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fmt = import_format_find(FUZZ_FORMAT);
	if (!fmt) {
		fprintf(stderr, "fuzz: no format '%s' in import_formats[]\n",
			FUZZ_FORMAT);
		exit(2);
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct import_set set = IMPORT_SET_INIT;
	struct error err = ERROR_INIT;
	const char *in = (const char *)data;
	size_t i, j;
	int rc;

	(void)import_detect(in, size);
	/* "-" (stdin) as the name: the jfr importer then refuses a binary
	 * recording instead of running the jfr program */
	/* as `measure import` reads it: launches folded into summaries */
	import_set_summarise(&set);
	rc = import_data(&set, fmt, in, size, "-", &err);
	if (rc == 0)
		import_set_finish(&set);
	if (rc < 0) {
		if (err.code != rc || !err.msg[0])
			broken("a failure without its message", NULL);
		if (strchr(err.msg, '\n'))
			broken("an error message of several lines", err.msg);
	} else {
		if (rc != 0 || err.code)
			broken("success with an error recorded", err.msg);
		if (!set.format || strcmp(set.format, FUZZ_FORMAT))
			broken("success without the format's name", NULL);
	}
	for (i = 0; i < set.nr && rc == 0; i++) {
		const struct import_rec *r = &set.recs[i];

		if (!r->metric || !r->metric[0] || !r->stat)
			broken("a record without a metric or stat", NULL);
		if (!isfinite(r->value))
			broken("a value that is not finite", r->metric);
		for (j = 0; j < r->nsamples; j++)
			if (!isfinite(r->samples[j]))
				broken("a sample that is not finite",
				       r->metric);
		if (r->count &&
		    (strcmp(r->stat, "median") || !isfinite(r->sum) ||
		     !(r->min <= r->p10 && r->p10 <= r->value &&
		       r->value <= r->p90 && r->p90 <= r->max)))
			broken("a summary out of order", r->metric);
		for (j = 0; j < r->config.nr; j++)
			if (!strchr(r->config.v[j], '='))
				broken("a config entry without '='",
				       r->config.v[j]);
	}
	import_set_release(&set);
	return 0;
}
