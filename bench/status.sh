#!/bin/bash
# How long `git campaign status` and `git campaign resume` take on a
# repository of realistic size, side by side with `git rev-parse HEAD` (the
# cost of any git command) and `git campaign --version` (the cost of
# starting our binary, no work).
#
# usage: bench/status.sh [BIN_DIR] [RUNS]
#   BIN_DIR  the folder that holds git-campaign (default: build/ of this
#            repository; run `make` first)
#   RUNS     timed runs of each command (default: 200), after 5 warm-up runs
#
# It prints the median, p10 and p90 of each in milliseconds and the ratio
# of the medians.  It is a benchmark, not a gate: it exits 0 after
# printing, and non-zero only when a step or a measured command fails.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN_DIR=${1:-$ROOT/build}
RUNS=${2:-200}
WARMUP=5
COMMITS=10000
FILES=384
TOPICS=40 # branches at various commits of main
STACK=10  # stack/01 .. stack/10, each on the one before
CURRENT=stack/03 # checked out: three commits ahead of main

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

# A world of its own, as in the end-to-end tests: nothing from the user's
# configuration may change what is measured.
export HOME="$TMP/home" XDG_CONFIG_HOME="$TMP/home/.config"
export GIT_CONFIG_NOSYSTEM=1 TZ=UTC LANG=C LC_ALL=C
export GIT_AUTHOR_NAME='A U Thor' GIT_AUTHOR_EMAIL='author@example.com'
export GIT_COMMITTER_NAME='C O Mitter'
export GIT_COMMITTER_EMAIL='committer@example.com'
# A copy of the binary, so that a `make` in the middle of the run (others
# build in this tree too) cannot swap or remove what is being measured.
mkdir -p "$TMP/bin"
cp "$BIN_DIR/git-campaign" "$TMP/bin/git-campaign"
export PATH="$TMP/bin:$PATH"
unset GIT_DIR GIT_WORK_TREE GIT_CAMPAIGN_DB GIT_CAMPAIGN_TRACE \
	GIT_CAMPAIGN_NO_CACHE GIT_CONFIG_PARAMETERS GIT_CONFIG_COUNT
mkdir -p "$HOME"
git config --global advice.detachedHead false

REPO="$TMP/repo"
git init -q --initial-branch=main "$REPO"
cd "$REPO"

# The fast-import stream: main gets the commits that the branches do not,
# so that the repository holds $COMMITS in all.  The first commit adds
# every file; every later one rewrites one line of one file, so packs
# delta well, as in a real history.
say "generating $COMMITS commits, $FILES files, $((TOPICS + STACK)) branches"
# shellcheck disable=SC2016 # perl code, not shell
GEN='
use strict;
use warnings;
my ($commits, $nfiles, $topics, $stack) = @ARGV;

my @top = qw(src lib tests docs tools bench);
my @mid = qw(core io net util cache proto);
my @low = qw(alpha beta gamma delta);
my @paths;
for my $i (0 .. $nfiles - 1) {
	my $t = $top[$i % @top];
	my $m = $mid[int($i / @top) % @mid];
	my $l = $low[int($i / (@top * @mid)) % @low];
	my $ext = $t eq "docs" ? "md" : $t eq "tests" ? "sh" : "c";
	push @paths, sprintf("%s/%s/%s/file%03d.%s", $t, $m, $l, $i, $ext);
}
my @rev = (0) x $nfiles;

sub content {
	my ($f) = @_;
	my $lines = 20 + $f % 40;
	my $s = "/* $paths[$f] */\n";
	for my $j (1 .. $lines) {
		$s .= $j == 1 + $rev[$f] % $lines
		    ? "line $j of $paths[$f], revision $rev[$f]\n"
		    : "line $j of $paths[$f]\n";
	}
	return $s;
}

my $mark = 0;
my $time = 1700000000;
my $done = 0;
sub data { my ($s) = @_; return "data " . length($s) . "\n$s\n"; }

# commit(REF, FROM_MARK or undef, FILE indices): the new mark
sub commit {
	my ($ref, $from, @files) = @_;
	$mark++;
	$time += 617;
	my $who = $mark % 3 ? "A U Thor <author\@example.com>"
			    : "B Coder <bcoder\@example.com>";
	my $msg = "Change " . join(", ", map { $paths[$_] } @files)
	    . "\n\nStep $mark of the campaign.\n";
	print "commit $ref\nmark :$mark\n";
	print "author $who $time +0000\n";
	print "committer C O Mitter <committer\@example.com> $time +0000\n";
	print data($msg);
	print "from :$from\n" if defined $from;
	for my $f (@files) {
		$rev[$f]++;
		print "M 100644 inline $paths[$f]\n", data(content($f));
	}
	print "\n";
	print "progress generated $mark of $commits commits\n"
	    if $mark % 2500 == 0;
	return $mark;
}

my $extra = 0;
$extra += $_ % 3 for 1 .. $topics;
$extra += $stack + 1; # the stack and its stale step
my $main_n = $commits - $extra;
die "too few commits\n" if $main_n < 2;

commit("refs/heads/main", undef, 0 .. $nfiles - 1);
for my $i (2 .. $main_n) {
	commit("refs/heads/main", undef, ($i * 7919) % $nfiles);
}
# topic branches at commits spread over the history, with 0 to 2 of
# their own
for my $t (1 .. $topics) {
	my $at = 1 + int(($main_n - 1) * $t / ($topics + 1));
	my $ref = sprintf("refs/heads/topic/%02d", $t);
	if ($t % 3 == 0) {
		print "reset $ref\nfrom :$at\n\n";
		next;
	}
	my $from = $at;
	for my $k (1 .. $t % 3) {
		commit($ref, $from, ($t * 31 + $k) % $nfiles);
		$from = undef;
	}
}
# the stack, on the tip of main: one commit per branch; stack/04 then
# takes one more, so stack/05 needs a restack
my $from = $main_n;
my $s04;
for my $s (1 .. $stack) {
	$from = commit(sprintf("refs/heads/stack/%02d", $s), $from,
	    ($s * 13) % $nfiles);
	$s04 = $from if $s == 4;
}
commit("refs/heads/stack/04", undef, 99 % $nfiles) if $s04;
print "progress generated $mark of $commits commits\n"
    if $mark % 2500;
'
perl -e "$GEN" "$COMMITS" "$FILES" "$TOPICS" "$STACK" |
	git fast-import --quiet >&2
git reset -q --hard main
git checkout -q "$CURRENT"

say "recording the stack and the named stashes"
for i in $(seq 1 "$STACK"); do
	b=$(printf 'stack/%02d' "$i")
	if [ "$i" = 1 ]; then
		parent=main
	else
		parent=$(printf 'stack/%02d' $((i - 1)))
	fi
	# the parent's tip when the branch was made on it: where they fork
	tip=$(git merge-base "$b" "$parent")
	git config "branch.$b.campaignParent" "$parent"
	git config "branch.$b.campaignParentTip" "$tip"
done
git update-ref refs/campaign/stash/before-refactor "$(git rev-parse topic/07)"
git update-ref refs/campaign/stash/wip-timing "$(git rev-parse stack/02)"

say "git campaign init bench --base main"
git campaign init bench --base main >/dev/null

# the campaign's records at the size the target names: 1,000 hypotheses
# (one marked next), 1,000 findings, 100,000 test rows (100 commits x 10
# machines x 100 classes)
command -v sqlite3 >/dev/null || die "sqlite3 is needed to fill the database"
say "adding 1,000 hypotheses, 1,000 findings, 100,000 test rows, 10 PRs, an A/B"
sqlite3 "$(git rev-parse --git-common-dir)/campaign/campaign.db" <<'SQL'
BEGIN;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000)
INSERT INTO hypothesis (text, metric, predicted, unit, tolerance, state,
	is_next, created_at)
SELECT 'hypothesis ' || i, 'launch_us', i * 0.01, 'us', 10,
	CASE WHEN i % 3 = 0 THEN 'falsified' ELSE 'open' END, i = 500,
	'2026-11-29T12:00:00Z' FROM n;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000)
INSERT INTO finding (kind, title, state, created_at)
SELECT CASE i % 3 WHEN 0 THEN 'wrong-answer' WHEN 1 THEN 'crash'
	ELSE 'slow' END, 'finding ' || i,
	CASE WHEN i % 2 = 0 THEN 'closed' ELSE 'open' END,
	printf('2026-11-%02dT12:00:00Z', 1 + i % 28) FROM n;
WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 99999)
INSERT INTO test_result
SELECT printf('%040d', i / 1000), printf('%016d', (i / 100) % 10),
	'uk.ac.manchester.tornado.unittests.Test' || (i % 100), 10, i % 2, 0,
	0, 'tornado-test', '2026-11-29T12:00:00Z' FROM n;
-- the totals `tests import` keeps beside the rows
INSERT INTO test_total SELECT commit_id, env, sum(passed), sum(failed),
	sum(skipped), sum(unsupported), count(*), max(at) FROM test_result
	GROUP BY commit_id, env ORDER BY max(rowid);
-- what resume reads besides: a PR per stacked branch, an A/B run
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 10)
INSERT INTO pr SELECT printf('stack/%02d', i), 1000 + i,
	CASE WHEN i < 3 THEN 'merged' ELSE 'open' END, 'main', NULL,
	'2026-11-29T12:00:00Z' FROM n;
INSERT INTO ab_run VALUES (1, '2026-11-29T20:40:00Z', 'worktree',
	'./saxpy 100000 512', 'faster 0.494', 0, json_object('invalid', json('false'),
	'a', 'HEAD (0123456789ab)', 'b', 'working tree', 'mode', 'worktree',
	'order', 'abba', 'n', 5, 'warmup', 1, 'metric', 'wall',
	'env', '0000000000000003', 'config', json_object(), 'unit', 's',
	'better', 'lower', 'warnings', json_array(),
	'workloads', json_array(
		json_object('workload', './saxpy 100000 512', 'control', json('false'),
		'a', json_array(17.4, 17.5, 17.46, 17.3, 17.6),
		'b', json_array(8.6, 8.62, 8.7, 8.5, 8.61), 'ratio', 0.494,
		'ci_low', 0.49, 'ci_high', 0.5, 'p', 0.0079, 'verdict', 'faster'),
		json_object('workload', './saxpy 2000 16777216', 'control', json('true'),
		'a', json_array(3.1, 3.2, 3.1, 3.15, 3.1),
		'b', json_array(3.1, 3.1, 3.2, 3.12, 3.1), 'ratio', 1.0,
		'ci_low', 0.98, 'ci_high', 1.02, 'p', 0.8, 'verdict', 'steady'))),
	'');
COMMIT;
SQL

nbranches=$(git for-each-ref refs/heads | wc -l)
ncommits=$(git rev-list --all | wc -l)
say "what is measured: git campaign status in $REPO on '$CURRENT'"
git campaign status | sed 's/^/    /' >&2
say "what is measured: git campaign resume"
git campaign resume | sed 's/^/    /' >&2
git campaign status --short | grep -q ' restack:1\b' ||
	say "warning: status does not show one branch to restack; the" \
		"stack is not what this benchmark means to measure"

# status and resume keep their last rendering while nothing they show
# changes (src/core/base/outcache.h), once the database's last change is two
# seconds old: as on a prompt a while after the last command. The runs
# with GIT_CAMPAIGN_NO_CACHE=1 read everything afresh, as the first run
# after a change does.
sleep 3
say "timing: $WARMUP warm-up runs, then $RUNS runs of each, interleaved"
# shellcheck disable=SC2016 # perl code, not shell
TIMER='
use strict;
use warnings;
use POSIX ();
use Time::HiRes qw(clock_gettime CLOCK_MONOTONIC);

my ($runs, $warmup) = splice(@ARGV, 0, 2);
my @cmds = (
	[ "git campaign status",    [qw(git campaign status)] ],
	[ "git campaign resume",    [qw(git campaign resume)] ],
	[ "git rev-parse HEAD",     [qw(git rev-parse HEAD)] ],
	[ "git campaign --version", [qw(git campaign --version)] ],
	[ "git-campaign status",    [qw(git-campaign status)] ],
	[ "git-campaign resume",    [qw(git-campaign resume)] ],
	[ "status, afresh",         [qw(git campaign status)], 1 ],
	[ "resume, afresh",         [qw(git campaign resume)], 1 ],
);

# one run: fork, exec with stdout on /dev/null, wait; wall time in ms;
# afresh: with GIT_CAMPAIGN_NO_CACHE=1
sub once {
	my ($argv, $afresh) = @_;
	my $t0 = clock_gettime(CLOCK_MONOTONIC);
	my $pid = fork() // die "fatal: cannot fork: $!\n";
	if (!$pid) {
		$ENV{GIT_CAMPAIGN_NO_CACHE} = 1 if $afresh;
		open(STDOUT, ">", "/dev/null") or POSIX::_exit(127);
		exec { $argv->[0] } @$argv
		    or print STDERR "fatal: cannot run $argv->[0]: $!\n";
		POSIX::_exit(127);
	}
	waitpid($pid, 0);
	my $t1 = clock_gettime(CLOCK_MONOTONIC);
	die "fatal: \x27@$argv\x27 failed with status " . ($? >> 8)
	    . ($? & 127 ? ", signal " . ($? & 127) : "") . "\n" if $?;
	return 1000 * ($t1 - $t0);
}

# Interleave, and rotate which goes first in each round, so that drift
# (a cache warming, a neighbour waking) falls on all of them alike.
my @ms = map { [] } @cmds;
for my $round (1 .. $warmup + $runs) {
	for my $k (0 .. $#cmds) {
		my $i = ($k + $round) % @cmds;
		my $t = once($cmds[$i][1], $cmds[$i][2]);
		push @{ $ms[$i] }, $t if $round > $warmup;
	}
	print STDERR "bench: $round of ", $warmup + $runs, " rounds\n"
	    if $round % 50 == 0;
}

# percentile by linear interpolation between the closest ranks
sub pct {
	my ($p, @v) = @_;
	my $x = $p * (@v - 1);
	my $lo = int($x);
	my $hi = $lo + 1 < @v ? $lo + 1 : $lo;
	return $v[$lo] + ($x - $lo) * ($v[$hi] - $v[$lo]);
}

my @med;
printf "%-24s %8s %8s %8s   (ms, %d runs each)\n", "command", "median",
    "p10", "p90", $runs;
for my $i (0 .. $#cmds) {
	my @v = sort { $a <=> $b } @{ $ms[$i] };
	$med[$i] = pct(0.5, @v);
	printf "%-24s %8.2f %8.2f %8.2f\n", $cmds[$i][0], $med[$i],
	    pct(0.1, @v), pct(0.9, @v);
}
printf "ratio status/rev-parse: %.2f (target <= 2)\n", $med[0] / $med[2];
printf "ratio resume/rev-parse: %.2f (target <= 2)\n", $med[1] / $med[2];
printf "ratio version/rev-parse: %.2f (the floor: starting the binary)\n",
    $med[3] / $med[2];
printf "ratio direct status/rev-parse: %.2f (git-campaign run without git)\n",
    $med[4] / $med[2];
printf "ratio direct resume/rev-parse: %.2f (git-campaign run without git)\n",
    $med[5] / $med[2];
printf "ratio status afresh/rev-parse: %.2f (nothing kept: the first run after a change)\n",
    $med[6] / $med[2];
printf "ratio resume afresh/rev-parse: %.2f (nothing kept: the first run after a change)\n",
    $med[7] / $med[2];
printf "work beyond starting the binary: status %.2f ms, resume %.2f ms;" .
    " afresh %.2f ms, %.2f ms\n", $med[0] - $med[3], $med[1] - $med[3],
    $med[6] - $med[3], $med[7] - $med[3];
'
echo "git campaign status benchmark: $ncommits commits, $nbranches branches," \
	"$FILES files, 2 named stashes, on '$CURRENT' ($(git --version)," \
	"$(git campaign --version), $(nproc) cores)"
perl -e "$TIMER" "$RUNS" "$WARMUP"
