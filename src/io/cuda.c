/* The CUDA Driver API through dlopen: the symbol table, error translation
 * and the device queries the fingerprint needs. */
#define _GNU_SOURCE /* dladdr */
#include "io/cuda.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/trace.h"
#include "util/xalloc.h"

struct cuda {
	void *dl;
	char *path;
	int initialised;
	struct cuda_api api;
};

/*
 * The ABI symbol of each entry point. cuda.h turns API names into these
 * with macros, so a program built against it never calls the plain legacy
 * symbols: cuDeviceTotalMem (32-bit size), cuCtxCreate, cuMemAlloc,
 * cuMemcpyHtoD and friends are the CUDA 3.1 ABIs, kept in the library for
 * old binaries, and report wrong values to a caller that passes today's
 * types. Some _v2 names are the opposite, newer APIs with other semantics
 * (cuCtxSynchronize_v2), so never append "_v2" by rule: copy the name
 * from cuda.h. The floor's entry points are optional: a driver without
 * them still gives a fingerprint (cuda_require names the missing one).
 */
static const struct cuda_sym {
	const char *abi;
	size_t offset;
	int required;
} syms[] = {
	{"cuInit", offsetof(struct cuda_api, cuInit), 1},
	{"cuDriverGetVersion", offsetof(struct cuda_api, cuDriverGetVersion),
	 1},
	{"cuDeviceGetCount", offsetof(struct cuda_api, cuDeviceGetCount), 1},
	{"cuDeviceGet", offsetof(struct cuda_api, cuDeviceGet), 1},
	{"cuDeviceGetName", offsetof(struct cuda_api, cuDeviceGetName), 1},
	{"cuDeviceGetAttribute",
	 offsetof(struct cuda_api, cuDeviceGetAttribute), 1},
	{"cuDeviceTotalMem_v2", offsetof(struct cuda_api, cuDeviceTotalMem), 1},
	{"cuDeviceGetPCIBusId", offsetof(struct cuda_api, cuDeviceGetPCIBusId),
	 1},
	{"cuDeviceGetUuid_v2", offsetof(struct cuda_api, cuDeviceGetUuid_v2),
	 0},
	{"cuDeviceGetUuid", offsetof(struct cuda_api, cuDeviceGetUuid), 0},
	{"cuGetErrorName", offsetof(struct cuda_api, cuGetErrorName), 0},
	{"cuGetErrorString", offsetof(struct cuda_api, cuGetErrorString), 0},
#define FLOOR(abi, member)                                                     \
	{                                                                      \
		abi, offsetof(struct cuda_api, member), 0                      \
	}
	FLOOR("cuDevicePrimaryCtxRetain", cuDevicePrimaryCtxRetain),
	FLOOR("cuDevicePrimaryCtxRelease_v2", cuDevicePrimaryCtxRelease),
	FLOOR("cuCtxSetCurrent", cuCtxSetCurrent),
	FLOOR("cuCtxSynchronize", cuCtxSynchronize),
	FLOOR("cuModuleLoadData", cuModuleLoadData),
	FLOOR("cuModuleUnload", cuModuleUnload),
	FLOOR("cuModuleGetFunction", cuModuleGetFunction),
	FLOOR("cuLaunchKernel", cuLaunchKernel),
	FLOOR("cuMemAlloc_v2", cuMemAlloc),
	FLOOR("cuMemFree_v2", cuMemFree),
	FLOOR("cuMemcpyHtoD_v2", cuMemcpyHtoD),
	FLOOR("cuMemcpyDtoD_v2", cuMemcpyDtoD),
#undef FLOOR
};

int cuda_require_floor(const struct cuda *cu, struct error *err)
{
	size_t i;

	for (i = 0; i < sizeof(syms) / sizeof(*syms); i++) {
		void *fn;

		if (syms[i].offset <
		    offsetof(struct cuda_api, cuDevicePrimaryCtxRetain))
			continue;
		memcpy(&fn, (const char *)&cu->api + syms[i].offset,
		       sizeof(fn));
		if (!fn)
			return error_set(err, GCAMP_EFATAL,
					 "%s: no entry point '%s' (the driver "
					 "is too old)",
					 cu->path, syms[i].abi);
	}
	return 0;
}

int cuda_open(struct cuda **out, struct error *err)
{
	const char *env = getenv("GIT_CAMPAIGN_LIBCUDA");
	const char *name = env && *env ? env : "libcuda.so.1";
	struct cuda *cu = xcalloc(1, sizeof(*cu));
	const char *why;
	Dl_info info;
	size_t i;
	int rc = 0;

	*out = NULL;
	dlerror();
	cu->dl = dlopen(name, RTLD_NOW | RTLD_LOCAL);
	if (!cu->dl) {
		why = dlerror();
		rc = error_set(err, GCAMP_ENOTFOUND, "%s",
			       why ? why : "cannot load libcuda");
		goto out;
	}
	for (i = 0; i < sizeof(syms) / sizeof(*syms); i++) {
		void *fn = dlsym(cu->dl, syms[i].abi);

		if (!fn && syms[i].required) {
			rc = error_set(err, GCAMP_EFATAL,
				       "%s: no entry point '%s' (the driver "
				       "is too old)",
				       name, syms[i].abi);
			goto out;
		}
		/* POSIX: a data pointer from dlsym converts to a function
		 * pointer of the same size */
		memcpy((char *)&cu->api + syms[i].offset, &fn, sizeof(fn));
	}
	if (dladdr((void *)cu->api.cuInit, &info) && info.dli_fname)
		cu->path = xstrdup(info.dli_fname);
	else
		cu->path = xstrdup(name);
	trace_printf("cuda: loaded %s", cu->path);
out:
	if (rc < 0) {
		cuda_close(cu);
		return rc;
	}
	*out = cu;
	return 0;
}

const char *cuda_path(const struct cuda *cu)
{
	return cu->path;
}

const struct cuda_api *cuda_api(const struct cuda *cu)
{
	return &cu->api;
}

int cuda_check(const struct cuda *cu, cuda_result r, const char *what,
	       struct error *err)
{
	const char *name = NULL, *text = NULL;

	if (r == CUDA_SUCCESS)
		return 0;
	if (cu->api.cuGetErrorName && cu->api.cuGetErrorName(r, &name))
		name = NULL;
	if (cu->api.cuGetErrorString && cu->api.cuGetErrorString(r, &text))
		text = NULL;
	if (name && text)
		return error_set(err, GCAMP_EFATAL, "%s failed: %s (%s)", what,
				 name, text);
	if (name)
		return error_set(err, GCAMP_EFATAL, "%s failed: %s", what,
				 name);
	return error_set(err, GCAMP_EFATAL, "%s failed: CUDA error %d", what,
			 r);
}

int cuda_init(struct cuda *cu, struct error *err)
{
	cuda_result r = cu->api.cuInit(0);

	/* even a failed cuInit may have started driver threads */
	cu->initialised = 1;
	return cuda_check(cu, r, "cuInit", err);
}

int cuda_driver_version(int *out, struct cuda *cu, struct error *err)
{
	*out = 0;
	return cuda_check(cu, cu->api.cuDriverGetVersion(out),
			  "cuDriverGetVersion", err);
}

int cuda_device_count(int *out, struct cuda *cu, struct error *err)
{
	*out = 0;
	return cuda_check(cu, cu->api.cuDeviceGetCount(out), "cuDeviceGetCount",
			  err);
}

void cuda_format_uuid(char *out, const struct cuda_uuid *u, const char *prefix)
{
	const unsigned char *b = u->bytes;

	snprintf(out, 48,
		 "%s-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-"
		 "%02x%02x%02x%02x%02x%02x",
		 prefix, b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8],
		 b[9], b[10], b[11], b[12], b[13], b[14], b[15]);
}

/* Hex digits up to a separator (sep, or the end when sep is 0) at *p. */
static int hex_field(unsigned int *out, const char **p, char sep, size_t maxlen)
{
	size_t n = strspn(*p, "0123456789abcdefABCDEF");

	if (!n || n > maxlen || (*p)[n] != sep)
		return -1;
	*out = (unsigned int)strtoul(*p, NULL, 16);
	*p += n + (sep ? 1 : 0);
	return 0;
}

int cuda_normalize_bus_id(char *out, const char *in)
{
	unsigned int dom, bus, dev, fn;
	const char *p = in;

	/* sscanf's %x would take "0x", signs and blanks */
	if (hex_field(&dom, &p, ':', 8) < 0 ||
	    hex_field(&bus, &p, ':', 2) < 0 ||
	    hex_field(&dev, &p, '.', 2) < 0 ||
	    hex_field(&fn, &p, '\0', 1) < 0 || dev > 0x1f || fn > 7)
		return -1;
	snprintf(out, 32, "%08X:%02X:%02X.%X", dom, bus, dev, fn);
	return 0;
}

/* The UUIDs of dev: the physical GPU's, and a MIG instance's when the
 * newer entry point reports a different one. */
static int device_uuid(struct cuda_device_info *out, struct cuda *cu,
		       cuda_dev dev, struct error *err)
{
	struct cuda_uuid phys, inst;
	int have_phys = 0, have_inst = 0, rc;

	if (cu->api.cuDeviceGetUuid) {
		if ((rc = cuda_check(cu, cu->api.cuDeviceGetUuid(&phys, dev),
				     "cuDeviceGetUuid", err)) < 0)
			return rc;
		have_phys = 1;
	}
	if (cu->api.cuDeviceGetUuid_v2) {
		if ((rc = cuda_check(cu, cu->api.cuDeviceGetUuid_v2(&inst, dev),
				     "cuDeviceGetUuid_v2", err)) < 0)
			return rc;
		have_inst = 1;
	}
	if (have_phys)
		cuda_format_uuid(out->uuid, &phys, "GPU");
	else if (have_inst)
		cuda_format_uuid(out->uuid, &inst, "GPU");
	if (have_phys && have_inst && memcmp(&phys, &inst, sizeof(phys)))
		cuda_format_uuid(out->mig_uuid, &inst, "MIG");
	return 0;
}

int cuda_device_info(struct cuda_device_info *out, struct cuda *cu, int ordinal,
		     struct error *err)
{
	const struct cuda_api *a = &cu->api;
	char bus[64] = "";
	size_t mem = 0;
	cuda_dev dev = 0;
	int rc;

	memset(out, 0, sizeof(*out));
	out->ordinal = ordinal;
	if ((rc = cuda_check(cu, a->cuDeviceGet(&dev, ordinal), "cuDeviceGet",
			     err)) < 0 ||
	    (rc = cuda_check(cu,
			     a->cuDeviceGetName(out->name,
						(int)sizeof(out->name) - 1,
						dev),
			     "cuDeviceGetName", err)) < 0 ||
	    (rc = device_uuid(out, cu, dev, err)) < 0 ||
	    (rc = cuda_check(cu,
			     a->cuDeviceGetAttribute(
				     &out->cc_major,
				     CUDA_ATTR_COMPUTE_CAPABILITY_MAJOR, dev),
			     "cuDeviceGetAttribute", err)) < 0 ||
	    (rc = cuda_check(cu,
			     a->cuDeviceGetAttribute(
				     &out->cc_minor,
				     CUDA_ATTR_COMPUTE_CAPABILITY_MINOR, dev),
			     "cuDeviceGetAttribute", err)) < 0 ||
	    (rc = cuda_check(cu,
			     a->cuDeviceGetAttribute(
				     &out->sm_count,
				     CUDA_ATTR_MULTIPROCESSOR_COUNT, dev),
			     "cuDeviceGetAttribute", err)) < 0 ||
	    (rc = cuda_check(cu, a->cuDeviceTotalMem(&mem, dev),
			     "cuDeviceTotalMem_v2", err)) < 0 ||
	    (rc = cuda_check(
		     cu, a->cuDeviceGetPCIBusId(bus, (int)sizeof(bus) - 1, dev),
		     "cuDeviceGetPCIBusId", err)) < 0)
		return rc;
	out->memory = mem;
	if (cuda_normalize_bus_id(out->pci_bus_id, bus) < 0)
		snprintf(out->pci_bus_id, sizeof(out->pci_bus_id), "%.31s",
			 bus);
	return 0;
}

void cuda_close(struct cuda *cu)
{
	if (!cu)
		return;
	if (cu->dl && !cu->initialised)
		dlclose(cu->dl);
	free(cu->path);
	free(cu);
}
