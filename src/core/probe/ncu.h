/* One named kernel under Nsight Compute: the recipe (`ncu --kernel-name
 * regex:R --launch-skip N --launch-count M --clock-control none`, Speed of
 * Light first), the reading of its Speed-of-Light figures into the sections
 * to run next, and the hand-back record a campaign keeps of it. */
#ifndef GCAMP_NCUPROF_H
#define GCAMP_NCUPROF_H

#include <cjson/cJSON.h>
#include <stddef.h>

#include "core/base/ctx.h"
#include "import/formats.h"
#include "util/buf.h"
#include "util/strvec.h"

/* A unit is "high" at this share of its peak or more (ncu's own rules
 * call 60% of peak good use). */
#define NCUPROF_HIGH_PCT 60.0
/* A launch shorter than this is "short": a few launch floors, too short
 * to fill the GPU. */
#define NCUPROF_SHORT_NS 10000.0
/* Achieved (else theoretical) occupancy below this is "low". */
#define NCUPROF_LOW_OCC_PCT 50.0

/* What one kernel's launches read, each the median over the launches of
 * the kernel; NAN when the run did not collect it. */
struct ncuprof_reading {
	double memory_pct;  /* Speed of Light: Memory Throughput */
	double compute_pct; /* Speed of Light: Compute (SM) Throughput */
	double duration_ns;
	double achieved_occ_pct, theoretical_occ_pct; /* Occupancy */
	double registers;			      /* per thread */
	double static_smem, dynamic_smem;	      /* bytes per block */
	size_t launches;
	char kernel[128]; /* the kernel's name as ncu printed it; "" */
};

enum ncuprof_class {
	NCUPROF_UNKNOWN,       /* no Speed-of-Light figures */
	NCUPROF_MEMORY,	       /* memory high, compute low */
	NCUPROF_COMPUTE,       /* compute high, memory low */
	NCUPROF_BOTH,	       /* both high */
	NCUPROF_LATENCY,       /* both low; short launches or low occupancy */
	NCUPROF_LATENCY_OCC,   /* both low; occupancy not measured yet */
	NCUPROF_LATENCY_STALL, /* both low; occupancy fine, not short */
};

struct ncuprof_verdict {
	enum ncuprof_class cls;
	const char *name;    /* "memory-bound", "compute-bound", ... */
	char why[200];	     /* one line from the figures */
	const char *next[3]; /* the sections to add, NULL-terminated */
};

/* Reads r into v by the rules of NCUPROF_*: memory high and compute low:
 * MemoryWorkloadAnalysis; compute high and memory low:
 * ComputeWorkloadAnalysis; both high: both of them; both low with short
 * launches or low occupancy: LaunchStats, Occupancy, also when the
 * occupancy is not measured; both low with occupancy fine and launches not
 * short: WarpStateStats, SchedulerStats. Pure. */
void ncuprof_classify(struct ncuprof_verdict *v,
		      const struct ncuprof_reading *r);

/* The reading of the first kernel in s (records of the ncu importer, the
 * details page or the raw page), medians over its launches. Pure. */
void ncuprof_reading_from(struct ncuprof_reading *out,
			  const struct import_set *s);

/* The categories of an actionable recommendation, NULL-terminated:
 * "variant" (wrong capability-gated variant), "launch-size" (grid or
 * work-group size), "layout" (buffer layout), "unneeded-work", "codegen"
 * (a code-generation limit to report upstream). */
extern const char *const ncuprof_categories[];

/* 1 when name is one of ncuprof_categories. */
int ncuprof_category_ok(const char *name);

struct ncuprof_opts {
	const char *regex;	       /* the kernel's name, a regex */
	long skip, count;	       /* launches skipped, then profiled */
	const struct strvec *sections; /* added after SpeedOfLight */
	const char *const *program;    /* the program's argv */
	const char *recommend;	       /* NULL: none stated */
	const char *category;	       /* with recommend */
};

/* What a profiled kernel hands back. */
struct ncuprof_result {
	char run[17];
	char env[17];
	char commit[41]; /* HEAD, where the records went */
	char *ncu_cmd;	 /* the ncu command line, shell-quoted */
	char *program_cmd;
	char *raw_path;		/* ncu's output, in the scratch folder */
	struct strvec sections; /* what ran: SpeedOfLight first */
	struct ncuprof_reading reading;
	struct ncuprof_verdict verdict;
	const char *todo[3]; /* verdict.next less the sections that ran */
	size_t nrecords;     /* written to the notes, the hand-back included */
	int perm;	     /* ERR_NVGPUCTRPERM: counters restricted */
	int status;	     /* ncu's exit status */
};

/*
 * Runs `ncu` (looked up on PATH) on o->program under the recipe, in this
 * folder, its standard output and error written to a new file in the
 * campaign's scratch folder (never the working tree), imports what it
 * printed with the ncu importer and appends, in one notes commit on HEAD,
 * every record (config profiler=ncu) and the hand-back record (metric
 * "ncu.handback", the median duration, config kind=ncu-handback holding
 * the regex, both commands, the raw path, the class, the next sections,
 * occupancy, registers, shared memory and the recommendation), all with
 * one run id. Errors: ncu not on PATH (GCAMP_ENOTFOUND); counters
 * restricted to administrators (ERR_NVGPUCTRPERM): GCAMP_EREFUSED with
 * out->perm set and out->raw_path kept; ncu failing or profiling nothing:
 * GCAMP_EFATAL naming the raw output. Release out with
 * ncuprof_result_release in every case.
 */
int ncuprof_run(struct ncuprof_result *out, struct ctx *ctx,
		const struct ncuprof_opts *o);

/* The hand-back as JSON (a new object the caller deletes). */
cJSON *ncuprof_to_json(const struct ncuprof_result *r,
		       const struct ncuprof_opts *o);

/* The hand-back as text lines, "key: value". */
void ncuprof_render(struct buf *out, const struct ncuprof_result *r,
		    const struct ncuprof_opts *o);

void ncuprof_result_release(struct ncuprof_result *r);

#endif
