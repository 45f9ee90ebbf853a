/* A stand-in libcuda.so.1 for tests without a GPU: it answers the Driver
 * API entry points git-campaign resolves with the values an NVIDIA H200
 * reported (tests/fixtures/nvidia-smi, tests/fixtures/cuda). Faults:
 *   CUDA_STUB_INIT_ERROR=N  cuInit returns N (100: CUDA_ERROR_NO_DEVICE)
 *   CUDA_STUB_DEVICES=N     N devices (default 1)
 *   CUDA_STUB_LOG=PATH      append the name of each call to PATH
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
	default:
		*s = NULL;
		return 1;
	}
}
