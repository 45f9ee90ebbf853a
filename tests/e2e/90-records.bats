#!/usr/bin/env bats
# A small campaign's records: hypotheses as numbers, findings ranked by
# failure mode, test baselines per machine (this one without a GPU, and the
# stand-in libcuda.so.1 answering as an H200), never mixed; status.

load helper
load records_helper

STUB="$BIN_DIR/tests/stub/libcuda.so.1"

setup() {
	setup_world
	# a JDK that is only a release file, so no java runs
	mkdir -p "$WORLD/jdk"
	printf 'IMPLEMENTOR="Eclipse Adoptium"\nJAVA_RUNTIME_VERSION="21.0.5+11-LTS"\nJAVA_VERSION="21.0.5"\n' \
		>"$WORLD/jdk/release"
	export JAVA_HOME="$WORLD/jdk"
	unset CUDA_VISIBLE_DEVICES CUDA_STUB_INIT_ERROR CUDA_STUB_DEVICES \
		CUDA_STUB_LOG GIT_CAMPAIGN_SYSROOT
	cpu # machine A until a test says otherwise
	make_repo r develop
	cd r
	git campaign init kfusion >/dev/null
	git config campaign.backend cuda
	DB="$PWD/.git/campaign/campaign.db"
}

# an A/B run as `git campaign ab` records it
ab_row() {
	sqlite3 "$DB" "INSERT INTO ab_run VALUES ($1, '2026-11-29T20:40:00Z',
		'stash', './saxpy 100000 512', 'faster 0.494', 0, '{}', '')"
}

@test "a hypothesis without a number is refused, and nothing is stored" {
	run --separate-stderr git campaign hypo add "the upload costs a lot" \
		--metric launch_us
	assert_failure 129
	[ -z "$output" ]
	[[ ${stderr_lines[0]} == 'error: a hypothesis without a number is not one: --predict VALUE is missing' ]]
	run --separate-stderr git campaign hypo add "x" --metric m --predict lots
	assert_failure 129
	[[ ${stderr_lines[0]} == 'error: --predict wants a number' ]]
	run --separate-stderr git campaign hypo add "x" --predict 2
	assert_failure 129
	[[ ${stderr_lines[0]} == 'error: --metric M is missing' ]]
	run --separate-stderr git campaign hypo add "x" --metric m --predict 2 \
		--tolerance -5
	assert_failure 129
	run --separate-stderr git campaign hypo list
	assert_clean_but "no hypotheses"
}

# assert_clean_but LINE: exit 0, nothing on stdout, LINE alone on stderr
assert_clean_but() {
	assert_success
	[ -z "$output" ] || fail "stdout: $output"
	[ "$stderr" = "$1" ] || fail "stderr: $stderr"
}

@test "two hypotheses, the next one marked, one falsified by an A/B" {
	run --separate-stderr git campaign hypo add \
		"the 24-byte stack-frame upload costs 2.00 µs per launch" \
		--metric launch_us --predict 2.00 --unit µs
	assert_clean
	assert_output 'hypothesis 1: launch_us = 2 µs (within 10%)'
	run --separate-stderr git campaign hypo add \
		"cuStreamSynchronize costs 4.19 µs per execution" \
		--metric sync_us --predict 4.19 --unit µs --tolerance 5%
	assert_clean
	assert_output 'hypothesis 2: sync_us = 4.19 µs (within 5%)'
	run --separate-stderr git campaign hypo next 1
	assert_clean
	run --separate-stderr git campaign hypo next 2
	assert_clean
	assert_output 'next: hypothesis 2'
	# evidence that does not exist is refused
	run --separate-stderr git campaign hypo falsify 1 --measured 8.84 --ab 7
	assert_fatal 'no A/B run #7' hint
	ab_row 7
	run --separate-stderr git campaign hypo falsify 1 --measured 8.84 --ab 7
	assert_clean
	assert_output 'hypothesis 1 falsified: predicted 2, measured 8.84'
	# a verdict the number contradicts is recorded, with a warning
	run --separate-stderr git campaign hypo confirm 2 --measured 4.6 \
		--note "nsys cuda_api_sum, saxpy n=1024"
	assert_success
	assert_output 'hypothesis 2 confirmed: predicted 4.19, measured 4.6'
	[ "$stderr" = 'warning: 4.6 is not within 5% of the prediction 4.19; confirmed as asked' ]
	run --separate-stderr git campaign hypo list
	assert_clean
	assert_output '#1 falsified launch_us 2 µs ±10%, measured 8.84 µs (ab #7): the 24-byte stack-frame upload costs 2.00 µs per launch
#2 confirmed sync_us 4.19 µs ±5%, measured 4.6 µs (note: nsys cuda_api_sum, saxpy n=1024): cuStreamSynchronize costs 4.19 µs per execution'
	# git campaign hypo alone lists
	run --separate-stderr git campaign hypo
	assert_clean
	assert_line --index 0 --partial '#1 falsified'
	[ "$(git campaign hypo list --json | jpy '[(h["id"], h["state"], h["measured"], h["evidence"], h["next"]) for h in d]')" = \
		'[[1, "falsified", 8.84, "ab #7", false], [2, "confirmed", 4.6, "note: nsys cuda_api_sum, saxpy n=1024", false]]' ]
}

@test "a decided hypothesis cannot be decided again or marked next" {
	git campaign hypo add "a" --metric m --predict 1 >/dev/null
	git campaign hypo falsify 1 --measured 3 --commit HEAD >/dev/null
	[ "$(git campaign hypo list --json | jpy 'd[0]["evidence"]')" = \
		"commit $(git rev-parse --short=12 HEAD)" ]
	run --separate-stderr git campaign hypo confirm 1 --measured 1
	assert_failure 1
	[ -z "$output" ]
	[ "$stderr" = 'error: hypothesis 1 is falsified already' ]
	run --separate-stderr git campaign hypo next 1
	assert_failure 1
	run --separate-stderr git campaign hypo next 9
	assert_fatal 'no hypothesis 9'
	run --separate-stderr git campaign hypo falsify 1 --measured 3 --ab 1 \
		--note x
	assert_failure 129
	run --separate-stderr git campaign hypo falsify 1
	assert_failure 129
	[[ ${stderr_lines[0]} == 'error: a verdict needs the number: --measured VALUE' ]]
}

@test "three findings of different kinds rank wrong answer, crash, slow; oldest first" {
	run --separate-stderr git campaign finding add --kind slow \
		"profiler makes a short graph 3.3x slower" --pr 1024
	assert_clean
	assert_output 'finding 1 (slow): profiler makes a short graph 3.3x slower'
	git campaign finding add --kind crash \
		"NPE in executeLaunch for a batched graph with 2 outputs" \
		--issue https://github.com/beehive-lab/TornadoVM/issues/1034 \
		--commit HEAD >/dev/null
	git campaign finding add --kind wrong-answer \
		"CUDA launch failures are only logged" >/dev/null
	git campaign finding add --kind crash "a later crash" >/dev/null
	short=$(git rev-parse --short=12 HEAD)
	run --separate-stderr git campaign finding list
	assert_clean
	assert_output "1. #3 wrong-answer CUDA launch failures are only logged
2. #2 crash        NPE in executeLaunch for a batched graph with 2 outputs [https://github.com/beehive-lab/TornadoVM/issues/1034] [$short]
3. #4 crash        a later crash
4. #1 slow         profiler makes a short graph 3.3x slower [PR #1024]"
	run --separate-stderr git campaign finding close 3 --pr 1025
	assert_clean
	assert_output 'finding 3 closed by #1025'
	run --separate-stderr git campaign finding close 3 --pr 1025
	assert_failure 1
	[ "$stderr" = 'error: finding 3 is closed already (by #1025)' ]
	run --separate-stderr git campaign finding
	assert_clean
	assert_output "1. #2 crash        NPE in executeLaunch for a batched graph with 2 outputs [https://github.com/beehive-lab/TornadoVM/issues/1034] [$short]
2. #4 crash        a later crash
3. #1 slow         profiler makes a short graph 3.3x slower [PR #1024]
closed:
   #3 wrong-answer CUDA launch failures are only logged (closed by #1025)"
	[ "$(git campaign finding list --json | jpy '[(f["id"], f["rank"], f["state"]) for f in d]')" = \
		'[[2, 1, "open"], [4, 2, "open"], [1, 3, "open"], [3, null, "closed"]]' ]
}

@test "findings refuse an unknown kind, no title, a missing PR" {
	run --separate-stderr git campaign finding add --kind flaky "t"
	assert_failure 129
	[ "$stderr" = "error: unknown kind 'flaky' (wrong-answer, crash or slow)" ]
	run --separate-stderr git campaign finding add "t"
	assert_failure 129
	run --separate-stderr git campaign finding add --kind crash
	assert_failure 129
	run --separate-stderr git campaign finding close 1
	assert_failure 129
	run --separate-stderr git campaign finding close 1 --pr 3
	assert_fatal 'no finding 1'
	run --separate-stderr git campaign finding list
	assert_clean_but 'no findings'
}

@test "status shows the next hypothesis and the top open finding" {
	run --separate-stderr git campaign status
	assert_line 'next hypo none'
	assert_line 'finding   none'
	git campaign hypo add "upload costs 2 µs" --metric launch_us \
		--predict 2 --unit µs >/dev/null
	git campaign hypo add "sync costs 4.19 µs" --metric sync_us \
		--predict 4.19 >/dev/null
	git campaign hypo next 2 >/dev/null
	git campaign finding add --kind slow "slow" >/dev/null
	git campaign finding add --kind crash "crash" >/dev/null
	ab_row 3
	run --separate-stderr git campaign status
	assert_clean
	assert_line 'next hypo #2 sync_us 4.19: sync costs 4.19 µs'
	assert_line 'finding   #2 crash: crash'
	assert_line --partial 'last ab   #3 faster 0.494'
	[ "$(git campaign status --json | jpy '[d["last_ab"]["id"], d["next_hypo"]["id"], d["top_finding"]["kind"]]')" = '[3, 2, "crash"]' ]
	# deciding the next one unmarks it: the oldest open one is named
	git campaign hypo confirm 2 --measured 4.2 >/dev/null
	run git campaign status
	assert_line 'next hypo none marked; 1 open, the oldest: #1 launch_us 2 µs: upload costs 2 µs'
}

@test "scratch prints the campaign's folder for probes, outside the working tree" {
	run --separate-stderr git campaign scratch
	assert_clean
	assert_output "$PWD/.git/campaign/scratch/"
	assert_dir_exists "$PWD/.git/campaign/scratch"
	echo 'class Probe {}' >"$output/Probe.java"
	[ -z "$(git status --porcelain)" ]
	# from a linked worktree: the same folder
	git worktree add -q ../wt develop 2>/dev/null
	run --separate-stderr git -C ../wt campaign scratch
	assert_output "$PWD/.git/campaign/scratch/"
}

# the quickPass of develop and of a fix on machine A (no GPU) and B (H200)
import_two_machines() {
	git commit -q --allow-empty -m fix
	{ tt foundation.TestIntegers 2 1 1; tt foundation.TestIf 3 0
	  tt compute.MMwithBytes 2 0; } >"$WORLD/cpu-develop.txt"
	{ tt foundation.TestIntegers 3 0 1; tt foundation.TestIf 3 0
	  tt compute.MMwithBytes 1 1; } >"$WORLD/cpu-fix.txt"
	{ tt foundation.TestIntegers 4 0; tt foundation.TestIf 2 1
	  tt arrays.TestArrays 5 0; } >"$WORLD/h200-develop.txt"
	cpu
	git campaign tests import "$WORLD/cpu-develop.txt" --commit develop >/dev/null
	git campaign tests import "$WORLD/cpu-fix.txt" >/dev/null
	CPU_ENV=$(git campaign env --json | jpy 'd["id"]')
	h200
	git campaign tests import "$WORLD/h200-develop.txt" --commit develop \
		--format tornado-test >/dev/null
	H200_ENV=$(git campaign env --json | jpy 'd["id"]')
	[ "$CPU_ENV" != "$H200_ENV" ]
}

@test "test results from two machines: a baseline per machine, never one number" {
	cpu
	run --separate-stderr git campaign tests import /dev/null --format junit
	[ "$status" -eq 128 ]
	import_two_machines
	h200
	run --separate-stderr git campaign tests import "$WORLD/h200-develop.txt" \
		--commit develop
	assert_clean
	assert_output --regexp "^imported 3 test classes \(tornado-test\) for $(git rev-parse --short=12 develop) on .*, GPU NVIDIA H200, JDK .*21\.0\.5, backend cuda \(env $H200_ENV\)$"
	run --separate-stderr git campaign tests baseline
	assert_clean
	# each machine's base result, each on its own line, and its latest
	# import when that is another commit
	assert_line --regexp "^.*, GPU NVIDIA H200, JDK .*21\.0\.5, backend cuda: 1 failed of 12$"
	assert_line "    env $H200_ENV, commit $(git rev-parse --short=12 develop) on develop: 11 passed, 0 skipped, 0 unsupported, 3 classes"
	assert_line --regexp "^.*, no GPU, JDK .*21\.0\.5, backend cuda: 1 failed of 9$"
	assert_line "    env $CPU_ENV, commit $(git rev-parse --short=12 develop) on develop: 7 passed, 0 skipped, 1 unsupported, 3 classes"
	assert_line "    latest import: 1 failed of 9 at $(git rev-parse --short=12 HEAD) on main"
	[ "$(grep -c '^[^ ].* failed of' <<<"$output")" -eq 2 ]
	# never summed: 2 failed of 21 would be the two machines added
	refute_output --partial 'of 21'
	refute_output --partial '2 failed'
	run --separate-stderr git campaign tests baseline --env "$CPU_ENV"
	assert_clean
	[ "$(grep -c '^[^ ].* failed of' <<<"$output")" -eq 1 ]
	[ "$(git campaign tests baseline --json | jpy 'sorted((e["env"], e["failed"], e["total"]) for e in d)')" = \
		"$(python3 -c "import json; print(json.dumps(sorted([('$CPU_ENV', 1, 9), ('$H200_ENV', 1, 12)])))")" ]
}

@test "tests diff compares per class on one machine, known-flaky classes apart" {
	import_two_machines
	git config --add campaign.flaky compute.MMwithBytes
	cpu
	run --separate-stderr git campaign tests diff develop HEAD
	assert_clean
	dev=$(git rev-parse --short=12 develop) fix=$(git rev-parse --short=12 HEAD)
	assert_line --index 0 --regexp "^tests $dev -> $fix on .*, no GPU, JDK .*21\.0\.5, backend cuda \(env $CPU_ENV\)$"
	assert_equal "$(sed 1d <<<"$output")" "failed 1 of 9 -> 1 of 9
changed:
  foundation.TestIntegers: 1 failed, 2 passed -> 0 failed, 3 passed
known flaky (campaign.flaky), not counted as changes:
  compute.MMwithBytes: 0 failed, 2 passed -> 1 failed, 1 passed
    re-run alone: tornado-test -V compute.MMwithBytes"
	# the other way round is a regression: exit 1
	run --separate-stderr git campaign tests diff HEAD develop
	assert_failure 1
	assert_line '  foundation.TestIntegers: 0 failed, 3 passed -> 1 failed, 2 passed'
	# without the flaky setting the class counts
	git config --unset-all campaign.flaky
	run --separate-stderr git campaign tests diff develop HEAD
	assert_failure 1
	assert_line '  compute.MMwithBytes: 0 failed, 2 passed -> 1 failed, 1 passed'
	refute_output --partial 're-run alone'
}

@test "tests diff refuses commits tested on different machines, naming the keys" {
	import_two_machines
	git commit -q --allow-empty -m other
	h200
	git campaign tests import "$WORLD/h200-develop.txt" >/dev/null
	run --separate-stderr git campaign tests diff HEAD~ HEAD
	assert_failure 1
	[ -z "$output" ]
	[ "${stderr_lines[0]}" = "error: 'HEAD~' and 'HEAD' were tested on different machines (env $CPU_ENV, env $H200_ENV); their counts do not compare" ]
	[[ ${stderr_lines[1]} == 'hint: they differ in '*gpu_count*gpu_models* ]]
	# develop was tested on both: this machine's results are compared
	run --separate-stderr git campaign tests diff develop HEAD
	assert_clean
	assert_line --index 0 --partial "(env $H200_ENV)"
	run --separate-stderr git campaign tests diff develop HEAD --env "$CPU_ENV"
	assert_fatal "env $CPU_ENV has no test results for both 'develop' and 'HEAD'"
	run --separate-stderr git campaign tests diff develop HEAD~~~
	assert_fatal "unknown commit 'HEAD~~~'"
}

@test "tests import refuses what is not test results" {
	printf '{"results": [{"command": "sleep 0.1", "mean": 0.1, "stddev": 0.001, "median": 0.1, "min": 0.1, "max": 0.1, "times": [0.1]}]}\n' \
		>"$WORLD/hf.json"
	run --separate-stderr git campaign tests import "$WORLD/hf.json"
	assert_fatal "is hyperfine output, not test results" hint
	run --separate-stderr git campaign tests import x --format nsys
	assert_failure 129
	run --separate-stderr git campaign tests import
	assert_failure 129
	run --separate-stderr git campaign tests baseline
	assert_clean_but 'no test results'
	[ ! -e "$DB" ] || [ "$(sqlite3 "$DB" 'SELECT count(*) FROM test_result')" = 0 ]
}

@test "hypo test runs a standalone probe with the A/B measurement and decides" {
	git campaign hypo add "the upload costs 2.00 µs" --metric launch_us \
		--predict 2 --unit µs >/dev/null
	git campaign hypo add "the sync costs 4.19 µs" --metric sync_us \
		--predict 4.19 --unit µs --tolerance 5 >/dev/null
	git campaign hypo add "a run takes 1 s" --metric wall --predict 1 \
		--unit s >/dev/null
	# the probe lives in the scratch folder, never in the working tree
	probe="$(git campaign scratch)probe.sh"
	printf '#!/bin/sh\necho "$GIT_CAMPAIGN_SCRATCH" >>"$GIT_CAMPAIGN_SCRATCH/seen"\necho "launch ${1:-2.05} us"\n' >"$probe"
	chmod +x "$probe"
	run --separate-stderr git campaign hypo test 1 --probe "$probe" -n 3 \
		--metric 're:launch ([0-9.]+) us;unit=µs'
	assert_clean
	assert_output 'hypothesis 1 confirmed: predicted 2 ±10%, measured 2.05 (median of 3)'
	[ "$(wc -l <"$(git campaign scratch)seen")" -eq 3 ]
	[ "$(sort -u <"$(git campaign scratch)seen")" = "$(git campaign scratch)" ]
	[ -z "$(git status --porcelain)" ]
	[ "$(git campaign hypo list --json | jpy '[d[0]["measured"], d[0]["evidence"]]')" = \
		"[2.05, \"probe: $probe (median of 3, re:launch ([0-9.]+) us;unit=µs)\"]" ]
	run --separate-stderr git campaign hypo test 2 --probe "$probe 0.4" \
		--metric 're:launch ([0-9.]+) us;unit=µs;name=sync_us' -n 1
	assert_clean
	assert_output 'hypothesis 2 falsified: predicted 4.19 ±5%, measured 0.4 (median of 1)'
	# wall seconds cannot test a prediction in µs
	git campaign hypo add "x" --metric m --predict 1 --unit µs >/dev/null
	run --separate-stderr git campaign hypo test 4 --probe true
	assert_failure 129
	[ "${stderr_lines[0]}" = "error: the probe measures 's' but hypothesis 4 predicts 'µs'" ]
	# a failing probe or one without the number decides nothing
	run --separate-stderr git campaign hypo test 3 --probe false
	assert_fatal "the probe 'false' failed (exit status 1, run 1)"
	run --separate-stderr git campaign hypo test 4 --probe 'echo none' \
		--metric 're:launch ([0-9.]+);unit=µs'
	assert_fatal "no number for --metric in the output of 'echo none'"
	[ "$(git campaign hypo list --json | jpy '[h["state"] for h in d]')" = \
		'["confirmed", "falsified", "open", "open"]' ]
	run --separate-stderr git campaign hypo test 1 --probe true
	assert_failure 1
	run --separate-stderr git campaign hypo test 3
	assert_failure 129
}
