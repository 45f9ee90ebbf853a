#!/usr/bin/env bats
# measure import writes what it says it writes: rows that name their own
# commit go onto that commit, equal records of one import are merged with
# a word, and the printed count is the count in the note.

load helper

setup() {
	setup_world
	git init -q -b develop r
	cd r
	git commit -q --allow-empty -m first
	git commit -q --allow-empty -m second
	git campaign init >/dev/null
}

note_lines() {
	git notes --ref campaign show "$1" 2>/dev/null | wc -l
}

# history A B: two perf-history rows (GPULlama3's docs/perf-history.jsonl
# shape), measured at commits A and B, with equal eval and total counts
history() {
	cat <<-EOF
		{"commit": "$1", "branch": "pr-97", "backend": "opencl", "model": "Llama-3.2-1B-Instruct", "eval_rate": 31.51, "eval_count": 22, "total_count": 22, "eval_duration": 700000000}
		{"commit": "$2", "branch": "main", "backend": "opencl", "model": "Llama-3.2-1B-Instruct", "eval_rate": 45.00, "eval_count": 22, "total_count": 22, "eval_duration": 488888889}
	EOF
}

@test "perf-history rows go onto the commits they name, never pooled on HEAD" {
	a=$(git rev-parse HEAD~) b=$(git rev-parse HEAD)
	history "$a" "$b" >perf-history.jsonl
	run --separate-stderr git campaign measure import perf-history.jsonl
	assert_clean
	[ "${lines[0]}" = "recorded 4 measurements from llm on ${a:0:10} (run ${lines[0]#*(run }" ]
	[[ ${lines[1]} == "recorded 4 measurements from llm on ${b:0:10} "* ]]
	# the equal counts of the two rows are both kept, one on each commit
	[ "$(note_lines "$a")" = 4 ]
	[ "$(note_lines "$b")" = 4 ]
	run --separate-stderr git campaign measure log eval_rate
	assert_clean
	assert_line --regexp "^${b:0:10}  45 tok/s  second$"
	assert_line --regexp "^${a:0:10}  31.51 tok/s  first$"
	refute_output --partial 'median of 2'
}

@test "perf-history rows naming commits not in the repository are refused, nothing written" {
	history 3059800b13e899ae26a4f4876e104db8c9f48cd5 \
		aaaa800b13e899ae26a4f4876e104db8c9f48cd5 >perf-history.jsonl
	before=$(git rev-parse refs/notes/campaign)
	run --separate-stderr git campaign measure import perf-history.jsonl
	assert_fatal 'rows name commits not in this repository: 3059800b, aaaa800b'
	[ "$(git rev-parse refs/notes/campaign)" = "$before" ]
	# --commit cannot pool them onto one commit either
	history "$(git rev-parse HEAD~)" "$(git rev-parse HEAD)" >perf-history.jsonl
	run --separate-stderr git campaign measure import --commit HEAD perf-history.jsonl
	assert_failure 129
	[ "${stderr_lines[0]}" = "error: the rows of 'perf-history.jsonl' name the commits they measured: --commit cannot move them" ]
	[ "$(git rev-parse refs/notes/campaign)" = "$before" ]
}

@test "repeated rows of one import are each written, and the count printed is the count written" {
	d0='Performance: bm=saxpy-100000-512, device=0:0, average(ns)=1.745612e+04, median(ns)=8.620500e+03, firstIteration(ns)=9.900000e+06, best(ns)=8.211000e+03
, speedupAvg=3.09, speedupMedian=6.25, speedupFirstIteration=0.09, CV=10.53, deviceName= [NVIDIA CUDA] -- NVIDIA H200'
	d1='Performance: bm=saxpy-100000-512, device=0:1, average(ns)=9.000250e+03, median(ns)=8.999000e+03, firstIteration(ns)=1.200000e+07, best(ns)=8.000000e+03
, speedupAvg=6.01, speedupMedian=5.99, speedupFirstIteration=0.07, CV=3.25, deviceName= [NVIDIA CUDA] -- NVIDIA GeForce RTX 4090'
	# BenchmarkRunner prints a device's line again before the next one's
	printf '%s\n%s\n%s\n' "$d0" "$d0" "$d1" >bm.txt
	run --separate-stderr git campaign measure import bm.txt
	assert_clean
	[[ ${lines[0]} == 'recorded 24 measurements from benchmark-runner on '* ]]
	[ "${#lines[@]}" -eq 1 ]
	[ "$(note_lines HEAD)" = 24 ]
	# the repeats are lines of their own, told apart by their seq
	[ "$(git notes --ref campaign show HEAD | grep -c '"seq":1,')" = 8 ]
	[ "$(git notes --ref campaign show HEAD | sort -u | wc -l)" = 24 ]
	git commit -q --allow-empty -m third
	run --separate-stderr git campaign measure import --json bm.txt
	assert_clean
	[ "$(echo "$output" | python3 -c 'import json, sys; d = json.load(sys.stdin); print(d["records"], "merged" in d)')" = '24 False' ]
	[ "$(note_lines HEAD)" = 24 ]
}

@test "repeated ncu rows of one launch are counted once, as written" {
	H='"ID","Process ID","Process Name","Host Name","Kernel Name","Context","Stream","Block Size","Grid Size","Device","CC","Section Name","Metric Name","Metric Unit","Metric Value","Rule Name","Rule Type","Rule Description","Estimated Speedup Type","Estimated Speedup"'
	R='"0","841","p","h","vadd","1","7","(256, 1, 1)","(65536, 1, 1)","0","9.0","GPU Speed Of Light Throughput","Duration","us","5.10",'
	printf '%s\n' "$H" "$R" "$R" "$R" >dup.csv
	run --separate-stderr git campaign measure import dup.csv
	assert_clean
	[[ ${lines[0]} == 'recorded 1 measurement from ncu on '* ]]
	[ "${#lines[@]}" = 1 ]
	[ "$(note_lines HEAD)" = 1 ]
	# one launch: its summary counts it once
	git notes --ref campaign show HEAD | grep -q '"value":5100,"unit":"ns","better":"lower","stat":"median","n":1,"summary":{"min":5100,"p10":5100,"p90":5100,"max":5100,"sum":5100}'
}
