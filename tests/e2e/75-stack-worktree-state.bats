#!/usr/bin/env bats
# The work tree around a restack: an untracked file in the way is refused
# before any ref moves, an abort after stashing as the hint says leaves
# the index and the files together, and git's post-rewrite hook hears of
# the rewritten commits as after git rebase (findings ST-13 and ST-15 of
# the stack review, point 5 of issue 18).

load helper
load stack_helper

# amend_bottom_adding FILE TOP: s1's amend adds FILE, TOP checked out
amend_bottom_adding() {
	git checkout -q s1
	echo probe >"$1"
	git add "$1"
	git commit -q --amend --no-edit
	git checkout -q "$2"
}

# amend_bottom_conflicting: s1's amend edits b's last line, which s2's
# commit follows: s2 conflicts
amend_bottom_conflicting() {
	git checkout -q s1
	sed -i '$s/.*/s1-amend/' b
}

@test "an untracked file in the way of the new tip refuses the restack before any ref moves, naming the file" {
	make_stack 3
	amend_bottom_adding probe.txt s3
	echo mine >probe.txt
	local before
	before=$(snapshot_refs)
	run --separate-stderr git campaign stack restack
	assert_failure 128
	assert_equal "$stderr" "$(printf '%s\n%s' \
		"fatal: untracked files in the work tree of 's3' would be overwritten: probe.txt; nothing was restacked" \
		"hint: move them aside, then run it again")"
	[ "$(snapshot_refs)" = "$before" ] || fail "something moved"
	[ "$(cat probe.txt)" = mine ]
	git diff --quiet HEAD && git diff --cached --quiet HEAD
	run git campaign status
	assert_line 'unfinished none'
	[ -z "$(git for-each-ref refs/campaign/backup)" ] || fail "backups left"
	# moved aside, the restack goes through as git rebase would
	mv probe.txt ../probe.mine
	run --separate-stderr git campaign stack restack
	assert_success
	git merge-base --is-ancestor s1 s3
	[ "$(cat probe.txt)" = probe ]
	[ -z "$(git status --porcelain)" ] || fail "$(git status --porcelain)"
}

@test "an untracked file that already holds the new tip's version is not in the way" {
	make_stack 2
	amend_bottom_adding probe.txt s2
	echo probe >probe.txt
	run --separate-stderr git campaign stack restack
	assert_success
	[ -z "$(git status --porcelain)" ] || fail "$(git status --porcelain)"
}

@test "an untracked file in the way of a conflict: the conflict is listed, the file named, and continue checks it out once moved" {
	make_stack 3
	amend_bottom_conflicting
	echo probe >probe.txt
	git add -A
	git commit -q --amend --no-edit
	git checkout -q s3
	echo mine >probe.txt
	run --separate-stderr git campaign stack restack
	assert_failure 1
	assert_line "the conflict is not checked out: untracked files would be overwritten: probe.txt"
	assert_line --partial "stopped at a conflict in 's2'"
	[ "$(cat probe.txt)" = mine ]
	[ "$(git symbolic-ref HEAD)" = refs/heads/s3 ]
	mv probe.txt ../probe.mine
	run --separate-stderr git campaign stack continue
	assert_failure 1
	assert_line --partial "stopped at a conflict in 's2'"
	[ "$(cat probe.txt)" = probe ]
	git checkout -q --theirs b
	git add b
	run --separate-stderr git campaign stack continue
	assert_success
	[ -z "$(git status --porcelain)" ] || fail "$(git status --porcelain)"
}

@test "abort after stashing as the hint says leaves the index and the work tree agreeing, the stash holding the rest" {
	make_stack 3
	amend_bottom_conflicting
	git commit -qa --amend --no-edit
	echo wip-staged >>d
	git add d
	echo wip-unstaged >>a
	run --separate-stderr git campaign stack restack s1
	assert_failure 1
	assert_output --partial "stopped at a conflict in 's2'"
	git stash -q -u
	run --separate-stderr git campaign stack continue
	assert_failure 1
	run --separate-stderr git campaign stack abort
	assert_success
	[ "$(git symbolic-ref HEAD)" = refs/heads/s1 ]
	[ -z "$(git status --porcelain)" ] ||
		fail "index and work tree apart: $(git status --porcelain)"
	git stash pop -q --index
	run git status --porcelain
	assert_output $' M a\nM  d'
	[ "$(tail -1 d)" = wip-staged ] && [ "$(tail -1 a)" = wip-unstaged ]
}
