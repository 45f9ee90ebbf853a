#!/bin/bash
# How often `git campaign ab` calls a run INVALID when nothing moved: A/A
# runs (both arms the same program) on seeded workloads with two unchanged
# controls and three iteration counts, printed as one table row per case.
#
# usage: bench/ab-controls.sh [BIN_DIR] [TRIALS] [OTHER_BIN_DIR]
#   BIN_DIR        the folder that holds git-campaign (default: build/)
#   TRIALS         A/Bs per case (default: 100; 2 to 3 s each; 0: none)
#   OTHER_BIN_DIR  another build (say main's) measured side by side on the
#                  same seeds, one more row per case
# SIGMA (0.03) sets the noise of every workload, SEED0 (0) offsets the
# seeds, CASES ("6 2") picks the cases.
#
# Each trial is `ab -n 10 --iters 16,64,256` of a seeded generator (3%
# log-normal noise around 1000 us + 2 us x iters, the same in both arms)
# with two controls drawn the same way, on their own seeds:
# - "6 control tests": controls that take {iters}, judged at every count;
# - "2 control tests": controls without {iters}, run once per round.
# A false INVALID is exit 1 (a control called moved). Target: <= 5% in
# both cases (Holm's correction over the run's control tests). The row
# gives the rate's 95% Wilson interval and the nominal rate, what the
# exact tests and Holm's first step allow (4.59% for 2 tests, 4.04% for
# 6): a measured rate is only told from it with thousands of A/Bs. The row
# also counts the runs the controls vouched for (steady) and those they
# could not (unvouched: a control's CI reaches past the 2% tolerance).
# Then, for RULE_TRIALS (10000) A/As per case, the same decision without
# the processes: build/tests/ab-finish (`make unit`) judges seeded samples
# of the same shape (Python's random, seeded per trial) exactly as ab does
# (ab_finish), so the rate's interval is narrow enough to tell it from 5%;
# its rows are marked "rule".
# A benchmark, not a gate: it exits 0 after printing.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN_DIR=$(cd "${1:-$ROOT/build}" && pwd)
TRIALS=${2:-100}
SEED0=${SEED0:-0} CASES=${CASES:-6 2} RULE_TRIALS=${RULE_TRIALS:-10000}
export SIGMA=${SIGMA:-0.03}
OTHER=${3:+$(cd "$3" && pwd)}
for b in "$BIN_DIR" ${OTHER:+"$OTHER"}; do
	[ -x "$b/git-campaign" ] || {
		echo "fatal: no '$b/git-campaign'; run 'make' first" >&2
		exit 128
	}
done
command -v cc >/dev/null || {
	echo "fatal: cc is missing; it builds the seeded workload" >&2
	exit 128
}

# shellcheck source=bench/lib.sh
. "$ROOT/bench/lib.sh"
bench_world "$BIN_DIR"
WORK=$TMP
git config --global init.defaultBranch main

# gen [ITERS]: "t: V us", V = (BASE + PER x ITERS) x exp(SIGMA x Z); run k
# of the sequence counted in $CTR draws from (SEED, k)
cat >"$WORK/gen.c" <<'EOF'
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static uint64_t st;

static double uniform(void)
{
	st ^= st >> 12;
	st ^= st << 25;
	st ^= st >> 27;
	return (double)((st * 2685821657736338717ULL) >> 11) / 9007199254740992.0;
}

static double num(const char *k, double d)
{
	const char *v = getenv(k);

	return v && *v ? strtod(v, NULL) : d;
}

int main(int argc, char **argv)
{
	const char *ctr = getenv("CTR");
	long k = 0;
	double u, v, s;
	FILE *f;

	if (ctr && (f = fopen(ctr, "r"))) {
		if (fscanf(f, "%ld", &k) != 1)
			k = 0;
		fclose(f);
	}
	if (ctr && (f = fopen(ctr, "w"))) {
		fprintf(f, "%ld\n", k + 1);
		fclose(f);
	}
	st = 0x9e3779b97f4a7c15ULL ^ ((uint64_t)num("SEED", 1) << 32) ^
	     (uint64_t)(k + 1) * 0xbf58476d1ce4e5b9ULL;
	for (int i = 0; i < 4; i++)
		(void)uniform();
	do {
		u = 2 * uniform() - 1;
		v = 2 * uniform() - 1;
		s = u * u + v * v;
	} while (s >= 1 || s == 0);
	printf("t: %.4f us\n",
	       (num("BASE", 1000) + num("PER", 0) * (argc > 1 ? atof(argv[1]) : 0)) *
		       exp(num("SIGMA", 0.03) * u * sqrt(-2 * log(s) / s)));
	return 0;
}
EOF
cc -O2 -o "$WORK/gen" "$WORK/gen.c" -lm

git init -q "$WORK/r"
cd "$WORK/r"
git commit -q --allow-empty -m base
"$BIN_DIR/git-campaign" init bench >/dev/null
G=$WORK/gen
M='re:t: ([0-9.]+) us;unit=us'
PY=$(command -v /usr/bin/python3 || command -v python3)

# trial BIN CASE SEED: one A/A; prints its exit status and what the
# controls said ("steady", "unvouched", "moved", or "-" for a build that
# does not say)
trial() {
	local bin=$1 iters=$2 seed=$3 c1 c2 out rc=0
	rm -f "$WORK"/ctr.*
	c1="env CTR=$WORK/ctr.c1 SEED=$((seed + 100000)) PER=2 $G${iters}"
	c2="env CTR=$WORK/ctr.c2 SEED=$((seed + 200000)) PER=1 $G${iters}"
	out=$(CTR=$WORK/ctr.m SEED=$seed PER=2 "$bin/git-campaign" ab \
		--build true --run "$G {iters}" --control "$c1" --control "$c2" \
		--iters 16,64,256 -n 10 --metric "$M" --json) || rc=$?
	printf '%s %s\n' "$rc" "$(printf '%s' "$out" |
		sed -n 's/.*"controls":[[:space:]]*"\([a-z]*\)".*/\1/p' |
		head -1)"
}

# nominal M: the chance of a false INVALID the test is built to: Holm calls
# a move first at p < 0.05 / M, so with M independent exact Mann-Whitney
# tests of 10 v 10 it is 1 - (1 - P(p < 0.05 / M))^M, from the exact null
# distribution of U (the tolerance only lowers it)
nominal() {
	"$PY" - "$1" <<-'PYEOF'
		import sys
		from math import comb
		m, n = int(sys.argv[1]), 10
		c = [[[0] * (n * n + 1) for _ in range(n + 1)] for _ in range(n + 1)]
		for i in range(n + 1):
		    for j in range(n + 1):
		        for u in range(i * j + 1):
		            c[i][j][u] = (1 if u == 0 else 0) if i == 0 or j == 0 else \
		                (c[i - 1][j][u - j] if u >= j else 0) + c[i][j - 1][u]
		tot, cdf, acc = comb(2 * n, n), [], 0
		for u in range(n * n + 1):
		    acc += c[n][n][u]
		    cdf.append(acc / tot)
		q = sum(c[n][n][u] / tot for u in range(n * n + 1)
		        if min(1, 2 * min(cdf[u], 1 - (cdf[u - 1] if u else 0))) < 0.05 / m)
		print("%.2f%%" % (100 * (1 - (1 - q) ** m)))
	PYEOF
}

# wilson K N: the 95% Wilson interval of K in N, in percent
wilson() {
	awk -v k="$1" -v n="$2" 'BEGIN { z = 1.959964; p = k / n
		c = (p + z * z / (2 * n)) / (1 + z * z / n)
		h = z * sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
		printf "%.1f-%.1f%%", 100 * (c - h), 100 * (c + h) }'
}

printf '| build | case | noise | A/Bs | INVALID | false-INVALID rate | 95%% CI | nominal | steady | unvouched |\n'
printf '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n'
for bin in "$BIN_DIR" ${OTHER:+"$OTHER"}; do
	[ "$TRIALS" -gt 0 ] || break
	for c in $CASES; do
		iters=$([ "$c" = 6 ] && echo ' {iters}' || true)
		name="$c control tests" inv=0 steady=0 unv=0
		for ((s = SEED0 + 1; s <= SEED0 + TRIALS; s++)); do
			read -r rc said < <(trial "$bin" "$iters" "$s")
			[ "$rc" = 1 ] && inv=$((inv + 1))
			[ "$said" = steady ] && steady=$((steady + 1))
			[ "$said" = unvouched ] && unv=$((unv + 1))
		done
		printf '| %s | %s | %s | %d | %d | %.1f%% | %s | %s | %d | %d |\n' \
			"$bin" "$name" "$SIGMA" "$TRIALS" "$inv" \
			"$(awk "BEGIN { print 100 * $inv / $TRIALS }")" \
			"$(wilson "$inv" "$TRIALS")" "$(nominal "$c")" \
			"$steady" "$unv"
	done
done

# rule CASE: RULE_TRIALS A/As of CASE as ab-finish judges them, one line
# each ("INVALID VOUCH TESTS DRIFTS"): three main points and two controls,
# 10 runs per arm, log-normal noise SIGMA; controls at every count for 6
rule() {
	"$PY" - "$1" "$RULE_TRIALS" "$SIGMA" "$SEED0" <<-'PYEOF' |
		import random, sys
		case, trials, sigma, seed0 = (int(sys.argv[1]), int(sys.argv[2]),
		                              float(sys.argv[3]), int(sys.argv[4]))
		out = sys.stdout
		def arms(r, base):
		    a = " ".join("%.4f" % (base * r.lognormvariate(0, sigma)) for _ in range(10))
		    b = " ".join("%.4f" % (base * r.lognormvariate(0, sigma)) for _ in range(10))
		    return a + " | " + b + "\n"
		for t in range(seed0 + 1, seed0 + trials + 1):
		    r = random.Random(t)
		    for it in (16, 64, 256):
		        out.write("main " + arms(r, 1000 + 2 * it))
		    for per in (2, 1):
		        for it in ((16, 64, 256) if case == 6 else (0,)):
		            out.write("control " + arms(r, 1000 + per * it))
		    out.write("\n")
	PYEOF
		"$RULE"
}

RULE=$BIN_DIR/tests/ab-finish
[ -x "$RULE" ] || RULE=$ROOT/build/tests/ab-finish
if [ -x "$RULE" ] && [ "$RULE_TRIALS" -gt 0 ]; then
	for c in $CASES; do
		read -r inv steady unv < <(rule "$c" | awk '
			{ inv += $1; st += $2 == "steady"; un += $2 == "unvouched" }
			END { print inv + 0, st + 0, un + 0 }')
		printf '| rule | %s | %s | %d | %d | %.2f%% | %s | %s | %d | %d |\n' \
			"$c control tests" "$SIGMA" "$RULE_TRIALS" "$inv" \
			"$(awk "BEGIN { print 100 * $inv / $RULE_TRIALS }")" \
			"$(wilson "$inv" "$RULE_TRIALS")" "$(nominal "$c")" \
			"$steady" "$unv"
	done
else
	echo "bench: no '$RULE' (make unit): rule rows left out" >&2
fi
