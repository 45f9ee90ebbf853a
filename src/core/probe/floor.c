/* The dispatch floor through the CUDA Driver API: an embedded PTX module,
 * empty launches, small synchronous copies and one large device copy. */
#define _POSIX_C_SOURCE 200809L
#include "core/probe/floor.h"

#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/stats/stats.h"
#include "io/cuda.h"
#include "util/buf.h"
#include "util/clock.h"
#include "util/xalloc.h"

const size_t floor_copy_bytes[FLOOR_NCOPY] = {24, 2048, 65536};

/* An empty kernel in PTX for a low target: the driver compiles it for the
 * device at cuModuleLoadData, on any chip since Maxwell. PTX 6.0 needs a
 * CUDA 9 driver or later. */
static const char floor_ptx[] = ".version 6.0\n"
				".target sm_52\n"
				".address_size 64\n"
				"\n"
				".visible .entry gcamp_empty()\n"
				"{\n"
				"\tret;\n"
				"}\n";

#define WARMUP 1000
#define WARMUP_US 500000.0
#define ENQUEUE 10000
#define ENQUEUE_BATCHES 5
#define COPIES 1000
#define DTOD_REPS 10

/* the device's times are in microseconds */
static double now_us(void)
{
	return 1e6 * clock_now_s();
}

struct run {
	struct cuda *cu;
	const struct cuda_api *a;
	struct error *err;
	cuda_function fn;
};

#define CHECK(call, what)                                                      \
	do {                                                                   \
		if ((rc = cuda_check(r->cu, (call), (what), r->err)) < 0)      \
			goto out;                                              \
	} while (0)

static cuda_result launch(const struct run *r)
{
	return r->a->cuLaunchKernel(r->fn, 1, 1, 1, 1, 1, 1, 0, NULL, NULL,
				    NULL);
}

static int time_launches(struct floor_result *res, const struct run *r, long n)
{
	double *t = xcalloc((size_t)n, sizeof(*t)), t0;
	double batch[ENQUEUE_BATCHES];
	long i;
	int b;
	int rc = 0;

	/* long enough for an idle GPU to raise its clocks (an H200 idles
	 * at 420 MHz; its launch latency follows the clock) */
	t0 = now_us();
	for (i = 0; i < WARMUP || now_us() - t0 < WARMUP_US; i++) {
		CHECK(launch(r), "cuLaunchKernel");
		CHECK(r->a->cuCtxSynchronize(), "cuCtxSynchronize");
	}
	for (i = 0; i < n; i++) {
		t0 = now_us();
		CHECK(launch(r), "cuLaunchKernel");
		CHECK(r->a->cuCtxSynchronize(), "cuCtxSynchronize");
		t[i] = now_us() - t0;
	}
	res->launches = n;
	res->launch_median_us = stats_median(t, (size_t)n);
	res->launch_p10_us = stats_quantile(t, (size_t)n, 0.10);
	res->launch_p90_us = stats_quantile(t, (size_t)n, 0.90);
	/* back to back: the enqueue cost, and the rate the queue drains at
	 * once it is full; the median of ENQUEUE_BATCHES batches */
	for (b = 0; b < ENQUEUE_BATCHES; b++) {
		t0 = now_us();
		for (i = 0; i < ENQUEUE; i++)
			CHECK(launch(r), "cuLaunchKernel");
		batch[b] = (now_us() - t0) / ENQUEUE;
		CHECK(r->a->cuCtxSynchronize(), "cuCtxSynchronize");
	}
	res->enqueue_us = stats_median(batch, ENQUEUE_BATCHES);
out:
	free(t);
	return rc;
}

static int time_copies(struct floor_result *res, const struct run *r,
		       size_t dtod_bytes)
{
	cuda_devptr d = 0, src = 0, dst = 0;
	double t[COPIES], batch[DTOD_REPS], t0;
	size_t max = floor_copy_bytes[FLOOR_NCOPY - 1], k;
	unsigned char *host = xmalloc(max);
	int i, rc = 0;

	memset(host, 0x5a, max);
	CHECK(r->a->cuMemAlloc(&d, max), "cuMemAlloc_v2");
	for (k = 0; k < FLOOR_NCOPY; k++) {
		for (i = 0; i < 100; i++)
			CHECK(r->a->cuMemcpyHtoD(d, host, floor_copy_bytes[k]),
			      "cuMemcpyHtoD_v2");
		for (i = 0; i < COPIES; i++) {
			t0 = now_us();
			CHECK(r->a->cuMemcpyHtoD(d, host, floor_copy_bytes[k]),
			      "cuMemcpyHtoD_v2");
			t[i] = now_us() - t0;
		}
		res->htod_us[k] = stats_median(t, COPIES);
	}
	CHECK(r->a->cuMemAlloc(&src, dtod_bytes), "cuMemAlloc_v2");
	CHECK(r->a->cuMemAlloc(&dst, dtod_bytes), "cuMemAlloc_v2");
	/* warm-up: first touch of both buffers */
	CHECK(r->a->cuMemcpyDtoD(dst, src, dtod_bytes), "cuMemcpyDtoD_v2");
	CHECK(r->a->cuCtxSynchronize(), "cuCtxSynchronize");
	for (i = 0; i < DTOD_REPS; i++) {
		t0 = now_us();
		CHECK(r->a->cuMemcpyDtoD(dst, src, dtod_bytes),
		      "cuMemcpyDtoD_v2");
		CHECK(r->a->cuCtxSynchronize(), "cuCtxSynchronize");
		batch[i] = now_us() - t0;
	}
	/* bytes read plus bytes written, per second */
	t0 = stats_median(batch, DTOD_REPS);
	res->dtod_gbps = t0 > 0 ? 2.0 * (double)dtod_bytes / (t0 * 1e3) : 0;
out:
	if (dst)
		r->a->cuMemFree(dst);
	if (src)
		r->a->cuMemFree(src);
	if (d)
		r->a->cuMemFree(d);
	free(host);
	return rc;
}

/* Launch latency varies from one process to the next by 5 to 7% on an H200,
 * device copies by under 1%: the copies carry most of the control's time
 * (about 12 of 16 ms there), so that an A/A reads steady, and the launches
 * still show a change in dispatch. */
#define CONTROL_BATCHES 8
#define CONTROL_BATCH 50 /* launches: 400 in all */
#define CONTROL_COPIES 96
#define CONTROL_BYTES ((size_t)256 << 20)
#define CONTROL_WARMUP_US 100000.0

/* The control's fixed work, its time into res->launch_median_us: the
 * launches in batches and the copies one by one, each part counted as its
 * median times how many there are, so that a run preempted once by the
 * host reads as its neighbours do and the A/B's CI stays narrow. */
static int control_work(struct floor_result *res, const struct run *r)
{
	double batch[CONTROL_BATCHES], copy[CONTROL_COPIES];
	cuda_devptr src = 0, dst = 0;
	double t0;
	int i, k, rc = 0;

	CHECK(r->a->cuMemAlloc(&src, CONTROL_BYTES), "cuMemAlloc_v2");
	CHECK(r->a->cuMemAlloc(&dst, CONTROL_BYTES), "cuMemAlloc_v2");
	CHECK(r->a->cuMemcpyDtoD(dst, src, CONTROL_BYTES), "cuMemcpyDtoD_v2");
	CHECK(r->a->cuCtxSynchronize(), "cuCtxSynchronize");
	/* its figure is what `ab` reads: a GPU at its idle clock would give
	 * each run's first launches a different cost */
	t0 = now_us();
	for (i = 0; i < WARMUP / 5 || now_us() - t0 < CONTROL_WARMUP_US; i++) {
		CHECK(launch(r), "cuLaunchKernel");
		CHECK(r->a->cuCtxSynchronize(), "cuCtxSynchronize");
	}
	for (k = 0; k < CONTROL_BATCHES; k++) {
		t0 = now_us();
		for (i = 0; i < CONTROL_BATCH; i++) {
			CHECK(launch(r), "cuLaunchKernel");
			CHECK(r->a->cuCtxSynchronize(), "cuCtxSynchronize");
		}
		batch[k] = now_us() - t0;
	}
	for (k = 0; k < CONTROL_COPIES; k++) {
		t0 = now_us();
		CHECK(r->a->cuMemcpyDtoD(dst, src, CONTROL_BYTES),
		      "cuMemcpyDtoD_v2");
		CHECK(r->a->cuCtxSynchronize(), "cuCtxSynchronize");
		copy[k] = now_us() - t0;
	}
	res->launch_median_us =
		CONTROL_BATCHES * stats_median(batch, CONTROL_BATCHES) +
		CONTROL_COPIES * stats_median(copy, CONTROL_COPIES);
out:
	if (dst)
		r->a->cuMemFree(dst);
	if (src)
		r->a->cuMemFree(src);
	return rc;
}

int floor_control(double *out_us, int device, struct error *err)
{
	struct floor_opts o = {.device = device, .control = 1};
	struct floor_result res;
	int rc = floor_measure(&res, &o, err);

	*out_us = rc < 0 ? 0 : res.launch_median_us;
	return rc;
}

int floor_measure(struct floor_result *out, const struct floor_opts *o,
		  struct error *err)
{
	struct run run = {NULL, NULL, err, NULL}, *r = &run;
	cuda_module mod = NULL;
	cuda_ctx cx = NULL;
	cuda_dev dev = 0;
	int rc, n = 0, retained = 0;
	double t0;

	memset(out, 0, sizeof(*out));
	out->device = o->device;
	if ((rc = cuda_open(&run.cu, err)) < 0)
		return rc;
	run.a = cuda_api(run.cu);
	if ((rc = cuda_require_floor(run.cu, err)) < 0 ||
	    (rc = cuda_init(run.cu, err)) < 0 ||
	    (rc = cuda_device_count(&n, run.cu, err)) < 0)
		goto out;
	if (o->device < 0 || o->device >= n) {
		const char *vis = getenv("CUDA_VISIBLE_DEVICES");

		rc = error_set(err, GCAMP_ENOTFOUND,
			       "no CUDA device %d (%d visible%s%s)", o->device,
			       n, vis ? "; CUDA_VISIBLE_DEVICES=" : "",
			       vis ? vis : "");
		goto out;
	}
	CHECK(run.a->cuDeviceGet(&dev, o->device), "cuDeviceGet");
	CHECK(run.a->cuDevicePrimaryCtxRetain(&cx, dev),
	      "cuDevicePrimaryCtxRetain");
	retained = 1;
	CHECK(run.a->cuCtxSetCurrent(cx), "cuCtxSetCurrent");
	t0 = now_us();
	CHECK(run.a->cuModuleLoadData(&mod, floor_ptx), "cuModuleLoadData");
	out->module_load_us = now_us() - t0;
	CHECK(run.a->cuModuleGetFunction(&run.fn, mod, "gcamp_empty"),
	      "cuModuleGetFunction");
	if (o->control) {
		rc = control_work(out, r);
		goto out;
	}
	if ((rc = time_launches(out, r,
				o->launches > 0 ? o->launches : 10000)) < 0 ||
	    (rc = time_copies(
		     out, r, o->dtod_bytes ? o->dtod_bytes : (size_t)1 << 30)) <
		    0)
		goto out;
out:
	if (mod)
		run.a->cuModuleUnload(mod);
	if (retained) {
		run.a->cuCtxSetCurrent(NULL);
		run.a->cuDevicePrimaryCtxRelease(dev);
	}
	cuda_close(run.cu);
	return rc;
}

static struct record *add(struct record *recs, size_t *n, const char *metric,
			  double value, const char *unit, const char *better,
			  const char *stat, long samples)
{
	struct record *rec = &recs[(*n)++];

	record_init(rec);
	rec->metric = xstrdup(metric);
	rec->value = value;
	rec->unit = xstrdup(unit);
	rec->better = xstrdup(better);
	rec->stat = xstrdup(stat);
	rec->n = samples;
	return rec;
}

void floor_records(struct record **out, size_t *nout,
		   const struct floor_result *r, const char *env,
		   const char *run, const char *at)
{
	static const char *const copy_metric[FLOOR_NCOPY] = {
		"floor.htod_24B", "floor.htod_2KiB", "floor.htod_64KiB"};
	struct record *recs = xcalloc(12, sizeof(*recs));
	char dev[16];
	size_t n = 0, i;

	add(recs, &n, "floor.module_load", r->module_load_us, "us", "lower",
	    "value", 0);
	add(recs, &n, "floor.launch_sync", r->launch_median_us, "us", "lower",
	    "median", r->launches);
	add(recs, &n, "floor.launch_sync_p10", r->launch_p10_us, "us", "lower",
	    "p10", r->launches);
	add(recs, &n, "floor.launch_sync_p90", r->launch_p90_us, "us", "lower",
	    "p90", r->launches);
	add(recs, &n, "floor.launch_enqueue", r->enqueue_us, "us", "lower",
	    "median", ENQUEUE_BATCHES);
	for (i = 0; i < FLOOR_NCOPY; i++)
		add(recs, &n, copy_metric[i], r->htod_us[i], "us", "lower",
		    "median", COPIES);
	add(recs, &n, "floor.dtod_bandwidth", r->dtod_gbps, "GB/s", "higher",
	    "median", DTOD_REPS);
	snprintf(dev, sizeof(dev), "%d", r->device);
	for (i = 0; i < n; i++) {
		snprintf(recs[i].run, sizeof(recs[i].run), "%s", run);
		recs[i].env = xstrdup(env);
		recs[i].at = xstrdup(at);
		recs[i].source = xstrdup("floor");
		record_config_put(&recs[i], "kind", "floor");
		record_config_put(&recs[i], "device", dev);
	}
	*out = recs;
	*nout = n;
}

cJSON *floor_to_json(const struct floor_result *r)
{
	cJSON *o = cJSON_CreateObject(), *l, *h;
	size_t i;
	char k[16];

	cJSON_AddNumberToObject(o, "device", r->device);
	cJSON_AddNumberToObject(o, "module_load_us", r->module_load_us);
	l = cJSON_AddObjectToObject(o, "launch_sync_us");
	cJSON_AddNumberToObject(l, "median", r->launch_median_us);
	cJSON_AddNumberToObject(l, "p10", r->launch_p10_us);
	cJSON_AddNumberToObject(l, "p90", r->launch_p90_us);
	cJSON_AddNumberToObject(l, "n", (double)r->launches);
	cJSON_AddNumberToObject(o, "launch_enqueue_us", r->enqueue_us);
	h = cJSON_AddObjectToObject(o, "htod_us");
	for (i = 0; i < FLOOR_NCOPY; i++) {
		snprintf(k, sizeof(k), "%zu", floor_copy_bytes[i]);
		cJSON_AddNumberToObject(h, k, r->htod_us[i]);
	}
	cJSON_AddNumberToObject(o, "dtod_gbps", r->dtod_gbps);
	return o;
}
