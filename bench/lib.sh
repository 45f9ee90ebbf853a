# Shared by the benchmarks: a world of its own (every bench), the timing of
# a command by medians (ab-note.sh, measure.sh, report.sh), and a
# repository of COMMITS commits with PER records each in
# refs/notes/campaign, both made with git fast-import (measure.sh,
# report.sh).
# shellcheck shell=bash

die() {
	echo "fatal: $*" >&2
	exit 128
}
say() {
	echo "bench: $*" >&2
}
now_ns() { date +%s%N; }

# bench_world BIN_DIR: a temporary HOME, fixed identities, the binary
# copied first on PATH; $TMP is the folder (removed at exit)
bench_world() {
	[ -x "$1/git-campaign" ] ||
		die "no executable '$1/git-campaign'; run 'make' first"
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
	cp "$1/git-campaign" "$TMP/bin/git-campaign"
	export PATH="$TMP/bin:$PATH"
	unset GIT_DIR GIT_WORK_TREE GIT_CAMPAIGN_DB GIT_CAMPAIGN_TRACE \
		GIT_CONFIG_PARAMETERS GIT_CONFIG_COUNT
}

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

# make_history DIR COMMITS PER: a campaign repository at DIR with COMMITS
# commits on main, each holding PER records (metrics m0..m4, a slow sine
# with a step at the middle and a little noise, this machine's env) in
# refs/notes/campaign; the shell is left in DIR
make_history() {
	local repo=$1 commits=$2 per=$3 env warm
	git init -q -b main "$repo"
	cd "$repo"
	say "generating $commits commits with fast-import"
	awk -v n="$commits" 'BEGIN {
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
	say "generating $((commits * per)) records in notes with fast-import"
	awk -v n="$commits" -v per="$per" -v env="$env" -v warm="$warm" 'BEGIN {
		srand(1)
		print "commit refs/notes/campaign"
		print "committer C O Mitter <c@example.com> 1800000000 +0000"
		print "data 15\nbench records\n"
		print "from refs/notes/campaign^0"
		for (i = 1; i <= n; i++) {
			note = (i == n) ? warm "\n" : ""
			for (k = 0; k < per; k++) {
				note = note sprintf("{\"v\":1,\"run\":\"%08x%08x\",\"metric\":\"m%d\",\"value\":%.3f,\"unit\":\"ns\",\"better\":\"lower\",\"stat\":\"median\",\"n\":1,\"env\":\"%s\",\"config\":{\"profiler\":\"off\"},\"source\":\"bench\",\"at\":\"2026-11-29T00:00:00Z\"}\n",
					i, k, k % 5, 1000 + 100 * sin(i / 500.0) + (i > n / 2 ? 50 : 0) + rand() * 10, env)
			}
			printf "N inline :%d\ndata %d\n%s\n", i, length(note), note
		}
	}' | git fast-import --quiet --import-marks="$TMP/marks"
}
