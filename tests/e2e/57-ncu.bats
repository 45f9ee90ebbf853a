#!/usr/bin/env bats
# git campaign ncu against a stand-in ncu (tests/e2e/bin/ncu) that logs its
# arguments, runs the program and replays real Nsight Compute output from
# tests/fixtures/ncu: the recipe, the scratch file, the records and the
# hand-back, the refusals and the machine that forbids counters.

load helper

FIX="$SRC_DIR/tests/fixtures/ncu"
PY=$(command -v /usr/bin/python3 || command -v python3)

setup() {
	setup_world
	export PATH="$SRC_DIR/tests/e2e/bin:$PATH"
	export GIT_CAMPAIGN_LIBCUDA="$WORLD/no-libcuda.so"
	export FAKE_NCU_LOG="$WORLD/ncu-args"
	export FAKE_NCU_OUTPUT="$FIX/h200-vadd-stdout-base-units.txt"
	unset FAKE_NCU_STATUS
	make_repo r
	cd r
	git campaign init demo >/dev/null
}

jpy() {
	"$PY" -c 'import json, sys
d = json.load(sys.stdin)
v = eval(sys.argv[1])
print(v if isinstance(v, str) else json.dumps(v))' "$1"
}

notes() { git notes --ref=refs/notes/campaign show HEAD; }

@test "ncu profiles one named kernel by the recipe, keeps the raw output in scratch and records the hand-back" {
	run --separate-stderr git campaign ncu --kernel vadd --skip 1 --count 2 \
		--recommend 'read float4 per thread' --category layout \
		-- sh -c 'echo "the program speaks"'
	assert_clean
	# the recipe: one kernel, warm-up skipped, clocks left alone, SOL first
	run cat "$FAKE_NCU_LOG"
	assert_output "$(printf '%s\n' --kernel-name regex:vadd --launch-skip 1 \
		--launch-count 2 --clock-control none --section SpeedOfLight \
		--csv --page details sh -c 'echo "the program speaks"')"
	run --separate-stderr git campaign ncu --kernel vadd --skip 1 --count 2 \
		--recommend 'read float4 per thread' --category layout \
		-- sh -c 'echo "the program speaks"'
	scratch=$(git campaign scratch)
	assert_line "kernel:           vadd (regex vadd; launches 2 to 3, 2 profiled)"
	assert_line "ncu command:      ncu --kernel-name regex:vadd --launch-skip 1 --launch-count 2 --clock-control none --section SpeedOfLight --csv --page details sh -c 'echo \"the program speaks\"'"
	assert_line "program command:  sh -c 'echo \"the program speaks\"'"
	assert_line --regexp "^raw output:       ${scratch}ncu-[0-9a-f]{16}\.csv$"
	assert_line 'speed of light:   memory 66.3%, compute 40.7%, duration 59.31 us'
	assert_line 'class:            memory-bound (memory 66.3%, compute 40.7% of peak; high from 60%)'
	assert_line 'next sections:    MemoryWorkloadAnalysis (--section S)'
	assert_line 'occupancy:        74.4% achieved, 100.0% theoretical'
	assert_line 'registers:        16 per thread'
	assert_line 'shared memory:    0 B static, 0 B dynamic per block'
	assert_line 'recommend:        [layout: buffer layout] read float4 per thread'
	assert_line --regexp "^recorded:         75 records on $(git rev-parse --short=10 HEAD) \(run [0-9a-f]{16}, env [0-9a-f]{16}\)$"
	# the raw output: outside the working tree, the program's own words kept
	raw=$(sed -n 's/^raw output: *//p' <<<"$output")
	[[ "$raw" == "$(git rev-parse --absolute-git-dir)/campaign/scratch/"* ]]
	grep -q '^the program speaks$' "$raw"
	grep -q '^"ID","Process ID"' "$raw"
	[ -z "$(git status --porcelain)" ]
	# both runs are on HEAD: 74 imported records and one hand-back each
	run notes
	[ "${#lines[@]}" = 150 ]
	[ "$(grep -c '"metric":"ncu.handback"' <<<"$output")" = 2 ]
	run=$(sed -n 's/.*(run \([0-9a-f]*\),.*/\1/p' <<<"$(git campaign ncu --kernel vadd --skip 1 --count 2 -- true)")
	run notes
	[ "$(grep -c "\"run\":\"$run\"" <<<"$output")" = 75 ]
	[ "$(grep "\"run\":\"$run\"" <<<"$output" | grep -c '"profiler":"ncu"')" = 75 ]
	hb=$(grep "\"run\":\"$run\"" <<<"$output" | grep '"metric":"ncu.handback"')
	[[ "$hb" == *'"value":59310,"unit":"ns","better":"lower","stat":"median"'* ]]
	[[ "$hb" == *'"class":"memory-bound"'* ]]
	[[ "$hb" == *'"kind":"ncu-handback"'* ]]
	[[ "$hb" == *'"next":"MemoryWorkloadAnalysis"'* ]]
	[[ "$hb" == *'"program":"true"'* ]]
	[[ "$hb" == *'"regex":"vadd"'* ]]
	[[ "$hb" == *'"registers":"16"'* ]]
	[[ "$hb" == *'"occupancy_pct":"74.39"'* ]]
	[[ "$hb" == *"\"raw\":\"$(git campaign scratch)ncu-$run.csv\""* ]]
	[[ "$hb" != *'"recommend"'* ]]
	# the imported records are ordinary measurements
	run git campaign measure log 'Memory Throughput' --config kernel=vadd --config launch=0
	assert_success
}

@test "ncu --json hands back one object; --section adds after SpeedOfLight once" {
	run --separate-stderr git campaign ncu --kernel '^vadd$' --skip 3 --count 1 \
		--section Occupancy --section SpeedOfLight --section MemoryWorkloadAnalysis \
		--recommend 'drop the second pass' --category unneeded-work --json -- true
	assert_clean
	[ "$(jpy '[d[k] for k in ("regex", "kernel", "skip", "count", "class", "records")]' <<<"$output")" = \
		'["^vadd$", "vadd", 3, 1, "memory-bound", 75]' ]
	[ "$(jpy 'd["sections"]' <<<"$output")" = '["SpeedOfLight", "Occupancy", "MemoryWorkloadAnalysis"]' ]
	[ "$(jpy 'd["calls_for"]' <<<"$output")" = '["MemoryWorkloadAnalysis"]' ]
	[ "$(jpy 'd["next"]' <<<"$output")" = '[]' ]
	[ "$(jpy 'd["recommend"]' <<<"$output")" = '{"change": "drop the second pass", "category": "unneeded-work"}' ]
	[ "$(jpy '[d["registers"], d["shared_memory_bytes"]["static"], d["occupancy_pct"]]' <<<"$output")" = '[16, 0, 74.39]' ]
	[ "$(jpy 'd["ncu_command"]' <<<"$output")" = "ncu --kernel-name 'regex:^vadd\$' --launch-skip 3 --launch-count 1 --clock-control none --section SpeedOfLight --section Occupancy --section MemoryWorkloadAnalysis --csv --page details true" ]
	[ -f "$(jpy 'd["raw"]' <<<"$output")" ]
	run --separate-stderr git campaign ncu --kernel vadd --skip 1 --count 1 \
		--section MemoryWorkloadAnalysis -- true
	assert_line 'next sections:    none: MemoryWorkloadAnalysis ran here; state the change with --recommend'
}

@test "ncu refuses --skip 0 unless --allow-warmup, and other bad usage, before running ncu" {
	run --separate-stderr git campaign ncu --kernel vadd --skip 0 --count 1 -- true
	[ "$status" = 129 ]
	[ "${stderr_lines[0]}" = 'error: --skip 0 profiles the first, warm-up launch: skip it, or say --allow-warmup' ]
	[ ! -e "$FAKE_NCU_LOG" ]
	for args in "--skip 1 --count 1 -- true" "--kernel vadd --count 1 -- true" \
		"--kernel vadd --skip 1 -- true" "--kernel vadd --skip 1 --count 0 -- true" \
		"--kernel vadd --skip 1 --count 1" "--kernel vadd --skip 1 --count 1 true" \
		"--kernel vadd --skip 1 --count 1 --recommend x -- true" \
		"--kernel vadd --skip 1 --count 1 --recommend x --category faster -- true"; do
		# shellcheck disable=SC2086
		run --separate-stderr git campaign ncu $args
		[ "$status" = 129 ] || fail "$args: exit $status"
		[[ "${stderr_lines[0]}" == 'error: '* ]] || fail "$args: $stderr"
	done
	[ ! -e "$FAKE_NCU_LOG" ]
	run --separate-stderr git campaign ncu --kernel vadd --skip 0 --count 1 --allow-warmup -- true
	assert_clean
	grep -qx 0 "$FAKE_NCU_LOG"
	# the program's options are its own, never ncu's or ours
	run --separate-stderr git campaign ncu --kernel vadd --skip 1 --count 1 -- echo --json --skip 0
	assert_clean
	assert_line 'program command:  echo --json --skip 0'
}

@test "ERR_NVGPUCTRPERM is the machine's configuration: one line, the output kept, exit 1, nothing recorded" {
	export FAKE_NCU_OUTPUT="$FIX/err-nvgpuctrperm.txt" FAKE_NCU_STATUS=1
	run --separate-stderr git campaign ncu --kernel vadd --skip 1 --count 1 -- echo 'my own output'
	[ "$status" = 1 ]
	[ -z "$output" ]
	[ "${#stderr_lines[@]}" = 2 ]
	[ "${stderr_lines[0]}" = "error: ncu may not read the GPU's counters on this machine (ERR_NVGPUCTRPERM): profiling is restricted to administrators; nothing was recorded" ]
	[[ "${stderr_lines[1]}" =~ ^hint:\ the\ program\'s\ output\ and\ ncu\'s\ are\ kept\ in\ (.*/campaign/scratch/ncu-[0-9a-f]{16}\.csv)\;\ \'git\ campaign\ env\ --check-profiling\'\ shows ]]
	raw=${BASH_REMATCH[1]}
	grep -qx 'my own output' "$raw"
	grep -q '^==ERROR== ERR_NVGPUCTRPERM' "$raw"
	run notes
	assert_failure
}

@test "ncu not on PATH, ncu failing, and no campaign: one line each, exit 128" {
	PATH=$(printf '%s' "$PATH" | tr ':' '\n' | grep -v tests/e2e/bin | paste -sd:)
	if command -v ncu >/dev/null; then skip "a real ncu is on PATH"; fi
	run --separate-stderr git campaign ncu --kernel vadd --skip 1 --count 1 -- true
	assert_fatal 'ncu (Nsight Compute) is not on PATH' hint
	export PATH="$SRC_DIR/tests/e2e/bin:$PATH"
	FAKE_NCU_OUTPUT=/dev/null FAKE_NCU_STATUS=3 run --separate-stderr \
		git campaign ncu --kernel vadd --skip 1 --count 1 -- true
	assert_fatal 'ncu exited with status 3; nothing was recorded' hint
	[[ "${stderr_lines[1]}" == "hint: ncu's output and the program's are in $(git campaign scratch)ncu-"* ]]
	FAKE_NCU_OUTPUT=/dev/null run --separate-stderr \
		git campaign ncu --kernel vadd --skip 1 --count 1 -- true
	assert_fatal "expected ncu's CSV header"
	run notes
	assert_failure
	cd "$WORLD" && make_repo bare && cd bare
	run --separate-stderr git campaign ncu --kernel vadd --skip 1 --count 1 -- true
	[ "$status" = 128 ]
	[[ "$stderr" == *campaign* ]]
}
