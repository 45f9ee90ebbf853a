#!/usr/bin/env bats
# git campaign stack: new, adopt, show, restack in memory, move, delete,
# undo and gc, and the bad input each refuses.

load helper
load stack_helper

@test "stack new records the parent and its tip and checks the branch out" {
	run --separate-stderr git campaign stack new s1
	assert_clean
	[ "$(git symbolic-ref --short HEAD)" = s1 ]
	[ "$(git config branch.s1.campaignParent)" = develop ]
	[ "$(git config branch.s1.campaignParentTip)" = "$(git rev-parse develop)" ]
	commit a s1 's1 one'
	git checkout -q develop
	run --separate-stderr git campaign stack new s2 --on s1
	assert_clean
	[ "$(git symbolic-ref --short HEAD)" = s2 ]
	[ "$(git rev-parse HEAD)" = "$(git rev-parse s1)" ]
	[ "$(tail -1 a)" = s1 ]
	[ "$(git config branch.s2.campaignParentTip)" = "$(git rev-parse s1)" ]
	run --separate-stderr git campaign stack new s1
	assert_fatal "'s1' already exists, stacked on 'develop'"
	[[ $stderr != *'stack move s1 --onto s2'* ]] || fail "a cycle: $stderr"
	run --separate-stderr git campaign stack new 'bad..name'
	[ "$status" -eq 129 ]
	run --separate-stderr git campaign stack new x --on nowhere
	assert_fatal "no branch named 'nowhere'"
}

@test "stack adopt records an existing branch as of the merge base" {
	git checkout -q -b feat develop
	commit a f1 f1
	git checkout -q develop
	commit e d1 d1
	run --separate-stderr git campaign stack adopt feat --on develop
	assert_clean
	[ "$(git config branch.feat.campaignParentTip)" = "$(git merge-base feat develop)" ]
	run git campaign stack show
	assert_line '    feat (1 commit, needs restack)'
	run --separate-stderr git campaign stack adopt develop --on feat
	[ "$status" -eq 129 ]
	run --separate-stderr git campaign stack adopt feat
	[ "$status" -eq 129 ]
}

@test "stack show draws the tree, marks the current branch, reads the PR cache" {
	make_stack 3
	git checkout -q develop
	git campaign stack new side >/dev/null
	git checkout -q s2
	sqlite3 .git/campaign/campaign.db \
		"INSERT INTO pr VALUES ('s1', 12, 'open', 'develop', 'https://example.com/pull/12', '2026-11-29T12:00:00Z')"
	run --separate-stderr git campaign stack show
	assert_clean
	assert_output "  develop
    s1 (2 commits, #12 open)
*     s2 (1 commit)
        s3 (1 commit)
    side (0 commits)"
	git checkout -q s1
	commit a more 'more s1'
	run git campaign stack show --json
	assert_success
	python3 - "$output" <<-'EOF'
		import json, sys
		d = json.loads(sys.argv[1])
		assert d['base'] == 'develop' and d['current'] == 's1', d
		b = {x['branch']: x for x in d['branches']}
		assert [x['branch'] for x in d['branches']] == ['s1', 's2', 's3', 'side']
		assert b['s1']['pr'] == {'number': 12, 'state': 'open', 'url': 'https://example.com/pull/12'}
		assert b['s2']['needs_restack'] and not b['s3']['needs_restack']
		assert b['s2']['depth'] == 2 and b['s1']['current'] and b['s1']['commits'] == 3
	EOF
}

@test "restack after amending the bottom of a 4-branch stack: each branch keeps exactly its own commits" {
	make_stack 4
	git notes --ref=campaign add -m '{"v":1,"metric":"x"}' s3
	note_before=$(git notes --ref=campaign show s3)
	for b in s2 s3 s4; do
		eval "ids_$b=\"\$(own_patch_ids $b)\""
		eval "meta_$b=\"\$(git log --format='%an|%ae|%ad|%cn|%ce|%cd|%B' $(parent_of $b)..$b)\""
	done
	git checkout -q s1
	echo amended >>a
	GIT_COMMITTER_DATE='2026-11-30T08:00:00Z' git commit -q -a --amend -m 's1 two, amended'
	git checkout -q s4
	touch -d '2020-01-01 00:00:00' b c d e
	run --separate-stderr git campaign stack restack --all
	assert_clean
	assert_line --regexp '^restacked s2: [0-9a-f]{7} -> [0-9a-f]{7} \(1 commit\)$'
	[ "${#lines[@]}" -eq 3 ]
	for b in s2 s3 s4; do
		p=$(parent_of $b)
		git merge-base --is-ancestor "$p" "$b"
		[ "$(git rev-list --count "$p..$b")" -eq 1 ]
		eval "want=\$ids_$b"
		[ "$(own_patch_ids $b)" = "$want" ] || fail "$b holds other commits"
		eval "want=\$meta_$b"
		[ "$(git log --format='%an|%ae|%ad|%cn|%ce|%cd|%B' "$p..$b")" = "$want" ] ||
			fail "$b lost its author, dates or message"
		[ "$(git config "branch.$b.campaignParentTip")" = "$(git rev-parse "$p")" ]
		[ -n "$(git for-each-ref "refs/campaign/backup/*/$b")" ]
	done
	[ "$(git notes --ref=campaign show s3)" = "$note_before" ]
	# the work tree of s4: only a changed
	[ "$(git symbolic-ref --short HEAD)" = s4 ]
	[ -z "$(git status --porcelain)" ]
	grep -q amended a
	for f in b c d e; do
		[ "$(stat -c %Y "$f")" = "$(date -d '2020-01-01 00:00:00' +%s)" ] ||
			fail "$f was rewritten"
	done
	run git campaign status
	refute_output --partial 'needs restack'
	assert_line 'unfinished none'
	run --separate-stderr git campaign stack restack --all
	assert_clean
	assert_output 'nothing to restack'
}

@test "a reworded parent: the child's commits keep their trees" {
	make_stack 2
	tree=$(git rev-parse s2^{tree})
	old=$(git rev-parse s2)
	git checkout -q s1
	git commit -q --amend -m 's1 two, reworded'
	run --separate-stderr git campaign stack restack s2
	assert_clean
	[ "$(git rev-parse s2)" != "$old" ]
	[ "$(git rev-parse s2^{tree})" = "$tree" ]
	[ "$(git rev-parse s2~1)" = "$(git rev-parse s1)" ]
	[ "$(git rev-parse "refs/campaign/backup/$(backup_op)/s2")" = "$old" ]
}

@test "restack without arguments takes the current branch's stack only" {
	make_stack 2
	git checkout -q develop
	git campaign stack new other >/dev/null
	commit e o1 o1
	git campaign stack new other2 >/dev/null
	commit e o2 o2
	git checkout -q other
	git commit -q --amend -m 'o1 amended'
	git checkout -q s1
	git commit -q --amend -m 's1 amended'
	run --separate-stderr git campaign stack restack
	assert_clean
	assert_output --regexp '^restacked s2: '
	run git campaign stack show
	assert_line '      other2 (1 commit, needs restack)'
}

@test "a squash-merged parent: move its child onto the base, none of the parent's commits come along" {
	make_stack 2
	s2_ids=$(own_patch_ids s2)
	git checkout -q develop
	git merge -q --squash s1 >/dev/null
	git commit -q -m 'squashed s1'
	git branch -q -D s1
	git checkout -q s2
	run --separate-stderr git campaign stack restack
	assert_fatal "the parent 's1' of 's2' does not exist" hint
	run --separate-stderr git campaign stack move s2 --onto develop
	assert_clean
	[ "$(git rev-list --count develop..s2)" -eq 1 ]
	[ "$(git rev-parse s2~1)" = "$(git rev-parse develop)" ]
	[ "$(own_patch_ids s2)" = "$s2_ids" ]
	[ "$(git config branch.s2.campaignParent)" = develop ]
	[ -z "$(git status --porcelain)" ]
}

@test "a squash-merged parent that is kept: the child is moved with none of its commits" {
	make_stack 3
	s2_ids=$(own_patch_ids s2)
	git checkout -q develop
	git merge -q --squash s1 >/dev/null
	git commit -q -m 'squashed s1'
	git checkout -q s3
	run --separate-stderr git campaign stack move s2 --onto develop
	assert_clean
	[ "$(git rev-list --count develop..s2)" -eq 1 ]
	[ "$(own_patch_ids s2)" = "$s2_ids" ]
	[ "$(git rev-list --count s2..s3)" -eq 1 ]
	git merge-base --is-ancestor s2 s3
	run --separate-stderr git campaign stack move s2 --onto s3
	assert_fatal "that would be a cycle"
}

@test "stack delete re-parents the children; --branch deletes it and undo brings it back" {
	make_stack 3
	tip2=$(git rev-parse s2)
	git checkout -q s1
	run --separate-stderr git campaign stack delete s2 --branch
	assert_clean
	assert_output 'removed s2 from the stack and deleted the branch'
	run git rev-parse --verify -q refs/heads/s2
	assert_failure
	[ "$(git config branch.s3.campaignParent)" = s1 ]
	[ "$(git config branch.s3.campaignParentTip)" = "$(git rev-parse s1)" ]
	run git config branch.s2.campaignParent
	assert_failure
	[ "$(git rev-list --count s1..s3)" -eq 2 ]
	run --separate-stderr git campaign undo
	assert_clean
	[ "$(git rev-parse s2)" = "$tip2" ]
	[ "$(git config branch.s3.campaignParent)" = s2 ]
	[ "$(git config branch.s2.campaignParent)" = s1 ]
	run --separate-stderr git campaign stack delete s1 --branch
	assert_fatal "cannot delete the checked-out branch 's1'"
}

@test "undo restores every branch of the last restack, then has nothing left" {
	make_stack 3
	before=$(git for-each-ref refs/heads)
	git checkout -q s1
	git commit -q --amend -m 's1 amended'
	amended=$(git rev-parse s1)
	git checkout -q s3
	git campaign stack restack >/dev/null
	run --separate-stderr git campaign stack undo
	assert_clean
	assert_line 'restored s2'
	assert_line 'restored s3'
	[ "$(git for-each-ref refs/heads | grep -v 'refs/heads/s1$')" = "$(grep -v 'refs/heads/s1$' <<<"$before")" ]
	[ "$(git rev-parse s1)" = "$amended" ]
	[ -z "$(git status --porcelain)" ]
	run git campaign stack show
	assert_line '      s2 (1 commit, needs restack)'
	run --separate-stderr git campaign undo
	assert_failure 1
	[ "$stderr" = "error: nothing to undo: every stack operation the journal holds is undone" ]
}

@test "gc prunes backups and finished operations older than 30 days" {
	make_stack 2
	git checkout -q s1
	git commit -q --amend -m 's1 amended'
	git campaign stack restack --all >/dev/null
	git update-ref refs/campaign/backup/20200101T000000Z-99/s2 s2
	sqlite3 .git/campaign/campaign.db \
		"INSERT INTO operation VALUES (99, 'restack', 'done', '.', 'old', 'c', 'a', 1, '2020-01-01T00:00:00Z', '2020-01-01T00:00:00Z');
		 INSERT INTO journal VALUES (99, 1, 'plan', '{}', '2020-01-01T00:00:00Z')"
	run --separate-stderr git campaign gc --dry-run
	assert_clean
	assert_output "would prune refs/campaign/backup/20200101T000000Z-99/
would prune 1 finished operation"
	git rev-parse -q --verify refs/campaign/backup/20200101T000000Z-99/s2
	run --separate-stderr git campaign gc
	assert_clean
	run git rev-parse -q --verify refs/campaign/backup/20200101T000000Z-99/s2
	assert_failure
	[ "$(sqlite3 .git/campaign/campaign.db 'SELECT count(*) FROM journal WHERE op_id = 99')" -eq 0 ]
	[ "$(sqlite3 .git/campaign/campaign.db 'SELECT count(*) FROM operation')" -eq 1 ]
	[ -n "$(git for-each-ref 'refs/campaign/backup/*/s2')" ]
	run --separate-stderr git campaign gc
	assert_output 'nothing to prune'
}

@test "bad input: one line, nothing changed" {
	make_stack 3
	git checkout -q s1
	git commit -q --amend -m 's1 amended'
	git checkout -q s3
	snapshot_refs >"$WORLD/before"

	git checkout -q --detach s3
	run --separate-stderr git campaign stack restack
	assert_fatal 'HEAD is detached; restack needs a checked-out branch' hint
	git checkout -q s3

	echo dirt >>e
	run --separate-stderr git campaign stack restack
	assert_fatal "the work tree of 's3' has changes ('e'); nothing was restacked"
	git checkout -q e; diff <(snapshot_refs) "$WORLD/before" || fail after-dirt

	git worktree add -q "$WORLD/wt2" s2
	echo wip >>"$WORLD/wt2/e"
	run --separate-stderr git campaign stack restack
	assert_success
	assert_output --partial "left s2: it is checked out in $WORLD/wt2, which has changes ('e'); commit or stash them there, then restack"
	git worktree remove --force "$WORLD/wt2"; diff <(snapshot_refs) "$WORLD/before" || fail after-wt

	git config branch.s1.campaignParent s3
	run --separate-stderr git campaign stack restack --all
	assert_fatal 'cycle in recorded parents: s1 -> s3 -> s2 -> s1'
	git config branch.s1.campaignParent develop; diff <(snapshot_refs) "$WORLD/before" || fail after-cycle

	git config branch.s2.campaignParent gone
	run --separate-stderr git campaign stack restack --all
	assert_fatal "the parent 'gone' of 's2' does not exist"
	git config branch.s2.campaignParent s1

	mkdir .git/rebase-merge
	run --separate-stderr git campaign stack restack
	assert_fatal 'the repository is in the middle of a rebase' 
	rmdir .git/rebase-merge
	touch .git/MERGE_HEAD
	run --separate-stderr git campaign stack restack
	assert_fatal 'the repository is in the middle of a merge' 
	rm .git/MERGE_HEAD

	sleep 300 >/dev/null 2>&1 3>&- &
	pid=$!
	sqlite3 .git/campaign/campaign.db \
		"INSERT INTO operation VALUES (50, 'restack', 'running', '.', 'x', 'c', 'a', $pid, '2026-11-29T12:00:00Z', '2026-11-29T12:00:00Z')"
	run --separate-stderr git campaign stack restack
	kill "$pid"
	assert_fatal "another git campaign (pid $pid) is running restack #50"
	sqlite3 .git/campaign/campaign.db "DELETE FROM operation WHERE id = 50"

	diff <(snapshot_refs) "$WORLD/before"
	[ -z "$(git for-each-ref refs/campaign/backup)" ]
	run --separate-stderr git campaign stack restack
	assert_clean
}

@test "stack new -h prints only new's synopsis and options" {
	run --separate-stderr git campaign stack new -h
	assert_failure 129
	[ -z "$stderr" ]
	[ "${lines[0]}" = "usage: git campaign stack new NAME [--on PARENT]" ]
	assert_line --regexp '^ +--on PARENT +the parent branch$'
	refute_line --partial 'or:'
	refute_line --partial -- '--onto'
	refute_line --partial -- '--json'
	[ "${#lines[@]}" -eq 2 ]
}

@test "usage errors exit 129" {
	run --separate-stderr git campaign stack
	assert_failure 129
	run --separate-stderr git campaign stack frob
	assert_failure 129
	[[ ${stderr_lines[0]} == "error: unknown subcommand 'frob'" ]]
	run --separate-stderr git campaign stack restack a --all
	assert_failure 129
	run --separate-stderr git campaign stack show --all
	assert_failure 129
	run --separate-stderr git campaign stack move s1
	assert_failure 129
	run --separate-stderr git campaign stack continue
	assert_fatal 'no stack operation to continue' 
}
