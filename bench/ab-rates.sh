#!/bin/bash
# The error rates of `git campaign ab`'s verdicts on seeded workloads: a
# generator prints times from a known distribution, seeded per run, so the
# machine's own noise does not enter (only the numbers the workload prints
# are judged).
#
# usage: bench/ab-rates.sh [BIN_DIR] [RUNS]
#   BIN_DIR  the folder that holds git-campaign (default: build/)
#   RUNS     A/Bs per row (default: 100; the multi-point rows take RUNS/2)
#
# The generator prints "loop: V us", V = 1000 exp(0.04 Z) (log-normal, 4%
# noise), times EFFECT in arm B, plus 10 us x iters when given a count.
# Rows, all at the default n = 10 per arm and --min-effect 2%:
#   A/A false verdicts      EFFECT = 1, any "faster" or "slower" (target
#                           <= 5%)
#   A/A false drift         one workload: any "warning: drift"
#   A/A false drift, 2 controls x 3 counts: the same with --control g
#                           --control 'g x' --iters 16,64,256
#   A/A false INVALID, 2 controls x 3 counts: exit 1 (target <= 5%; the
#                           control judging is issue 16's controls part)
#   power at 2%, 5%, 10%    EFFECT = 0.98, 0.95, 0.90: "faster"
# A benchmark, not a gate: it exits 0 after printing.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN_DIR=$(cd "${1:-$ROOT/build}" && pwd)
RUNS=${2:-100}
HALF=$(((RUNS + 1) / 2))
[ -x "$BIN_DIR/git-campaign" ] || {
	echo "fatal: no '$BIN_DIR/git-campaign'; run 'make' first" >&2
	exit 128
}
command -v jq >/dev/null || {
	echo "fatal: jq is missing; 'sh scripts/deps.sh'" >&2
	exit 128
}

# shellcheck source=bench/lib.sh
. "$ROOT/bench/lib.sh"
bench_world "$BIN_DIR"
WORK=$TMP
git config --global init.defaultBranch main

# g [ITERS]: seeded by SEED and a per-run counter in $CTR, splitmix64
cat >"$WORK/g.c" <<'C'
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
static uint64_t s;
static uint64_t next(void)
{
	uint64_t z = (s += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}
static double u01(void) { return ((next() >> 11) + 0.5) / 9007199254740992.0; }
static double env(const char *k, double d)
{
	const char *v = getenv(k);
	return v && *v ? atof(v) : d;
}
int main(int argc, char **argv)
{
	long c = 0;
	FILE *f = fopen(getenv("CTR"), "r");
	const char *arm = getenv("GIT_CAMPAIGN_ARM");
	int b = arm && *arm == 'B';
	if (f) {
		if (fscanf(f, "%ld", &c) != 1)
			c = 0;
		fclose(f);
	}
	f = fopen(getenv("CTR"), "w");
	fprintf(f, "%ld\n", c + 1);
	fclose(f);
	s = (uint64_t)env("SEED", 1) * 1000003ULL + (uint64_t)c * 7919ULL;
	double u = u01(), w = u01(), z = sqrt(-2 * log(u)) * cos(2 * M_PI * w);
	double v = env("BASE", 1000);
	if (argc > 1)
		v += 10 * atof(argv[1]);
	v *= (b ? env("EFFECT", 1) : 1) * exp(env("SIGMA", 0.04) * z);
	printf("loop: %.4f us\n", v);
	return 0;
}
C
cc -O2 -o "$WORK/g" "$WORK/g.c" -lm
G=$WORK/g
M='re:loop: ([0-9.]+) us;unit=us'

cd "$WORK"
git init -q w
cd w
git commit -q --allow-empty -m init
git campaign init >/dev/null

# ab SEED EFFECT [ab options]: one seeded A/B; prints its JSON, then "rc=N"
ab() {
	local seed=$1 effect=$2
	shift 2
	rm -f "$WORK/ctr"
	set +e
	CTR=$WORK/ctr SEED=$seed EFFECT=$effect git campaign ab --build true \
		--metric "$M" --json "$@" 2>/dev/null
	echo "rc=$?"
	set -e
}

# row NAME COUNT TOTAL TARGET
row() {
	printf '| %-44s | %4d / %-4d | %5.1f%% | %-6s |\n' "$1" "$2" "$3" \
		"$(echo "100 * $2 / $3" | bc -l)" "$4"
}

false_verdict=0 false_drift=0
for i in $(seq "$RUNS"); do
	out=$(ab "$i" 1 --run "$G")
	jq -e '.workloads[0].verdict | test("faster|slower")' \
		<<<"${out%rc=*}" >/dev/null && false_verdict=$((false_verdict + 1))
	jq -e '[.warnings[] | select(startswith("drift"))] | length > 0' \
		<<<"${out%rc=*}" >/dev/null && false_drift=$((false_drift + 1))
done
multi_drift=0 multi_invalid=0
for i in $(seq "$HALF"); do
	out=$(ab "$((1000 + i))" 1 --run "$G {iters}" --control "$G" \
		--control "$G 5" --iters 16,64,256)
	case $out in *rc=1) multi_invalid=$((multi_invalid + 1)) ;; esac
	jq -e '[.warnings[] | select(startswith("drift"))] | length > 0' \
		<<<"${out%rc=*}" >/dev/null 2>&1 && multi_drift=$((multi_drift + 1))
done
declare -A power
for e in 0.98 0.95 0.90; do
	power[$e]=0
	for i in $(seq "$RUNS"); do
		out=$(ab "$((2000 + i))" "$e" --run "$G")
		jq -e '.workloads[0].verdict == "faster"' <<<"${out%rc=*}" \
			>/dev/null && power[$e]=$((${power[$e]} + 1))
	done
done

echo "Seeded log-normal workload (4% noise), n = 10 per arm, --min-effect 2%:"
echo
printf '| %-44s | %-11s | %-6s | %-6s |\n' measure count rate target
echo "|---|---:|---:|---|"
row "A/A false verdicts (faster or slower)" "$false_verdict" "$RUNS" "<= 5%"
row "A/A false drift warnings, one workload" "$false_drift" "$RUNS" "-"
row "A/A false drift, 2 controls x 3 counts" "$multi_drift" "$HALF" "-"
row "A/A false INVALID, 2 controls x 3 counts" "$multi_invalid" "$HALF" "<= 5%"
row "power at a 2% effect (faster)" "${power[0.98]}" "$RUNS" "-"
row "power at a 5% effect (faster)" "${power[0.95]}" "$RUNS" "-"
row "power at a 10% effect (faster)" "${power[0.90]}" "$RUNS" "-"
