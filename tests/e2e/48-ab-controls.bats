#!/usr/bin/env bats
# git campaign ab: the controls (steady only by an equivalence test, moved
# only after Holm's correction, otherwise unvouched; no control said on
# every table; campaign.requireControl) and the iteration sweep's words.
# The workloads replay planted samples, so the verdicts do not depend on
# this machine; the numbers that decide a control are checked against
# scipy's exact Mann-Whitney tests on the samples the run reports.

load helper

METRIC='re:t: ([0-9.]+) us;unit=us'
PY=$(command -v /usr/bin/python3 || command -v python3)

setup() {
	setup_world
	S="$WORLD/s"
	mkdir -p "$S"
	# r.sh NAME [ITERS]: its k-th run in arm A (B) prints line k of
	# $S/NAME[.ITERS].A (.B); past the last line it fails
	cat >"$WORLD/r.sh" <<-EOF
		f=$S/\$1\${2:+.\$2}.\$GIT_CAMPAIGN_ARM
		k=\$((\$(cat "\$f.n" 2>/dev/null || echo 0) + 1))
		echo \$k >"\$f.n"
		v=\$(sed -n "\${k}p" "\$f")
		[ -n "\$v" ] || exit 3
		echo "t: \$v us"
	EOF
	R="sh $WORLD/r.sh"
	git init -q p
	cd p
	echo v1 >k.txt
	git add k.txt
	git commit -q -m base
	git campaign init demo --base main >/dev/null
	echo v2 >k.txt
	# the main workload: B is 10% faster
	plant m A 100 100 100 100 100 100 100 100 100 100
	plant m B 90 90 90 90 90 90 90 90 90 90
}

# plant NAME ARM VALUE...: the samples NAME replays in ARM
plant() {
	local f=$S/$1.$2
	shift 2
	printf '%s\n' "$@" >"$f"
}

# replay: every replayed sample from its first again
replay() {
	rm -f "$S"/*.n
}

ab() {
	replay
	run --separate-stderr git campaign ab --build true --run "$R m" \
		--warmup 0 --metric "$METRIC" "$@"
}

# need_scipy: skip, saying why, where the reference is missing
need_scipy() {
	"$PY" -c 'import scipy' 2>/dev/null ||
		skip "python3-scipy is not installed (scripts/deps.sh installs it)"
}

# jq_py EXPR: EXPR over the JSON on stdin as d
jq_py() {
	"$PY" -c "import json, sys; d = json.load(sys.stdin); print($1)"
}

# tost TOL: for each control of the JSON result on stdin, "equivalent" or
# "not equivalent" by scipy's two one-sided exact Mann-Whitney tests of the
# logarithms at 2.5% each against the bounds log(1 - TOL), log(1 + TOL):
# the test the 95% Hodges-Lehmann interval lying inside them stands for
tost() {
	"$PY" -c '
import json, math, sys
from scipy.stats import mannwhitneyu
tol = float(sys.argv[1])
for w in json.load(sys.stdin)["workloads"]:
    if not w["control"]:
        continue
    la = [math.log(v) for v in w["a"]]
    lb = [math.log(v) for v in w["b"]]
    lo = mannwhitneyu([v - math.log(1 - tol) for v in lb], la,
                      alternative="greater", method="exact").pvalue
    hi = mannwhitneyu([v - math.log(1 + tol) for v in lb], la,
                      alternative="less", method="exact").pvalue
    print("equivalent" if max(lo, hi) < 0.025 else "not equivalent")
' "$1"
}

@test "a control that moved less than the tolerance but whose interval reaches past it is not steady: it cannot vouch, and the verdicts say unvouched" {
	need_scipy
	# +2.0% at p = 0.007: significant, inside a 2.5% tolerance, its CI
	# past +2.5%
	plant c A 101.14 98.34 99.19 100.45 98.79 99.91 100.22 99.01 98.44 100.23
	plant c B 102.72 100.72 101.09 103.52 100.82 100.88 104.47 99.65 102.47 99.09
	ab --control "$R c" -n 10 --control-tolerance 2.5
	[ "$status" -eq 0 ] || fail "exit $status: $stderr"
	assert_line --index 0 --regexp '^\*\*UNVOUCHED\*\*: control `sh .*/r\.sh c` cannot vouch for the run: its 95% CI \[\+[0-9.]+%, \+[0-9.]+%\] reaches past the 2\.5% tolerance \(p = 0\.0068\); about [0-9]+ runs per arm would let it\. The verdicts stand unvouched\.$'
	assert_line --regexp '^\| control: `sh .*/r\.sh c` \| 99\.55 us \| 101 us \| 1\.020 \[1\.006, 1\.035\] \| 0\.0068 \| cannot vouch \|$'
	assert_line --regexp '^\| `sh .*/r\.sh m` \| 100 us \| 90 us \| 0\.900 .* \| faster \(unvouched\) \|$'
	refute_output --partial 'steady'
	# scipy's equivalence test agrees: not equivalent at 2.5%
	ab --control "$R c" -n 10 --control-tolerance 2.5 --json
	assert_success
	[ "$(tost 0.025 <<<"$output")" = 'not equivalent' ]
	[ "$(jq_py '[d["vouched"], d["controls"], d["invalid"], d["workloads"][1]["verdict"]]' <<<"$output")" = \
		"[False, 'unvouched', False, 'cannot vouch']" ]
	# recorded as unvouched too
	run sqlite3 .git/campaign/campaign.db 'SELECT verdict, invalid FROM ab_run ORDER BY id DESC LIMIT 1'
	assert_output 'faster 0.900 unvouched|0'
	run git campaign status
	assert_line --regexp '^last ab   #2 faster 0\.900 unvouched: '
}

@test "a control is steady exactly when scipy's two one-sided tests call it equivalent within the tolerance" {
	need_scipy
	local seed verdict ref
	for seed in 1 2 3 4 5 6 7 8; do
		# seeded samples: noise from 0.3% to 2.4%, moves up to 1.6%
		"$PY" - "$S" "$seed" <<-'EOF'
			import math, random, sys
			s, seed = sys.argv[1], int(sys.argv[2])
			r = random.Random(seed)
			sigma, move = 0.003 * seed, 1 + 0.002 * seed
			for arm, f in (("A", 1), ("B", move)):
			    with open(f"{s}/c.{arm}", "w") as out:
			        for _ in range(10):
			            v = 100 * f * math.exp(r.gauss(0, sigma))
			            out.write(f"{v:.3f}\n")
		EOF
		ab --control "$R c" -n 10 --json
		verdict=$(jq_py 'd["workloads"][1]["verdict"]' <<<"$output")
		ref=$(tost 0.02 <<<"$output")
		case "$ref" in
		equivalent) [ "$verdict" = steady ] ;;
		*) [ "$verdict" != steady ] ;;
		esac || fail "seed $seed: $verdict, scipy: $ref"
		echo "seed $seed: $verdict ($ref)" >>"$WORLD/seen"
	done
	# the seeds reach both sides
	grep -q '(equivalent)' "$WORLD/seen"
	grep -q '(not equivalent)' "$WORLD/seen"
}

@test "with two controls at three counts a control is called moved only when Holm's correction over the six control tests keeps it significant" {
	need_scipy
	local k
	for k in 1 2 3; do
		plant c1.$k A 100.1 100.2 100.3 100.4 100.5 100.1 100.2 100.3 100.4 100.5
		plant c1.$k B 100.5 100.4 100.3 100.2 100.1 100.5 100.4 100.3 100.2 100.1
		cp "$S/c1.$k.A" "$S/c2.$k.A"
		cp "$S/c1.$k.B" "$S/c2.$k.B"
		plant m.$k A 100 100 100 100 100 100 100 100 100 100
		plant m.$k B 90 90 90 90 90 90 90 90 90 90
	done
	# one control at one count moved +3.2% at p = 0.023: alone, INVALID
	plant c1.1 A 104.79 98.68 100.79 100.29 101.68 97.23 99.17 98.51 97.87 98.33
	plant c1.1 B 101.95 102.41 101.15 103.87 101.88 96.62 105.48 102.2 101.48 103.55
	replay
	run --separate-stderr git campaign ab --build true --run "$R m {iters}" \
		--control "$R c1 {iters}" --control "$R c2 {iters}" --iters 1,2,3 \
		-n 10 --warmup 0 --metric "$METRIC" --json
	[ "$status" -eq 0 ] || fail "exit $status: $stderr $output"
	printf '%s\n' "$output" >"$WORLD/r.json"
	[ "$(jq_py '[d["control_tests"], d["invalid"], d["controls"]]' <"$WORLD/r.json")" = "[6, False, 'unvouched']" ]
	# every raw p is scipy's exact two-sided Mann-Whitney p, and every
	# adjusted p is Holm's step-down over the six
	"$PY" - "$WORLD/r.json" <<-'EOF'
		import json, sys
		from scipy.stats import mannwhitneyu
		ctl = [w for w in json.load(open(sys.argv[1]))["workloads"] if w["control"]]
		ps = [mannwhitneyu(w["b"], w["a"], method="exact").pvalue for w in ctl]
		m, order, run, holm = len(ps), sorted(range(len(ps)), key=lambda i: ps[i]), 0, {}
		for rank, i in enumerate(order):
		    run = max(run, (m - rank) * ps[i])
		    holm[i] = min(1, run)
		for i, w in enumerate(ctl):
		    assert abs(w["p"] - ps[i]) < 1e-12, (w["p"], ps[i])
		    assert abs(w["p_holm"] - holm[i]) < 1e-12, (w["p_holm"], holm[i])
		moved = ctl[0]
		assert moved["iters"] == 1 and moved["p"] < 0.05 <= moved["p_holm"], moved
		assert moved["verdict"] == "cannot vouch", moved["verdict"]
	EOF
	# an unvouched run is recorded; an INVALID one adds nothing
	notes=$(git notes --ref campaign show HEAD | wc -l)
	[ "$notes" -eq 18 ]
	# the same move at p = 1.1e-05 stays significant after Holm: INVALID
	plant c1.1 A 99.74 100.51 99.77 99.69 99.07 99.79 101.12 100.43 101.04 100.25
	plant c1.1 B 110.44 110.2 108.18 110.94 110.56 110.55 108.16 108.1 109.03 109.49
	replay
	run --separate-stderr git campaign ab --build true --run "$R m {iters}" \
		--control "$R c1 {iters}" --control "$R c2 {iters}" --iters 1,2,3 \
		-n 10 --warmup 0 --metric "$METRIC"
	assert_failure 1
	assert_line --index 0 --regexp '^\*\*INVALID\*\*: control `sh .*/r\.sh c1 \{iters\}` \(iters 1\) moved \+9\.[0-9]%, beyond the 2\.0% tolerance \(p = 1\.1e-05; 6\.5e-05 after Holm over 6 control tests\)\. '
	[ "$(git notes --ref campaign show HEAD | wc -l)" -eq "$notes" ]
}

@test "INVALID names both causes of a moved control: the machine or the build, or the change reaching the control's code" {
	plant c A 100 100 100 100 100 100 100 100 100 100
	plant c B 91 91 91 91 91 91 91 91 91 91
	ab --control "$R c" -n 10
	assert_failure 1
	assert_line --index 0 '**INVALID**: control `'"$R"' c` moved -9.0%, beyond the 2.0% tolerance (p = 1.1e-05). Either the machine or the build moved under the run, or the change reaches the control'"'"'s code too: a control the change does not touch tells them apart.'
	refute_output --partial 'not the code under test'
	run git notes --ref campaign show HEAD
	assert_failure
}

@test "a control that failed a run, or has too few runs, cannot vouch: the verdicts stand unvouched and exit 0" {
	plant c A 100 100 100 100 100 100 100 100 100 100
	plant c B 100 100 100 100 100 100 100 100 100 100
	# a control that fails its third run in B
	plant f A 100 100 100 100 100 100 100 100 100 100
	plant f B 100 100
	ab --control "$R f" -n 10
	[ "$status" -eq 0 ] || fail "exit $status: $stderr"
	assert_line --index 0 --regexp '^\*\*UNVOUCHED\*\*: control `sh .*/r\.sh f` cannot vouch for the run: 0 run\(s\) of A and 8 of B exited non-zero\. The verdicts stand unvouched\.$'
	assert_line --regexp '^\| control: `sh .*/r\.sh f` \| .* \| failed \|$'
	assert_line --regexp '^\| `sh .*/r\.sh m` \| .* \| faster \(unvouched\) \|$'
	# n = 3: no verdict for the control, and so none vouched
	ab --control "$R c" -n 3
	[ "$status" -eq 0 ] || fail "exit $status: $stderr"
	assert_line --index 0 --regexp '^\*\*UNVOUCHED\*\*: control `sh .*/r\.sh c` cannot vouch for the run: n = 3 per arm: 5 are needed for a verdict; about 5 runs per arm would let it\. The verdicts stand unvouched\.$'
	ab --control "$R c" -n 3 --json
	[ "$(jq_py '[d["vouched"], d["controls"]]' <<<"$output")" = "[False, 'unvouched']" ]
	# a steady control vouches: no headline, nothing unvouched
	ab --control "$R c" -n 10
	assert_success
	assert_line --index 0 --regexp '^\| workload \|'
	refute_output --partial 'unvouched'
	ab --control "$R c" -n 10 --json
	[ "$(jq_py '[d["vouched"], d["controls"], d["control_tests"]]' <<<"$output")" = "[True, 'steady', 1]" ]
}

@test "an A/B with no control says so above its table, in its JSON, and in the tables resume draws from the record" {
	ab -n 10
	assert_success
	assert_line --index 0 '**No control**: nothing vouches that the machine held still between the arms; add --control CMD, a workload the change does not touch.'
	ab -n 10 --json
	[ "$(jq_py '[d["vouched"], d["controls"], d["control_tests"]]' <<<"$output")" = "[False, 'none', 0]" ]
	run sqlite3 .git/campaign/campaign.db "SELECT markdown FROM ab_run WHERE id = 1"
	assert_line '**No control**: nothing vouches that the machine held still between the arms; add --control CMD, a workload the change does not touch.'
	run --separate-stderr git campaign resume
	assert_success
	assert_line '**No control**: nothing vouches that the machine held still between the arms; add --control CMD, a workload the change does not touch.'
}

@test "campaign.requireControl refuses an A/B without a control before anything builds, and loses nothing" {
	git config campaign.requireControl true
	git add k.txt
	echo v3 >k.txt
	before=$(git status --porcelain)
	index=$(git write-tree)
	run --separate-stderr git campaign ab --build 'touch built' --run "$R m" \
		-n 5 --warmup 0 --metric "$METRIC" --mode stash
	assert_failure 1
	[ -z "$output" ]
	[ "$stderr" = "error: no control: campaign.requireControl asks for one
hint: add --control CMD, a workload the change does not touch, or --gpu-control" ]
	[ ! -e built ]
	[ "$(git status --porcelain)" = "$before" ]
	[ "$(git write-tree)" = "$index" ]
	[ "$(cat k.txt)" = v3 ]
	[ "$(git for-each-ref refs/campaign/stash | wc -l)" -eq 0 ]
	[ "$(sqlite3 .git/campaign/campaign.db 'SELECT count(*) FROM ab_run')" -eq 0 ]
	run git notes --ref campaign show HEAD
	assert_failure
	# with a control it runs; the setting is one the config command knows
	plant c A 100 100 100 100 100
	plant c B 100 100 100 100 100
	ab --control "$R c" -n 5
	assert_success
	git config --unset campaign.requireControl
	run --separate-stderr git campaign config requireControl yes
	assert_success
	ab -n 5
	assert_failure 1
	run --separate-stderr git campaign config requireControl maybe
	assert_failure
}

@test "a control that takes no count runs once per round, in one row without a count; reason lines name their count" {
	local k
	for k in 100 1000 10000; do
		plant m.$k A 100 103 97 104 96
		plant m.$k B 99 102 98 103 97
	done
	cat >"$WORLD/ctl.sh" <<-EOF
		n=\$(cat "$WORLD/ctl.runs" 2>/dev/null || echo 0)
		echo \$((n + 1)) >"$WORLD/ctl.runs"
		echo "t: 500 us"
	EOF
	replay
	run --separate-stderr git campaign ab --build true --run "$R m {iters}" \
		--control "sh $WORLD/ctl.sh" --iters 100,1000,10000 -n 5 \
		--warmup 0 --metric "$METRIC"
	[ "$status" -eq 0 ] || fail "exit $status: $stderr"
	# 5 runs per arm, not 5 per arm and count
	[ "$(cat "$WORLD/ctl.runs")" -eq 10 ]
	[ "$(grep -c '^| control: ' <<<"$output")" -eq 1 ]
	assert_line --regexp '^\| control: `sh .*/ctl\.sh` \| - \| 500 us \| 500 us \| 1\.000 \[1\.000, 1\.000\] \| 1 \| steady \|$'
	assert_line --regexp '^- `sh .*/r\.sh m \{iters\}` \(iters 100\): .*minimum effect; about [0-9]+ runs per arm would tell$'
	assert_line --regexp '^- `sh .*/r\.sh m \{iters\}` \(iters 10000\): '
	# one that takes the count runs at each
	rm -f "$WORLD/ctl.runs"
	replay
	run --separate-stderr git campaign ab --build true --run "$R m {iters}" \
		--control "sh $WORLD/ctl.sh {iters}" --iters 100,1000,10000 \
		-n 5 --warmup 0 --metric "$METRIC" --json
	assert_success
	[ "$(cat "$WORLD/ctl.runs")" -eq 30 ]
	[ "$(jq_py '[[(w["iters"], w["verdict"]) for w in d["workloads"] if w["control"]], d["control_tests"]]' <<<"$output")" = \
		"[[(100, 'steady'), (1000, 'steady'), (10000, 'steady')], 3]" ]
}

# plant_sweep SEED: the main workload at 16 and 64 iterations, 6 runs per
# arm, seeded: 278 us fixed, 21.6 us per iteration in A and 17.3 in B (a
# fifth of the per-iteration work removed), 8% log-normal noise
plant_sweep() {
	"$PY" - "$S" "$1" <<-'EOF'
		import math, random, sys
		s, r = sys.argv[1], random.Random(int(sys.argv[2]))
		for k in (16, 64):
		    for arm, per in (("A", 21.6), ("B", 17.3)):
		        with open(f"{s}/m.{k}.{arm}", "w") as out:
		            for _ in range(6):
		                v = (278 + per * k) * math.exp(r.gauss(0, 0.08))
		                out.write(f"{v:.2f}\n")
	EOF
}

sweep() {
	replay
	run --separate-stderr git campaign ab --build true --run "$R m {iters}" \
		--warmup 0 --metric "$METRIC" "$@"
}

@test "a sweep whose fit cannot resolve the two costs says so with the runs that would tell, never that neither changed while every point is faster" {
	plant_sweep 8
	sweep --iters 16,64 -n 6
	[ "$status" -eq 0 ] || fail "exit $status: $stderr"
	[ "$(grep -c '| faster |$' <<<"$output")" -eq 2 ]
	assert_line --regexp '^Sweep \(Theil-Sen per arm, time = fixed \+ per-iteration x iters\): cannot tell fixed from per-iteration cost: per-iteration change -[0-9.]+% \[-[0-9.]+%, \+[0-9.]+%\] is not resolved to the 2\.0% minimum effect; .*; about [0-9]+ runs per arm would tell\.$'
	refute_output --partial 'neither'
	sweep --iters 16,64 -n 6 --json
	[ "$(jq_py '[d["sweep"]["words"], d["sweep"]["n_needed"] > 6]' <<<"$output")" = \
		"['cannot tell fixed from per-iteration cost', True]" ]
	# "does not grow with iterations" is claimed only from a per-iteration
	# interval inside the minimum effect
	plant_sweep 26
	sweep --iters 16,64 -n 6 --json
	[ "$(jq_py 'd["sweep"]["words"]' <<<"$output")" = 'cannot tell fixed from per-iteration cost' ]
}

@test "a sweep resolved on both costs still says what changed, and neither only when both intervals lie inside the minimum effect" {
	local k
	for k in 10 100; do
		plant m.$k A $((1000 + 10 * k)) $((1001 + 10 * k)) $((999 + 10 * k)) $((1002 + 10 * k)) $((998 + 10 * k)) $((1000 + 10 * k))
		plant m.$k B $((1000 + 9 * k)) $((1001 + 9 * k)) $((999 + 9 * k)) $((1002 + 9 * k)) $((998 + 9 * k)) $((1000 + 9 * k))
	done
	sweep --iters 10,100 -n 6
	assert_success
	assert_line 'Sweep (Theil-Sen per arm, time = fixed + per-iteration x iters): removed per-iteration work.'
	for k in 10 100; do
		cp "$S/m.$k.A" "$S/m.$k.B"
	done
	sweep --iters 10,100 -n 6 --json
	[ "$(jq_py 'd["sweep"]["words"]' <<<"$output")" = 'neither the fixed nor the per-iteration cost changed' ]
}

@test "a negative fitted fixed cost is called out as not resolved" {
	plant m.100 A 990 991 992 993 994 995 996 997 998 999
	plant m.100 B 790 791 792 793 794 795 796 797 798 799
	plant m.1000 A 10100 10101 10102 10103 10104 10105 10106 10107 10108 10109
	plant m.1000 B 8100 8101 8102 8103 8104 8105 8106 8107 8108 8109
	sweep --iters 100,1000 -n 10
	assert_success
	assert_line --regexp '^- fixed: -[0-9.]+ us -> -[0-9.]+ us, change .*; fixed cost not resolved at these counts: the fitted intercept is below 0$'
	sweep --iters 100,1000 -n 10 --json
	[ "$(jq_py '[d["sweep"]["fixed_resolved"], d["sweep"]["fixed_a"] < 0]' <<<"$output")" = '[False, True]' ]
}

@test "a higher-is-better metric gets its sweep, fitted on 1/value" {
	# a throughput: B does a tenth less per-iteration work
	plant m.10 A 5.00 5.01 4.99 5.02 4.98 5.00
	plant m.10 B 5.26 5.27 5.25 5.28 5.24 5.26
	plant m.100 A 1.000 1.001 0.999 1.002 0.998 1.000
	plant m.100 B 1.098 1.099 1.097 1.100 1.096 1.098
	sweep --iters 10,100 -n 6 --metric 're:t: ([0-9.]+) us;unit=op/s;better=higher'
	assert_success
	assert_line --regexp '^Sweep \(Theil-Sen per arm of 1/value, the metric being higher-is-better: cost = fixed \+ per-iteration x iters\): removed per-iteration work\.$'
	assert_line --regexp '^- per iteration: .* 1/op/s -> .* 1/op/s, B/A 0\.[89][0-9]* '
	sweep --iters 10,100 -n 6 --metric 're:t: ([0-9.]+) us;unit=op/s;better=higher' --json
	[ "$(jq_py '[d["sweep"]["reciprocal"], d["sweep"]["words"]]' <<<"$output")" = "[True, 'removed per-iteration work']" ]
	# a value <= 0 has no reciprocal: said, not dropped in silence
	plant m.10 A 0 5.01 4.99 5.02 4.98 5.00
	sweep --iters 10,100 -n 6 --metric 're:t: ([0-9.]+) us;better=higher'
	assert_success
	assert_line 'No sweep fit: the metric is higher-is-better and a value <= 0 has no reciprocal to fit.'
}

@test "a drift warning names the count of the point that drifted" {
	plant m.10 A 100 100 100 100 100 100 100 100 100 100
	plant m.10 B 90 90 90 90 90 90 90 90 90 90
	# A at 100 iterations climbs run after run
	plant m.100 A 100 101 102 103 104 105 106 107 108 109
	plant m.100 B 90 90 90 90 90 90 90 90 90 90
	sweep --iters 10,100 -n 10
	assert_success
	assert_line --regexp '^- warning: drift: arm A of `sh .*/r\.sh m \{iters\}` \(iters 100\) trends over its runs '
	refute_output --regexp 'drift: .*\(iters 10\)'
}
