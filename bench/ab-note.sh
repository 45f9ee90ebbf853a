#!/bin/bash
# How one A/B's cost grows with the note on A's commit (AB-24): the median
# of `ab -n 1` on a commit with an empty note, side by side with the same
# on a commit whose note holds 20,000 lines (4.5 MB), in one run.
#
# usage: bench/ab-note.sh [BIN_DIR] [RUNS]
#   BIN_DIR  the folder that holds git-campaign (default: build/)
#   RUNS     timed runs of each (default: 7), after 1 warm-up run
#
# It prints the medians (ms, wall and CPU) and their ratios; the target is
# a ratio near 1 (the cost of an A/B should not grow with the note). It
# exits 0 after printing, non-zero only when a step fails.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN_DIR=${1:-$ROOT/build}
RUNS=${2:-7}
LINES=20000

die() {
	echo "fatal: $*" >&2
	exit 128
}
case $RUNS in
'' | *[!0-9]* | 0) die "RUNS must be a positive number, not '$RUNS'" ;;
esac
[ -x "$BIN_DIR/git-campaign" ] ||
	die "no executable '$BIN_DIR/git-campaign'; run 'make' first"
BIN_DIR=$(cd "$BIN_DIR" && pwd)
PY=$(command -v /usr/bin/python3 || command -v python3)

TMP=$(mktemp -d "${TMPDIR:-/tmp}/git-campaign-bench.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
export HOME="$TMP/home" GIT_CONFIG_NOSYSTEM=1 TZ=UTC LANG=C LC_ALL=C
export GIT_AUTHOR_NAME='A U Thor' GIT_AUTHOR_EMAIL='author@example.com'
export GIT_COMMITTER_NAME='C O Mitter'
export GIT_COMMITTER_EMAIL='committer@example.com'
mkdir -p "$HOME"
export PATH="$BIN_DIR:$PATH"
unset GIT_DIR GIT_WORK_TREE GIT_CAMPAIGN_DB GIT_CAMPAIGN_TRACE

# make_repo DIR: a campaign repository whose HEAD has an empty note
make_repo() {
	git init -q -b main "$1"
	git -C "$1" commit -q --allow-empty -m init
	(cd "$1" && git campaign init >/dev/null)
}

# timed DIR: "WALL CPU", the medians in ms of RUNS A/Bs in DIR
timed() {
	local i out walls=() cpus=()
	(cd "$1" && git campaign ab --build true --run true -n 1 --warmup 0 >/dev/null)
	for ((i = 0; i < RUNS; i++)); do
		out=$( { cd "$1" && /usr/bin/time -f '%e %U %S' git campaign ab \
			--build true --run true -n 1 --warmup 0 >/dev/null; } 2>&1) ||
			die "ab failed: $out"
		walls+=($(awk '{ printf "%d", $1 * 1000 }' <<<"${out##*$'\n'}"))
		cpus+=($(awk '{ printf "%d", ($2 + $3) * 1000 }' <<<"${out##*$'\n'}"))
	done
	printf '%s %s\n' \
		"$(printf '%s\n' "${walls[@]}" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')" \
		"$(printf '%s\n' "${cpus[@]}" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')"
}

make_repo "$TMP/small"
make_repo "$TMP/big"
"$PY" -c 'import json
for i in range('$LINES'):
    print(json.dumps({"metric": "m%d" % (i % 50), "value": i,
                      "samples": list(range(i, i + 10))}))' >"$TMP/b.jsonl"
(cd "$TMP/big" && git campaign measure add --batch "$TMP/b.jsonl" >/dev/null)
size=$(cd "$TMP/big" && git notes --ref campaign show HEAD | wc -c)

# each repository gets its runs in one block, the empty note first
read -r sw sc < <(timed "$TMP/small")
read -r bw bc < <(timed "$TMP/big")
printf 'note on A               wall ms   cpu ms\n'
printf '%-20s %10s %8s\n' "empty" "$sw" "$sc"
printf '%-20s %10s %8s\n' "$LINES lines, $size B" "$bw" "$bc"
awk -v sw="$sw" -v sc="$sc" -v bw="$bw" -v bc="$bc" 'BEGIN {
	printf "ratio big/empty      %10.2f %8.2f  (target: near 1)\n",
		bw / (sw ? sw : 1), bc / (sc ? sc : 1) }'
