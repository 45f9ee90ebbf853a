#!/bin/bash
# What the hooks cost a commit: in a large repository (10,000 commits,
# 2,000 files), `git commit --allow-empty -m x` with no hook, with empty
# shell hooks, and with git-campaign's hooks, taken in turn in one run so
# that the machine's load falls on all three alike; prints each median and
# the ratios. Target: ours / empty <= 1.3. With Debian's pre-commit on
# PATH, a fourth row: the same hooks run by the pre-commit framework.
#
#   bench/hooks.sh [RUNS] [BUILD_DIR]     (defaults: 200, ./build)
set -euo pipefail

runs=${1:-200}
build=$(cd "${2:-$(dirname "$0")/../build}" && pwd)
[ -x "$build/git-campaign" ] && [ -x "$build/git-campaign-hook" ] || {
	echo "fatal: build git-campaign first (make)" >&2
	exit 128
}
export PATH="$build:$PATH"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export HOME="$work/home" GIT_CONFIG_NOSYSTEM=1 LC_ALL=C
mkdir -p "$HOME"
export GIT_AUTHOR_NAME=bench GIT_AUTHOR_EMAIL=bench@example.com
export GIT_COMMITTER_NAME=bench GIT_COMMITTER_EMAIL=bench@example.com

echo "making a repository of 10,000 commits and 2,000 files..." >&2
git init -q -b develop "$work/repo"
cd "$work/repo"
python3 - <<'EOF' | git fast-import --quiet
import sys
w = sys.stdout.write
w("commit refs/heads/develop\nmark :1\n")
w("committer b <b@example.com> 1700000000 +0000\ndata 4\nroot\n")
for f in range(2000):
    body = "file %d\n" % f * 20
    w("M 644 inline src/d%02d/f%04d.c\ndata %d\n%s\n" % (f % 40, f, len(body), body))
for c in range(2, 10001):
    msg = "change %d" % c
    body = "v%d\n" % c
    w("commit refs/heads/develop\n")
    w("committer b <b@example.com> %d +0000\n" % (1700000000 + c))
    w("data %d\n%s\n" % (len(msg), msg))
    w("M 644 inline src/d%02d/f%04d.c\ndata %d\n%s\n" % (c % 40, c % 2000, len(body), body))
EOF
git reset -q --hard develop
git gc -q
git switch -q -c work
git campaign init bench >/dev/null
# a PR cache with rows, none for this branch: the hook looks it up
for i in $(seq 1 50); do
	echo "INSERT INTO pr VALUES ('b$i', $i, 'open', 'develop', NULL, 'x');"
done | sqlite3 .git/campaign/campaign.db

mkdir -p "$work/none" "$work/empty" "$work/ours"
for h in pre-commit commit-msg post-commit; do
	printf '#!/bin/sh\n:\n' >"$work/empty/$h"
	chmod +x "$work/empty/$h"
done
git -c core.hooksPath="$work/ours" campaign hooks install --force >/dev/null

kinds=(none empty ours)
# the same hooks through the pre-commit framework (Debian's pre-commit),
# as a repository with a .pre-commit-config.yaml runs them: the block
# `hooks install` prints, and the framework's scripts for the three hook
# types a commit runs
if command -v pre-commit >/dev/null; then
	export PRE_COMMIT_HOME="$work/pre-commit-home"
	echo 'repos:' >.pre-commit-config.yaml
	git campaign hooks install 2>/dev/null | grep -v '^#' \
		>>.pre-commit-config.yaml
	git add .pre-commit-config.yaml
	git -c core.hooksPath="$work/none" commit -q -m 'framework config'
	git init -q "$work/fw-repo"
	(cd "$work/fw-repo" && cp ../repo/.pre-commit-config.yaml . &&
		pre-commit install -t pre-commit -t commit-msg \
			-t post-commit >/dev/null)
	cp -r "$work/fw-repo/.git/hooks" "$work/framework"
	kinds+=(framework)
else
	echo "note: no pre-commit on PATH: the framework row is left out" >&2
fi

declare -A times
for ((i = 0; i < runs; i++)); do
	for ((k = 0; k < ${#kinds[@]}; k++)); do
		# rotate the order so no kind always follows the same one
		kind=${kinds[(i + k) % ${#kinds[@]}]}
		t0=$EPOCHREALTIME
		git -c core.hooksPath="$work/$kind" commit -q --allow-empty -m x
		t1=$EPOCHREALTIME
		times[$kind]+="$(((${t1/./} - ${t0/./})))"$'\n'
	done
done

median() { sort -n | awk '{ v[NR] = $1 } END {
	m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
	printf "%.2f", m / 1000 }'; }
none=$(printf '%s' "${times[none]}" | median)
empty=$(printf '%s' "${times[empty]}" | median)
ours=$(printf '%s' "${times[ours]}" | median)
printf 'git commit --allow-empty, median of %d each, in ms:\n' "$runs"
printf '  no hook            %8s\n' "$none"
printf '  empty shell hooks  %8s\n' "$empty"
printf '  git-campaign hooks %8s\n' "$ours"
if [ -n "${times[framework]:-}" ]; then
	fw=$(printf '%s' "${times[framework]}" | median)
	printf '  the same, through the pre-commit framework %8s\n' "$fw"
	awk -v o="$ours" -v f="$fw" 'BEGIN {
		printf "ratio framework / ours:   %.1f\n", f / o }'
fi
awk -v n="$none" -v e="$empty" -v o="$ours" 'BEGIN {
	printf "ratio ours / empty hooks: %.2f (target <= 1.30)\n", o / e
	printf "ratio ours / no hook:     %.2f\n", o / n
	printf "our own time per commit:  %.2f ms\n", o - e }'
