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

# twin_rewrite: s1 amended, a twin copy made in ../twin, both with a
# post-rewrite hook that logs its argument and input to $HOOK_LOG
twin_rewrite() {
	local d
	make_stack 3
	OLD=$(git rev-parse s1)
	git checkout -q s1
	sed -i 1s/.*/amended/ a
	git commit -qa --amend --no-edit
	git checkout -q s3
	printf '#!/bin/sh\n{ echo "arg $*"; cat; } >"$HOOK_LOG"\necho hook says hi\n' \
		>.git/hooks/post-rewrite
	chmod +x .git/hooks/post-rewrite
	rm -rf ../twin
	cp -a . ../twin
}

# by_patch LOG: the hook's lines as "arg ..." then "OLD PATCH-ID-OF-NEW",
# sorted
by_patch() {
	local o n
	head -1 "$1"
	tail -n +2 "$1" | while read -r o n; do
		echo "$o $(git show "$n" | git patch-id --stable | cut -d' ' -f1)"
	done | sort
}

@test "restack runs the post-rewrite hook as git rebase --update-refs does: 'rebase', one OLD NEW line per rewritten commit" {
	twin_rewrite
	(cd ../twin && HOOK_LOG=$WORLD/git.log git rebase -q --update-refs --onto s1 "$OLD" s3) >/dev/null 2>&1
	HOOK_LOG=$WORLD/tool.log run --separate-stderr git campaign stack restack
	assert_success
	assert_equal "$stderr" "hook says hi"
	[ -f "$WORLD/tool.log" ] || fail "post-rewrite did not run"
	[ "$(head -1 "$WORLD/tool.log")" = "arg rebase" ]
	[ "$(wc -l <"$WORLD/tool.log")" -eq 3 ] # s2's and s3's commits
	diff <(by_patch "$WORLD/tool.log") <(cd ../twin && by_patch "$WORLD/git.log")
	local n
	for n in $(tail -n +2 "$WORLD/tool.log" | cut -d' ' -f2); do
		git merge-base --is-ancestor "$n" s3
	done
}

# notes_of: the notes of REF on develop..s3, oldest first
notes_of() {
	local c
	for c in $(git rev-list --reverse develop..s3); do
		echo "$(git log -1 --format=%s "$c"): $(git notes --ref="$1" show "$c" 2>/dev/null)"
	done
}

@test "notes are copied from the refs notes.rewriteRef names, and not with notes.rewrite.rebase false, as git rebase copies them" {
	make_stack 3
	local c
	for c in $(git rev-list develop..s3); do
		git notes --ref=campaign add -m "m $c" "$c"
		git notes --ref=review add -m "r $c" "$c"
	done
	git config --add notes.rewriteRef 'refs/notes/rev*'
	OLD=$(git rev-parse s1)
	git checkout -q s1
	sed -i 1s/.*/amended/ a
	git commit -qa --amend --no-edit
	git checkout -q s3
	rm -rf ../twin ../twin2
	cp -a . ../twin
	cp -a . ../twin2
	(cd ../twin && git rebase -q --update-refs --onto s1 "$OLD" s3) >/dev/null 2>&1
	run --separate-stderr git campaign stack restack
	assert_success
	diff <(notes_of review) <(cd ../twin && notes_of review)
	diff <(notes_of campaign) <(cd ../twin && notes_of campaign)
	[ -n "$(notes_of review | grep -E '^s3: r ')" ]
	# notes.rewrite.rebase false: git copies none, and neither does restack
	cd ../twin2
	git config notes.rewrite.rebase false
	cp -a . ../twin3
	(cd ../twin3 && git rebase -q --update-refs --onto s1 "$OLD" s3) >/dev/null 2>&1
	run --separate-stderr git campaign stack restack
	assert_success
	diff <(notes_of review) <(cd ../twin3 && notes_of review)
	diff <(notes_of campaign) <(cd ../twin3 && notes_of campaign)
	[ -z "$(notes_of campaign | grep -E '^s[23]: m ')" ]
}

# amend_bottom_wt2: s2 checked out in ../wt2, s1 amended (a's first
# line), s3 checked out here
amend_bottom_wt2() {
	make_stack 3
	git checkout -q develop
	git worktree add -q ../wt2 s2
	git checkout -q s1
	sed -i 1s/.*/amended/ a
	git commit -qa --amend --no-edit
	git checkout -q s3
}

@test "a stacked branch checked out in another clean work tree is restacked from here: its HEAD, index and files follow, the others untouched" {
	amend_bottom_wt2
	local mtime
	touch -d '2020-01-01 00:00' ../wt2/c
	mtime=$(stat -c %Y ../wt2/c)
	# git's answer, from a twin without the work tree
	rm -rf ../twin
	cp -a . ../twin
	rm -rf ../twin/.git/worktrees
	run --separate-stderr git campaign stack restack
	assert_success
	assert_line --partial 'restacked s2:'
	refute_output --partial left
	git merge-base --is-ancestor s1 s2
	[ "$(git -C ../wt2 symbolic-ref HEAD)" = refs/heads/s2 ]
	git -C ../wt2 diff --quiet s2 || fail "wt2's files differ from s2"
	git -C ../wt2 diff --cached --quiet s2 || fail "wt2's index differs from s2"
	[ -z "$(git -C ../wt2 status --porcelain)" ] || fail "$(git -C ../wt2 status --porcelain)"
	[ "$(head -1 ../wt2/a)" = amended ] || fail "wt2: $(head -1 ../wt2/a)"
	[ "$(stat -c %Y ../wt2/c)" = "$mtime" ] || fail "an unchanged file was rewritten"
	# as git rebase of s2 leaves its files
	(cd ../twin && git rebase -q --onto s1 "s1@{1}" s2) ||
		fail "git rebase failed in the twin"
	[ "$(git rev-parse s2^{tree})" = "$(git -C ../twin rev-parse s2^{tree})" ] ||
		fail "the trees differ"
	diff <(cd ../wt2 && sha256sum a b c d e) <(cd ../twin && sha256sum a b c d e)
}

@test "abort after the refs moved puts the other work tree back with its branch" {
	amend_bottom_wt2
	local before
	before=$(git -C ../wt2 rev-parse HEAD)
	run env GIT_CAMPAIGN_TEST_KILL_AT=checkout git campaign stack restack
	[ "$status" -eq 137 ] || fail "not killed: $status $output"
	[ "$(head -1 ../wt2/a)" = amended ] || fail "wt2 was not updated"
	run --separate-stderr git campaign stack abort
	assert_success
	[ "$(git rev-parse s2)" = "$before" ]
	[ -z "$(git -C ../wt2 status --porcelain)" ] || fail "$(git -C ../wt2 status --porcelain)"
	[ "$(head -1 ../wt2/a)" = 'a 1' ]
	# and continue after a kill before that work tree was written
	run env GIT_CAMPAIGN_TEST_KILL_AT=applied git campaign stack restack
	[ "$status" -eq 137 ] || fail "not killed: $status $output"
	run --separate-stderr git campaign stack continue
	assert_success
	[ -z "$(git -C ../wt2 status --porcelain)" ] || fail "$(git -C ../wt2 status --porcelain)"
	git -C ../wt2 diff --quiet s2
}

@test "a branch checked out in another work tree with changes is left, the reason naming that work tree, and nothing there moves" {
	amend_bottom_wt2
	echo wip >>../wt2/e
	local s2
	s2=$(git rev-parse s2)
	run --separate-stderr git campaign stack restack
	assert_success
	assert_line "left s2: it is checked out in $WORLD/wt2, which has changes ('e'); commit or stash them there, then restack"
	[ "$(git rev-parse s2)" = "$s2" ]
	[ "$(git -C ../wt2 status --porcelain)" = ' M e' ]
	# an untracked file there in the way of the new tip refuses it all
	git -C ../wt2 checkout -q e
	git checkout -q s1
	echo probe >probe.txt
	git add probe.txt
	git commit -q --amend --no-edit
	git checkout -q s3
	echo mine >../wt2/probe.txt
	run --separate-stderr git campaign stack restack
	assert_failure 128
	assert_equal "$(echo "$stderr" | head -1)" \
		"fatal: untracked files in the work tree of 's2' ($WORLD/wt2/) would be overwritten: probe.txt; nothing was restacked"
	[ "$(git rev-parse s2)" = "$s2" ]
	[ "$(cat ../wt2/probe.txt)" = mine ]
}

@test "undo of a restack that moved a branch of another clean work tree puts that work tree back with it" {
	amend_bottom_wt2
	local s2 s3
	s2=$(git rev-parse s2)
	s3=$(git rev-parse s3)
	git campaign stack restack >/dev/null
	[ "$(head -1 ../wt2/a)" = amended ]
	run --separate-stderr git campaign undo
	assert_success
	[ "$(git rev-parse s2 s3)" = "$(printf '%s\n%s' "$s2" "$s3")" ]
	[ -z "$(git -C ../wt2 status --porcelain)" ] || fail "$(git -C ../wt2 status --porcelain)"
	[ "$(head -1 ../wt2/a)" = 'a 1' ]
	[ -z "$(git status --porcelain)" ]
}
