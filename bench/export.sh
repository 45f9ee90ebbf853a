#!/bin/bash
# What --format csv costs beside --json and the text: `git campaign measure
# log m0` of a 10,000-commit history (100,000 records in notes) in each
# format, and `measure show` of one commit with 1,000 records, taken in turn
# in one run so the machine's load falls on all alike; prints the medians
# and the ratios to --json. CSV is a benchmark here, not a test: no target
# but "about the cost of JSON" (ratio near 1 or below).
#
# usage: bench/export.sh [BIN_DIR] [RUNS]    (defaults: build/, 11)
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN_DIR=${1:-$ROOT/build}
RUNS=${2:-11}
WARMUP=2
COMMITS=10000
PER_COMMIT=10

# shellcheck source=bench/lib.sh
. "$ROOT/bench/lib.sh"

case $RUNS in
'' | *[!0-9]* | 0) die "RUNS must be a positive number, not '$RUNS'" ;;
esac
bench_world "$BIN_DIR"
make_history "$TMP/repo" "$COMMITS" "$PER_COMMIT"
# the index is built by the first read, outside the timings
rows=$(git campaign measure log m0 --format csv | wc -l)
[ "$rows" -eq $((COMMITS + 1)) ] || die "csv has $rows rows, not $((COMMITS + 1))"
awk 'BEGIN { for (i = 0; i < 1000; i++)
	printf "{\"metric\":\"k%d\",\"value\":%d.5,\"unit\":\"ns\",\"samples\":[1,2,3,4,5]}\n", i, i }' >"$TMP/batch.jsonl"
git campaign measure add --batch "$TMP/batch.jsonl" >/dev/null

say "timing ($RUNS runs each, medians)"
read -r text_ms text_cpu < <(timed 'git campaign measure log m0 >/dev/null')
read -r json_ms json_cpu < <(timed 'git campaign measure log m0 --json >/dev/null')
read -r csv_ms csv_cpu < <(timed 'git campaign measure log m0 --format csv >/dev/null')
read -r sjson_ms sjson_cpu < <(timed 'git campaign measure show --json >/dev/null')
read -r scsv_ms scsv_cpu < <(timed 'git campaign measure show --format csv >/dev/null')

awk -v t="$text_ms" -v j="$json_ms" -v c="$csv_ms" -v tc="$text_cpu" \
	-v jc="$json_cpu" -v cc="$csv_cpu" -v sj="$sjson_ms" -v sc="$scsv_ms" \
	-v sjc="$sjson_cpu" -v scc="$scsv_cpu" -v n="$COMMITS" 'BEGIN {
	printf "measure log m0 over %d commits, median ms:\n", n
	printf "%-34s %8s %8s %8s\n", "", "wall", "cpu", "cpu / json"
	printf "%-34s %8d %8d %8.2f\n", "text", t, tc, jc ? tc / jc : 0
	printf "%-34s %8d %8d %8.2f\n", "--json", j, jc, 1
	printf "%-34s %8d %8d %8.2f\n", "--format csv", c, cc, jc ? cc / jc : 0
	printf "measure show, 1,000 records of 5 samples (5,000 csv rows):\n"
	printf "%-34s %8d %8d %8.2f\n", "--json", sj, sjc, 1
	printf "%-34s %8d %8d %8.2f\n", "--format csv", sc, scc, sjc ? scc / sjc : 0
}'
