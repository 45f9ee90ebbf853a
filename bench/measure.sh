#!/bin/bash
# How long `git campaign measure log` and a 1,000-record `measure add` take
# on a repository of 10,000 commits holding 100,000 records in notes, side
# by side with `git log --oneline | wc -l` on the same repository.
#
# usage: bench/measure.sh [BIN_DIR] [RUNS]
#   BIN_DIR  the folder that holds git-campaign (default: build/ of this
#            repository; run `make` first)
#   RUNS     timed runs of each command (default: 11), after 2 warm-up runs
#
# Targets: measure log <= 3x git log; adding 1,000 records in one notes
# commit <= 0.5 s. It prints the medians (ms), the ratios and whether each
# target is met; it exits 0 after printing, non-zero only when a step fails.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN_DIR=${1:-$ROOT/build}
RUNS=${2:-11}
WARMUP=2
COMMITS=10000
PER_COMMIT=10 # records per commit: metrics m0..m4, two runs each
BATCH=1000

# shellcheck source=bench/lib.sh
. "$ROOT/bench/lib.sh"

case $RUNS in
'' | *[!0-9]* | 0) die "RUNS must be a positive number, not '$RUNS'" ;;
esac
bench_world "$BIN_DIR"
BIN_DIR=$(cd "$BIN_DIR" && pwd)

t0=$(now_ns)
make_history "$TMP/repo" "$COMMITS" "$PER_COMMIT"
t1=$(now_ns)
say "generated in $(((t1 - t0) / 1000000)) ms"
records=$(git notes --ref campaign list | while read -r blob _; do
	echo "$blob"
done | git cat-file --batch-check='%(objectsize)' | awk '{ s += $1 } END { print s }')
say "notes hold $records bytes"

say "indexing the notes (once, on the first read)"
t0=$(now_ns)
rows=$(git campaign measure log m0 | wc -l)
t1=$(now_ns)
index_ms=$(((t1 - t0) / 1000000))
[ "$rows" -eq "$COMMITS" ] || die "measure log printed $rows rows, not $COMMITS"

say "timing ($RUNS runs each, medians)"
read -r git_ms git_cpu < <(timed 'git log --oneline | wc -l')
read -r log_ms log_cpu < <(timed 'git campaign measure log m0 | wc -l')

# a 1,000-record run: each timed add writes one notes commit, on the next
# commit down the history (each already holds PER_COMMIT records)
awk -v n="$BATCH" 'BEGIN {
	for (i = 0; i < n; i++)
		printf "{\"metric\":\"kernel%d\",\"value\":%d.5,\"unit\":\"ns\",\"better\":\"lower\",\"config\":{\"launch\":\"%d\"}}\n", i % 50, 1000 + i, i
}' >"$TMP/batch.jsonl"
echo 1 >"$TMP/next"
before=$(git rev-list --count refs/notes/campaign)
read -r add_ms add_cpu < <(timed "n=\$(cat '$TMP/next'); echo \$((n + 1)) >'$TMP/next'; git campaign measure add --batch '$TMP/batch.jsonl' --commit HEAD~\$n")
after=$(git rev-list --count refs/notes/campaign)
[ $((after - before)) -eq $((WARMUP + RUNS)) ] ||
	die "$((after - before)) notes commits for $((WARMUP + RUNS)) adds"
lines=$(git notes --ref campaign show HEAD~1 | wc -l)
[ "$lines" -eq $((PER_COMMIT + BATCH)) ] ||
	die "the note on HEAD~1 has $lines lines"
rows=$(git campaign measure log kernel7 --config launch=7 | wc -l)
[ "$rows" -eq $((WARMUP + RUNS)) ] || die "kernel7 has $rows rows"

awk -v g="$git_ms" -v l="$log_ms" -v a="$add_ms" -v ix="$index_ms" \
	-v gc="$git_cpu" -v lc="$log_cpu" -v ac="$add_cpu" \
	-v c="$COMMITS" -v r="$((COMMITS * PER_COMMIT))" -v b="$BATCH" 'BEGIN {
	printf "repository: %d commits, %d records in refs/notes/campaign\n", c, r
	printf "index from notes (first read): %6d ms wall\n", ix
	printf "%-32s %8s %8s %7s %7s\n", "median of runs, ms", "wall", "cpu",
		"wall x", "cpu x"
	printf "%-32s %8d %8d %7s %7s\n", "git log --oneline | wc -l", g, gc,
		"1.00", "1.00"
	printf "%-32s %8d %8d %7.2f %7.2f  target <= 3x: %s\n",
		"measure log m0 | wc -l", l, lc, l / g, lc / (gc ? gc : 1),
		l / g <= 3 ? "ok" : "MISSED"
	printf "%-32s %8d %8d %7.2f %7.2f  target <= 500 ms: %s\n",
		"measure add --batch (" b ")", a, ac, a / g, ac / (gc ? gc : 1),
		a <= 500 ? "ok" : "MISSED"
}'
if [ -n "${BENCH_KEEP:-}" ]; then
	trap - EXIT
	say "kept $TMP"
fi
