#!/bin/bash
# How long `git campaign stack restack --all` takes after the bottom branch
# of a 10-branch stack was amended, side by side with the same job done by
# git: `git checkout` + `git rebase --onto` per branch, parents first (the
# loop), and one `git rebase --update-refs` of the top branch. All run on
# copies of one generated repository (>= 10,000 commits, >= 2,000 files),
# the top branch checked out, as when one amends the bottom and goes back
# to work on the top.
#
# usage: bench/restack.sh [BIN_DIR] [RUNS]
#   BIN_DIR  the folder that holds git-campaign (default: build/)
#   RUNS     timed rounds, each on fresh copies (default: 5)
#
# Fair by construction: the copies of a round are made, then `sync`ed (the
# tool fsyncs what it writes and would otherwise wait for the copy to
# reach the disk while git's ways do not); one untimed warm-up round comes
# first; the order of the three ways rotates from round to round. It
# prints each way's median in milliseconds, both ratios and the load
# average, checks that the three ways give every branch the same tree, and
# counts the work-tree files whose mtime the restack changed (only the
# files that differ between the old and the new top may change). Exits
# non-zero when a check fails.
# KEEP=1 keeps the generated repository (under $TMPDIR) for profiling.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN_DIR=${1:-$ROOT/build}
RUNS=${2:-5}
COMMITS=10000
FILES=2000
STACK=10
PER=3

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
[ -n "${KEEP:-}" ] || trap 'rm -rf "$TMP"' EXIT
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
git config --global advice.detachedHead false

REPO="$TMP/repo"
git init -q --initial-branch=main "$REPO"
cd "$REPO"

say "generating $COMMITS commits, $FILES files, a stack of $STACK x $PER"
# shellcheck disable=SC2016 # perl code, not shell
GEN='
use strict;
use warnings;
my ($commits, $nfiles, $stack, $per) = @ARGV;
my @top = qw(src lib tests docs tools bench runtime drivers);
my @mid = qw(core io net util cache proto api kernels);
my @paths;
for my $i (0 .. $nfiles - 1) {
	push @paths, sprintf("%s/%s/d%02d/file%04d.c", $top[$i % @top],
	    $mid[int($i / @top) % @mid], int($i / 64) % 4, $i);
}
my @rev = (0) x $nfiles;
sub content {
	my ($f) = @_;
	my $n = 30 + $f % 30;
	my $s = "/* $paths[$f] */\n";
	for my $j (1 .. $n) {
		$s .= $j == 1 + $rev[$f] % $n
		    ? "line $j of $paths[$f], revision $rev[$f]\n"
		    : "line $j of $paths[$f]\n";
	}
	return $s;
}
my ($mark, $time) = (0, 1700000000);
sub data { my ($s) = @_; return "data " . length($s) . "\n$s\n"; }
sub commit {
	my ($ref, $from, @files) = @_;
	$mark++;
	$time += 617;
	print "commit $ref\nmark :$mark\n";
	print "author A U Thor <author\@example.com> $time +0000\n";
	print "committer C O Mitter <committer\@example.com> $time +0000\n";
	print data("Change $paths[$files[0]]\n\nStep $mark.\n");
	print "from :$from\n" if defined $from;
	for my $f (@files) {
		$rev[$f]++;
		print "M 100644 inline $paths[$f]\n", data(content($f));
	}
	print "\n";
	return $mark;
}
my $main_n = $commits - $stack * $per;
commit("refs/heads/main", undef, 0 .. $nfiles - 1);
commit("refs/heads/main", undef, ($_ * 7919) % $nfiles) for 2 .. $main_n;
# the stack on main: each branch edits files of its own
my $from = $main_n;
for my $s (1 .. $stack) {
	for my $k (1 .. $per) {
		$from = commit(sprintf("refs/heads/stack/%02d", $s), $from,
		    ($s * 101 + $k * 17) % $nfiles);
	}
}
'
perl -e "$GEN" "$COMMITS" "$FILES" "$STACK" "$PER" | git fast-import --quiet
git checkout -q main
git campaign init bench --base main >/dev/null
top=$(printf 'stack/%02d' "$STACK")
for i in $(seq 1 "$STACK"); do
	b=$(printf 'stack/%02d' "$i")
	parent=main
	[ "$i" = 1 ] || parent=$(printf 'stack/%02d' $((i - 1)))
	git config "branch.$b.campaignParent" "$parent"
	git config "branch.$b.campaignParentTip" "$(git merge-base "$b" "$parent")"
done
# amend the bottom branch: one more change to a file it already edits
git checkout -q stack/01
f=$(git diff --name-only stack/01~1 stack/01 | head -1)
echo "amended" >>"$f"
git commit -q -a --amend -m 'stack/01, amended'
git checkout -q "$top"
git gc -q
say "$(git rev-list --all | wc -l) commits, $(git ls-files | wc -l) files"

ms() {
	echo $(( ($2 - $1) / 1000000 ))
}
median() {
	sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'
}

OLD=$(date -d '2020-01-01 00:00:00' +%s)
OLD_BOTTOM=$(git config branch.stack/02.campaignParentTip)

# each way, in its copy; sets T (ms)
way_camp() {
	cd "$TMP/camp"
	local t0 t1
	t0=$(date +%s%N)
	git campaign stack restack --all >/dev/null
	t1=$(date +%s%N)
	T=$(ms "$t0" "$t1")
}
way_loop() {
	cd "$TMP/loop"
	local t0 t1 i b p
	t0=$(date +%s%N)
	for i in $(seq 2 "$STACK"); do
		b=$(printf 'stack/%02d' "$i")
		p=$(printf 'stack/%02d' $((i - 1)))
		git checkout -q "$b"
		git rebase -q --onto "$p" "$(git config "branch.$b.campaignParentTip")" "$b"
		git config "branch.$b.campaignParentTip" "$(git rev-parse "$p")"
	done
	git checkout -q "$top"
	t1=$(date +%s%N)
	T=$(ms "$t0" "$t1")
}
way_refs() {
	cd "$TMP/refs"
	local t0 t1
	t0=$(date +%s%N)
	git rebase -q --update-refs --onto stack/01 "$OLD_BOTTOM" "$top"
	t1=$(date +%s%N)
	T=$(ms "$t0" "$t1")
}

camp_times=() loop_times=() refs_times=()
ways=(camp loop refs)
for run in $(seq 0 "$RUNS"); do
	rm -rf "$TMP/camp" "$TMP/loop" "$TMP/refs"
	for w in "${ways[@]}"; do
		cp -a "$REPO" "$TMP/$w"
	done
	cd "$TMP/camp"
	git ls-files -z | xargs -0 touch -d '2020-01-01 00:00:00'
	git update-index -q --refresh # let git record the new stat data
	old_top=$(git rev-parse HEAD)
	sync
	line="round $run:"
	for k in 0 1 2; do
		w=${ways[(run + k) % 3]}
		"way_$w"
		line="$line $w ${T} ms"
		[ "$run" = 0 ] && continue
		case $w in
		camp) camp_times+=("$T") ;;
		loop) loop_times+=("$T") ;;
		refs) refs_times+=("$T") ;;
		esac
	done
	cd "$TMP/camp"
	changed=$(git diff --name-only "$old_top" HEAD | wc -l)
	touched=$(git ls-files -z | xargs -0 stat -c %Y | grep -vc "^$OLD$" || true)
	[ -z "$(git status --porcelain)" ] || die "the work tree is not clean"
	for i in $(seq 1 "$STACK"); do
		b=$(printf 'stack/%02d' "$i")
		for w in loop refs; do
			[ "$(git rev-parse "$b^{tree}")" = "$(git -C "$TMP/$w" rev-parse "$b^{tree}")" ] ||
				die "$b differs between camp and $w"
		done
		[ "$(git rev-list --count "$b~$PER..$b")" = "$PER" ] || die "$b"
	done
	[ "$run" = 0 ] && line="$line (warm-up, not counted)"
	say "$line"
done

camp=$(printf '%s\n' "${camp_times[@]}" | median)
loop=$(printf '%s\n' "${loop_times[@]}" | median)
refs=$(printf '%s\n' "${refs_times[@]}" | median)
[ "$camp" -gt 0 ] || camp=1
cd "$REPO"
echo "restack of $STACK branches x $PER commits, $(git rev-list --all | wc -l) commits, $(git ls-files | wc -l) files"
echo "load average                      $(cut -d' ' -f1-3 /proc/loadavg)"
echo "git campaign stack restack --all  ${camp} ms (median of $RUNS)"
echo "git checkout + git rebase --onto  ${loop} ms (median of $RUNS)"
echo "git rebase --update-refs          ${refs} ms (median of $RUNS)"
awk -v a="$camp" -v b="$loop" 'BEGIN { printf "ratio to the loop                 %.1fx faster (target >= 15x)\n", b / a }'
awk -v a="$camp" -v b="$refs" 'BEGIN { printf "ratio to --update-refs            %.1fx faster (target >= 5x)\n", b / a }'
echo "work-tree files with a new mtime   $touched (files that differ between the old and new top: $changed)"
[ "$touched" -le "$changed" ] || die "the restack rewrote files it did not change"
