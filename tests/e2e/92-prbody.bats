#!/usr/bin/env bats
# git campaign pr body|lint: a small campaign end to end (two hypotheses,
# three findings, planted A/B runs on two machines, test results of both
# machines for the branch and its base), the body rendered from those
# records, the lint on that body and on bodies that break one rule each,
# a repository's own template, and a PR's body read from the fake GitHub.

load helper
load fakehub

STUB="$BIN_DIR/tests/stub/libcuda.so.1"
METRIC='re:time: ([0-9]+);unit=us'
TODO='<!-- git-campaign:todo -->'

setup() {
	setup_world
	mkdir -p "$WORLD/jdk"
	printf 'IMPLEMENTOR="Eclipse Adoptium"\nJAVA_RUNTIME_VERSION="21.0.5+11-LTS"\nJAVA_VERSION="21.0.5"\n' \
		>"$WORLD/jdk/release"
	export JAVA_HOME="$WORLD/jdk"
	unset CUDA_VISIBLE_DEVICES CUDA_STUB_INIT_ERROR CUDA_STUB_DEVICES \
		CUDA_STUB_LOG GIT_CAMPAIGN_SYSROOT
	cpu
	git init -q p
	cd p
	# PROG FIXED PER: a workload whose time is FIXED + PER x iters + noise
	write_prog prog.in 1000 10
	write_prog ctl.in 500 0
	printf 'cp prog.in prog && cp ctl.in ctl && chmod +x prog ctl\n' >build.sh
	printf 'prog\nctl\n.runs\n' >.gitignore
	git add .
	git commit -q -m base
	git campaign init kfusion --base main >/dev/null
	git config campaign.backend cuda
	DB="$PWD/.git/campaign/campaign.db"
}

teardown() {
	stop_fakehub
}

# the machine the next command runs on: cpu (no GPU) or h200 (the stub)
cpu() { export GIT_CAMPAIGN_LIBCUDA="$WORLD/none/libcuda.so.1"; }
h200() { export GIT_CAMPAIGN_LIBCUDA="$STUB"; }

write_prog() {
	cat >"$1" <<-EOF2
		#!/bin/sh
		FIXED=$2
		PER=$3
		n=\$(cat .runs 2>/dev/null || echo 0); n=\$((n + 1)); echo \$n >.runs
		noise=\$(( (n * 7919) % 11 - 5 ))
		echo "time: \$((FIXED + PER * \${1:-100} + noise))"
	EOF2
}

# tt CLASS PASS FAIL: one class block of tornado-test -V
tt() {
	local i
	printf 'Test: class %s\n' "$1"
	for ((i = 1; i <= $2; i++)); do
		printf '\tRunning test: p%d ................  [PASS] \n' "$i"
	done
	for ((i = 1; i <= $3; i++)); do
		printf '\tRunning test: f%d ................  [FAILED] \n\t\t\\_[REASON] expected:<1> but was:<0>\n' "$i"
	done
	printf 'Test ran: %d, Failed: %d, Unsupported: 0\n\n' $(($2 + $3)) "$3"
}

jpy() {
	python3 -c 'import json, sys
d = json.load(sys.stdin)
v = eval(sys.argv[1])
print(v if isinstance(v, str) else json.dumps(v, ensure_ascii=False))' "$1"
}

# section BODY N: the lines of section N of a body, heading excluded
section() {
	awk -v n="$2" '/^## [0-9]\./ { on = ($2 == n ".") ; next } on' "$1"
}

# The campaign: branch fix-pass saves one us per iteration of prog; an A/B
# on this machine (a sweep over 1 and 100 iterations, with a control) and
# one on the H200 (against main); hypotheses decided by the first; three
# findings, two of them this branch's; tests of both machines
campaign() {
	git checkout -q -b fix-pass
	git campaign hypo add "one pass of prog costs 1 us per iteration" \
		--metric per_iter_us --predict 1 --unit us >/dev/null
	git campaign hypo add "the 500 us setup is what the pass costs" \
		--metric setup_us --predict 50 --unit us >/dev/null
	git config --add campaign.backends cuda
	git config --add campaign.backends opencl
	write_prog prog.in 1000 9
	git campaign ab --build 'sh build.sh' --run './prog {iters}' \
		--metric "$METRIC" --control ./ctl --iters 1,100 -n 6 \
		>"$WORLD/ab1.txt"
	git commit -q -am 'one pass less per iteration'
	AB1=$(sqlite3 "$DB" 'SELECT max(id) FROM ab_run')
	CPU_ENV=$(git campaign env --json | jpy 'd["id"]')
	git campaign hypo confirm 1 --measured 1 --ab "$AB1" >/dev/null
	git campaign hypo falsify 2 --measured 0 --ab "$AB1" >/dev/null
	h200
	git campaign ab --build 'sh build.sh' --run './prog 100' --base main \
		--metric "$METRIC" --control ./ctl -n 6 >"$WORLD/ab2.txt"
	H200_ENV=$(git campaign env --json | jpy 'd["id"]')
	cpu
	git campaign finding add --kind slow "an unrelated slow path" >/dev/null
	git campaign finding add --kind crash "prog crashes at 0 iterations" \
		--pr 7 >/dev/null
	git campaign finding add --kind wrong-answer \
		"prog prints the wrong time after a rebuild" --commit HEAD >/dev/null
	sqlite3 "$DB" "INSERT INTO pr VALUES ('fix-pass', 7, 'open', 'main',
		'https://github.com/o/r/pull/7', '2026-11-29T12:00:00Z')"
	{ tt unittests.TestA 10 2; tt unittests.TestB 5 1; } >"$WORLD/cpu-main.txt"
	{ tt unittests.TestA 11 1; tt unittests.TestB 5 1; } >"$WORLD/cpu-fix.txt"
	{ tt unittests.TestA 40 0; tt unittests.TestB 50 9; } >"$WORLD/h200-main.txt"
	{ tt unittests.TestA 40 0; tt unittests.TestB 51 8; } >"$WORLD/h200-fix.txt"
	git campaign tests import "$WORLD/cpu-main.txt" --commit main >/dev/null
	git campaign tests import "$WORLD/cpu-fix.txt" >/dev/null
	h200
	git campaign tests import "$WORLD/h200-main.txt" --commit main >/dev/null
	git campaign tests import "$WORLD/h200-fix.txt" >/dev/null
	cpu
}

@test "dump" {
	campaign
	git campaign pr body > "$WORLD/body.md"
	cat "$WORLD/body.md" >&3
	git campaign pr lint "$WORLD/body.md" >&3 || true
}
