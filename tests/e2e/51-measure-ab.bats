#!/usr/bin/env bats
# What measure compare and measure log read from an A/B's records: A's arm
# on A's commit, B's arm where its tree is (on the committed change once
# `ab attach` copied it there), and never numbers of different iteration
# counts pooled. The workloads print planted numbers, so every expected
# median and ratio is known exactly.

load helper

METRIC='re:loop: ([0-9.]+) us;unit=us;name=loop_us'

setup() {
	setup_world
	git init -q p
	cd p
	git commit -q --allow-empty -m init
	git campaign init demo --base main >/dev/null
	# replay NAME: the k-th run in arm A (B) prints line k of NAME.A (NAME.B)
	cat >"$WORLD/replay" <<-'EOF'
		#!/bin/sh
		f=$1.$GIT_CAMPAIGN_ARM
		k=$(($(cat "$f.n" 2>/dev/null || echo 0) + 1)); echo $k >"$f.n"
		echo "loop: $(sed -n ${k}p "$f") us"
	EOF
	# per ITERS: 10 us per iteration while k.txt says v1, 9 us with v2
	cat >"$WORLD/per" <<-'EOF'
		#!/bin/sh
		if grep -q v1 k.txt; then echo "loop: $(($1 * 10)) us"
		else echo "loop: $(($1 * 9)) us"; fi
	EOF
	chmod +x "$WORLD/replay" "$WORLD/per"
	printf 'v1\n' >k.txt
	git add k.txt
	git commit -q -m base
}

# an A/B on branch feat where B is twice as fast, committed and attached
twice_as_fast() {
	seq 100 109 >"$WORLD/m.A"
	seq 50 59 >"$WORLD/m.B"
	git switch -q -c feat
	printf 'v2\n' >k.txt
	run --separate-stderr git campaign ab --build true \
		--run "$WORLD/replay $WORLD/m" -n 10 --warmup 0 --metric "$METRIC"
	[ "$status" -eq 0 ] || fail "ab: exit $status: $stderr"
	assert_line --regexp '\| 104\.5 us \| 54\.5 us \| 0\.52[0-9] .*\| faster \|$'
	git commit -q -am change
	run --separate-stderr git campaign ab attach
	assert_success
}

@test "after ab and ab attach, measure compare BASE BRANCH compares A's arm with B's" {
	twice_as_fast
	run --separate-stderr git campaign measure compare main feat
	assert_success
	assert_line --regexp '^loop_us +104\.5 us +54\.5 us +-47\.85% .* n=10\+10 '
	refute_output --partial 'b_tree'
}

@test "measure log puts B's numbers at the commit of the tree they measured, not at A's" {
	twice_as_fast
	run --separate-stderr git campaign measure log loop_us
	assert_success
	assert_line --regexp '^[0-9a-f]{10}  54\.5 us  change$'
	assert_line --regexp '^[0-9a-f]{10}  104\.5 us  base$'
	[ "${#lines[@]}" -eq 2 ] || fail "$output"
}

@test "measure compare refuses to compare a commit's records with their own copies" {
	twice_as_fast
	run --separate-stderr git campaign measure compare feat feat
	assert_failure 1
	assert_output ''
	[ "${stderr_lines[0]}" = "error: refusing to compare 'loop_us' of 'feat' with copies of its own records at 'feat'" ] ||
		fail "$stderr"
}

@test "measure compare and measure log keep iteration counts apart" {
	printf 'v2\n' >k.txt
	run --separate-stderr git campaign ab --build true \
		--run "$WORLD/per {iters}" --iters 100,1000 -n 5 --warmup 0 \
		--metric "$METRIC"
	assert_success
	git commit -q -am change
	run --separate-stderr git campaign ab --build true \
		--run "$WORLD/per {iters}" --iters 100 -n 5 --warmup 0 \
		--metric "$METRIC"
	assert_success
	# -10% at every count; only count 100 was measured at both
	run --separate-stderr git campaign measure compare HEAD~ HEAD loop_us
	assert_success
	assert_line --regexp '^loop_us +1000 us +900 us +-10\.00% .*iters=100,'
	[ "${#lines[@]}" -eq 2 ] || fail "$output"
	run --separate-stderr git campaign measure log loop_us
	assert_failure
	[[ $stderr == *"refusing to mix configs of 'loop_us': they differ in 'iters'"* ]] ||
		fail "$stderr"
	run --separate-stderr git campaign measure log loop_us --config iters=1000
	assert_success
	assert_line --regexp '^[0-9a-f]{10}  10000 us  base$'
	[ "${#lines[@]}" -eq 1 ] || fail "$output"
	run --separate-stderr git campaign measure log loop_us --cross-config
	assert_success
	assert_line --regexp 'iters=1000,.* 10000 us  base$'
	assert_line --regexp 'iters=100,.* 1000 us  base$'
	refute_output --partial '5500 us'
}

@test "ab attach run twice copies each record once and says it copied none the second time" {
	twice_as_fast
	before=$(git notes --ref campaign show feat | wc -l)
	run --separate-stderr git campaign ab attach
	assert_success
	assert_output 'attached 0 B records to HEAD'
	[ "$(git notes --ref campaign show feat | wc -l)" -eq "$before" ]
	run --separate-stderr git campaign measure compare main feat
	assert_line --regexp '^loop_us .* n=10\+10 '
}
