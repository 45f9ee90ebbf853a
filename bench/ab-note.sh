#!/bin/bash
# How one A/B's cost grows with the note on A's commit (AB-24): the median
# of `ab -n 1` on a commit with an empty note, side by side with the same
# on a commit whose note holds 20,000 lines (4.5 MB), in one run.
#
# usage: bench/ab-note.sh [BIN_DIR] [RUNS] [OTHER_BIN_DIR]
#   BIN_DIR        the folder that holds git-campaign (default: build/)
#   RUNS           timed runs of each (default: 7), after 1 warm-up run
#   OTHER_BIN_DIR  another build (say main's), timed the same way after
#
# It prints the medians (ms, wall and CPU) and their ratios; the target is
# a ratio near 1 (the cost of an A/B should not grow with the note). What
# is left of the growth is git's: an append writes the note as a new blob,
# which git hashes and compresses whole (SHA-1 with collision detection,
# zlib), and the old one is inflated to be copied. It exits 0 after
# printing, non-zero only when a step fails.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN_DIR=$(cd "${1:-$ROOT/build}" && pwd)
RUNS=${2:-7}
OTHER=${3:+$(cd "$3" && pwd)}
WARMUP=1
LINES=20000

# shellcheck source=bench/lib.sh
. "$ROOT/bench/lib.sh"
case $RUNS in
'' | *[!0-9]* | 0) die "RUNS must be a positive number, not '$RUNS'" ;;
esac
[ -z "$OTHER" ] || [ -x "$OTHER/git-campaign" ] ||
	die "no executable '$OTHER/git-campaign'"
bench_world "$BIN_DIR"
PY=$(command -v /usr/bin/python3 || command -v python3)

# make_repo DIR: a campaign repository whose HEAD has an empty note
make_repo() {
	git init -q -b main "$1"
	git -C "$1" commit -q --allow-empty -m init
	(cd "$1" && git campaign init >/dev/null)
}

make_repo "$TMP/small"
make_repo "$TMP/big"
"$PY" -c 'import json
for i in range('$LINES'):
    print(json.dumps({"metric": "m%d" % (i % 50), "value": i,
                      "samples": list(range(i, i + 10))}))' >"$TMP/b.jsonl"
(cd "$TMP/big" && git campaign measure add --batch "$TMP/b.jsonl" >/dev/null)
size=$(cd "$TMP/big" && git notes --ref campaign show HEAD | wc -c)

printf 'build   note on A               wall ms   cpu ms\n'
for bin in "$BIN_DIR" ${OTHER:+"$OTHER"}; do
	ab="$bin/git-campaign ab --build true --run true -n 1 --warmup 0"
	# each repository gets its runs in one block, the empty note first
	read -r sw sc < <(timed "cd '$TMP/small' && $ab")
	read -r bw bc < <(timed "cd '$TMP/big' && $ab")
	name=$([ "$bin" = "$BIN_DIR" ] && echo this || echo other)
	printf '%-7s %-20s %10s %8s\n' "$name" "empty" "$sw" "$sc"
	printf '%-7s %-20s %10s %8s\n' "$name" "$LINES lines, $size B" "$bw" "$bc"
	awk -v n="$name" -v sw="$sw" -v sc="$sc" -v bw="$bw" -v bc="$bc" 'BEGIN {
		printf "%-7s ratio big/empty      %10.2f %8.2f  (target: near 1)\n",
			n, bw / (sw ? sw : 1), bc / (sc ? sc : 1) }'
done
