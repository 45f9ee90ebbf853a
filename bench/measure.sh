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

die() {
	echo "fatal: $*" >&2
	exit 128
}
say() {
	echo "bench: $*" >&2
}

case $RUNS in
'' | *[!0-9]* | 0) die "RUNS must be a positive number, not '$RUNS'" ;;
esac
[ -x "$BIN_DIR/git-campaign" ] ||
	die "no executable '$BIN_DIR/git-campaign'; run 'make' first"
BIN_DIR=$(cd "$BIN_DIR" && pwd)

TMP=$(mktemp -d "${TMPDIR:-/tmp}/git-campaign-bench.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

export HOME="$TMP/home" XDG_CONFIG_HOME="$TMP/home/.config"
export GIT_CONFIG_NOSYSTEM=1 TZ=UTC LANG=C LC_ALL=C
export GIT_AUTHOR_NAME='A U Thor' GIT_AUTHOR_EMAIL='author@example.com'
export GIT_COMMITTER_NAME='C O Mitter'
export GIT_COMMITTER_EMAIL='committer@example.com'
mkdir -p "$TMP/bin" "$HOME"
cp "$BIN_DIR/git-campaign" "$TMP/bin/git-campaign"
export PATH="$TMP/bin:$PATH"
unset GIT_DIR GIT_WORK_TREE GIT_CAMPAIGN_DB GIT_CAMPAIGN_TRACE \
	GIT_CONFIG_PARAMETERS GIT_CONFIG_COUNT

now_ns() { date +%s%N; }

# timed CMD: runs CMD (a shell string) WARMUP + RUNS times; prints the
# median wall time and the median CPU time (user + system, of CMD and its
# children) in milliseconds. CPU time stays meaningful on a loaded machine,
# where wall time waits for the scheduler.
timed() {
	local i out walls=() cpus=()
	for ((i = 0; i < WARMUP; i++)); do
		bash -c "$1" >/dev/null || die "'$1' failed"
	done
	for ((i = 0; i < RUNS; i++)); do
		out=$( { /usr/bin/time -f '%e %U %S' bash -c "$1" >/dev/null; } 2>&1) ||
			die "'$1' failed: $out"
		walls+=($(awk '{ printf "%d", $1 * 1000 }' <<<"${out##*$'\n'}"))
		cpus+=($(awk '{ printf "%d", ($2 + $3) * 1000 }' <<<"${out##*$'\n'}"))
	done
	printf '%s %s\n' "$(printf '%s\n' "${walls[@]}" | sort -n |
		awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')" \
		"$(printf '%s\n' "${cpus[@]}" | sort -n |
			awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')"
}

repo=$TMP/repo
git init -q -b main "$repo"
cd "$repo"

say "generating $COMMITS commits with fast-import"
t0=$(now_ns)
awk -v n="$COMMITS" 'BEGIN {
	for (i = 1; i <= n; i++) {
		printf "commit refs/heads/main\nmark :%d\n", i
		printf "committer C O Mitter <c@example.com> %d +0000\n", 1700000000 + i
		msg = "change " i
		printf "data %d\n%s\n", length(msg), msg
		printf "M 644 inline f%d\ndata %d\n%d\n\n", i % 100, length(i ""), i
	}
}' | git fast-import --quiet --export-marks="$TMP/marks"
git reset -q --hard main
git campaign init bench >/dev/null

# the env id of this machine, as measure writes it
git campaign measure add warm 1 >/dev/null
env=$(git notes --ref campaign show HEAD | sed 's/.*"env":"\([0-9a-f]*\)".*/\1/')
warm=$(git notes --ref campaign show HEAD)

say "generating $((COMMITS * PER_COMMIT)) records in notes with fast-import"
awk -v n="$COMMITS" -v per="$PER_COMMIT" -v env="$env" -v warm="$warm" 'BEGIN {
	srand(1)
	print "commit refs/notes/campaign"
	print "committer C O Mitter <c@example.com> 1800000000 +0000"
	print "data 15\nbench records\n"
	print "from refs/notes/campaign^0"
	for (i = 1; i <= n; i++) {
		note = (i == n) ? warm "\n" : ""
		for (k = 0; k < per; k++) {
			note = note sprintf("{\"v\":1,\"run\":\"%08x%08x\",\"metric\":\"m%d\",\"value\":%.3f,\"unit\":\"ns\",\"better\":\"lower\",\"stat\":\"median\",\"n\":1,\"env\":\"%s\",\"config\":{\"profiler\":\"off\"},\"source\":\"bench\",\"at\":\"2026-11-29T00:00:00Z\"}\n",
				i, k, k % 5, 1000 + 100 * sin(i / 500.0) + rand() * 10, env)
		}
		printf "N inline :%d\ndata %d\n%s\n", i, length(note), note
	}
}' | git fast-import --quiet --import-marks="$TMP/marks"
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
