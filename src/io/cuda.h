/* The CUDA Driver API, loaded with dlopen at run time: the binary neither
 * links libcuda nor needs CUDA's headers, and runs where there is no GPU.
 * Every entry point is resolved under the ABI name that cuda.h maps its API
 * name to (cuDeviceTotalMem is cuDeviceTotalMem_v2: the plain name is a
 * legacy ABI with a 32-bit size). */
#ifndef GCAMP_CUDA_H
#define GCAMP_CUDA_H

#include <stddef.h>

#include "util/error.h"

/* The few CUDA types we need, declared as cuda.h declares them. */
typedef int cuda_result; /* CUresult; 0 is CUDA_SUCCESS */
typedef int cuda_dev;	 /* CUdevice */
struct cuda_uuid {
	unsigned char bytes[16]; /* CUuuid */
};
typedef void *cuda_ctx;			/* CUcontext */
typedef void *cuda_module;		/* CUmodule */
typedef void *cuda_function;		/* CUfunction */
typedef void *cuda_stream;		/* CUstream; NULL: the legacy one */
typedef unsigned long long cuda_devptr; /* CUdeviceptr (_v2: 64 bits) */

enum {
	CUDA_SUCCESS = 0,
	CUDA_ERROR_NO_DEVICE = 100,
	/* CUdevice_attribute values */
	CUDA_ATTR_MULTIPROCESSOR_COUNT = 16,
	CUDA_ATTR_COMPUTE_CAPABILITY_MAJOR = 75,
	CUDA_ATTR_COMPUTE_CAPABILITY_MINOR = 76,
};

/*
 * The resolved entry points. Members carry the API names (as code written
 * against cuda.h calls them); the comment names the ABI symbol resolved. A
 * new entry point is one member here and one row in the table in cuda.c.
 * Optional ones are NULL when the driver lacks them.
 */
struct cuda_api {
	cuda_result (*cuInit)(unsigned int flags);
	cuda_result (*cuDriverGetVersion)(int *version);
	cuda_result (*cuDeviceGetCount)(int *count);
	cuda_result (*cuDeviceGet)(cuda_dev *dev, int ordinal);
	cuda_result (*cuDeviceGetName)(char *name, int len, cuda_dev dev);
	cuda_result (*cuDeviceGetAttribute)(int *value, int attrib,
					    cuda_dev dev);
	/* cuDeviceTotalMem_v2 */
	cuda_result (*cuDeviceTotalMem)(size_t *bytes, cuda_dev dev);
	cuda_result (*cuDeviceGetPCIBusId)(char *id, int len, cuda_dev dev);
	/* cuDeviceGetUuid_v2, what cuda.h 13 maps cuDeviceGetUuid to (a MIG
	 * instance's own UUID in MIG mode); optional, drivers before 11.4
	 * lack it */
	cuda_result (*cuDeviceGetUuid_v2)(struct cuda_uuid *uuid, cuda_dev dev);
	/* cuDeviceGetUuid, cuda.h 12's mapping: the physical GPU's UUID, as
	 * nvidia-smi prints it; optional (removed from cuda.h 13) */
	cuda_result (*cuDeviceGetUuid)(struct cuda_uuid *uuid, cuda_dev dev);
	/* optional: error names and texts */
	cuda_result (*cuGetErrorName)(cuda_result r, const char **name);
	cuda_result (*cuGetErrorString)(cuda_result r, const char **text);
	/* The floor (core/probe/floor.h). The primary context is the one every
	 * runtime-API program shares; retaining it changes no device
	 * setting. */
	cuda_result (*cuDevicePrimaryCtxRetain)(cuda_ctx *ctx, cuda_dev dev);
	/* cuDevicePrimaryCtxRelease_v2 */
	cuda_result (*cuDevicePrimaryCtxRelease)(cuda_dev dev);
	cuda_result (*cuCtxSetCurrent)(cuda_ctx ctx);
	/* cuCtxSynchronize: NOT cuCtxSynchronize_v2, a newer API */
	cuda_result (*cuCtxSynchronize)(void);
	cuda_result (*cuModuleLoadData)(cuda_module *mod, const void *image);
	cuda_result (*cuModuleUnload)(cuda_module mod);
	cuda_result (*cuModuleGetFunction)(cuda_function *fn, cuda_module mod,
					   const char *name);
	cuda_result (*cuLaunchKernel)(cuda_function f, unsigned int gx,
				      unsigned int gy, unsigned int gz,
				      unsigned int bx, unsigned int by,
				      unsigned int bz, unsigned int shared,
				      cuda_stream stream, void **params,
				      void **extra);
	/* cuMemAlloc_v2 */
	cuda_result (*cuMemAlloc)(cuda_devptr *ptr, size_t bytes);
	/* cuMemFree_v2 */
	cuda_result (*cuMemFree)(cuda_devptr ptr);
	/* cuMemcpyHtoD_v2 */
	cuda_result (*cuMemcpyHtoD)(cuda_devptr dst, const void *src,
				    size_t bytes);
	/* cuMemcpyDtoD_v2 */
	cuda_result (*cuMemcpyDtoD)(cuda_devptr dst, cuda_devptr src,
				    size_t bytes);
};

struct cuda;

/* One GPU as the Driver API reports it. */
struct cuda_device_info {
	int ordinal;
	char name[256];
	char uuid[48];	   /* "GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx" */
	char mig_uuid[48]; /* "MIG-..." when a MIG instance, else "" */
	int cc_major, cc_minor;
	int sm_count;
	unsigned long long memory; /* bytes, from cuDeviceTotalMem_v2 */
	char pci_bus_id[32];	   /* "00000000:00:06.0", as nvidia-smi */
};

/*
 * Loads the driver library: GIT_CAMPAIGN_LIBCUDA when set, else
 * "libcuda.so.1" from the dynamic linker's search path, and resolves the
 * entry points. It does not call cuInit. Errors (never fatal to a
 * command; the message is the reason to show): a library that cannot be
 * loaded (dlerror's text), a required entry point missing. The caller
 * frees *out with cuda_close().
 */
int cuda_open(struct cuda **out, struct error *err);
/* 0 when every entry point of the floor was resolved, else GCAMP_EFATAL
 * naming the first missing one. */
int cuda_require_floor(const struct cuda *cu, struct error *err);
/* The file actually loaded (resolved by the dynamic linker), borrowed. */
const char *cuda_path(const struct cuda *cu);
/* The resolved entry points, borrowed for cu's lifetime. */
const struct cuda_api *cuda_api(const struct cuda *cu);
/* cuInit(0); a failure reads "cuInit failed: CUDA_ERROR_NO_DEVICE (no
 * CUDA-capable device is detected)". Must precede the calls below. */
int cuda_init(struct cuda *cu, struct error *err);
/* Records a CUresult that is not CUDA_SUCCESS as "WHAT failed: NAME
 * (TEXT)", the one place driver errors are translated; returns
 * GCAMP_EFATAL, or 0 for CUDA_SUCCESS. */
int cuda_check(const struct cuda *cu, cuda_result r, const char *what,
	       struct error *err);
/* cuDriverGetVersion: 13000 for CUDA 13.0. */
int cuda_driver_version(int *out, struct cuda *cu, struct error *err);
/* cuDeviceGetCount. */
int cuda_device_count(int *out, struct cuda *cu, struct error *err);
/* Everything above about device `ordinal`. */
int cuda_device_info(struct cuda_device_info *out, struct cuda *cu, int ordinal,
		     struct error *err);
/* Releases cu. The library stays loaded once cuInit ran: the driver's
 * threads outlive the context, and unloading it under them can crash.
 * Accepts NULL. */
void cuda_close(struct cuda *cu);

/* "PREFIX-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx" from 16 bytes, as nvidia-smi
 * prints UUIDs. out holds at least 48 bytes. */
void cuda_format_uuid(char *out, const struct cuda_uuid *u, const char *prefix);
/* A PCI bus id as nvidia-smi prints it, "%08X:%02X:%02X.%X" (the Driver
 * API gives a 4-digit domain): -1 when in is not DOMAIN:BUS:DEV.FN. out
 * holds at least 32 bytes. */
int cuda_normalize_bus_id(char *out, const char *in);

#endif
