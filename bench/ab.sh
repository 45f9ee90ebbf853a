#!/bin/bash
# The A/B harness's own cost, side by side with hyperfine, and what
# worktree mode saves over stash mode on repeated A/Bs.
#
# usage: bench/ab.sh [BIN_DIR] [RUNS]
#   BIN_DIR  the folder that holds git-campaign (default: build/)
#   RUNS     runs per arm of the trivial command (default: 200)
#
# 1. Cost per run of `true`: `git campaign ab -n RUNS` makes 2 x RUNS runs,
#    `hyperfine -N --runs 2xRUNS true` as many. Set-up (worktree, builds,
#    hyperfine's calibration) is taken out by also timing one run of each
#    and dividing the difference: per run = (T(many) - T(one)) / (extra
#    runs). Target: ours <= 1.2 x hyperfine's.
# 2. Three A/Bs in a row of a small C project whose build takes 0.3 s more
#    than its compile, in stash mode, then in worktree mode: the wall time
#    and the number of builds of each. Worktree mode builds A once.
# A benchmark, not a gate: it exits 0 after printing.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN_DIR=$(cd "${1:-$ROOT/build}" && pwd)
RUNS=${2:-200}
[ -x "$BIN_DIR/git-campaign" ] || {
	echo "fatal: no '$BIN_DIR/git-campaign'; run 'make' first" >&2
	exit 128
}
command -v hyperfine >/dev/null || {
	echo "fatal: hyperfine is missing; 'sh scripts/deps.sh --bench'" >&2
	exit 128
}

# shellcheck source=bench/lib.sh
. "$ROOT/bench/lib.sh"
bench_world "$BIN_DIR"
WORK=$TMP
git config --global init.defaultBranch main

now() { date +%s.%N; }
calc() { awk "BEGIN { printf \"%.9f\", $* }"; }
elapsed() { calc "$2 - $1"; }

# --- 1. harness cost per run -------------------------------------------
git init -q "$WORK/t"
cd "$WORK/t"
git commit -q --allow-empty -m base
ab_time() {
	local t0 t1
	t0=$(now)
	git campaign ab --build true --run true --warmup 0 -n "$1" \
		--json >/dev/null
	t1=$(now)
	elapsed "$t0" "$t1"
}
ab_time 2 >/dev/null # the worktree is made once, outside the timing
a1=$(ab_time 2)
an=$(ab_time "$RUNS")
ours=$(calc "($an - $a1) / (2 * ($RUNS - 2))")
# hyperfine's own loop: the sum of its measured times, plus its overhead
h1t0=$(now); hyperfine -N --runs 4 --warmup 0 true >/dev/null 2>&1; h1t1=$(now)
hnt0=$(now); hyperfine -N --runs $((2 * RUNS)) --warmup 0 true >/dev/null 2>&1; hnt1=$(now)
theirs=$(calc "($(elapsed "$hnt0" "$hnt1") - $(elapsed "$h1t0" "$h1t1")) / (2 * $RUNS - 4)")
printf 'cost per run of true: git campaign ab %.3f ms, hyperfine -N %.3f ms, ratio %.2f (target <= 1.2)\n' \
	"$(calc "$ours * 1000")" "$(calc "$theirs * 1000")" \
	"$(calc "$ours / $theirs")"

# --- 2. three A/Bs: stash mode against worktree mode -------------------
make_project() {
	rm -rf "$WORK/p"
	git init -q "$WORK/p"
	cd "$WORK/p"
	cat >prog.c <<-'EOF'
		#include <stdlib.h>
		volatile double sink;
		int main(int argc, char **argv)
		{
			long n = argc > 1 ? atol(argv[1]) : 100000;
			for (long i = 0; i < n; i++)
				sink += i * 0.5;
			return 0;
		}
	EOF
	cat >build.sh <<-'EOF'
		cc -O1 -o prog prog.c && sleep 0.3 && echo build >>"$HOME/builds"
	EOF
	printf 'prog\n' >.gitignore
	git add .
	git commit -q -m base
	git campaign init bench --base main >/dev/null
	sed -i 's/i \* 0.5/i * 0.25/' prog.c
}
three() {
	local mode=$1 t0 t1 i
	make_project
	: >"$HOME/builds"
	t0=$(now)
	for i in 1 2 3; do
		git campaign ab --mode "$mode" --build 'sh build.sh' \
			--run './prog 200000' -n 5 --json >/dev/null
	done
	t1=$(now)
	printf '%-8s 3 A/Bs: %6.2f s, %d builds\n' "$mode" \
		"$(elapsed "$t0" "$t1")" "$(wc -l <"$HOME/builds")"
}
three stash
three worktree
