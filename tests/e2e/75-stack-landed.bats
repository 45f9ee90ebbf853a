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
