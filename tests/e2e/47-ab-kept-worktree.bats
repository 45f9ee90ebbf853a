#!/usr/bin/env bats
# An A/B in worktree mode killed while it updated A's kept worktree leaves
# git's index.lock there: only our runs write that worktree, so the next
# A/B removes the lock and runs (REL-6).

load helper

setup() {
	setup_world
	make_repo r
	cd r
	printf '#!/bin/sh\necho "time: $((1000 + $1))"\n' >prog.in
	printf 'cp prog.in prog && chmod +x prog\n' >build.sh
	printf 'prog\n' >.gitignore
	git add . && git commit -qm base
	git branch develop
	git campaign init demo --base main >/dev/null
	sed -i 's/1000/900/' prog.in
}

ab() {
	run --separate-stderr git campaign ab --mode worktree --build 'sh build.sh' \
		--run './prog 100' --metric 're:time: ([0-9]+);unit=us' -n 2
}

@test "an A/B in worktree mode runs past an index.lock a killed run left in its kept worktree" {
	ab
	assert_success
	git stash -q
	git commit --allow-empty -qm 'base moves'
	git stash pop -q
	kept=$(dirname .git/campaign/worktrees/*/.git)
	admin=$(sed -n 's/^gitdir: //p' "$kept/.git")
	[ -d "$admin" ] || fail "no kept worktree: $admin"
	touch "$admin/index.lock"
	ab
	assert_success
	[ ! -e "$admin/index.lock" ] || fail "the lock is left"
	[ "$(git -C "$kept" rev-parse HEAD)" = "$(git rev-parse HEAD)" ] ||
		fail "the kept worktree is not at HEAD"
	run git campaign status
	assert_output --partial "unfinished none"
}
