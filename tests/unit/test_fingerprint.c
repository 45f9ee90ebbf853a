/* Unit tests for src/core/fingerprint and the pure parts of src/io/cuda and
 * src/core/hostinfo: canonical JSON, the env id, identity against info
 * keys, the differing keys, UUID and PCI bus id forms. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/machine/collect.h"
#include "core/machine/fingerprint.h"
#include "core/machine/label.h"
#include "io/cuda.h"
#include "io/hostinfo.h"
#include "util/xalloc.h"

/* the H200 of tests/fixtures/nvidia-smi, with a PTX backend */
static void h200_facts(struct fingerprint_facts *f)
{
	cJSON *g = cJSON_CreateObject();

	memset(f, 0, sizeof(*f));
	f->cpu_model = xstrdup("AMD EPYC 7B13");
	f->cpu_count = 64;
	f->os = xstrdup("Debian GNU/Linux 12 (bookworm)");
	f->kernel_release = xstrdup("6.1.0-28-amd64");
	f->machine = xstrdup("x86_64");
	f->hostname = xstrdup("gpu-node-3");
	f->libc = xstrdup("glibc 2.36");
	f->jdk_vendor = xstrdup("Debian");
	f->jdk_version = xstrdup("17.0.15");
	f->jdk_runtime = xstrdup("17.0.15+6-Debian-1deb12u1");
	f->backend = xstrdup("ptx");
	f->driver_version = xstrdup("580.159.04");
	f->cuda_driver_api = 13000;
	f->gpus = cJSON_CreateArray();
	cJSON_AddStringToObject(g, "name", "NVIDIA H200");
	cJSON_AddStringToObject(g, "uuid",
				"GPU-58061743-7616-6814-3c7c-7c16f42112d0");
	cJSON_AddStringToObject(g, "pci_device_id", "0x2335");
	cJSON_AddNumberToObject(g, "memory_bytes", 150109880320.0);
	cJSON_AddItemToArray(f->gpus, g);
}

static void canonical_json_sorts_and_packs(void **state)
{
	cJSON *a = cJSON_Parse("{\"b\": [1, 2.5, \"x\\\"y\"], \"a\": {\"z\": "
			       "true, \"c\": null}, \"n\": 150109880320}");
	cJSON *b = cJSON_Parse("{\"n\":150109880320,\"a\":{\"c\":null,\"z\":"
			       "true},\"b\":[1,2.5,\"x\\\"y\"]}");
	char *x = fingerprint_canonical_json(a);
	char *y = fingerprint_canonical_json(b);

	(void)state;
	assert_string_equal(x, "{\"a\":{\"c\":null,\"z\":true},\"b\":[1,2.5,"
			       "\"x\\\"y\"],\"n\":150109880320}");
	assert_string_equal(x, y);
	free(x);
	free(y);
	cJSON_Delete(a);
	cJSON_Delete(b);
}

static void id_is_sha256_of_canonical_identity(void **state)
{
	struct fingerprint_facts f;
	struct fingerprint fp;
	char *s;

	(void)state;
	h200_facts(&f);
	fingerprint_build(&fp, &f);
	s = fingerprint_canonical_json(fp.identity);
	/* exactly the identity keys, and nothing of info */
	assert_string_equal(
		s, "{\"backend\":\"ptx\",\"cpu_model\":\"AMD EPYC 7B13\","
		   "\"cuda_driver_api\":13000,\"driver_version\":"
		   "\"580.159.04\",\"gpu_count\":1,\"gpu_models\":[\"NVIDIA "
		   "H200\"],\"gpu_pci_device_ids\":[\"0x2335\"],"
		   "\"jdk_vendor\":\"Debian\",\"jdk_version\":\"17.0.15\","
		   "\"kernel\":\"6.1\",\"os\":\"Debian GNU/Linux 12 "
		   "(bookworm)\"}");
	/* printf '%s' "$s" | sha256sum, by hand: a change of the format
	 * changes every recorded id, so it must be deliberate */
	assert_string_equal(fp.id, "69fd7e4420adf64a");
	assert_int_equal(strlen(fp.id), FINGERPRINT_ID_LEN);
	free(s);
	fingerprint_release(&fp);
	fingerprint_facts_release(&f);
}

/* the id of f after change(f) */
static void id_after(char out[FINGERPRINT_ID_LEN + 1],
		     void (*change)(struct fingerprint_facts *))
{
	struct fingerprint_facts f;
	struct fingerprint fp;

	h200_facts(&f);
	if (change)
		change(&f);
	fingerprint_build(&fp, &f);
	memcpy(out, fp.id, FINGERPRINT_ID_LEN + 1);
	fingerprint_release(&fp);
	fingerprint_facts_release(&f);
}

static void set_str(char **p, const char *v)
{
	free(*p);
	*p = v ? xstrdup(v) : NULL;
}

static void new_hostname(struct fingerprint_facts *f)
{
	set_str(&f->hostname, "another-node");
	f->cpu_count = 8;
	set_str(&f->libc, "glibc 2.41");
	set_str(&f->jdk_runtime, "17.0.15+7");
}

static void kernel_patch(struct fingerprint_facts *f)
{
	set_str(&f->kernel_release, "6.1.0-31-amd64");
}

static void gpu_info_only(struct fingerprint_facts *f)
{
	cJSON *g = cJSON_GetArrayItem(f->gpus, 0);

	cJSON_ReplaceItemInObject(
		g, "uuid",
		cJSON_CreateString("GPU-00000000-0000-0000-0000-000000000000"));
	cJSON_ReplaceItemInObject(g, "memory_bytes", cJSON_CreateNumber(1.0));
}

static void other_backend(struct fingerprint_facts *f)
{
	set_str(&f->backend, "opencl");
}

static void no_backend(struct fingerprint_facts *f)
{
	set_str(&f->backend, NULL);
}

static void kernel_minor(struct fingerprint_facts *f)
{
	set_str(&f->kernel_release, "6.12.9-amd64");
}

static void other_jdk(struct fingerprint_facts *f)
{
	set_str(&f->jdk_version, "21.0.5");
}

static void other_driver(struct fingerprint_facts *f)
{
	set_str(&f->driver_version, "575.57.08");
}

static void two_gpus(struct fingerprint_facts *f)
{
	cJSON_AddItemToArray(
		f->gpus, cJSON_Duplicate(cJSON_GetArrayItem(f->gpus, 0), 1));
}

static void identity_changes_the_id_info_does_not(void **state)
{
	char base[17], id[17];
	void (*same[])(struct fingerprint_facts *) = {
		new_hostname, kernel_patch, gpu_info_only};
	void (*differ[])(struct fingerprint_facts *) = {
		other_backend, no_backend,   kernel_minor,
		other_jdk,     other_driver, two_gpus};
	size_t i;

	(void)state;
	id_after(base, NULL);
	for (i = 0; i < sizeof(same) / sizeof(*same); i++) {
		id_after(id, same[i]);
		assert_string_equal(id, base);
	}
	for (i = 0; i < sizeof(differ) / sizeof(*differ); i++) {
		id_after(id, differ[i]);
		assert_string_not_equal(id, base);
	}
}

static void info_keeps_what_identity_leaves_out(void **state)
{
	struct fingerprint_facts f;
	struct fingerprint fp;
	const cJSON *g;

	(void)state;
	h200_facts(&f);
	fingerprint_build(&fp, &f);
	assert_string_equal(
		cJSON_GetObjectItem(fp.info, "hostname")->valuestring,
		"gpu-node-3");
	assert_string_equal(
		cJSON_GetObjectItem(fp.info, "kernel_release")->valuestring,
		"6.1.0-28-amd64");
	assert_null(cJSON_GetObjectItem(fp.identity, "hostname"));
	g = cJSON_GetArrayItem(cJSON_GetObjectItem(fp.info, "gpus"), 0);
	assert_string_equal(cJSON_GetObjectItem(g, "uuid")->valuestring,
			    "GPU-58061743-7616-6814-3c7c-7c16f42112d0");
	fingerprint_release(&fp);
	fingerprint_facts_release(&f);
}

static void no_gpu_is_a_count_of_zero(void **state)
{
	struct fingerprint_facts f;
	struct fingerprint fp;

	(void)state;
	h200_facts(&f);
	cJSON_Delete(f.gpus);
	f.gpus = NULL;
	f.gpu_error = xstrdup("libcuda.so.1: cannot open shared object file");
	fingerprint_build(&fp, &f);
	assert_int_equal(
		cJSON_GetObjectItem(fp.identity, "gpu_count")->valueint, 0);
	assert_null(cJSON_GetObjectItem(fp.identity, "gpu_models"));
	assert_string_equal(
		cJSON_GetObjectItem(fp.info, "gpu_error")->valuestring,
		"libcuda.so.1: cannot open shared object file");
	fingerprint_release(&fp);
	fingerprint_facts_release(&f);
}

/* machine_label of the fingerprint facts f make */
static void label_of(struct buf *out, struct fingerprint_facts *f)
{
	struct fingerprint fp;
	cJSON *j;

	fingerprint_build(&fp, f);
	j = fingerprint_to_json(&fp);
	machine_label(out, j, fp.id);
	cJSON_Delete(j);
	fingerprint_release(&fp);
	fingerprint_facts_release(f);
}

static void label_names_the_machine_from_its_identity_only(void **state)
{
	struct fingerprint_facts f;
	struct buf b = BUF_INIT;

	(void)state;
	h200_facts(&f);
	label_of(&b, &f);
	assert_string_equal(b.ptr,
			    "AMD EPYC 7B13, Debian GNU/Linux 12 "
			    "(bookworm), GPU NVIDIA H200, driver "
			    "580.159.04, JDK Debian 17.0.15, backend ptx");
	/* why there is no GPU is an info key, with this machine's path: the
	 * same env is labelled alike everywhere */
	buf_reset(&b);
	h200_facts(&f);
	cJSON_Delete(f.gpus);
	f.gpus = NULL;
	f.gpu_error = xstrdup("/opt/x/libcuda.so.1: cannot open shared object");
	free(f.backend);
	f.backend = NULL;
	label_of(&b, &f);
	assert_string_equal(b.ptr, "AMD EPYC 7B13, Debian GNU/Linux 12 "
				   "(bookworm), no GPU, JDK Debian 17.0.15, "
				   "backend none");
	buf_reset(&b);
	machine_label(&b, NULL, "0123456789abcdef");
	assert_string_equal(b.ptr, "env 0123456789abcdef");
	buf_release(&b);
}

static void diff_names_the_identity_keys(void **state)
{
	struct fingerprint_facts f;
	struct fingerprint a, b;
	struct strvec keys = STRVEC_INIT;
	cJSON *ja, *jb;

	(void)state;
	h200_facts(&f);
	fingerprint_build(&a, &f);
	set_str(&f.backend, "opencl");
	set_str(&f.jdk_vendor, NULL);
	set_str(&f.hostname, "elsewhere");
	fingerprint_build(&b, &f);
	ja = fingerprint_to_json(&a);
	jb = fingerprint_to_json(&b);
	fingerprint_diff_keys(&keys, ja, jb);
	assert_int_equal(keys.nr, 2);
	assert_string_equal(keys.v[0], "backend");
	assert_string_equal(keys.v[1], "jdk_vendor");
	strvec_clear(&keys);
	/* bare identity objects work too; equal ones differ in nothing */
	fingerprint_diff_keys(&keys, a.identity, a.identity);
	assert_int_equal(keys.nr, 0);
	fingerprint_diff_keys(&keys, jb, a.identity);
	assert_int_equal(keys.nr, 2);
	strvec_clear(&keys);
	cJSON_Delete(ja);
	cJSON_Delete(jb);
	fingerprint_release(&a);
	fingerprint_release(&b);
	fingerprint_facts_release(&f);
}

static void uuid_and_bus_id_as_nvidia_smi_prints_them(void **state)
{
	struct cuda_uuid u = {{0x58, 0x06, 0x17, 0x43, 0x76, 0x16, 0x68, 0x14,
			       0x3c, 0x7c, 0x7c, 0x16, 0xf4, 0x21, 0x12, 0xd0}};
	char out[48];

	(void)state;
	cuda_format_uuid(out, &u, "GPU");
	assert_string_equal(out, "GPU-58061743-7616-6814-3c7c-7c16f42112d0");
	assert_int_equal(cuda_normalize_bus_id(out, "0000:00:06.0"), 0);
	assert_string_equal(out, "00000000:00:06.0");
	assert_int_equal(cuda_normalize_bus_id(out, "0000:3b:00.0"), 0);
	assert_string_equal(out, "00000000:3B:00.0");
	assert_int_equal(cuda_normalize_bus_id(out, "00000000:3B:00.0"), 0);
	assert_string_equal(out, "00000000:3B:00.0");
	assert_int_equal(cuda_normalize_bus_id(out, "garbage"), -1);
	assert_int_equal(cuda_normalize_bus_id(out, "0000:00:06.0x"), -1);
}

static void kernel_major_minor(void **state)
{
	char *k;

	(void)state;
	k = host_kernel_major("6.1.0-28-amd64");
	assert_string_equal(k, "6.1");
	free(k);
	k = host_kernel_major("6.18.44-fc-v782");
	assert_string_equal(k, "6.18");
	free(k);
	k = host_kernel_major("5");
	assert_string_equal(k, "5");
	free(k);
}

static void backend_names(void **state)
{
	struct error err = ERROR_INIT;

	(void)state;
	assert_int_equal(fingerprint_check_backend("ptx", &err), 0);
	assert_int_equal(fingerprint_check_backend("spirv-1.2_x", &err), 0);
	assert_int_equal(fingerprint_check_backend("", &err), GCAMP_EUSAGE);
	error_clear(&err);
	assert_int_equal(fingerprint_check_backend("a b", &err), GCAMP_EUSAGE);
	assert_string_equal(err.msg, "'a b' is not a backend name (letters, "
				     "digits, '.', '_', '-')");
}

static char dir[] = "/tmp/gcamp-test-fingerprint-XXXXXX";

/* a fresh repository in dir, which GIT_DIR names; the database a file */
static int make_repo(void **state)
{
	git_repository *repo = NULL;
	char path[256];

	(void)state;
	if (!mkdtemp(dir))
		return -1;
	git_libgit2_init();
	if (git_repository_init(&repo, dir, 0) < 0)
		return -1;
	git_repository_free(repo);
	snprintf(path, sizeof(path), "%s/.git", dir);
	setenv("GIT_DIR", path, 1);
	snprintf(path, sizeof(path), "%s/campaign.db", dir);
	setenv("GIT_CAMPAIGN_DB", path, 1);
	snprintf(path, sizeof(path), "%s/no-libcuda.so.1", dir);
	setenv("GIT_CAMPAIGN_LIBCUDA", path, 1);
	return 0;
}

static int remove_repo(void **state)
{
	char cmd[128];

	(void)state;
	git_libgit2_shutdown();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static const char *id_of(const cJSON *j)
{
	return cJSON_GetObjectItem(j, "id")->valuestring;
}

static void current_id_stores_and_loads_back(void **state)
{
	char ptx[FINGERPRINT_ID_LEN + 1], ocl[FINGERPRINT_ID_LEN + 1];
	struct strvec keys = STRVEC_INIT;
	struct ctx ctx = CTX_INIT;
	cJSON *a = NULL, *b = NULL, *r = NULL;
	char path[256], *x, *y;

	(void)state;
	assert_int_equal(fingerprint_current_id(ptx, &ctx, "ptx"), 0);
	assert_int_equal(strlen(ptx), FINGERPRINT_ID_LEN);
	assert_int_equal(fingerprint_current_id(ocl, &ctx, "opencl"), 0);
	assert_string_not_equal(ptx, ocl);
	/* from the database */
	assert_int_equal(fingerprint_load_json(&a, &ctx, ptx), 0);
	assert_int_equal(fingerprint_load_json(&b, &ctx, ocl), 0);
	assert_string_equal(id_of(a), ptx);
	assert_string_equal(
		cJSON_GetObjectItem(cJSON_GetObjectItem(a, "identity"),
				    "backend")
			->valuestring,
		"ptx");
	fingerprint_diff_keys(&keys, a, b);
	assert_int_equal(keys.nr, 1);
	assert_string_equal(keys.v[0], "backend");
	strvec_clear(&keys);
	ctx_release(&ctx);

	/* without the database: from refs/campaign/env/<id> */
	snprintf(path, sizeof(path), "%s/campaign.db", dir);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(fingerprint_load_json(&r, &ctx, ptx), 0);
	assert_string_equal(id_of(r), ptx);
	x = fingerprint_canonical_json(cJSON_GetObjectItem(r, "identity"));
	y = fingerprint_canonical_json(cJSON_GetObjectItem(a, "identity"));
	assert_string_equal(x, y);
	free(x);
	free(y);
	cJSON_Delete(r);
	/* the same id again: stable */
	assert_int_equal(fingerprint_current_id(ocl, &ctx, "ptx"), 0);
	assert_string_equal(ocl, ptx);

	assert_int_equal(fingerprint_load_json(&r, &ctx, "0123456789abcdef"),
			 GCAMP_ENOTFOUND);
	assert_string_equal(ctx.err.msg, "no environment '0123456789abcdef'");
	assert_null(r);
	error_clear(&ctx.err);
	assert_int_equal(fingerprint_load_json(&r, &ctx, "../x"),
			 GCAMP_ENOTFOUND);
	assert_string_equal(ctx.err.msg, "'../x' is not an environment id");
	cJSON_Delete(a);
	cJSON_Delete(b);
	ctx_release(&ctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(canonical_json_sorts_and_packs),
		cmocka_unit_test(id_is_sha256_of_canonical_identity),
		cmocka_unit_test(identity_changes_the_id_info_does_not),
		cmocka_unit_test(info_keeps_what_identity_leaves_out),
		cmocka_unit_test(no_gpu_is_a_count_of_zero),
		cmocka_unit_test(
			label_names_the_machine_from_its_identity_only),
		cmocka_unit_test(diff_names_the_identity_keys),
		cmocka_unit_test(uuid_and_bus_id_as_nvidia_smi_prints_them),
		cmocka_unit_test(kernel_major_minor),
		cmocka_unit_test(backend_names),
		cmocka_unit_test(current_id_stores_and_loads_back),
	};

	return cmocka_run_group_tests(tests, make_repo, remove_repo);
}
