#!/bin/bash
# The crash-point harness: runs a command of git-campaign again and again,
# killed (SIGKILL) at the n-th system call of a kind through Debian's strace
# (-e inject=SYSCALL:signal=KILL:when=N) for every N up to the command's total
# (or an even sample of them), and at random instants, then checks what must
# survive any kill, and prints a table per command: tries, survived.
#
# usage: tests/crash/crash.sh [-f FILES] [-k KINDS] [-n POINTS] [-t TIMED]
#                             [-s SEED] [-v] [SCENARIO...]
#   -f FILES   tracked files in the stash worlds (default 200)
#   -k KINDS   the system calls to kill at (default "openat rename write")
#   -n POINTS  kill points per system call kind (0: every one; default 0)
#   -t TIMED   random timed kills per scenario (default 30)
#   -v         print each failure's state
# Scenarios: stash-save stash-pop stash-apply measure-add measure-batch
# measure-import sync ab-stash ab-worktree restack submit init (default:
# all; submit runs against tests/fakehub on 127.0.0.1). BIN_DIR names the
# build folder.
# Exit 0 when every try survived, 1 otherwise, 2 when strace is missing.
#
# Survived means, after the kill and after what a user does next (the
# scenario's "finish": re-running a single-verb command, as its hint says):
# every commit, stash, index state and note line that existed before is
# reachable; the working tree and the index are the old state or the new
# one; the notes hold the old lines or the old and all the new ones, and the
# index agrees with them; `PRAGMA integrity_check` is ok; `status` works.
set -u

POINTS=0 TIMED=30 SEED=$$ VERBOSE= NFILES=200 KINDS="openat rename write"
while getopts f:k:n:t:s:v o; do
	case $o in
	f) NFILES=$OPTARG ;;
	k) KINDS=$OPTARG ;;
	n) POINTS=$OPTARG ;;
	t) TIMED=$OPTARG ;;
	s) SEED=$OPTARG ;;
	v) VERBOSE=1 ;;
	*) exit 129 ;;
	esac
done
shift $((OPTIND - 1))
SCENARIOS=${*:-stash-save stash-pop stash-apply measure-add measure-batch measure-import sync ab-stash ab-worktree restack submit init}
RANDOM=$SEED

: "${BIN_DIR:?BIN_DIR must name the build folder}"
SRC_DIR=$(cd "$(dirname "$0")/../.." && pwd)
command -v strace >/dev/null || {
	echo "crash: strace is missing (Debian package strace)" >&2
	exit 2
}
command -v sqlite3 >/dev/null || {
	echo "crash: sqlite3 is missing" >&2
	exit 2
}

TOP=$(mktemp -d "${TMPDIR:-/tmp}/gcamp-crash.XXXXXX")
trap '[ -n "${FAKEHUB_PID:-}" ] && kill "$FAKEHUB_PID" 2>/dev/null; rm -rf "$TOP"' EXIT
export HOME=$TOP/home GIT_CONFIG_NOSYSTEM=1 TZ=UTC LANG=C LC_ALL=C
export GIT_AUTHOR_NAME=A GIT_AUTHOR_EMAIL=a@example.com
export GIT_COMMITTER_NAME=C GIT_COMMITTER_EMAIL=c@example.com
export GIT_AUTHOR_DATE=2026-11-29T12:00:00Z
export GIT_COMMITTER_DATE=2026-11-29T12:00:00Z
export PATH="$BIN_DIR:$PATH"
unset GIT_DIR GIT_WORK_TREE GIT_CAMPAIGN_DB GIT_CAMPAIGN_TRACE
mkdir -p "$HOME"
git config --global init.defaultBranch main
git config --global advice.detachedHead false

# --- worlds: one prepared per scenario, copied for each try -------------

new_repo() {
	git init -q "$1"
	(cd "$1" && git commit -q --allow-empty -m first && git branch develop &&
		git campaign init demo >/dev/null)
}

# files DIR N: N tracked files, committed
files() {
	local i
	mkdir -p "$1/f"
	for i in $(seq -w 1 "$2"); do echo "$i" >"$1/f/$i.txt"; done
	(cd "$1" && git add f && git commit -qm files)
}

# change DIR: modifies the tracked files, adds untracked ones
change() {
	local f i
	for f in "$1"/f/*.txt; do echo changed >>"$f"; done
	mkdir -p "$1/u"
	for i in $(seq -w 1 20); do echo "u$i" >"$1/u/$i.txt"; done
}

prepare() {
	local w=$TOP/$1/world
	mkdir -p "$w"
	case $1 in
	stash-save)
		new_repo "$w/r"
		files "$w/r" "$NFILES"
		change "$w/r"
		CMD=(git campaign stash save s -u)
		;;
	stash-pop | stash-apply)
		new_repo "$w/r"
		files "$w/r" "$NFILES"
		change "$w/r"
		(cd "$w/r" && git campaign stash save s -u >/dev/null)
		CMD=(git campaign stash "${1#stash-}" s)
		;;
	measure-add)
		new_repo "$w/r"
		(cd "$w/r" && git campaign measure add m0 1 >/dev/null)
		CMD=(git campaign measure add m1 2)
		;;
	measure-batch)
		new_repo "$w/r"
		(cd "$w/r" && git campaign measure add m0 1 >/dev/null)
		seq 500 | sed 's/.*/{"metric":"b&","value":&}/' >"$w/b.jsonl"
		CMD=(git campaign measure add --batch ../b.jsonl)
		;;
	measure-import)
		new_repo "$w/r"
		(cd "$w/r" && git campaign measure add m0 1 >/dev/null)
		cp "$SRC_DIR/tests/fixtures/hyperfine/scan-parameter.json" "$w/h.json"
		CMD=(git campaign measure import ../h.json)
		;;
	ab-stash | ab-worktree)
		new_repo "$w/r"
		(cd "$w/r" &&
			printf '#!/bin/sh\necho "time: $((1000 + $1))"\n' >prog.in &&
			printf 'cp prog.in prog && chmod +x prog\n' >build.sh &&
			printf 'prog\n' >.gitignore && files . 20 >/dev/null &&
			git add . && git commit -qm prog &&
			sed -i 's/1000/900/' prog.in && change .)
		CMD=(git campaign ab --mode "${1#ab-}" --build 'sh build.sh'
			--run './prog 100' --metric 're:time: ([0-9]+);unit=us' -n 2)
		;;
	restack)
		new_repo "$w/r"
		(cd "$w/r" && git checkout -q develop &&
			for b in s1 s2 s3 s4; do
				git campaign stack new "$b" >/dev/null &&
					echo "$b" >>"${b#s}x" && git add . &&
					git commit -qm "$b" || exit 1
			done &&
			git checkout -q s2 && echo amended >>2x &&
			git commit -qa --amend -m 's2 amended')
		CMD=(git campaign stack restack --all)
		;;
	submit)
		git init -q --bare "$w/remote.git"
		new_repo "$w/r"
		(cd "$w/r" && git remote add origin ../remote.git &&
			git push -q origin develop &&
			git config campaign.forge o/r && git checkout -q develop &&
			for b in s1 s2 s3; do
				git campaign stack new "$b" >/dev/null &&
					echo "$b" >>"${b#s}x" && git add . &&
					git commit -qm "$b" || exit 1
			done)
		CMD=(git campaign stack submit)
		;;
	init)
		git init -q "$w/r"
		(cd "$w/r" && git commit -q --allow-empty -m first &&
			git branch develop)
		CMD=(git campaign init demo)
		;;
	sync)
		git init -q --bare "$w/remote.git"
		new_repo "$w/r"
		new_repo "$w/o"
		(cd "$w/o" && git remote add origin ../remote.git &&
			git push -q origin main develop &&
			for i in $(seq 30); do git campaign measure add "o$i" "$i" >/dev/null; done &&
			git campaign sync >/dev/null 2>&1)
		(cd "$w/r" && git remote add origin ../remote.git &&
			git fetch -q origin && git reset -q --hard origin/main &&
			for i in $(seq 30); do git campaign measure add "r$i" "$i" >/dev/null; done)
		CMD=(git campaign sync)
		;;
	esac
}

# finish: what a user does after the kill; may fail
finish() {
	local cmd
	# the bare remote's receive-pack runs under strace too and stands for
	# the server: a lock a kill leaves there is the server's to clean (as
	# GitHub does), not ours
	case $1 in sync | submit) find ../remote.git -name '*.lock' -delete 2>/dev/null ;; esac
	# then what status says finishes an unfinished operation
	cmd=$(git campaign status 2>/dev/null | sed -n 's/^ *finish it: //p' | head -1)
	case $cmd in
	"git campaign "*) $cmd >/dev/null 2>&1 ;;
	esac
	case $1 in
	stash-pop | stash-apply)
		if git show-ref -q "refs/campaign/stash/s" && ! done_state; then
			git campaign stash "${1#stash-}" s >/dev/null 2>&1
		fi
		;;
	sync) git campaign sync >/dev/null 2>&1 ;;
	submit) fakehub_ok || git campaign stack submit >/dev/null 2>&1 ;;
	init) git campaign status >/dev/null 2>&1 ||
		git campaign init demo >/dev/null 2>&1 ;;
	esac
	return 0
}

# --- the fake GitHub, for submit ------------------------------------------

FAKEHUB_PID=
start_fakehub() {
	[ -n "$FAKEHUB_PID" ] && return 0
	python3 "$SRC_DIR/tests/fakehub/fakehub.py" --port-file "$TOP/port" \
		--token tok >"$TOP/fakehub.log" 2>&1 &
	FAKEHUB_PID=$!
	for _ in $(seq 300); do [ -s "$TOP/port" ] && break; sleep 0.1; done
	export GIT_CAMPAIGN_API_URL=http://127.0.0.1:$(cat "$TOP/port") GH_TOKEN=tok
	export GIT_CAMPAIGN_WRITE_GAP_MS=0 GIT_CAMPAIGN_BACKOFF_MS=10
	export GIT_CAMPAIGN_SECONDARY_WAIT=1 GIT_TERMINAL_PROMPT=0
}

fh_post() {
	curl -s -d "$2" "$GIT_CAMPAIGN_API_URL/__fake/$1" >/dev/null
}

# the fake's open PRs, "head base" a line, sorted
fakehub_prs() {
	curl -s "$GIT_CAMPAIGN_API_URL/__fake/state?repo=o/r" |
		jq -r '.pulls[] | select(.state == "open") | "\(.head.ref) \(.base.ref)"' | sort
}

# 0 when the fake holds exactly the PRs of the uninterrupted run
fakehub_ok() {
	[ "$(fakehub_prs)" = "$(cat "$NEW/prs" 2>/dev/null)" ]
}

# a fresh fake repository before each try of submit
fakehub_fresh() {
	fh_post reset '{}'
	fh_post seed '{"repo":"o/r"}'
}

# --- state ---------------------------------------------------------------

# the work tree (tracked, untracked, not ignored) as a tree id
wt_tree() {
	local idx=$TOP/wt-index
	rm -f "$idx"
	GIT_INDEX_FILE=$idx git add -A . >/dev/null 2>&1
	GIT_INDEX_FILE=$idx git write-tree 2>/dev/null
}

index_tree() {
	git write-tree 2>/dev/null || echo none
}

# every note line of refs/notes/campaign, sorted
note_lines() {
	git notes --ref campaign list 2>/dev/null | while read -r blob _; do
		git cat-file blob "$blob"
	done | grep -v '^$' | sort
}

snapshot() { # DIR: facts in DIR/
	mkdir -p "$1"
	git for-each-ref --format='%(objectname) %(refname)' >"$1/refs"
	note_lines >"$1/notes"
	wt_tree >"$1/wt"
	index_tree >"$1/index"
}

# done_state: the work tree is the new one (set by the reference run)
done_state() {
	[ "$(wt_tree)" = "$(cat "$NEW/wt")" ]
}

# check OLD SCENARIO: the invariants; sets FAILURE to what broke, returns 1
check() {
	local old=$1 why= id ref
	while read -r id ref; do
		git cat-file -e "$id" 2>/dev/null || why+="lost $ref; "
		case $ref in refs/campaign/stash/*) ;; *) continue ;; esac
		# a stash (even a dropped one) stays reachable
		git rev-list --all --reflog 2>/dev/null | grep -qx "$id" ||
			why+="stash $ref unreachable; "
	done <"$old/refs"
	note_lines >"$TOP/now-notes"
	comm -23 "$old/notes" "$TOP/now-notes" | grep -q . &&
		why+="note lines lost; "
	local nold nnow nnew
	nold=$(wc -l <"$old/notes") nnow=$(wc -l <"$TOP/now-notes")
	nnew=$(wc -l <"$NEW/notes")
	[ "$nnow" -eq "$nold" ] || [ "$nnow" -eq "$nnew" ] ||
		why+="notes half written ($nold, $nnow of $nnew); "
	git campaign status >/dev/null 2>"$TOP/status.err" ||
		why+="status fails: $(head -1 "$TOP/status.err"); "
	# any reader brings the index to the notes
	git campaign measure show >/dev/null 2>&1
	git campaign measure log m0 >/dev/null 2>&1
	local db=.git/campaign/campaign.db rows
	if [ -f "$db" ]; then
		[ "$(sqlite3 "$db" 'PRAGMA integrity_check' 2>&1)" = ok ] ||
			why+="integrity_check fails; "
		rows=$(sqlite3 "$db" 'SELECT count(*) FROM measurement' 2>/dev/null)
		[ "$rows" = "$nnow" ] || why+="index has $rows rows for $nnow lines; "
	fi
	local wt ix
	wt=$(wt_tree) ix=$(index_tree)
	[ "$wt" = "$(cat "$old/wt")" ] || [ "$wt" = "$(cat "$NEW/wt")" ] ||
		why+="work tree neither old nor new; "
	[ "$ix" = "$(cat "$old/index")" ] || [ "$ix" = "$(cat "$NEW/index")" ] ||
		why+="index neither old nor new; "
	# a lock the killed run left is the next run's to clear: the next
	# writer of the notes works, and no other lock is left
	git campaign measure add next 1 >/dev/null 2>"$TOP/next.err" ||
		why+="the next measure add fails: $(head -1 "$TOP/next.err"); "
	case $2 in
	stash-*)
		echo next >next.txt
		git campaign stash save next -u >/dev/null 2>"$TOP/next.err" ||
			why+="the next stash save fails: $(head -1 "$TOP/next.err"); "
		;;
	esac
	case $2 in
	restack)
		git for-each-ref --format='%(objectname) %(refname)' refs/heads >"$TOP/now-heads"
		grep ' refs/heads/' "$old/refs" | cmp -s - "$TOP/now-heads" ||
			grep ' refs/heads/' "$NEW/refs" | cmp -s - "$TOP/now-heads" ||
			why+="branches neither all old nor all new; "
		;;
	submit)
		fakehub_ok || why+="PRs on the forge: $(fakehub_prs | tr '\n' ';') not the stack's; "
		;;
	esac
	git campaign status 2>/dev/null | grep -q '^unfinished none' ||
		why+="status names an unfinished operation; "
	find .git -name '*.lock' | grep -q . && why+="lock left: $(find .git -name '*.lock' | head -1); "
	[ -z "$why" ] && return 0
	FAILURE=$why
	return 1
}

# --- the runs ------------------------------------------------------------

# try WORLD KIND N|timed:SECONDS: one kill; 0 when it survived
try() {
	local scen=$1 how=$2 dir=$TOP/$scen/try
	rm -rf "$dir"
	cp -a "$TOP/$scen/world" "$dir"
	cd "$dir/r" || return 1
	[ "$scen" = submit ] && fakehub_fresh
	local old=$TOP/$scen/old
	case $how in
	timed:*)
		setsid "${CMD[@]}" >/dev/null 2>&1 &
		local pid=$!
		sleep "${how#timed:}"
		kill -KILL -- "-$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
		;;
	*)
		# in a subshell, so that bash's "Killed" goes nowhere
		(strace -f -qq -o /dev/null -e trace="${how%:*}" \
			-e inject="${how%:*}:signal=KILL:when=${how#*:}" \
			"${CMD[@]}"
		:) >/dev/null 2>&1
		;;
	esac
	finish "$scen"
	FAILURE=
	check "$old" "$scen"
	local rc=$?
	cd "$TOP"
	return $rc
}

FAILED=0
printf '%-16s %-8s %6s %9s\n' command kill tries survived
for scen in $SCENARIOS; do
	CMD=()
	if [ "$scen" = submit ]; then
		command -v jq >/dev/null && command -v curl >/dev/null || {
			echo "crash: submit needs jq and curl" >&2
			continue
		}
		start_fakehub
	fi
	prepare "$scen"
	# the facts before, and after an uninterrupted run
	(cd "$TOP/$scen/world/r" && snapshot "$TOP/$scen/old")
	rm -rf "$TOP/$scen/ref"
	cp -a "$TOP/$scen/world" "$TOP/$scen/ref"
	NEW=$TOP/$scen/new
	start=$(date +%s%N)
	[ "$scen" = submit ] && fakehub_fresh
	(cd "$TOP/$scen/ref/r" && "${CMD[@]}" >/dev/null 2>&1 && snapshot "$NEW" &&
		{ [ "$scen" != submit ] || fakehub_prs >"$NEW/prs"; }) || {
		echo "crash: $scen: the uninterrupted run fails" >&2
		FAILED=1
		continue
	}
	took=$((($(date +%s%N) - start) / 1000000))
	for kind in $KINDS; do
		# counted on a fresh copy of the world, as each try runs
		rm -rf "$TOP/$scen/count"
		cp -a "$TOP/$scen/world" "$TOP/$scen/count"
		[ "$scen" = submit ] && fakehub_fresh
		(cd "$TOP/$scen/count/r" && strace -f -qq -o "$TOP/trace" \
			-e trace="$kind" "${CMD[@]}" >/dev/null 2>&1)
		total=$(grep -c "$kind(" "$TOP/trace")
		rm -rf "$TOP/$scen/count"
		[ "$total" -gt 0 ] || continue
		points=$(seq 1 "$total")
		if [ "$POINTS" -gt 0 ] && [ "$total" -gt "$POINTS" ]; then
			points=$(awk -v t="$total" -v n="$POINTS" 'BEGIN {
				for (i = 0; i < n; i++) print int(1 + i * (t - 1) / (n - 1)) }' | uniq)
		fi
		tries=0 ok=0
		for n in $points; do
			tries=$((tries + 1))
			if try "$scen" "$kind:$n"; then
				ok=$((ok + 1))
			else
				FAILED=1
				[ -n "$VERBOSE" ] && echo "  $scen $kind:$n: $FAILURE" >&2
			fi
		done
		printf '%-16s %-8s %6d %9d\n' "$scen" "$kind/$total" "$tries" "$ok"
	done
	tries=0 ok=0
	for _ in $(seq 1 "$TIMED"); do
		# uniform over 1.1 x the uninterrupted run
		at=$(awk -v ms="$took" -v r="$RANDOM" 'BEGIN { printf "%.3f", ms * 1.1 * r / 32768 / 1000 }')
		tries=$((tries + 1))
		if try "$scen" "timed:$at"; then
			ok=$((ok + 1))
		else
			FAILED=1
			[ -n "$VERBOSE" ] && echo "  $scen timed:$at: $FAILURE" >&2
		fi
	done
	[ "$TIMED" -gt 0 ] && printf '%-16s %-8s %6d %9d\n' "$scen" timed "$tries" "$ok"
done
exit $FAILED
