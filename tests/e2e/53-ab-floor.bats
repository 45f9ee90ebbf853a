#!/usr/bin/env bats
# ab(1) states the floor of 5 runs per arm as a policy, with the smallest
# p the exact Mann-Whitney test can reach, checked against scipy.

load helper

@test "ab(1)'s reason for the floor of 5 runs gives the smallest exact p at 3, 4 and 5 runs as scipy computes them" {
	PY=$(command -v /usr/bin/python3 || command -v python3)
	"$PY" -c 'import scipy' 2>/dev/null || skip "python3-scipy is not installed"
	run "$PY" -c '
from scipy.stats import mannwhitneyu
for n in (3, 4, 5):
    p = mannwhitneyu(range(n), range(n, 2 * n), method="exact").pvalue
    print("%.2g" % p if p >= 0.01 else "%.1g" % p)'
	assert_success
	[ "${lines[*]}" = '0.1 0.029 0.008' ] || fail "scipy: ${lines[*]}"
	page=$(tr -s ' \n\t' ' ' <"$SRC_DIR/man/git-campaign-ab.1.scd")
	[[ $page == *"0.1 at 3 runs per arm"* ]] || fail "no p at 3 runs"
	[[ $page == *"0.029 at 4 and 0.008 at 5"* ]] || fail "no p at 4 and 5 runs"
	[[ $page != *"cannot reach p < 0.05 with an interval"* ]] ||
		fail "the false reason is still there"
}

@test "at 4 runs per arm the tool prints p below 0.05 and an interval, but no verdict" {
	setup_world
	git init -q p
	cd p
	git commit -q --allow-empty -m init
	git campaign init demo --base main >/dev/null
	# 1000 + k us in arm A, 900 + k in B, k the run's number
	cat >"$WORLD/w" <<-'EOF'
		#!/bin/sh
		f=$0.$GIT_CAMPAIGN_ARM; k=$(($(cat "$f" 2>/dev/null || echo 0) + 1))
		echo $k >"$f"
		[ "$GIT_CAMPAIGN_ARM" = A ] && echo "time: $((1000 + k))" ||
			echo "time: $((900 + k))"
	EOF
	chmod +x "$WORLD/w"
	run --separate-stderr git campaign ab --build true --run "$WORLD/w" -n 4 \
		--warmup 0 --metric 're:time: ([0-9]+);unit=us'
	[ "$status" -eq 0 ] || fail "exit $status: $stderr"
	assert_line --regexp '^\| `.*/w` \| 100[0-9.]* us \| 90[0-9.]* us \| 0\.90[0-9] \[.*\] \| 0\.029 \| no verdict \|$'
}
