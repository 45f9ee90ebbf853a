/* The measurement record: one schema-1 JSON object per line of a note on
 * refs/notes/campaign (DESIGN.md §3), encoded with its keys in a fixed
 * order on one line, decoded with strict validation. */
#ifndef GCAMP_RECORD_H
#define GCAMP_RECORD_H

#include <cjson/cJSON.h>
#include <stddef.h>

#include "util/buf.h"
#include "util/error.h"
#include "util/strvec.h"

#define RECORD_VERSION 1
#define RECORD_RUN_LEN 16
/* the longest metric name, in bytes */
#define RECORD_MAX_NAME 1024

struct record {
	char run[RECORD_RUN_LEN + 1]; /* 16 lowercase hex digits */
	long seq; /* 0 (absent); k >= 1: the k-th repeat in its run of a
		   * record equal in every other key, kept apart by it */
	char *metric;
	double value;	 /* finite */
	char *unit;	 /* NULL: unitless */
	char *better;	 /* "lower", "higher", or NULL */
	char *stat;	 /* "median", "value", ...; NULL when absent */
	long n;		 /* samples behind value; 0 when absent */
	double *samples; /* NULL when none */
	size_t nsamples;
	/* a summary of n launches (stat "median"): "summary" in the line */
	int summary;
	double min, p10, p90, max, sum;
	/* the input kept outside the repository, relative to the git common
	 * directory, and its SHA-256 in hex: "raw" in the line; NULL when
	 * none was kept */
	char *raw_path, *raw_sha256;
	char *arm;   /* "A", "B", ...; NULL when absent */
	int ctl;     /* -1 absent, else 0 or 1 (a control workload) */
	long iters;  /* -1 absent */
	char *vouch; /* an A/B's controls: "steady", "unvouched", "none" */
	char *env;   /* fingerprint id */
	struct strvec config; /* "key=value", sorted by key, keys unique */
	char *source; /* "add", "ab", an import format; NULL when absent */
	char *at;     /* "YYYY-MM-DDTHH:MM:SSZ" */
};

/* An empty record: every pointer NULL, ctl and iters absent. */
void record_init(struct record *r);
/* Frees what r owns and leaves it as record_init does. Accepts NULL. */
void record_release(struct record *r);

/* Sets config key to value, replacing an earlier value of key, keeping
 * the keys sorted. Both are copied. */
void record_config_put(struct record *r, const char *key, const char *value);
/* Parses "key=value" (the key non-empty, without '=') and puts it.
 * GCAMP_EUSAGE when kv is not of that form. */
int record_config_parse(struct record *r, const char *kv, struct error *err);
/* The value of config key, borrowed from r, or NULL. */
const char *record_config_get(const struct record *r, const char *key);
/* Appends the canonical config JSON, {"k":"v",...} with the keys sorted
 * (bytewise) and no spaces: equal configs give equal strings. */
void record_config_json(struct buf *out, const struct record *r);

/* A fresh random run id (16 hex digits from getrandom). */
int record_new_run(char out[RECORD_RUN_LEN + 1], struct error *err);

/* Checks what encode and decode require: metric non-empty, valid UTF-8
 * of at most RECORD_MAX_NAME bytes with no control character and no space
 * at either end (text_name_problem; checked on writing only), value and
 * samples finite, better lower/higher, n >= 1 and equal to the number of
 * samples when both are given, a summary's numbers finite and ordered
 * (min <= p10 <= value <= p90 <= max) with n, run 16 hex digits, seq >= 0,
 * vouch steady, unvouched or none when given, env and at set.
 * GCAMP_EUSAGE with the reason. */
int record_check(const struct record *r, struct error *err);

/* Appends r as one JSON line, without the newline, keys in the order of
 * DESIGN.md: v run seq metric value unit better stat n samples summary arm
 * ctl iters vouch env config raw source at (absent optional keys left out).
 * Checks r first (record_check). */
int record_encode(struct buf *out, const struct record *r, struct error *err);

/* The record as a cJSON object in the same key order; the caller deletes
 * it. */
cJSON *record_to_json(const struct record *r);

/* Decodes one line (len bytes, no newline needed) into out, which must be
 * initialised (it is released first). Refuses with GCAMP_EFATAL and the
 * reason: not one JSON object, "v" not 1, a required key missing (run,
 * metric, value, env, at), a key of the wrong type or value, a key twice.
 * Keys this version does not know are ignored. On failure out is left
 * empty. */
int record_decode(struct record *out, const char *line, size_t len,
		  struct error *err);

/* Decodes a partial record, as `measure add --batch` reads them: only
 * metric is required, and value when there are no samples (else value is
 * their median and stat "median"). The other keys are checked as by
 * record_decode; the caller fills run, env and at. */
int record_decode_partial(struct record *out, const char *line, size_t len,
			  struct error *err);

#endif
