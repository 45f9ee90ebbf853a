#!/usr/bin/env bats
# git campaign ab's estimator: the p, the B/A estimate, its interval and
# the verdict against scipy on seeded samples (tests/e2e/ab_stats_ref.py
# feeds build/tests/ab-judge), and the findings of ab.md on the real
# binary with replayed samples: one estimator, values <= 0, ties, every
# "~" with its reason, drift, outliers, a slow first run, sub-ms runs.

load helper

METRIC='re:loop: ([0-9.]+) us;unit=us'

setup() {
	setup_world
	PY=$(command -v /usr/bin/python3 || command -v python3)
	git init -q w
	cd w
	git commit -q --allow-empty -m init
	git campaign init >/dev/null
	# replay NAME: its k-th run in arm A (B) prints line k of NAME.A (.B)
	cat >"$WORLD/replay.sh" <<-'EOF'
		f=$WORLD/$1.$GIT_CAMPAIGN_ARM
		k=$(($(cat $f.n 2>/dev/null || echo 0) + 1))
		echo $k >$f.n
		echo "loop: $(sed -n ${k}p $f) us"
	EOF
	export WORLD
}

# samples NAME "A values" "B values"
samples() {
	printf '%s\n' $2 >"$WORLD/$1.A"
	printf '%s\n' $3 >"$WORLD/$1.B"
}

# replay NAME N [ab options]: an A/B of the replayed samples
replay() {
	local name=$1 n=$2
	shift 2
	run --separate-stderr git campaign ab --build true \
		--run "sh $WORLD/replay.sh $name" -n "$n" --warmup 0 \
		--metric "$METRIC" "$@"
}

scipy_family() {
	"$PY" -c 'import scipy, numpy' 2>/dev/null ||
		skip "python3-scipy is missing (scripts/deps.sh installs it)"
	run "$PY" "$SRC_DIR/tests/e2e/ab_stats_ref.py" \
		"$BIN_DIR/tests/ab-judge" "$1"
	[ "$status" -eq 0 ] || fail "$output"
	assert_output --regexp "^$1: [0-9]+ cases .*, 0 differ$"
}

@test "p, B/A, its interval and the verdict equal scipy's on unimodal samples of 3 to 23 runs" {
	scipy_family unimodal
}

@test "p, B/A, its interval and the verdict equal scipy's on two-mode samples" {
	scipy_family bimodal
}

@test "p, B/A, its interval and the verdict equal scipy's on tied samples, exact and normal" {
	scipy_family tied
}

@test "p, the difference B - A, its interval and the verdict equal scipy's on samples with zeros and negatives" {
	scipy_family zeros
}

@test "p, B/A, its interval and the verdict equal scipy's on samples of 21 to 60 runs (normal approximation)" {
	scipy_family large
}

@test "on two-mode timings the verdict, B/A and the interval agree, and a warning says the data look multimodal" {
	# 4% slower in each mode, but more often in the fast one: the ratio of
	# medians says -30%
	samples m "15.05 10.03 15.09 10.07 15.01 10.05 15.10 15.03 10.01 15.07
		10.08 15.00 10.04 15.08 10.02 15.04 15.06 10.06 15.02 10.00" \
		"10.45 15.63 10.49 10.41 15.67 10.43 15.61 10.47 10.50 15.65
		10.40 15.68 10.44 15.62 10.48 10.42 15.66 10.46 15.60 15.64"
	replay m 20
	assert_success
	assert_line --regexp '^\| `sh .*replay.sh m` \| 15 us \| 10\.5 us \| 1\.039 \[1\.034, 1\.043\] \| 0\.033 \| slower \|$'
	assert_line --regexp '^- warning: `sh .*replay.sh m` looks multimodal: the ratio of medians 0\.699 lies outside the 95% CI \[1\.034, 1\.043\].* Hodges-Lehmann estimate 1\.039 \(B above A in 70% of pairs\)$'
	refute_output --partial 'faster'
}

@test "values of zero get a verdict on the difference B - A, not a silent ~" {
	samples z "0 1 2 0 3 1 0 2 1 0" "10 11 12 10 13 11 10 12 11 10"
	replay z 10 --json
	assert_success
	jq -e '.workloads[0] | .verdict == "slower" and .diff == 10 and
		.diff_low == 9 and .diff_high == 11 and .ratio == null' \
		<<<"$output" >/dev/null || fail "$output"
	# a drop to all zeros in B
	rm -f "$WORLD"/y.*
	samples y "100 104 109 101 105 103 107 102 108 106" "0 0 0 0 0 0 0 0 0 0"
	replay y 10
	assert_success
	assert_line --regexp '^\| `sh .*replay.sh y` \| 104\.5 us \| 0 us \| B-A -104\.5 us \[-107 us, -102 us\] \| 1\.1e-05 \| faster \|$'
}

@test "tied values give a p and an interval that agree: significant is not called inconclusive" {
	samples t "1040 980 1000 1000 1020 980 1000 980 980 980" \
		"1020 1020 1020 1040 1020 960 1060 1020 1020 1040"
	replay t 10 --json
	assert_success
	jq -e '.workloads[0] | .verdict == "slower" and .p < 0.05 and
		.ci_low > 1 and .ci_low <= .ratio and .ratio <= .ci_high' \
		<<<"$output" >/dev/null || fail "$output"
}

@test "a significant change below --min-effect says both numbers; at a lower --min-effect it is a verdict" {
	samples s "998 999 1000 1001 1002 997 1003 999.5 1000.5 1000" \
		"982 983 984 981 985 982.5 983.5 980 986 983"
	replay s 10 --min-effect 2
	assert_success
	assert_line --regexp '^\| `sh .*replay.sh s` \| .* \| 0\.983 \[0\.98[0-9], 0\.98[0-9]\] \| 1\.1e-05 \| ~ \|$'
	assert_line --regexp '^- `sh .*replay.sh s`: significant \(p = 1\.1e-05\) but -1\.7% is below the 2\.0% minimum effect$'
	rm -f "$WORLD"/s.*.n
	replay s 10 --min-effect 1
	assert_line --regexp '^\| `sh .*replay.sh s` \| .* \| faster \|$'
}

@test "a ~ that is not significant says so, with its p" {
	samples n "1000 1001 999 1002 998 1000.5 999.5 1001.5 998.5 1000" \
		"1000.2 999.8 1001.2 998.8 1000.6 999.4 1001.8 998.2 1000 1000.4"
	replay n 10
	assert_success
	assert_line --regexp '^\| `sh .*replay.sh n` \| .* \| ~ \|$'
	assert_line --regexp '^- `sh .*replay.sh n`: not significant \(p = 0\.[0-9]+\); the 95% CI \+-0\.[0-9]+% is within the 2\.0% minimum effect$'
}

@test "drift is warned of below 0.01 over the series tested, not at p = 0.015 of i.i.d.-looking runs" {
	# Mann-Kendall p = 0.015, second half +2.5%: a false alarm at 0.05
	samples d "1000 990 1005 1010 1000 1030 1020 1015 1040 1025" \
		"1003 1001 999 1002 998 1000 1004 997 1001 1000"
	replay d 10
	assert_success
	refute_output --partial 'drift'
	# a steady climb still warns
	rm -f "$WORLD"/d.*
	samples d "1000 1010 1020 1030 1040 1050 1060 1070 1080 1090" \
		"1003 1001 999 1002 998 1000 1004 997 1001 1000"
	replay d 10
	assert_line --regexp '^- warning: drift: arm A of `sh .*replay.sh d` trends over its runs \(Mann-Kendall p = .*, below 0\.005\); its second half is \+4\.9% off the first$'
}

@test "a first run far slower than the rest is warned of, as hyperfine warns" {
	command -v hyperfine >/dev/null ||
		skip "hyperfine is missing (scripts/deps.sh installs it)"
	cat >"$WORLD/s.sh" <<-'EOF'
		n=$(cat $WORLD/$1 2>/dev/null || echo 0); echo $((n+1)) > $WORLD/$1
		[ $n = 0 ] && exec sleep 1; exec sleep 0.02
	EOF
	run hyperfine -N --runs 10 "sh $WORLD/s.sh h"
	assert_output --partial 'The first benchmarking run for this command was significantly slower than the rest'
	run --separate-stderr git campaign ab --build true \
		--run "sh $WORLD/s.sh ab" -n 10 --warmup 0
	assert_success
	assert_line --regexp '^- warning: the first measured run of `sh .*s.sh ab` in arm A \([0-9.]+\) is far off the rest \(median 0\.[0-9]+\): it may need more --warmup$'
}

@test "outliers are flagged and kept; runs under a millisecond are warned of" {
	samples o "100 101 99 100.5 99.5 100 1000 100.2 99.8 100.1" \
		"100 101 99 100.5 99.5 100 100.3 100.2 99.8 100.1"
	replay o 10 --json
	assert_success
	jq -e '.workloads[0].a | length == 10' <<<"$output" >/dev/null
	jq -e '[.warnings[] | select(test("^outliers: 1 of 10 runs of `sh .*replay.sh o` in arm A lie over 10 scaled MADs from the median \\(100.*, the farthest 1000\\)"))] | length == 1' \
		<<<"$output" >/dev/null || fail "$output"
	refute_output --partial 'millisecond'
	# 0.4 ms of wall time a run
	samples q "0.0004 0.00041 0.00039 0.0004 0.00042" \
		"0.0004 0.00041 0.00039 0.0004 0.00042"
	replay q 5 --metric 're:loop: ([0-9.]+) us;unit=s;name=wall'
	assert_line --regexp '^- warning: runs of `sh .*replay.sh q` in arm A take under a millisecond \(median 0\.4 ms\).*'
}

@test "one run per arm shows no p, as it shows no interval" {
	samples one "100" "90"
	replay one 1
	assert_success
	assert_line --regexp '^\| `sh .*replay.sh one` \| 100 us \| 90 us \| 0\.900 \| - \| no verdict \|$'
}
