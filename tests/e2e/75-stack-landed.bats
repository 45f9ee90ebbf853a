#!/usr/bin/env bats
# Parents whose work is already elsewhere: a hand-made stack adopted after
# its parent was amended, and parents landed in the base (merged,
# squash-merged, rebase-merged) recognised without the network (findings
# ST-17 and ST-18 of the stack review, point 2 of issue 18).

load helper
load stack_helper

@test "adopt of a hand-made stack whose parent was amended records git's fork point, and restack replays only the child's own commit" {
	git checkout -q -b A develop
	commit d a1 'A: c1'
	commit d a2 'A: c2'
	git checkout -q -b B
	commit c b1 'B: c1'
	local pid
	pid=$(git show B | git patch-id --stable | cut -d' ' -f1)
	git checkout -q A
	sed -i '$s/.*/a2 amended/' d
	git commit -qa --amend --no-edit
	git campaign stack adopt A --on develop
	git campaign stack adopt B --on A
	# git's own answer to where B was forked from A
	[ "$(git config branch.B.campaignParentTip)" = "$(git merge-base --fork-point A B)" ]
	run --separate-stderr git campaign stack show
	assert_success
	assert_line '      B (1 commit, needs restack)'
	git checkout -q B
	run --separate-stderr git campaign stack restack
	assert_success
	assert_line --regexp '^restacked B: [0-9a-f]{7} -> [0-9a-f]{7} \(1 commit\)$'
	[ "$(git rev-list --count A..B)" -eq 1 ]
	[ "$(git show B | git patch-id --stable | cut -d' ' -f1)" = "$pid" ]
	[ "$(tail -1 d)" = 'a2 amended' ]
}

# squash_bottom [EDIT]: s1 squash-merged into develop as GitHub makes it,
# with EDIT (a sed script on a) applied by a reviewer when given
squash_bottom() {
	git checkout -q develop
	git merge -q --squash s1 >/dev/null
	[ -z "${1:-}" ] || sed -i "$1" a
	git commit -qam 's1 (#1)'
	git checkout -q s3
}

@test "a squash-merged bottom is shown as landed, and restack moves what is on it onto the base with only its own commits" {
	make_stack 3
	local s1 p2 p3
	s1=$(git rev-parse s1)
	p2=$(own_patch_ids s2)
	p3=$(own_patch_ids s3)
	squash_bottom
	run --separate-stderr git campaign stack show
	assert_success
	assert_line '    s1 (2 commits, landed in develop)'
	assert_line '      s2 (1 commit)'
	run --separate-stderr git campaign stack show --json
	[ "$(echo "$output" | jq -r '.branches[] | select(.branch == "s1") | .landed')" = true ]
	[ "$(echo "$output" | jq -r '.branches[] | select(.branch == "s2") | .landed')" = false ]
	run --separate-stderr git campaign stack restack
	assert_success
	refute_output --partial conflict
	assert_line "s1 has landed in develop: not replayed, what is on it moves onto develop (take it out with 'git campaign stack delete s1')"
	[ "$(git rev-parse s1)" = "$s1" ]
	[ "$(parent_of s2)" = develop ]
	[ "$(git config branch.s2.campaignParentTip)" = "$(git rev-parse develop)" ]
	[ "$(git rev-list --count develop..s2)" -eq 1 ]
	[ "$(own_patch_ids s2)" = "$p2" ]
	[ "$(own_patch_ids s3)" = "$p3" ]
	[ -z "$(git status --porcelain)" ]
	run --separate-stderr git campaign stack restack
	refute_output --partial restacked
}

@test "a rebase-merged bottom on an advanced base is landed, by patch id and by tree" {
	make_stack 2
	git checkout -q develop
	commit e up 'upstream: change'
	git cherry-pick s1~1 s1 >/dev/null
	git checkout -q s2
	run --separate-stderr git campaign stack show
	assert_line '    s1 (2 commits, landed in develop)'
	run --separate-stderr git campaign stack restack
	assert_success
	[ "$(git rev-list --count develop..s2)" -eq 1 ]
	[ "$(parent_of s2)" = develop ]
}

@test "a bottom merged by a merge commit is landed, and one only partly taken upstream is not" {
	make_stack 2
	git checkout -q develop
	git merge -q --no-ff -m 'Merge pull request #1' s1
	git checkout -q s2
	run --separate-stderr git campaign stack show
	assert_line '    s1 (0 commits, landed in develop)'
	# a fresh branch with no commits of its own yet is not landed
	git campaign stack new s3 --on develop >/dev/null
	git checkout -q develop
	commit e up 'upstream: change'
	run --separate-stderr git campaign stack show
	assert_line --partial 's3 (0 commits, needs restack)'
	# s1's first commit alone taken upstream: s1 has not landed
	git checkout -q -b t1 develop~1
	commit d t1-one 't1 one'
	commit d t1-two 't1 two'
	git campaign stack adopt t1 --on develop
	git checkout -q develop
	git cherry-pick t1~1 >/dev/null
	run --separate-stderr git campaign stack show
	assert_line --partial 't1 (2 commits, needs restack)'
	git checkout -q t1
	run --separate-stderr git campaign stack restack
	assert_success
	assert_line --regexp '^restacked t1: .* \(1 commit, 1 already upstream, dropped\)$'
}

@test "a squash merge that a reviewer edited stops at its conflict with a hint that names the move of what is on it" {
	make_stack 3
	squash_bottom '6s/.*/s1-one reviewed/'
	run --separate-stderr git campaign stack restack
	assert_failure 1
	assert_output --partial "stopped at a conflict in 's1'"
	assert_equal "$(echo "$stderr" | grep landed)" \
		"hint: if 's1' has landed in 'develop' (a squash merge with edits), move what is on it instead: 'git campaign stack abort', then 'git campaign stack move s2 --onto develop'"
	git campaign stack abort >/dev/null
	run --separate-stderr git campaign stack move s2 --onto develop
	assert_success
	[ "$(git rev-list --count develop..s2)" -eq 1 ]
}

@test "a stacked branch whose parent branch was deleted still counts its own commits" {
	make_stack 3
	squash_bottom
	git branch -q -D s1
	run --separate-stderr git campaign stack show
	assert_success
	assert_line '    s2 (1 commit, parent gone)'
}

@test "status reports a squash-merged bottom as landed, not as needing a restack, before and after the restack" {
	make_stack 3
	squash_bottom
	run --separate-stderr git campaign status
	assert_success
	assert_line 'stack     develop -> s1 (landed) -> s2 -> *s3*'
	assert_line "          landed in develop: s1 ('git campaign stack restack' moves what is on it)"
	refute_line --partial 'needs restack'
	run --separate-stderr git campaign status --json
	[ "$(echo "$output" | jq -r '.stack[] | select(.branch == "s1") | .landed')" = true ]
	git campaign stack restack >/dev/null
	run --separate-stderr git campaign status
	assert_line 'stack     develop -> s2 -> *s3*'
	assert_line "          landed in develop: s1 ('git campaign stack delete' takes it out)"
	git campaign stack delete s1 >/dev/null
	run --separate-stderr git campaign status
	refute_line --partial landed
}
