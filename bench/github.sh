#!/bin/bash
# Requests git-campaign makes to GitHub, counted against the fake
# (tests/fakehub): the issue's efficiency targets, printed as a table.
#
# usage: bench/github.sh [BIN_DIR]   (default: build/ of this repository)
#
# Counted: umbrella sync (first, unchanged, after a change), umbrella post
# (first, unchanged), stack submit of a 10-branch stack (first, unchanged,
# one branch amended), the review loop (amend a middle branch, restack,
# resubmit) and a merged bottom PR (stack sync, the submit after it, once
# more), with the git pushes each ran. The three targets of the
# issue are marked "<=" or "=". A benchmark, not a gate: it exits 0 after
# printing, non-zero only when a step fails.
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
# git-campaign run directly, so that it finds this wrapper, which counts
# the pushes (git would put its own exec-path first)
mkdir -p "$TMP/bin"
printf '#!/bin/sh\n[ "$1" = push ] && echo push >>"%s"\nexec %s "$@"\n' \
	"$TMP/pushes" "$(command -v git)" >"$TMP/bin/git"
chmod +x "$TMP/bin/git"
: >"$TMP/pushes"
export PATH="$TMP/bin:$BIN_DIR:$PATH" GIT_CAMPAIGN_WRITE_GAP_MS=0

ctl() { # METHOD PATH [BODY]
	local body=${3:-}
	exec 5<>"/dev/tcp/127.0.0.1/$PORT"
	printf '%s %s HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s' \
		"$1" "$2" "${#body}" "$body" >&5
	sed '1,/^\r$/d' <&5
	exec 5<&-
}
requests() { ctl GET /__fake/log.txt | wc -l; }
pushes() { wc -l <"$TMP/pushes"; }

git init -q "$TMP/r"
cd "$TMP/r"
git commit -q --allow-empty -m first
git remote add origin https://github.com/o/r.git
git campaign init bench --umbrella 1 >/dev/null
ctl POST /__fake/seed '{"repo":"o/r","issues":[{"title":"Umbrella","body":"notes"}]}' >/dev/null

printf '%-36s %9s %7s  %s\n' operation requests pushes target
count() { # LABEL TARGET COMMAND...
	local label=$1 target=$2 before after p304 pbefore
	shift 2
	before=$(requests)
	pbefore=$(pushes)
	"$@" >/dev/null
	after=$(requests)
	p304=$(ctl GET /__fake/log.txt | tail -n +$((before + 1)) |
		grep -c ' 304$' || true)
	printf '%-36s %3d (%d 304) %7d  %s\n' "$label" $((after - before)) \
		"$p304" $(($(pushes) - pbefore)) "$target"
}
count 'umbrella sync, first' '2' git-campaign umbrella sync
count 'umbrella sync, unchanged' '= 1 (a 304)' git-campaign umbrella sync
sqlite3 .git/campaign/campaign.db \
	"INSERT INTO pr VALUES ('b1', 7, 'open', 'main', NULL, 'now')"
count 'umbrella sync, after a change' '2' git-campaign umbrella sync
count 'umbrella post, first' '2' git-campaign umbrella post -m r r1
count 'umbrella post, unchanged' '1' git-campaign umbrella post -m r r1

# a 10-branch stack pushed to a bare remote, its PRs on the fake
git init -q --bare "$TMP/remote.git"
git init -q "$TMP/s"
cd "$TMP/s"
git commit -q --allow-empty -m base
git branch -M develop
git remote add origin "$TMP/remote.git"
git push -q origin develop
git-campaign init stack --forge o/s >/dev/null
for i in $(seq 10); do
	git-campaign stack new "s$i" >/dev/null
	git commit -q --allow-empty -m "s$i"
done
count 'stack submit of 10, first' '<= 12' git-campaign stack submit
count 'stack submit of 10, unchanged' '<= 2 + 1 push' git-campaign stack submit
count 'stack submit of 10, again' '<= 2 + 1 push' git-campaign stack submit
git commit -q --allow-empty -m 's10 again'
count 'stack submit of 10, top amended' '' git-campaign stack submit
# the review loop: amend the 5th, restack, resubmit (GH-2)
git checkout -q s5
git commit -q --amend --allow-empty -m 's5 reworked'
count 'stack restack --all after amending s5' '= 0' \
	git-campaign stack restack --all
count 'stack submit of 10, after the restack' '<= 2 + 1 push' \
	git-campaign stack submit --all
# the bottom PR squash-merged on GitHub (GH-3, GH-4, GH-14)
git clone -q -b develop "$TMP/remote.git" "$TMP/gh"
(cd "$TMP/gh" && git merge -q --squash origin/s1 >/dev/null 2>&1
	git commit -q --allow-empty -m 's1 (#1)' && git push -q origin develop)
N1=$(sqlite3 .git/campaign/campaign.db "SELECT number FROM pr WHERE branch = 's1'")
ctl POST /__fake/merge '{"repo":"o/s","number":'"$N1"'}' >/dev/null
count "stack sync after #$N1 (s1) merged" '<= 3' git-campaign stack sync
count 'stack submit, after the merge' '<= 3 + 1 push' \
	git-campaign stack submit --all
count 'stack submit, again' '= 1' git-campaign stack submit --all
echo
echo "last requests:"
ctl GET /__fake/log.txt | tail -n 3
if [ -s "$TMP/violations" ]; then
	echo "fatal: the fake recorded spec violations:" >&2
	cat "$TMP/violations" >&2
	exit 1
fi
