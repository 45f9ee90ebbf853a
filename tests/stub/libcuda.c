/* A stand-in libcuda.so.1 for tests without a GPU: it answers the Driver
 * API entry points git-campaign resolves with the values an NVIDIA H200
 * reported (tests/fixtures/nvidia-smi, tests/fixtures/cuda). Faults:
 *   CUDA_STUB_INIT_ERROR=N  cuInit returns N (100: CUDA_ERROR_NO_DEVICE)
 *   CUDA_STUB_DEVICES=N     N devices (default 1)
 *   CUDA_STUB_LOG=PATH      append the name of each call to PATH
 *   CUDA_STUB_FAIL=NAME:N   entry point NAME returns N (after
 *                           CUDA_STUB_FAIL_AFTER=K successful calls)
 * The floor's entry points (contexts, modules, launches, copies) do
 * nothing and succeed: a launch runs no kernel.
 * Built with -DSTUB_LEGACY_ONLY it lacks the _v2 entry points, as a driver
 * older than CUDA 3.2 would. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int CUresult;
typedef int CUdevice;
typedef struct {
	unsigned char bytes[16];
} CUuuid;

#define EXPORT __attribute__((visibility("default")))

static void logcall(const char *name)
{
	const char *path = getenv("CUDA_STUB_LOG");
	FILE *fp;

	if (!path || !(fp = fopen(path, "a")))
		return;
	fprintf(fp, "%s\n", name);
	fclose(fp);
}

static int ndevices(void)
{
	const char *n = getenv("CUDA_STUB_DEVICES");

	return n ? atoi(n) : 1;
}

static int initialised;

/* N when CUDA_STUB_FAIL names this entry point and its calls so far
 * passed CUDA_STUB_FAIL_AFTER, else 0 */
static CUresult fault(const char *name)
{
	const char *f = getenv("CUDA_STUB_FAIL");
	const char *after = getenv("CUDA_STUB_FAIL_AFTER");
	static long calls;
	size_t len = strlen(name);

	if (!f || strncmp(f, name, len) || f[len] != ':')
		return 0;
	if (after && calls++ < atol(after))
		return 0;
	return atoi(f + len + 1);
}

/* the device ordinal, or -1 when dev is not one */
static int check(CUdevice dev)
{
	if (!initialised)
		return -3; /* CUDA_ERROR_NOT_INITIALIZED */
	return dev >= 0 && dev < ndevices() ? 0 : -101;
}

EXPORT CUresult cuInit(unsigned int flags)
{
	const char *e = getenv("CUDA_STUB_INIT_ERROR");

	logcall("cuInit");
	if (flags)
		return 1;
	if (e && atoi(e))
		return atoi(e);
	initialised = 1;
	return 0;
}

EXPORT CUresult cuDriverGetVersion(int *v)
{
	*v = 13000;
	return 0;
}

EXPORT CUresult cuDeviceGetCount(int *n)
{
	if (!initialised)
		return 3;
	*n = ndevices();
	return 0;
}

EXPORT CUresult cuDeviceGet(CUdevice *dev, int ordinal)
{
	if (!initialised)
		return 3;
	if (ordinal < 0 || ordinal >= ndevices())
		return 101; /* CUDA_ERROR_INVALID_DEVICE */
	*dev = ordinal;
	return 0;
}

EXPORT CUresult cuDeviceGetName(char *name, int len, CUdevice dev)
{
	if (check(dev))
		return -check(dev);
	snprintf(name, (size_t)len, "%s", "NVIDIA H200");
	return 0;
}

/* GPU-58061743-7616-6814-3c7c-7c16f42112d0; device 1 ends in d1 */
static void uuid(CUuuid *u, CUdevice dev)
{
	static const unsigned char h200[16] = {
		0x58, 0x06, 0x17, 0x43, 0x76, 0x16, 0x68, 0x14,
		0x3c, 0x7c, 0x7c, 0x16, 0xf4, 0x21, 0x12, 0xd0,
	};

	memcpy(u->bytes, h200, 16);
	u->bytes[15] = (unsigned char)(u->bytes[15] + dev);
}

EXPORT CUresult cuDeviceGetUuid(CUuuid *u, CUdevice dev)
{
	if (check(dev))
		return -check(dev);
	uuid(u, dev);
	return 0;
}

#ifndef STUB_LEGACY_ONLY
EXPORT CUresult cuDeviceGetUuid_v2(CUuuid *u, CUdevice dev)
{
	if (check(dev))
		return -check(dev);
	uuid(u, dev);
	return 0;
}
#endif

EXPORT CUresult cuDeviceGetAttribute(int *v, int attrib, CUdevice dev)
{
	if (check(dev))
		return -check(dev);
	switch (attrib) {
	case 16: /* CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT */
		*v = 132;
		return 0;
	case 75: /* COMPUTE_CAPABILITY_MAJOR */
		*v = 9;
		return 0;
	case 76: /* COMPUTE_CAPABILITY_MINOR */
		*v = 0;
		return 0;
	default:
		return 1; /* CUDA_ERROR_INVALID_VALUE */
	}
}

/* The legacy ABI (CUDA 3.1): a 32-bit size. It answers a wrong value on
 * purpose, so that a caller that resolved it is caught. */
EXPORT CUresult cuDeviceTotalMem(unsigned int *bytes, CUdevice dev)
{
	logcall("cuDeviceTotalMem");
	if (check(dev))
		return -check(dev);
	*bytes = 0xffffffffu;
	return 0;
}

#ifndef STUB_LEGACY_ONLY
EXPORT CUresult cuDeviceTotalMem_v2(size_t *bytes, CUdevice dev)
{
	if (check(dev))
		return -check(dev);
	*bytes = (size_t)150109880320ULL;
	return 0;
}
#endif

/* the Driver API's form: a 4-digit domain */
EXPORT CUresult cuDeviceGetPCIBusId(char *id, int len, CUdevice dev)
{
	if (check(dev))
		return -check(dev);
	snprintf(id, (size_t)len, "0000:00:%02x.0", 6 + dev);
	return 0;
}

EXPORT CUresult cuGetErrorName(CUresult r, const char **s)
{
	switch (r) {
	case 3:
		*s = "CUDA_ERROR_NOT_INITIALIZED";
		return 0;
	case 100:
		*s = "CUDA_ERROR_NO_DEVICE";
		return 0;
	case 101:
		*s = "CUDA_ERROR_INVALID_DEVICE";
		return 0;
	case 2:
		*s = "CUDA_ERROR_OUT_OF_MEMORY";
		return 0;
	case 222:
		*s = "CUDA_ERROR_UNSUPPORTED_PTX_VERSION";
		return 0;
	case 700:
		*s = "CUDA_ERROR_ILLEGAL_ADDRESS";
		return 0;
	default:
		*s = NULL;
		return 1;
	}
}

EXPORT CUresult cuGetErrorString(CUresult r, const char **s)
{
	switch (r) {
	case 3:
		*s = "initialization error";
		return 0;
	case 100:
		*s = "no CUDA-capable device is detected";
		return 0;
	case 101:
		*s = "invalid device ordinal";
		return 0;
	case 2:
		*s = "out of memory";
		return 0;
	case 222:
		*s = "the provided PTX was compiled with an unsupported "
		     "toolchain.";
		return 0;
	case 700:
		*s = "an illegal memory access was encountered";
		return 0;
	default:
		*s = NULL;
		return 1;
	}
}

/* The floor: a context, a module, launches and copies that do nothing.
 * Handles are addresses of these. */
static int the_ctx, the_module, the_function;
static int current;

#define FAULT(name)                                                            \
	do {                                                                   \
		CUresult f_ = fault(name);                                     \
		if (f_)                                                        \
			return f_;                                             \
	} while (0)

EXPORT CUresult cuDevicePrimaryCtxRetain(void **ctx, CUdevice dev)
{
	logcall("cuDevicePrimaryCtxRetain");
	FAULT("cuDevicePrimaryCtxRetain");
	if (check(dev))
		return -check(dev);
	*ctx = &the_ctx;
	return 0;
}

EXPORT CUresult cuDevicePrimaryCtxRelease_v2(CUdevice dev)
{
	logcall("cuDevicePrimaryCtxRelease_v2");
	return check(dev) ? -check(dev) : 0;
}

EXPORT CUresult cuCtxSetCurrent(void *ctx)
{
	current = ctx != NULL;
	return 0;
}

/* cuCtxSynchronize_v2 is another API: a caller that resolved it fails */
EXPORT CUresult cuCtxSynchronize(void)
{
	FAULT("cuCtxSynchronize");
	return current ? 0 : 201; /* CUDA_ERROR_INVALID_CONTEXT */
}

EXPORT CUresult cuCtxSynchronize_v2(void *ctx)
{
	(void)ctx;
	logcall("cuCtxSynchronize_v2");
	return 1;
}

EXPORT CUresult cuModuleLoadData(void **mod, const void *image)
{
	logcall("cuModuleLoadData");
	FAULT("cuModuleLoadData");
	if (!current)
		return 201;
	if (!strstr((const char *)image, ".entry gcamp_empty"))
		return 218; /* CUDA_ERROR_INVALID_PTX */
	*mod = &the_module;
	return 0;
}

EXPORT CUresult cuModuleUnload(void *mod)
{
	logcall("cuModuleUnload");
	return mod == &the_module ? 0 : 400;
}

EXPORT CUresult cuModuleGetFunction(void **fn, void *mod, const char *name)
{
	if (mod != &the_module || strcmp(name, "gcamp_empty"))
		return 500; /* CUDA_ERROR_NOT_FOUND */
	*fn = &the_function;
	return 0;
}

EXPORT CUresult cuLaunchKernel(void *f, unsigned gx, unsigned gy, unsigned gz,
			       unsigned bx, unsigned by, unsigned bz,
			       unsigned shared, void *stream, void **params,
			       void **extra)
{
	(void)gx, (void)gy, (void)gz, (void)bx, (void)by, (void)bz;
	(void)shared, (void)stream, (void)params, (void)extra;
	FAULT("cuLaunchKernel");
	return f == &the_function ? 0 : 400; /* CUDA_ERROR_INVALID_HANDLE */
}

/* the legacy ABIs (32-bit pointers and sizes): fail loudly if resolved */
EXPORT CUresult cuMemAlloc(unsigned int *p, unsigned int bytes)
{
	(void)p, (void)bytes;
	logcall("cuMemAlloc");
	return 1;
}

EXPORT CUresult cuMemcpyHtoD(unsigned int dst, const void *src,
			     unsigned int bytes)
{
	(void)dst, (void)src, (void)bytes;
	logcall("cuMemcpyHtoD");
	return 1;
}

#ifndef STUB_LEGACY_ONLY
static unsigned long long next_ptr = 0x7f0000000000ULL;

EXPORT CUresult cuMemAlloc_v2(unsigned long long *p, size_t bytes)
{
	FAULT("cuMemAlloc_v2");
	if (!current)
		return 201;
	*p = next_ptr;
	next_ptr += (bytes + 0xfffff) & ~(size_t)0xfffff;
	return 0;
}

EXPORT CUresult cuMemFree_v2(unsigned long long p)
{
	logcall("cuMemFree_v2");
	return p ? 0 : 1;
}

EXPORT CUresult cuMemcpyHtoD_v2(unsigned long long dst, const void *src,
				size_t bytes)
{
	FAULT("cuMemcpyHtoD_v2");
	return dst && src && bytes ? 0 : 1;
}

EXPORT CUresult cuMemcpyDtoD_v2(unsigned long long dst, unsigned long long src,
				size_t bytes)
{
	FAULT("cuMemcpyDtoD_v2");
	return dst && src && bytes ? 0 : 1;
}
#endif
