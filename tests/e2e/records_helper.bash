# Shared by the end-to-end tests that run a small campaign (47-ab,
# 90-records, 92-prbody, 93-resume): planted workloads, two machines, test
# reports and JSON reading. Load it after helper.

# the machine the next command runs on: cpu (no GPU) or h200 (the stand-in
# libcuda, "$BIN_DIR/tests/stub/libcuda.so.1")
cpu() { export GIT_CAMPAIGN_LIBCUDA="$WORLD/none/libcuda.so.1"; }
h200() { export GIT_CAMPAIGN_LIBCUDA="$BIN_DIR/tests/stub/libcuda.so.1"; }

# write_prog FILE FIXED PER: a workload that prints its own time, FIXED +
# PER x iters (its first argument, 100 by default) + a little noise, so
# that verdicts do not depend on the machine's load
write_prog() {
	cat >"$1" <<-EOF
		#!/bin/sh
		FIXED=$2
		PER=$3
		n=\$(cat .runs 2>/dev/null || echo 0); n=\$((n + 1)); echo \$n >.runs
		noise=\$(( (n * 7919) % 11 - 5 ))
		echo "time: \$((FIXED + PER * \${1:-100} + noise))"
	EOF
}

# tt CLASS PASS FAIL [UNSUPPORTED]: one class block of tornado-test -V
tt() {
	local i u=${4:-0}
	printf 'Test: class %s\n' "$1"
	for ((i = 1; i <= $2; i++)); do
		printf '\tRunning test: p%d ................  [PASS] \n' "$i"
	done
	for ((i = 1; i <= $3; i++)); do
		printf '\tRunning test: f%d ................  [FAILED] \n\t\t\\_[REASON] expected:<1> but was:<0>\n' "$i"
	done
	for ((i = 1; i <= u; i++)); do
		printf '\tRunning test: u%d ................  [FP64 UNSUPPORTED FOR CURRENT DEVICE] \n' "$i"
	done
	printf 'Test ran: %d, Failed: %d, Unsupported: %d\n\n' $(($2 + $3 + u)) "$3" "$u"
}

# jpy EXPR: EXPR over the JSON on stdin (as d), printed (JSON unless a str)
jpy() {
	python3 -c 'import json, sys
d = json.load(sys.stdin)
v = eval(sys.argv[1])
print(v if isinstance(v, str) else json.dumps(v, ensure_ascii=False))' "$1"
}
