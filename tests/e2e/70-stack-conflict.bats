#!/usr/bin/env bats
# git campaign stack restack stopped by a conflict: continue, abort (byte
# for byte), skip-branch, --no-checkout, a HEAD moved in the middle.

load helper
load stack_helper

# develop -> s1 -> s2 -> s3 with s3 checked out, s1 amended so that s2's
# commit (which appends to b) conflicts
conflict_stack() {
	make_stack 3
	git checkout -q s1
	echo from-s1 >>b
	git commit -q -a --amend -m 's1 two, amended'
	git checkout -q s3
}

@test "a conflict stops the restack with no ref moved and the conflict checked out" {
	conflict_stack
	before=$(git for-each-ref refs/heads)
	run --separate-stderr git campaign stack restack
	assert_failure 1
	assert_output "stopped at a conflict in 's2' replaying $(git rev-parse --short=7 s2) s2
  conflict: b"
	[[ ${stderr_lines[0]} == "hint: resolve the files, 'git add' them, then run 'git campaign stack continue'" ]]
	[ "$(git for-each-ref refs/heads)" = "$before" ]
	[ "$(git rev-parse HEAD)" = "$(git rev-parse s1)" ]
	run git symbolic-ref -q HEAD
	assert_failure
	grep -q '^<<<<<<< s1$' b
	grep -q '^>>>>>>> .* s2$' b
	[ "$(git diff --name-only --diff-filter=U)" = b ]
	run git campaign status
	assert_line --regexp '^unfinished restack #[0-9]+: restack s2 s3 \(since .*, last step stopped\)$'
	assert_line '          finish it: git campaign stack continue'
	assert_line '          undo it:   git campaign stack abort'
	run --separate-stderr git campaign stack restack
	assert_fatal 'is unfinished' hint
}

@test "continue takes the resolution and finishes every branch" {
	conflict_stack
	git notes --ref=campaign add -m '{"v":1}' s2
	s3_ids=$(own_patch_ids s3)
	run git campaign stack restack
	assert_failure 1
	run --separate-stderr git campaign stack continue
	assert_fatal "unresolved conflicts remain: 'b'" hint
	printf '%s\n' 'b 1' 'b 2' 'b 3' 'b 4' 'b 5' from-s1 s2 >b
	git add b
	echo more >>b
	run --separate-stderr git campaign stack continue
	assert_fatal "changes not added to the index: 'b'" hint
	git checkout -q b
	run --separate-stderr git campaign stack continue
	assert_clean
	assert_line --regexp '^restacked s2: .* \(1 commit\)$'
	assert_line --regexp '^restacked s3: .* \(1 commit\)$'
	[ "$(git symbolic-ref --short HEAD)" = s3 ]
	[ -z "$(git status --porcelain)" ]
	[ "$(git rev-parse s2~1)" = "$(git rev-parse s1)" ]
	[ "$(git show s2:b | tail -2)" = "from-s1
s2" ]
	[ "$(git log -1 --format=%s s2)" = s2 ]
	[ "$(git notes --ref=campaign show s2)" = '{"v":1}' ]
	[ "$(git rev-parse s3~1)" = "$(git rev-parse s2)" ]
	[ "$(own_patch_ids s3)" = "$s3_ids" ]
	[ "$(cat b)" = "$(git show s3:b)" ]
	run git campaign status
	assert_line 'unfinished none'
	refute_output --partial 'needs restack'
}

@test "abort puts back every branch, HEAD, the index and the work tree byte for byte" {
	conflict_stack
	snapshot >"$WORLD/before"
	run git campaign stack restack
	assert_failure 1
	echo 'half a resolution' >b
	run --separate-stderr git campaign stack abort
	assert_clean
	assert_output --regexp '^aborted #[0-9]+: every branch is back$'
	diff <(snapshot) "$WORLD/before"
	[ -z "$(git for-each-ref refs/campaign/backup)" ]
	run git campaign status
	assert_line 'unfinished none'
	run --separate-stderr git campaign stack abort
	assert_fatal 'no stack operation to abort'
}

@test "--no-checkout lists the conflict and leaves the work tree; continue then checks it out" {
	conflict_stack
	snapshot >"$WORLD/before"
	run --separate-stderr git campaign stack restack --no-checkout
	assert_failure 1
	assert_line '  conflict: b'
	[[ $stderr == *'the conflict is not checked out'* ]]
	diff <(snapshot) "$WORLD/before"
	run --separate-stderr git campaign stack continue
	assert_failure 1
	assert_line '  conflict: b'
	[ "$(git rev-parse HEAD)" = "$(git rev-parse s1)" ]
	git campaign stack abort >/dev/null
	diff <(snapshot) "$WORLD/before"
}

@test "local changes: the conflict is listed, not checked out" {
	conflict_stack
	git checkout -q develop
	echo local >>e
	run --separate-stderr git campaign stack restack --all
	assert_failure 1
	assert_line '  conflict: b'
	[ "$(git symbolic-ref --short HEAD)" = develop ]
	[ "$(tail -1 e)" = local ]
	git campaign stack abort >/dev/null
	[ "$(tail -1 e)" = local ]
}

@test "skip-branch leaves the conflicted branch and those on it, restacks the rest" {
	conflict_stack
	git checkout -q -b t s1@{1}
	git campaign stack adopt t --on s1
	commit e t t
	git checkout -q s3
	s2=$(git rev-parse s2)
	s3=$(git rev-parse s3)
	run git campaign stack restack
	assert_failure 1
	run --separate-stderr git campaign stack skip-branch
	assert_clean
	assert_line 'skipped s2 (and the branches on it)'
	assert_line --regexp '^restacked t: '
	[ "$(git rev-parse s2)" = "$s2" ]
	[ "$(git rev-parse s3)" = "$s3" ]
	[ "$(git rev-parse t~1)" = "$(git rev-parse s1)" ]
	[ "$(git symbolic-ref --short HEAD)" = s3 ]
	[ -z "$(git status --porcelain)" ]
	run git campaign stack show
	assert_line '      s2 (1 commit, needs restack)'
	run --separate-stderr git campaign stack skip-branch
	assert_fatal 'no stack operation to skip a branch of'
}

@test "a checkout in the middle is detected; abort still restores everything" {
	conflict_stack
	snapshot >"$WORLD/before"
	run git campaign stack restack
	assert_failure 1
	git checkout -q -f s3
	run --separate-stderr git campaign stack continue
	assert_fatal "HEAD is no longer at the conflict in 's2'" hint
	git checkout -q --detach develop
	echo mine >>e
	run --separate-stderr git campaign stack abort
	assert_fatal 'HEAD moved since the conflict and the work tree has changes' hint
	git checkout -q e
	run --separate-stderr git campaign stack abort
	assert_clean
	diff <(snapshot) "$WORLD/before"
}
