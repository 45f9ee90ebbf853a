#!/bin/bash
# Requests git-campaign makes to GitHub, counted against the fake
# (tests/fakehub): the issue's efficiency targets, printed as a table.
#
# usage: bench/github.sh [BIN_DIR]   (default: build/ of this repository)
#
# Counted: umbrella sync (first, unchanged, after a change), umbrella post
# (first, unchanged, new text; and again among 121 comments), stack submit
# of a 10-branch stack (first, unchanged, one branch amended), stack show
# --remote (first, unchanged, after a review), reviewers and labels asked,
# the review loop (amend a middle branch, restack, resubmit) and a merged
# bottom PR (stack sync, the submit after it, once more), with the git
# pushes each ran. The issue's targets are marked "<=" or "=". A benchmark,
# not a gate: it exits 0 after printing, non-zero only when a step fails.
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

printf '%-42s %9s %7s  %s\n' operation requests pushes target
count() { # LABEL TARGET COMMAND...
	local label=$1 target=$2 before after p304 pbefore
	shift 2
	before=$(requests)
	pbefore=$(pushes)
	"$@" >/dev/null
	after=$(requests)
	p304=$(ctl GET /__fake/log.txt | tail -n +$((before + 1)) |
		grep -c ' 304$' || true)
	printf '%-42s %3d (%2d 304) %5d  %s\n' "$label" $((after - before)) \
		"$p304" $(($(pushes) - pbefore)) "$target"
}
count 'umbrella sync, first' '2' git-campaign umbrella sync
count 'umbrella sync, unchanged' '= 1 (a 304)' git-campaign umbrella sync
sqlite3 .git/campaign/campaign.db \
	"INSERT INTO pr VALUES ('b1', 7, 'open', 'main', NULL, 'now')"
count 'umbrella sync, after a change' '2' git-campaign umbrella sync
count 'umbrella post, first' '2' git-campaign umbrella post -m r r1
count 'umbrella post, unchanged' '= 1' git-campaign umbrella post -m r r1
count 'umbrella post, new text' '= 1' git-campaign umbrella post -m r2 r1
# GH-15: 121 comments on the issue, two pages of them
ctl POST /__fake/seed '{"repo":"o/r","comments_on":[1,120]}' >/dev/null
count 'umbrella post r2, 121 comments, first' '<= 3' \
	git-campaign umbrella post -m x r2
count 'umbrella post r2, unchanged' '= 1' git-campaign umbrella post -m x r2
count 'umbrella post r2, new text' '= 1' git-campaign umbrella post -m y r2

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
count 'stack submit of 10, first' '= 12' git-campaign stack submit
count 'stack submit of 10, unchanged' '= 1' git-campaign stack submit
count 'stack submit of 10, again' '= 1' git-campaign stack submit
count 'stack show --remote, 10 PRs, first' '= 1 + 3 a PR' \
	git-campaign stack show --remote
count 'stack show --remote, unchanged' '= 31, all 304' \
	git-campaign stack show --remote
ctl POST /__fake/review '{"repo":"o/s","number":3,"user":"alice","state":"APPROVED"}' >/dev/null
count 'stack show --remote, a review added' '= 31, one 200' \
	git-campaign stack show --remote
git config --add campaign.github.reviewers alice
git config --add campaign.github.labels perf
count 'stack submit, reviewers and labels set' '= 1 + 2 a PR' \
	git-campaign stack submit
count 'stack submit, reviewers and labels again' '= 1' \
	git-campaign stack submit
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
