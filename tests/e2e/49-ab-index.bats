#!/usr/bin/env bats
# git campaign ab in stash and artifact modes: the index and the working
# tree come back exactly as they were (staged, unstaged, staged and then
# modified, a staged new file, deletions staged or not, untracked files),
# on success, on every stopping signal and after kill -9 with --abort or
# --continue. Both are compared by their tree ids, as git computes them.

load helper
load records_helper

METRIC='re:time: ([0-9]+);unit=us'

setup() {
	setup_world
	git init -q p
	cd p
	write_prog prog.in 1000 10
	# SIG_AT=ARM makes the build of that arm send $SIG to the harness
	cat >build.sh <<-'EOF'
		mkdir -p dist && cp prog.in dist/prog && chmod +x dist/prog
		cp prog.in prog && chmod +x prog
		if [ -n "${SIG_AT:-}" ] && [ "$GIT_CAMPAIGN_ARM" = "$SIG_AT" ]; then
			kill -s "$SIG" "$PPID"
		fi
	EOF
	printf 'prog\ndist/\n.runs\n.sigruns\nsig\n' >.gitignore
	printf 'base\n' >s.txt
	printf 'base\n' >mm.txt
	printf 'base\n' >gone-staged.txt
	printf 'base\n' >gone-unstaged.txt
	git add .
	git commit -q -m base
	git campaign init demo --base main >/dev/null
	# an ignored control that sends $SIG to the harness on A's first run
	# after its own first
	cat >sig <<-'EOF'
		#!/bin/sh
		n=$(cat .sigruns 2>/dev/null || echo 0); n=$((n + 1)); echo $n >.sigruns
		if [ "$GIT_CAMPAIGN_ARM" = A ] && [ "$n" -ge 2 ] && [ -n "${SIG:-}" ]; then
			kill -s "$SIG" "$PPID"
		fi
		echo 'time: 1'
	EOF
	chmod +x sig
	# every kind of local state there is
	write_prog prog.in 1000 9
	printf 'staged\n' >>s.txt && git add s.txt
	printf 'staged\n' >>mm.txt && git add mm.txt && printf 'unstaged\n' >>mm.txt
	printf 'new\n' >new.txt && git add new.txt
	printf 'untracked\n' >u.txt
	git rm -q gone-staged.txt
	rm gone-unstaged.txt
	snapshot >"$WORLD/before"
	grep -qx 'MM mm.txt' "$WORLD/before" || fail "$(cat "$WORLD/before")"
}

# snapshot: the index's tree, the working tree's tree (untracked files
# included, ignored ones not) and git's own status
snapshot() {
	git write-tree
	cp .git/index "$WORLD/tmp-index"
	GIT_INDEX_FILE="$WORLD/tmp-index" git add -A
	GIT_INDEX_FILE="$WORLD/tmp-index" git write-tree
	git status --porcelain
}

# assert_as_before WHAT: the index and the working tree are as before the
# A/B, and no stash or unfinished operation is left
assert_as_before() {
	snapshot >"$WORLD/after"
	diff "$WORLD/before" "$WORLD/after" >&2 ||
		fail "$1: the index or the working tree changed"
	[ -z "$(git for-each-ref refs/campaign/stash/)" ] || fail "$1: stash left"
	run git campaign status
	assert_line 'unfinished none'
}

ab_mode() {
	local mode=$1
	shift
	if [ "$mode" = artifact ]; then
		run --separate-stderr git campaign ab --mode artifact \
			--artifact dist --build 'sh build.sh' \
			--run '{artifact}/prog 100' --metric "$METRIC" "$@"
	else
		run --separate-stderr git campaign ab --mode stash \
			--build 'sh build.sh' --run './prog 100' \
			--metric "$METRIC" "$@"
	fi
}

@test "stash mode gives back the index exactly, a file both staged and modified included" {
	ab_mode stash -n 5
	[ "$status" -eq 0 ] || fail "exit $status: $stderr"
	assert_line --regexp '\| faster \|$'
	assert_as_before "success"
}

@test "artifact mode gives back the index exactly, a file both staged and modified included" {
	ab_mode artifact -n 5
	[ "$status" -eq 0 ] || fail "exit $status: $stderr"
	assert_line --regexp '\| faster \|$'
	assert_as_before "success"
}

@test "SIGINT, SIGTERM, SIGHUP and SIGQUIT during A's build put the index and the working tree back, in both modes" {
	local mode sig n
	for mode in stash artifact; do
		for sig in INT TERM HUP QUIT; do
			rm -rf .git/campaign/builds
			SIG_AT=A SIG=$sig ab_mode "$mode" -n 5
			n=$(kill -l "$sig")
			assert_fatal "interrupted by signal $n"
			assert_as_before "$mode, SIG$sig"
		done
	done
}

@test "SIGINT, SIGTERM, SIGHUP and SIGQUIT during A's runs put the index and the working tree back, in both modes" {
	local mode sig n
	for mode in stash artifact; do
		for sig in INT TERM HUP QUIT; do
			rm -f .sigruns
			SIG=$sig ab_mode "$mode" -n 5 --control ./sig
			n=$(kill -l "$sig")
			assert_fatal "interrupted by signal $n"
			assert_as_before "$mode, SIG$sig"
		done
	done
}

@test "kill -9 at every step of stash mode, then --abort, gives back the index exactly" {
	local step
	for step in stash build-A measure-A restore build-B measure-B; do
		GIT_CAMPAIGN_TEST_KILL_AT=$step ab_mode stash -n 5
		[ "$status" -eq 137 ] || fail "$step: exit $status, $stderr"
		run --separate-stderr git campaign ab --abort
		[ "$status" -eq 0 ] || fail "$step: abort exit $status: $stderr"
		assert_as_before "kill at $step, --abort"
	done
}

@test "kill -9 at every step of artifact mode, then --abort, gives back the index exactly" {
	local step
	for step in stash build-A restore build-B measure; do
		rm -rf .git/campaign/builds
		GIT_CAMPAIGN_TEST_KILL_AT=$step ab_mode artifact -n 5
		[ "$status" -eq 137 ] || fail "$step: exit $status, $stderr"
		run --separate-stderr git campaign ab --abort
		[ "$status" -eq 0 ] || fail "$step: abort exit $status: $stderr"
		assert_as_before "kill at $step, --abort"
	done
}

@test "kill -9 while the change is stashed, then --continue, runs the A/B again and gives back the index exactly" {
	local mode
	for mode in stash artifact; do
		rm -rf .git/campaign/builds
		GIT_CAMPAIGN_TEST_KILL_AT=build-A ab_mode "$mode" -n 5
		[ "$status" -eq 137 ] || fail "$mode: exit $status, $stderr"
		run --separate-stderr git campaign ab --continue
		[ "$status" -eq 0 ] || fail "$mode: exit $status: $stderr"
		assert_line --regexp '\| faster \|$'
		assert_as_before "$mode, kill at build-A, --continue"
	done
}

@test "a hangup of the whole session during a stash-mode A/B puts the change back and ends the A/B" {
	command -v setsid >/dev/null || skip "setsid (util-linux) is not installed"
	rm -f .sigruns
	# the control tells when A's runs have begun, then waits for the
	# hangup (which the whole session gets) instead of signalling
	sed -i 's/kill -s "$SIG" "$PPID"/: >started; sleep 30/' sig
	# git-campaign itself: the git wrapper dies of the signal it passes on
	SIG=x setsid git-campaign ab --mode stash --build 'sh build.sh' \
		--run './prog 100' --metric "$METRIC" -n 20 \
		--control ./sig >/dev/null 2>"$WORLD/err" &
	local pid=$! i=0
	while [ ! -e started ] && [ $((i += 1)) -lt 400 ]; do sleep 0.05; done
	[ -e started ] || fail "the A/B never reached A's runs"
	rm started
	kill -HUP -- "-$pid"
	local rc=0
	wait "$pid" || rc=$?
	[ "$rc" -eq 128 ] || fail "exit $rc (129 is death by SIGHUP): $(cat "$WORLD/err")"
	grep -qx 'fatal: interrupted by signal 1' "$WORLD/err" || fail "$(cat "$WORLD/err")"
	assert_as_before "SIGHUP to the session"
}
