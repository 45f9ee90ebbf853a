#!/bin/bash
# How long `git campaign report` takes on a repository of 10,000 commits
# holding 100,000 records in notes, side by side with `git campaign measure
# log` over the same range, and how long its page takes to load in headless
# Chromium (tests/browser/check-page.py: navigation start to the load event).
#
# usage: bench/report.sh [BIN_DIR] [RUNS]
#   BIN_DIR  the folder that holds git-campaign (default: build/ of this
#            repository; run `make` first)
#   RUNS     timed runs of each command (default: 5), after 1 warm-up run
#
# Targets: report --metric m0 <= 3x measure log m0; the page of every
# metric loads in < 2 s. It prints the medians (ms), the ratios and whether
# each target is met; it exits 0 after printing, non-zero only when a step
# fails.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN_DIR=${1:-$ROOT/build}
RUNS=${2:-5}
WARMUP=1
COMMITS=10000
PER_COMMIT=10

# shellcheck source=bench/lib.sh
. "$ROOT/bench/lib.sh"

case $RUNS in
'' | *[!0-9]* | 0) die "RUNS must be a positive number, not '$RUNS'" ;;
esac
command -v chromium >/dev/null || die "chromium is missing: sh scripts/deps.sh"
PY=$(command -v /usr/bin/python3 || command -v python3)
bench_world "$BIN_DIR"
make_history "$TMP/repo" "$COMMITS" "$PER_COMMIT"
git campaign measure log m0 >/dev/null # builds the index once

say "timing ($RUNS runs each, medians)"
read -r log_ms log_cpu < <(timed 'git campaign measure log m0 | wc -l')
read -r one_ms one_cpu < <(timed "git campaign report --metric m0 -o '$TMP/one.html'")
read -r all_ms all_cpu < <(timed "git campaign report -o '$TMP/all.html'")
loads=()
for ((i = 0; i < RUNS; i++)); do
	loads+=($("$PY" "$ROOT/tests/browser/check-page.py" "$TMP/all.html" \
		"$TMP/shot.png" | "$PY" -c 'import json, sys
d = json.load(sys.stdin)
assert not d["resources"] and not d["errors"], d
print(int(d["load_ms"]))'))
done
load_ms=$(printf '%s\n' "${loads[@]}" | sort -n |
	awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
size=$(wc -c <"$TMP/all.html")
drawn=$(grep -o 'data-drawn="[0-9]*"' "$TMP/all.html" | tr -dc '0-9\n' |
	awk '{ s += $1 } END { print s }')

awk -v l="$log_ms" -v lc="$log_cpu" -v o="$one_ms" -v oc="$one_cpu" \
	-v a="$all_ms" -v ac="$all_cpu" -v p="$load_ms" -v sz="$size" \
	-v dr="$drawn" -v c="$COMMITS" -v r="$((COMMITS * PER_COMMIT))" 'BEGIN {
	printf "repository: %d commits, %d records (5 metrics)\n", c, r
	printf "%-34s %8s %8s %7s %7s\n", "median of runs, ms", "wall", "cpu",
		"wall x", "cpu x"
	printf "%-34s %8d %8d %7s %7s\n", "measure log m0 | wc -l", l, lc,
		"1.00", "1.00"
	printf "%-34s %8d %8d %7.2f %7.2f  target <= 3x: %s\n",
		"report --metric m0", o, oc, o / l, oc / (lc ? lc : 1),
		o / l <= 3 ? "ok" : "MISSED"
	printf "%-34s %8d %8d %7.2f %7.2f\n", "report (every metric)", a, ac,
		a / l, ac / (lc ? lc : 1)
	printf "page of every metric: %d bytes, %d points drawn\n", sz, dr
	printf "%-34s %8d %8s %7s %7s  target < 2000 ms: %s\n",
		"page load in headless Chromium", p, "", "", "",
		p < 2000 ? "ok" : "MISSED"
}'
