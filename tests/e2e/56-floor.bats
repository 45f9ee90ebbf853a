#!/usr/bin/env bats
# git campaign env --floor and --check-profiling against the stand-in
# libcuda.so.1 (tests/stub/libcuda.c): its launches and copies do nothing,
# so the figures are the driver-call overhead of a no-op; what is checked is
# the flow, the records, the freeing and every error's one line.

load helper

STUB="$BIN_DIR/tests/stub/libcuda.so.1"
LEGACY="$BIN_DIR/tests/stub/legacy/libcuda.so.1"
PARAMS="$SRC_DIR/tests/fixtures/nvidia/h200-params.txt"
PY=$(command -v /usr/bin/python3 || command -v python3)

setup() {
	setup_world
	unset CUDA_VISIBLE_DEVICES CUDA_STUB_INIT_ERROR CUDA_STUB_DEVICES \
		CUDA_STUB_LOG CUDA_STUB_FAIL CUDA_STUB_FAIL_AFTER
	ROOT="$WORLD/root"
	mkdir -p "$ROOT/proc/driver/nvidia" "$ROOT/proc/self"
	echo 'NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.159.04  Release Build' \
		>"$ROOT/proc/driver/nvidia/version"
	export GIT_CAMPAIGN_SYSROOT="$ROOT" JAVA_HOME="$WORLD/nojdk"
	export GIT_CAMPAIGN_LIBCUDA="$STUB" CUDA_STUB_LOG="$WORLD/calls"
	make_repo r
	cd r
}

jpy() {
	"$PY" -c 'import json, sys
d = json.load(sys.stdin)
v = eval(sys.argv[1])
print(v if isinstance(v, str) else json.dumps(v))' "$1"
}

notes() { git notes --ref=refs/notes/campaign show HEAD; }

@test "env --floor measures through the stand-in, prints and stores nine figures on HEAD" {
	run --separate-stderr git campaign env --floor
	assert_clean
	assert_line --regexp '^gpu 0: +NVIDIA H200$'
	assert_line 'floor (device 0):'
	assert_line --regexp '^  launch \+ sync: +[0-9.]+ us median \(p10 [0-9.]+, p90 [0-9.]+; n 10000\)$'
	assert_line --regexp '^  launch enqueue: +[0-9.]+ us$'
	assert_line --regexp '^  htod 24 B: +[0-9.]+ us median$'
	assert_line --regexp '^  htod 2048 B: +[0-9.]+ us median$'
	assert_line --regexp '^  htod 65536 B: +[0-9.]+ us median$'
	assert_line --regexp '^  dtod 1 GiB: +[0-9]+ GB/s \(read \+ write\)$'
	assert_line --regexp '^  module load: +[0-9]+ us$'
	head=$(git rev-parse HEAD)
	assert_line "$(printf '%-22s %s' '  stored:' "on ${head:0:10} (kind=floor)")"
	id=$(git campaign env --json | jpy 'd["id"]')
	run notes
	assert_success
	[ "${#lines[@]}" = 9 ]
	for m in module_load launch_sync launch_sync_p10 launch_sync_p90 \
		launch_enqueue htod_24B htod_2KiB htod_64KiB dtod_bandwidth; do
		assert_line --partial "\"metric\":\"floor.$m\""
	done
	for l in "${lines[@]}"; do
		[[ "$l" == *"\"env\":\"$id\",\"config\":{\"device\":\"0\",\"kind\":\"floor\"},\"source\":\"floor\""* ]]
	done
	assert_line --partial '"metric":"floor.dtod_bandwidth","value":'
	[[ "$(grep dtod_bandwidth <<<"$output")" == *'"unit":"GB/s","better":"higher"'* ]]
	# the figures are ordinary measurements: measure log reads them
	git campaign init >/dev/null
	run git campaign measure log floor.launch_sync --config kind=floor
	assert_success
	assert_output --partial "${head:0:7}"
}

@test "env --floor resolves the ABI names cuda.h maps to, never the legacy ones, and frees all" {
	run git campaign env --floor
	assert_success
	run cat "$WORLD/calls"
	refute_line cuMemAlloc
	refute_line cuMemcpyHtoD
	refute_line cuCtxSynchronize_v2
	assert_line cuModuleLoadData
	assert_line cuModuleUnload
	assert_line cuDevicePrimaryCtxRelease_v2
	[ "$(grep -c '^cuMemFree_v2$' "$WORLD/calls")" = 3 ]
}

@test "env --floor --json carries the floor object and the commit it is stored on" {
	run --separate-stderr git campaign env --floor --json
	assert_clean
	[ "$(jpy 'sorted(d["floor"])' <<<"$output")" = \
		'["commit", "device", "dtod_gbps", "htod_us", "launch_enqueue_us", "launch_sync_us", "module_load_us"]' ]
	[ "$(jpy 'sorted(d["floor"]["htod_us"])' <<<"$output")" = '["2048", "24", "65536"]' ]
	[ "$(jpy 'd["floor"]["launch_sync_us"]["n"]' <<<"$output")" = 10000 ]
	[ "$(jpy 'd["floor"]["commit"]' <<<"$output")" = "$(git rev-parse HEAD)" ]
	[ "$(jpy '"floor_error" in d' <<<"$output")" = false ]
}

@test "an error in the middle of the floor is one line; env prints, nothing is stored, all is freed" {
	export CUDA_STUB_FAIL=cuMemcpyHtoD_v2:700 CUDA_STUB_FAIL_AFTER=50
	run --separate-stderr git campaign env --floor
	[ "$status" = 128 ]
	assert_line --regexp '^gpu 0: +NVIDIA H200$'
	refute_line --partial 'floor (device'
	[ "$stderr" = 'fatal: floor: cuMemcpyHtoD_v2 failed: CUDA_ERROR_ILLEGAL_ADDRESS (an illegal memory access was encountered)' ]
	run notes
	assert_failure
	run cat "$WORLD/calls"
	assert_line cuMemFree_v2
	assert_line cuModuleUnload
	assert_line cuDevicePrimaryCtxRelease_v2
}

@test "an error in the floor with --json: the document has floor_error, stderr one line" {
	export CUDA_STUB_FAIL=cuModuleLoadData:222
	run --separate-stderr git campaign env --floor --json
	[ "$status" = 128 ]
	[ "$(jpy 'd["floor_error"]' <<<"$output")" = 'cuModuleLoadData failed: CUDA_ERROR_UNSUPPORTED_PTX_VERSION (the provided PTX was compiled with an unsupported toolchain.)' ]
	[ "$(jpy '"floor" in d' <<<"$output")" = false ]
	[ "$(jpy 'd["info"]["gpus"][0]["name"]' <<<"$output")" = 'NVIDIA H200' ]
	[ "${#stderr_lines[@]}" = 1 ]
}

@test "env --floor without libcuda, without a device, with the device hidden: one line each" {
	GIT_CAMPAIGN_LIBCUDA="$WORLD/none/libcuda.so.1" run --separate-stderr git campaign env --floor
	[ "$status" = 128 ]
	assert_line --partial 'gpu: none ('
	[ "$stderr" = "fatal: floor: $WORLD/none/libcuda.so.1: cannot open shared object file: No such file or directory" ]
	CUDA_STUB_INIT_ERROR=100 run --separate-stderr git campaign env --floor
	[ "$status" = 128 ]
	assert_line --regexp '^id: +[0-9a-f]{16}$'
	[ "$stderr" = 'fatal: floor: cuInit failed: CUDA_ERROR_NO_DEVICE (no CUDA-capable device is detected)' ]
	CUDA_VISIBLE_DEVICES=0 run --separate-stderr git campaign env --floor --device 1
	[ "$status" = 128 ]
	[ "$stderr" = 'fatal: floor: no CUDA device 1 (1 visible; CUDA_VISIBLE_DEVICES=0)' ]
	GIT_CAMPAIGN_LIBCUDA="$LEGACY" run --separate-stderr git campaign env --floor
	[ "$status" = 128 ]
	[[ "$stderr" == "fatal: floor: $LEGACY: no entry point '"*"_v2' (the driver is too old)" ]]
	run notes
	assert_failure
}

@test "env --floor on device 1 of two stores device=1" {
	export CUDA_STUB_DEVICES=2
	run --separate-stderr git campaign env --floor --device 1
	assert_clean
	assert_line 'floor (device 1):'
	run notes
	assert_line --partial '"config":{"device":"1","kind":"floor"}'
	refute_line --partial '"device":"0"'
}

@test "env --floor outside a repository measures and prints, storing nothing" {
	cd "$WORLD"
	run --separate-stderr git campaign env --floor
	assert_clean
	assert_line "$(printf '%-22s %s' '  stored:' 'no (not in a repository)')"
	run --separate-stderr git campaign env --floor --json
	assert_clean
	[ "$(jpy 'd["floor"]["commit"]' <<<"$output")" = null ]
}

@test "env --device needs --floor; --check-profiling takes only --json" {
	run --separate-stderr git campaign env --device 1
	[ "$status" = 129 ]
	[[ "$stderr" == *'--device needs --floor'* ]]
	run --separate-stderr git campaign env --floor --device -1
	[ "$status" = 129 ]
	[[ "$stderr" == *'--device must be 0 to 1023'* ]]
	run --separate-stderr git campaign env --check-profiling --floor
	[ "$status" = 129 ]
	[[ "$stderr" == *'--check-profiling takes only --json'* ]]
}

@test "env --check-profiling: the H200's params (RmProfilingAdminOnly 0) say available" {
	cp "$PARAMS" "$ROOT/proc/driver/nvidia/params"
	printf 'Name:\tx\nUid:\t1000\t1000\t1000\t1000\nCapEff:\t0000000000000000\n' >"$ROOT/proc/self/status"
	run --separate-stderr git campaign env --check-profiling
	[ "$status" = 0 ]
	assert_output 'profiling: available (RmProfilingAdminOnly is 0: every user may profile)'
	run --separate-stderr git campaign env --check-profiling --json
	[ "$status" = 0 ]
	[ "$(jpy '[d["available"], d["rm_profiling_admin_only"], d["admin"]]' <<<"$output")" = '[true, 0, false]' ]
}

@test "env --check-profiling: admin-only counters, a plain user: not available, exit 1" {
	sed 's/^RmProfilingAdminOnly: 0$/RmProfilingAdminOnly: 1/' "$PARAMS" >"$ROOT/proc/driver/nvidia/params"
	grep -q '^RmProfilingAdminOnly: 1$' "$ROOT/proc/driver/nvidia/params"
	printf 'Uid:\t1000\t1000\t1000\t1000\nCapEff:\t0000000000000000\n' >"$ROOT/proc/self/status"
	run --separate-stderr git campaign env --check-profiling
	[ "$status" = 1 ]
	assert_output 'profiling: not available (RmProfilingAdminOnly is 1: only administrators may profile, and ncu would fail with ERR_NVGPUCTRPERM)'
	# root, or CAP_SYS_ADMIN (bit 21) alone
	printf 'Uid:\t1000\t0\t0\t0\nCapEff:\t0000000000000000\n' >"$ROOT/proc/self/status"
	run git campaign env --check-profiling
	[ "$status" = 0 ]
	assert_output 'profiling: available (RmProfilingAdminOnly is 1, and this user is an administrator (root))'
	printf 'Uid:\t1000\t1000\t1000\t1000\nCapEff:\t0000000000200000\n' >"$ROOT/proc/self/status"
	run git campaign env --check-profiling
	[ "$status" = 0 ]
	assert_output 'profiling: available (RmProfilingAdminOnly is 1, and this user is an administrator (CAP_SYS_ADMIN))'
}

@test "env --check-profiling without the NVIDIA driver: not available, exit 1" {
	run --separate-stderr git campaign env --check-profiling
	[ "$status" = 1 ]
	assert_output 'profiling: not available (no NVIDIA driver (/proc/driver/nvidia/params cannot be read))'
}

@test "env gpu-control times the fixed device work; a fault is one line, exit 128" {
	run --separate-stderr git campaign env gpu-control
	assert_clean
	assert_output --regexp '^gpu-control: [0-9]+\.[0-9] us$'
	run cat "$WORLD/calls"
	assert_line cuModuleLoadData
	[ "$(grep -c '^cuMemFree_v2$' "$WORLD/calls")" = 2 ]
	CUDA_STUB_FAIL=cuMemcpyDtoD_v2:700 run --separate-stderr git campaign env gpu-control --device 0
	[ "$status" = 128 ]
	[ "$output" = '' ]
	[ "$stderr" = 'fatal: cuMemcpyDtoD_v2 failed: CUDA_ERROR_ILLEGAL_ADDRESS (an illegal memory access was encountered)' ]
	run --separate-stderr git campaign env gpu-control --json
	[ "$status" = 129 ]
	[[ "$stderr" == "error: unknown option '--json'"* ]]
}

@test "ab --gpu-control runs the built-in control in the schedule, as a control" {
	printf 'x\n' >f
	git add f
	git commit -q -m f
	git campaign init demo >/dev/null
	rm -f "$WORLD/calls"
	run --separate-stderr git campaign ab --build true --run 'sh -c :' \
		--gpu-control -n 3 --warmup 1 --control-tolerance 50 --json
	# wall time of a few milliseconds may or may not look steady here;
	# what is checked is that the control is there and ran every time
	[[ "$status" = 0 || "$status" = 1 ]]
	[ "$(jpy '[w["control"] for w in d["workloads"]]' <<<"$output")" = '[false, true]' ]
	[[ "$(jpy 'd["workloads"][1]["workload"]' <<<"$output")" == "'"*"/git-campaign' env gpu-control" ]]
	[ "$(jpy 'len(d["workloads"][1]["a"]) + len(d["workloads"][1]["b"])' <<<"$output")" = 6 ]
	# 2 arms x (1 warm-up + 3 runs), each loads the floor's module once
	[ "$(grep -c '^cuModuleLoadData$' "$WORLD/calls")" = 8 ]
}

@test "ab --gpu-control reads the control's own figure, in us, whatever --metric is" {
	git campaign init demo >/dev/null
	run --separate-stderr git campaign ab --build true --run 'echo t: 7' \
		--metric 're:t: ([0-9]+)' --gpu-control -n 3 --json
	[[ "$status" = 0 || "$status" = 1 ]]
	[ "$(jpy 'd["metric"]' <<<"$output")" = value ]
	[ "$(jpy 'd["workloads"][0]["a"]' <<<"$output")" = '[7, 7, 7]' ]
	[ "$(jpy '[d["workloads"][1][k] for k in ("metric", "unit")]' <<<"$output")" = '["gpu-control", "us"]' ]
	# what env gpu-control printed, one decimal: not a wall time in s
	[ "$(jpy 'all(round(v, 1) == v and v > 0 for v in d["workloads"][1]["a"] + d["workloads"][1]["b"])' <<<"$output")" = true ]
	run git notes --ref=refs/notes/campaign show HEAD
	assert_success
	[ "$(grep -c '"metric":"gpu-control","value":[0-9.]*,"unit":"us"' <<<"$output")" = 2 ]
	[ "$(grep -c '"metric":"value"' <<<"$output")" = 2 ]
	run --separate-stderr git campaign ab --build true --run 'echo t: 7' \
		--metric 're:t: ([0-9]+)' --gpu-control -n 3
	assert_line --regexp '^\| control: `.*env gpu-control` \| [0-9.]+ us \| [0-9.]+ us \|'
}

@test "env shows the floor stored for this env on HEAD's history, once a campaign exists" {
	run --separate-stderr git campaign env
	assert_clean
	refute_line --regexp '^floor:'
	git campaign init demo >/dev/null
	run git campaign env --floor
	assert_success
	git commit -q --allow-empty -m later
	run --separate-stderr git campaign env
	assert_clean
	assert_line --regexp "^floor: +launch [0-9]+\.[0-9]{2} us, htod 24 B [0-9]+\.[0-9]{2} us \(stored on $(git rev-parse --short=10 HEAD~1)\)$"
	run --separate-stderr git campaign env --json
	assert_clean
	[ "$(jpy 'd["stored_floor"]["commit"]' <<<"$output")" = "$(git rev-parse HEAD~1)" ]
	[ "$(jpy 'd["stored_floor"]["launch_sync_us"] > 0' <<<"$output")" = true ]
	run notes
	assert_failure # nothing on the new HEAD: it was read from HEAD~1
	# another env (another backend) has no floor
	run --separate-stderr git campaign env --backend other
	assert_clean
	refute_line --regexp '^floor:'
}

@test "an A/B on a GPU env shows the stored floor as a reference column, in Markdown and JSON" {
	printf 'x\n' >f
	git add f
	git commit -q -m f
	git campaign init demo >/dev/null
	# no floor stored yet: no column
	run --separate-stderr git campaign ab --build true --run 'echo t: 50' \
		--metric 're:t: ([0-9]+);unit=us' -n 3
	assert_line --regexp '^\| workload \| A: HEAD \([0-9a-f]{12}\) \| B: working tree \| B/A \[95% CI\] \| p \| verdict \|$'
	refute_output --partial 'floor'
	git campaign env --floor >/dev/null
	launch=$(git campaign env --json | jpy '"%.2f" % d["stored_floor"]["launch_sync_us"]')
	raw=$(git campaign env --json | jpy 'd["stored_floor"]["launch_sync_us"]')
	run --separate-stderr git campaign ab --build true --run 'echo t: 50' \
		--metric 're:t: ([0-9]+);unit=us' -n 3 --gpu-control
	assert_line "| workload | A: HEAD ($(git rev-parse --short=12 HEAD)) | B: working tree | B/A [95% CI] | p | verdict | floor: launch $launch us |"
	assert_line '|---|---:|---:|---:|---:|---|---:|'
	# B's median in empty launches of the floor
	want=$("$PY" -c "v = 50 / $raw; print(('%.0fx' if v >= 1000 else '%.3gx') % v)")
	assert_line --regexp "^\| \`echo t: 50\` \| 50 us \| 50 us \| 1\.000 .* \| $want \|$"
	assert_line --regexp '^\| control: `.*env gpu-control` \| .* \| [0-9.]+x \|$'
	assert_line --regexp "^Floor of this env \(env --floor, stored on $(git rev-parse --short=10 HEAD)\): empty launch \+ sync $launch us, 24 B host-to-device copy [0-9]+\.[0-9]{2} us; the floor column is B's median in empty launches\.$"
	run --separate-stderr git campaign ab --build true --run 'echo t: 50' \
		--metric 're:t: ([0-9]+)' -n 3 --json
	[ "$(jpy 'd["floor"]["launch_sync_us"]' <<<"$output")" = "$raw" ]
	[ "$(jpy 'd["floor"]["commit"]' <<<"$output")" = "$(git rev-parse HEAD)" ]
	# a metric without a time unit has no figure in floors
	[ "$(jpy 'd["workloads"][0]["b_in_floors"]' <<<"$output")" = null ]
}
