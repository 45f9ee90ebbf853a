/* Unit tests for the pure parts of src/core/probe/floor.c and
 * src/core/probe/counters.c: the floor's records and JSON, the parsing of the
 * driver's params and /proc/self/status, and which stored floor is an
 * env's (a database file named by GIT_CAMPAIGN_DB). The measurement itself
 * runs against the stand-in libcuda in tests/e2e/56-floor.bats. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/ctx.h"
#include "core/measure/stored.h"
#include "core/probe/floor.h"
#include "core/probe/counters.h"
#include "util/buf.h"

/* the figures one H200 gave (tests/gpu/h200-verify.sh) */
static const struct floor_result h200 = {
	0, 124.0, 10000, 8.76, 8.24, 10.09, 3.85, {5.08, 6.23, 15.75}, 4202.0,
};

static const struct record *find(const struct record *r, size_t n,
				 const char *metric)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(r[i].metric, metric))
			return &r[i];
	return NULL;
}

static void records_are_complete_and_tagged(void **state)
{
	struct error err = ERROR_INIT;
	struct record *recs = NULL;
	struct buf b = BUF_INIT;
	const struct record *r;
	size_t n = 0, i;

	(void)state;
	floor_records(&recs, &n, &h200, "ca992b85984e6391", "0a4bbc4adc557459",
		      "2026-11-30T00:18:23Z");
	assert_int_equal(n, 9);
	for (i = 0; i < n; i++) {
		buf_reset(&b);
		assert_int_equal(record_encode(&b, &recs[i], &err), 0);
		assert_string_equal(record_config_get(&recs[i], "kind"),
				    "floor");
		assert_string_equal(record_config_get(&recs[i], "device"), "0");
		assert_string_equal(recs[i].env, "ca992b85984e6391");
		assert_string_equal(recs[i].source, "floor");
	}
	r = find(recs, n, "floor.launch_sync");
	assert_non_null(r);
	assert_true(r->value == 8.76);
	assert_string_equal(r->stat, "median");
	assert_int_equal(r->n, 10000);
	assert_string_equal(r->better, "lower");
	r = find(recs, n, "floor.htod_2KiB");
	assert_non_null(r);
	assert_true(r->value == 6.23);
	r = find(recs, n, "floor.dtod_bandwidth");
	assert_non_null(r);
	assert_string_equal(r->unit, "GB/s");
	assert_string_equal(r->better, "higher");
	assert_non_null(find(recs, n, "floor.launch_sync_p90"));
	assert_non_null(find(recs, n, "floor.module_load"));
	for (i = 0; i < n; i++)
		record_release(&recs[i]);
	free(recs);
	buf_release(&b);
}

static void json_names_the_copies_by_bytes(void **state)
{
	cJSON *j = floor_to_json(&h200);
	const cJSON *h = cJSON_GetObjectItem(j, "htod_us");

	(void)state;
	assert_true(cJSON_GetObjectItem(h, "24")->valuedouble == 5.08);
	assert_true(cJSON_GetObjectItem(h, "65536")->valuedouble == 15.75);
	assert_true(cJSON_GetObjectItem(
			    cJSON_GetObjectItem(j, "launch_sync_us"), "p10")
			    ->valuedouble == 8.24);
	assert_true(cJSON_GetObjectItem(j, "dtod_gbps")->valuedouble == 4202.0);
	cJSON_Delete(j);
}

static void params_fixture_says_not_admin_only(void **state)
{
	char path[4096];
	struct buf b = BUF_INIT;
	FILE *fp;
	char chunk[4096];
	size_t got;

	(void)state;
	snprintf(path, sizeof(path), "%s/tests/fixtures/nvidia/h200-params.txt",
		 getenv("SRC_DIR") ? getenv("SRC_DIR") : ".");
	fp = fopen(path, "r");
	assert_non_null(fp);
	while ((got = fread(chunk, 1, sizeof(chunk), fp)) > 0)
		buf_add(&b, chunk, got);
	fclose(fp);
	assert_int_equal(profiling_parse_params(b.ptr), 0);
	buf_release(&b);
	assert_int_equal(profiling_parse_params("RmProfilingAdminOnly: 1\n"),
			 1);
	assert_int_equal(profiling_parse_params("X: 1\nRmProfilingAdminOnly: "
						"1\n"),
			 1);
	/* a longer key with the same start is another key */
	assert_int_equal(profiling_parse_params("RmProfilingAdminOnlyX: 1\n"),
			 -1);
	assert_int_equal(profiling_parse_params("RmProfilingAdminOnly: \n"),
			 -1);
	assert_int_equal(profiling_parse_params(""), -1);
}

static void status_gives_root_and_cap_sys_admin(void **state)
{
	int euid0;

	(void)state;
	assert_int_equal(profiling_parse_status("Uid:\t1000\t0\t0\t0\n"
						"CapEff:\t0000000000000000\n",
						&euid0),
			 0);
	assert_int_equal(euid0, 1);
	assert_int_equal(profiling_parse_status("Uid:\t0\t1000\t1000\t1000\n"
						"CapEff:\t0000000000200000\n",
						&euid0),
			 1);
	assert_int_equal(euid0, 0);
	/* root's usual full set */
	assert_int_equal(
		profiling_parse_status("CapEff:\t000001ffffffffff\n", &euid0),
		1);
	assert_int_equal(profiling_parse_status("Name:\tx\n", &euid0), -1);
	assert_int_equal(euid0, 0);
}

/* a stored floor figure: the row `measure add ... --config kind=floor
 * --config device=DEV` indexes */
static void add_row(struct db *db, int id, const char *day, const char *metric,
		    double v, const char *env, const char *dev)
{
	struct error err = {0};
	char sql[512];

	snprintf(sql, sizeof(sql),
		 "INSERT INTO measurement (id, commit_id, run, metric, value,"
		 " env, config, at, line) VALUES (%d, 'c%d', 'r', '%s', %g,"
		 " '%s', '{\"kind\":\"floor\",\"device\":\"%s\"}',"
		 " '2026-11-%sT00:00:00Z', '')",
		 id, id, metric, v, env, dev, day);
	assert_int_equal(db_exec(db, sql, &err), 0);
}

static void newest_floor_of_each_env_on_device_0(void **state)
{
	static const char *const envs[] = {"a", "b", "c"};
	char dir[] = "/tmp/gcamp-test-floor-XXXXXX", path[64], cmd[96];
	struct floor_ref f[3];
	struct ctx ctx = CTX_INIT;
	struct db *db;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/campaign.db", dir);
	assert_int_equal(setenv("GIT_CAMPAIGN_DB", path, 1), 0);
	assert_int_equal(ctx_db(&db, &ctx, DB_CREATE), 0);
	/* a: the latest at wins, then the highest id; device 1 is not 0 */
	add_row(db, 1, "02", "floor.launch_sync", 8.5, "a", "0");
	add_row(db, 2, "03", "floor.launch_sync", 9.5, "a", "0");
	add_row(db, 3, "03", "floor.launch_sync", 7.5, "a", "0");
	add_row(db, 4, "01", "floor.launch_sync", 6.5, "a", "0");
	add_row(db, 5, "09", "floor.launch_sync", 1.5, "a", "1");
	add_row(db, 6, "02", "floor.htod_24B", 2.5, "a", "0");
	/* c: a copy figure alone is no floor */
	add_row(db, 7, "02", "floor.htod_24B", 3.5, "c", "0");
	assert_int_equal(floor_stored_envs(f, &ctx, envs, 3), 1);
	assert_true(f[0].launch_us == 7.5);
	assert_true(f[0].htod_us == 2.5);
	assert_string_equal(f[0].commit, "c3");
	assert_string_equal(f[0].at, "2026-11-03T00:00:00Z");
	assert_true(f[1].launch_us < 0 && f[1].htod_us < 0);
	assert_true(f[2].launch_us < 0 && f[2].htod_us < 0);
	ctx_release(&ctx);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(records_are_complete_and_tagged),
		cmocka_unit_test(json_names_the_copies_by_bytes),
		cmocka_unit_test(params_fixture_says_not_admin_only),
		cmocka_unit_test(status_gives_root_and_cap_sys_admin),
		cmocka_unit_test(newest_floor_of_each_env_on_device_0),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
