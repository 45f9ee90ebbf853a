#!/usr/bin/env bats
# The hot path of a stack: status and the pre-push hook tell which branches
# need a restack from the object files, spawning no git for it, and agree
# with `git merge-base --is-ancestor` on loose and packed histories.

load helper
load stack_helper

# spy_git: git on PATH becomes a script that logs each call to $SPY_LOG,
# then runs the real git ($REAL_GIT). The tool is then run as git-campaign,
# not through git, which would put its own folder first on PATH.
spy_git() {
	local real
	real=$(command -v git)
	REAL_GIT=$real
	mkdir -p "$BATS_TEST_TMPDIR/spy"
	SPY_LOG="$BATS_TEST_TMPDIR/spy.log"
	: >"$SPY_LOG"
	cat >"$BATS_TEST_TMPDIR/spy/git" <<EOF
#!/bin/sh
printf '%s\n' "\$*" >>'$SPY_LOG'
exec '$real' "\$@"
EOF
	chmod +x "$BATS_TEST_TMPDIR/spy/git"
	export PATH="$BATS_TEST_TMPDIR/spy:$PATH"
}

# expected BRANCH: "True" when git says BRANCH no longer holds its
# parent's tip (it needs a restack), else "False"
expected() {
	local parent
	parent=$("${REAL_GIT:-git}" config "branch.$1.campaignParent")
	if "${REAL_GIT:-git}" merge-base --is-ancestor "$parent" "$1"; then
		echo False
	else
		echo True
	fi
}

# status_says BRANCH: needs_restack of BRANCH in status --json
status_says() {
	git-campaign status --json | python3 -c 'import json,sys; print([s["needs_restack"] for s in json.load(sys.stdin)["stack"] if s["branch"] == sys.argv[1]][0])' "$1"
}

# a stack s1 <- s2 <- s3 <- s4 where s1 got a new commit: s2 needs a
# restack, s3 and s4 do not
moved_stack() {
	make_stack 4
	git checkout -q s1
	commit a s1-three 's1 three'
	git checkout -q s4
}

@test "status tells which stacked branches need a restack without spawning git merge-base" {
	moved_stack
	spy_git
	run --separate-stderr git-campaign status --short
	assert_success
	assert_output --partial ' restack:1'
	run grep -c 'merge-base' "$SPY_LOG"
	assert_output 0
	for b in s1 s2 s3 s4; do
		[ "$(status_says "$b")" = "$(expected "$b")" ]
	done
	[ "$(status_says s2)" = True ]
}

@test "status gives git's answers from a packed history, with commits stored as deltas" {
	moved_stack
	git repack -q -a -d -f --depth=50 --window=50
	[ -z "$(find .git/objects -path '*/pack' -prune -o -type f -name '[0-9a-f]*' -print)" ]
	commit b s4-two 's4 two' # one loose commit on packed ones
	spy_git
	for b in s1 s2 s3 s4; do
		[ "$(status_says "$b")" = "$(expected "$b")" ]
	done
	run grep -c 'merge-base' "$SPY_LOG"
	assert_output 0
}

@test "the pre-push hook refuses a branch that needs a restack without spawning git merge-base" {
	moved_stack
	spy_git
	local zero=0000000000000000000000000000000000000000
	run --separate-stderr git-campaign-hook pre-push origin url \
		<<<"refs/heads/s2 $(git rev-parse s2) refs/heads/s2 $zero"
	assert_failure 1
	[[ $stderr == *"error: 's2' needs a restack: its parent 's1' moved since 's2' was based on it"* ]]
	run --separate-stderr git-campaign-hook pre-push origin url \
		<<<"refs/heads/s3 $(git rev-parse s3) refs/heads/s3 $zero"
	assert_success
	run grep -c 'merge-base' "$SPY_LOG"
	assert_output 0
}

@test "a shallow history is left to git, which knows where it was cut" {
	moved_stack
	git rev-parse s1~1 >.git/shallow
	spy_git
	[ "$(status_says s2)" = True ]
	run grep -c 'merge-base' "$SPY_LOG"
	refute_output 0
}
