#!/bin/bash
# Requests git-campaign makes to GitHub, counted against the fake
# (tests/fakehub): the issue's efficiency targets, printed as a table.
#
# usage: bench/github.sh [BIN_DIR]   (default: build/ of this repository)
#
# Counted today: umbrella sync (first, unchanged, after a change) and
# umbrella post (first, unchanged). stack submit is counted once it exists.
# A benchmark, not a gate: it exits 0 after printing, non-zero only when a
# step fails.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN_DIR=${1:-$ROOT/build}
TMP=$(mktemp -d)
trap 'kill "$PID" 2>/dev/null || true; rm -rf "$TMP"' EXIT

export HOME=$TMP/home GIT_CONFIG_NOSYSTEM=1 LC_ALL=C
mkdir -p "$HOME"
git config --global user.name bench
git config --global user.email bench@example.com
git config --global init.defaultBranch main

python3 "$ROOT/tests/fakehub/fakehub.py" --port-file "$TMP/port" \
	--token bench-token --violations "$TMP/violations" &
PID=$!
for _ in $(seq 300); do
	[ -s "$TMP/port" ] && break
	sleep 0.1
done
PORT=$(cat "$TMP/port")
export GIT_CAMPAIGN_API_URL=http://127.0.0.1:$PORT GH_TOKEN=bench-token
export PATH="$BIN_DIR:$PATH"

ctl() { # METHOD PATH [BODY]
	local body=${3:-}
	exec 5<>"/dev/tcp/127.0.0.1/$PORT"
	printf '%s %s HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s' \
		"$1" "$2" "${#body}" "$body" >&5
	sed '1,/^\r$/d' <&5
	exec 5<&-
}
requests() { ctl GET /__fake/log.txt | wc -l; }

git init -q "$TMP/r"
cd "$TMP/r"
git commit -q --allow-empty -m first
git remote add origin https://github.com/o/r.git
git campaign init bench --umbrella 1 >/dev/null
ctl POST /__fake/seed '{"repo":"o/r","issues":[{"title":"Umbrella","body":"notes"}]}' >/dev/null

printf '%-34s %8s %8s\n' operation requests target
count() { # LABEL TARGET COMMAND...
	local label=$1 target=$2 before after
	shift 2
	before=$(requests)
	"$@" >/dev/null
	after=$(requests)
	printf '%-34s %8d %8s\n' "$label" $((after - before)) "$target"
}
count 'umbrella sync, first' '2' git campaign umbrella sync
count 'umbrella sync, unchanged' '1 (304)' git campaign umbrella sync
sqlite3 .git/campaign/campaign.db \
	"INSERT INTO pr VALUES ('b1', 7, 'open', 'main', NULL, 'now')"
count 'umbrella sync, after a change' '2' git campaign umbrella sync
count 'umbrella post, first' '2' git campaign umbrella post -m r r1
count 'umbrella post, unchanged' '1' git campaign umbrella post -m r r1
echo
echo "last requests:"
ctl GET /__fake/log.txt | tail -n 3
if [ -s "$TMP/violations" ]; then
	echo "fatal: the fake recorded spec violations:" >&2
	cat "$TMP/violations" >&2
	exit 1
fi
