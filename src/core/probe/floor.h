/* The dispatch floor of a GPU: what an empty kernel launch and the smallest
 * copies cost through the CUDA Driver API itself, the reference every
 * dispatch figure of a campaign is read against. */
#ifndef GCAMP_FLOOR_H
#define GCAMP_FLOOR_H

#include <cjson/cJSON.h>
#include <stddef.h>

#include "core/base/ctx.h"
#include "core/measure/line.h"
#include "util/error.h"

#define FLOOR_NCOPY 3

/* The sizes of the host-to-device copies measured: 24 B, 2 KiB, 64 KiB. */
extern const size_t floor_copy_bytes[FLOOR_NCOPY];

struct floor_result {
	int device;
	double module_load_us; /* cuModuleLoadData of the PTX (JIT) */
	long launches;	       /* launch + synchronize samples */
	double launch_median_us, launch_p10_us, launch_p90_us;
	double enqueue_us;	     /* cuLaunchKernel back to back */
	double htod_us[FLOOR_NCOPY]; /* median synchronous cuMemcpyHtoD */
	double dtod_gbps;	     /* 1 GiB device copy, read + write */
};

struct floor_opts {
	int device;	   /* the CUDA ordinal (after CUDA_VISIBLE_DEVICES) */
	int control;	   /* the GPU control instead (see floor_control) */
	long launches;	   /* launch + sync samples; 0: 10000 */
	size_t dtod_bytes; /* 0: 1 GiB */
};

/*
 * Measures the floor of device o->device: loads libcuda (cuda_open), runs
 * cuInit, retains the primary context, loads the embedded PTX module (an
 * empty kernel for sm_52, so the driver JIT-compiles it for any later
 * chip), then times, after a warm-up each (half a second of launches
 * first): o->launches empty launches each
 * followed by cuCtxSynchronize; 10,000 launches enqueued back to back;
 * 1,000 synchronous host-to-device copies of each floor_copy_bytes size
 * from pageable memory; ten device-to-device copies of o->dtod_bytes. It
 * changes no device setting and frees what it allocated, also on failure.
 * Errors: the reason as one line in err ("no libcuda", "cuInit failed:
 * ...", "no CUDA device 1 (1 visible)", "cuModuleLoadData failed: ..."),
 * GCAMP_ENOTFOUND for a missing library or device, else GCAMP_EFATAL.
 */
int floor_measure(struct floor_result *out, const struct floor_opts *o,
		  struct error *err);

/*
 * The built-in GPU control of `ab --gpu-control`: the floor's setup, then a
 * fixed piece of device work that no change to a project can move: after
 * a tenth of a second of launches to raise the clocks, 2,000 empty
 * launches each synchronized (20 batches of 100), and eight
 * device-to-device copies of 256 MiB, each synchronized. *out_us is the
 * time of that work alone, each part counted as its median batch or copy
 * times their number (what `ab` reads as the control's number, not the
 * process's wall time). Errors as floor_measure.
 */
int floor_control(double *out_us, int device, struct error *err);

/*
 * The figures as records (metric floor.*, config kind=floor and
 * device=N, source "floor"), env, run and at copied into each. *out is an
 * array of *nout records the caller frees with record_release each and
 * free. Pure.
 */
void floor_records(struct record **out, size_t *nout,
		   const struct floor_result *r, const char *env,
		   const char *run, const char *at);

/* {"device", "module_load_us", "launch_sync_us": {"median","p10","p90",
 * "n"}, "launch_enqueue_us", "htod_us": {"24","2048","65536"},
 * "dtod_gbps"}, a new object. */
cJSON *floor_to_json(const struct floor_result *r);

#endif
