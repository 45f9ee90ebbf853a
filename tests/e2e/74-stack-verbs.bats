#!/usr/bin/env bats
# The workflow a Graphite or git-town user reaches for: status during a
# conflict, a base behind its remote, rename (and git branch -m), up,
# down, top and bottom; each checked against git's own refs and trees.

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

@test "during a conflict, status names the branch, the commit and the unmerged files" {
	conflict_stack
	s2=$(git rev-parse --short=7 s2)
	run git campaign stack restack
	assert_failure 1
	run git campaign status
	assert_success
	assert_line "          stopped at a conflict in 's2' replaying $s2 s2"
	assert_line '          conflict: b'
	assert_line "          resolve the files and 'git add' them, then continue"
	# git agrees on the unmerged path
	[ "$(git diff --name-only --diff-filter=U)" = b ]
	run git campaign status --json
	PY=$(command -v /usr/bin/python3 || command -v python3)
	[ "$($PY -c "import json,sys; c=json.load(sys.stdin)['unfinished'][0]['conflict']; print(c['branch'], ','.join(c['paths']))" <<<"$output")" = "s2 b" ]
	# resolved and added: the path leaves the list, the next step is named
	printf '%s\n' 'b 1' 'b 2' 'b 3' 'b 4' 'b 5' from-s1 s2 >b
	git add b
	run git campaign status
	refute_line '          conflict: b'
	assert_line '          every conflict is resolved: continue'
	run git campaign stack continue
	assert_success
	run git campaign status
	refute_output --partial 'stopped at a conflict'
}

# a bare origin holding develop, and a commit pushed to it from a clone
base_behind_remote() {
	git init -q --bare "$WORLD/origin.git"
	git remote add origin "$WORLD/origin.git"
	git push -q origin develop
	git clone -q "$WORLD/origin.git" "$WORLD/other"
	(cd "$WORLD/other" && git checkout -q develop && echo up >>e &&
		git commit -q -am 'upstream: change' && git push -q origin develop)
	git fetch -q origin
}

@test "a base behind its remote-tracking branch gets a hint in status and restack, with no fetch" {
	make_stack 2
	base_behind_remote
	[ "$(git rev-list --count develop..origin/develop)" = 1 ]
	# the remote is gone: status and restack read only local refs
	mv "$WORLD/origin.git" "$WORLD/gone.git"
	run git campaign status
	assert_success
	assert_line "          'develop' is 1 commit behind 'origin/develop': git fetch origin develop:develop, then git campaign stack restack"
	run --separate-stderr git campaign stack restack
	assert_success
	assert_output 'nothing to restack'
	[ "$stderr" = "hint: 'develop' is 1 commit behind 'origin/develop': git fetch origin develop:develop, then git campaign stack restack" ]
	# once the base is up to date, the hint goes
	git update-ref refs/heads/develop origin/develop
	run git campaign status
	refute_output --partial 'behind '"'"'origin/develop'"'"
}

@test "up, down, top and bottom check out the child, the parent, the top and the bottom as git checkout does" {
	make_stack 3
	run git campaign stack down
	assert_success
	assert_output "on 's2'"
	[ "$(git symbolic-ref --short HEAD)" = s2 ]
	[ "$(git rev-parse HEAD)" = "$(git rev-parse s2)" ]
	[ -z "$(git status --porcelain)" ]
	[ "$(cat b)" = "$(git show s2:b)" ]
	run git campaign stack down --steps 2
	assert_success
	assert_output "on 'develop'"
	[ "$(git symbolic-ref --short HEAD)" = develop ]
	run --separate-stderr git campaign stack down
	assert_failure 128
	[ "$stderr" = "fatal: 'develop' is not stacked" ]
	run git campaign stack up
	assert_output "on 's1'"
	run git campaign stack top
	assert_output "on 's3'"
	[ "$(git symbolic-ref --short HEAD)" = s3 ]
	[ "$(cat c)" = "$(git show s3:c)" ]
	run --separate-stderr git campaign stack up
	assert_failure 128
	[ "$stderr" = "fatal: nothing is stacked on 's3'" ]
	run git campaign stack bottom
	assert_output "on 's1'"
	run git campaign stack up --steps 2
	assert_output "on 's3'"
	# a local change goes along, as with git checkout
	echo local >>e
	run git campaign stack down
	assert_success
	[ "$(git symbolic-ref --short HEAD)" = s2 ]
	[ "$(git status --porcelain)" = " M e" ]
}

@test "up at a fork refuses and lists the children, and takes the one named" {
	make_stack 2
	git checkout -q s1
	git campaign stack new s2b >/dev/null
	commit e s2b 's2b'
	git checkout -q s1
	before=$(git rev-parse HEAD)
	run --separate-stderr git campaign stack up
	assert_failure 129
	[ "${stderr_lines[0]}" = "error: 2 branches are stacked on 's1': 's2', 's2b'" ]
	[ "${stderr_lines[1]}" = "hint: name the one to go to: 'git campaign stack up BRANCH'" ]
	[ "$(git symbolic-ref --short HEAD)" = s1 ]
	run --separate-stderr git campaign stack top
	assert_failure 129
	[ "$(git symbolic-ref --short HEAD)" = s1 ]
	run --separate-stderr git campaign stack up s3
	assert_failure 129
	[ "${stderr_lines[0]}" = "error: 's3' is not stacked on 's1' (on it: 's2', 's2b')" ]
	run git campaign stack up s2b
	assert_success
	assert_output "on 's2b'"
	[ "$(git symbolic-ref --short HEAD)" = s2b ]
	git checkout -q s2
	git campaign stack new s3 >/dev/null
	commit c s3 's3'
	git campaign stack new s4 >/dev/null
	commit d s4 's4'
	git checkout -q develop
	# the pick settles the fork at s1; top goes on up its one line
	run git campaign stack top s2
	assert_output "on 's4'"
	git checkout -q develop
	run git campaign stack top s2b
	assert_output "on 's2b'"
}

@test "a local change that git checkout would overwrite stops up with git's reason, nothing lost" {
	make_stack 2
	git checkout -q s1
	echo mine >>b
	run --separate-stderr git campaign stack up
	assert_failure 128
	[[ ${stderr_lines[0]} == "fatal: cannot check out 's2': Your local changes to the following files would be overwritten by checkout:" ]]
	[ "$(git symbolic-ref --short HEAD)" = s1 ]
	[ "$(tail -1 b)" = mine ]
}

@test "after git branch -m of a stacked branch, show and restack name the rename, and stack rename lets its children follow" {
	make_stack 3
	git branch -m s2 s2-frame-upload
	s3=$(git rev-parse s3)
	run git campaign stack show
	assert_line "*   s3 (1 commit, parent renamed to s2-frame-upload: git campaign stack rename s2 s2-frame-upload)"
	run --separate-stderr git campaign stack restack --all
	assert_failure 128
	[ "${stderr_lines[0]}" = "fatal: the parent 's2' of 's3' does not exist" ]
	[ "${stderr_lines[1]}" = "hint: 's2' was renamed to 's2-frame-upload' (git branch -m): follow it with 'git campaign stack rename s2 s2-frame-upload'" ]
	run git campaign stack rename s2 s2-frame-upload
	assert_success
	assert_output "followed the rename of s2 to s2-frame-upload
s3 is stacked on s2-frame-upload"
	[ "$(parent_of s3)" = s2-frame-upload ]
	[ "$(parent_of s2-frame-upload)" = s1 ]
	# nothing was rewritten: s3 holds its parent's tip already
	[ "$(git rev-parse s3)" = "$s3" ]
	run git campaign stack show
	assert_line '*       s3 (1 commit)'
	run git campaign stack restack --all
	assert_success
	assert_output 'nothing to restack'
}

@test "a rename twice over with git branch -m is followed to the branch that exists" {
	make_stack 3
	git branch -m s2 s2a
	git branch -m s2a s2b
	run --separate-stderr git campaign stack restack --all
	[ "${stderr_lines[1]}" = "hint: 's2' was renamed to 's2b' (git branch -m): follow it with 'git campaign stack rename s2 s2b'" ]
}

@test "stack rename moves the branch as git branch -m does, with HEAD and its children's records, and undo puts it back" {
	make_stack 3
	git checkout -q s2
	git config branch.s2.remote .
	git config branch.s2.merge refs/heads/develop
	git notes --ref=campaign add -m '{"v":3}' s2
	cp -a "$WORLD/r" "$WORLD/twin"
	(cd "$WORLD/twin" && git branch -m s2 s2x)
	before=$(snapshot_refs)
	run git campaign stack rename s2x
	assert_success
	assert_output "renamed s2 to s2x
s3 is stacked on s2x"
	# as git branch -m: the ref, its reflog, its settings, HEAD
	[ "$(git for-each-ref refs/heads)" = "$(git -C "$WORLD/twin" for-each-ref refs/heads)" ]
	[ "$(git config --get-regexp '^branch\.s2x\.')" = "$(git -C "$WORLD/twin" config --get-regexp '^branch\.s2x\.')" ]
	[ "$(git reflog show s2x --format=%H | tail -n +2)" = "$(git -C "$WORLD/twin" reflog show s2x --format=%H | tail -n +2)" ]
	[ "$(git symbolic-ref HEAD)" = refs/heads/s2x ]
	[ "$(git notes --ref=campaign show s2x)" = '{"v":3}' ]
	[ -z "$(git config --get-regexp '^branch\.s2\.')" ]
	[ -z "$(git status --porcelain)" ]
	# and the child follows
	[ "$(parent_of s3)" = s2x ]
	run git campaign stack show
	assert_line '*     s2x (1 commit)'
	assert_line '        s3 (1 commit)'
	run git campaign stack undo
	assert_success
	assert_line --regexp '^undid stack-rename #[0-9]+$'
	[ "$(snapshot_refs)" = "$before" ]
	[ "$(git config branch.s2.merge)" = refs/heads/develop ]
}

@test "stack rename refuses the base, a taken name, a branch in no stack and a bad name, changing nothing" {
	make_stack 2
	git branch other
	before=$(snapshot_refs)
	run --separate-stderr git campaign stack rename develop trunk
	assert_failure 128
	[ "$stderr" = "fatal: 'develop' is the campaign's base branch" ]
	run --separate-stderr git campaign stack rename s1 s2
	assert_failure 128
	[ "$stderr" = "fatal: a branch named 's2' already exists" ]
	run --separate-stderr git campaign stack rename other other2
	assert_failure 128
	[ "$stderr" = "fatal: 'other' is in no stack" ]
	run --separate-stderr git campaign stack rename s1 'bad..name'
	assert_failure 129
	[ "$stderr" = "error: 'bad..name' is not a valid branch name" ]
	run --separate-stderr git campaign stack rename a b c
	assert_failure 129
	[ "$(snapshot_refs)" = "$before" ]
}

@test "a rename killed after any journal step is finished by continue or undone by abort, no tip lost" {
	make_stack 3
	git checkout -q s2
	tips=$(git for-each-ref --format='%(objectname)' refs/heads)
	cp -a "$WORLD/r" "$WORLD/tmpl"
	before=$(snapshot_refs)
	kills=0
	for ((n = 1; n < 20; n++)); do
		cd "$WORLD" && rm -rf k && cp -a tmpl k && cd k
		run env GIT_CAMPAIGN_TEST_KILL_AT=$n git campaign stack rename s2 s2x
		[ "$status" -eq 137 ] || break
		kills=$((kills + 1))
		run git campaign status
		assert_line --regexp '^unfinished stack-rename #[0-9]+: rename s2 s2x'
		if ((n % 2)); then
			run git campaign stack continue
			assert_success
			[ "$(git symbolic-ref HEAD)" = refs/heads/s2x ]
			[ "$(parent_of s3)" = s2x ]
			[ "$(parent_of s2x)" = s1 ]
			[ "$(git rev-parse s2x)" = "$(git -C "$WORLD/tmpl" rev-parse s2)" ]
		else
			run git campaign stack abort
			assert_success
			[ "$(snapshot_refs)" = "$before" ]
		fi
		for t in $tips; do
			[ -n "$(git for-each-ref --contains "$t" refs/heads)" ] ||
				fail "tip $t lost after a kill at step $n"
		done
		run git campaign status
		assert_line 'unfinished none'
	done
	[ "$kills" -ge 4 ] || fail "only $kills kills"
}

# the refs and stack records, for comparing states
state() {
	git for-each-ref --format='%(refname) %(objectname)' refs/heads
	git config --get-regexp '^branch\..*\.campaignparent' | sort
}

@test "undo after undo goes one operation further back, and --steps undoes several in order" {
	make_stack 3
	s0=$(state)
	git checkout -q s1
	git commit -q --amend -m 's1 amended'
	git checkout -q s3
	s1=$(state)
	git campaign stack restack >/dev/null
	s2=$(state)
	git campaign stack move s3 --onto s1 >/dev/null
	s3=$(state)
	git campaign stack rename s2 s2x >/dev/null
	# the newest first: the rename, then the move, then the restack
	run git campaign undo
	assert_success
	assert_line --regexp '^undid stack-rename #[0-9]+$'
	[ "$(state)" = "$s3" ]
	run git campaign undo
	assert_success
	assert_line --regexp '^undid restack #[0-9]+$'
	[ "$(state)" = "$s2" ]
	run git campaign undo
	assert_success
	[ "$(state)" = "$s1" ]
	run --separate-stderr git campaign undo
	assert_failure 1
	[ "$stderr" = "error: nothing to undo: every stack operation the journal holds is undone" ]
	[ "$(state)" = "$s1" ]
	# the same three again, undone in one run
	git campaign stack restack >/dev/null
	git campaign stack move s3 --onto s1 >/dev/null
	git campaign stack rename s2 s2x >/dev/null
	run git campaign stack undo --steps 3
	assert_success
	[ "$(state)" = "$s1" ]
	[ "$(git symbolic-ref --short HEAD)" = s3 ]
	[ -z "$(git status --porcelain)" ]
}

@test "undo --steps stops at the first operation whose branch moved since, keeping the newer undos and the new commit" {
	make_stack 2
	git checkout -q s1
	git commit -q --amend -m 's1 amended'
	git checkout -q s2
	git campaign stack restack >/dev/null
	s2_restacked=$(git rev-parse s2)
	commit e more 'more on s2'
	mine=$(git rev-parse s2)
	git campaign stack rename s2 s2x >/dev/null
	run --separate-stderr git campaign undo --steps 2
	assert_failure 128
	[ "${stderr_lines[0]}" = "fatal: 's2' changed since restack #1 left it at ${s2_restacked:0:7}; nothing was undone" ]
	[[ ${stderr_lines[1]} == "hint: keep its new commits elsewhere, or put it back with 'git branch -f s2 ${s2_restacked:0:7}', then undo" ]]
	assert_output --regexp '^undid stack-rename #[0-9]+$'
	refute_output --partial 'undid restack' 
	# the rename is undone, the restack is not, the new commit is there
	[ "$(git symbolic-ref --short HEAD)" = s2 ]
	[ "$(git rev-parse s2)" = "$mine" ]
	run git campaign status
	assert_line 'unfinished none'
}

@test "fold moves the parent to the branch's tip, re-parents its children, follows HEAD and is undone" {
	make_stack 3
	git checkout -q s2
	s2=$(git rev-parse s2)
	git notes --ref=campaign add -m '{"v":2}' s2
	s3_ids=$(own_patch_ids s3)
	before=$(snapshot_refs)
	run git campaign stack fold
	assert_success
	assert_output "folded s2 into s1 (now at ${s2:0:7})
s3 is stacked on s1"
	[ "$(git rev-parse s1)" = "$s2" ]
	[ "$(git notes --ref=campaign show s1)" = '{"v":2}' ]
	run git rev-parse --verify -q refs/heads/s2
	assert_failure
	[ "$(git rev-parse "refs/campaign/backup/$(backup_op)/s2")" = "$s2" ]
	[ "$(git symbolic-ref --short HEAD)" = s1 ]
	[ -z "$(git status --porcelain)" ]
	[ "$(parent_of s3)" = s1 ]
	run git config branch.s2.campaignParent
	assert_failure
	# s3 is in order on s1 and keeps exactly its own commits
	[ "$(own_patch_ids s3)" = "$s3_ids" ]
	git merge-base --is-ancestor s1 s3
	run git campaign stack restack --all
	assert_output 'nothing to restack'
	run git campaign undo
	assert_success
	[ "$(snapshot_refs)" = "$before" ]
}

@test "fold refuses a branch on the base, one that needs a restack, and local changes on a parent that moves" {
	make_stack 3
	before=$(snapshot_refs)
	run --separate-stderr git campaign stack fold s1
	assert_failure 128
	[ "$stderr" = "fatal: 's1' is stacked on the base 'develop': folding it there is a merge, not done here" ]
	git checkout -q s1
	git commit -q --amend -m 's1 amended'
	git checkout -q s3
	amended=$(snapshot_refs)
	run --separate-stderr git campaign stack fold s2
	assert_failure 128
	[ "${stderr_lines[0]}" = "fatal: 's2' needs a restack" ]
	git campaign stack restack >/dev/null
	git checkout -q s2
	echo mine >>a
	restacked=$(snapshot_refs)
	run --separate-stderr git campaign stack fold s3
	assert_failure 128
	[[ ${stderr_lines[0]} == "fatal: the work tree of 's2' has changes"* ]]
	[ "$(snapshot_refs)" = "$restacked" ]
	[ "$(tail -1 a)" = mine ]
	run git campaign status
	assert_line 'unfinished none'
}

@test "split makes the lower commits a branch of their own, the branch stacked on it keeping the rest" {
	make_stack 2
	git checkout -q s1
	commit a s1-three 's1 three'
	git checkout -q s2
	git campaign stack restack >/dev/null
	s1=$(git rev-parse s1)
	mid=$(git rev-parse s1~1)
	s2_ids=$(own_patch_ids s2)
	before=$(snapshot_refs)
	run git campaign stack split s1 --at s1~1 --name s1-lo
	assert_success
	assert_output "split s1 at ${mid:0:7}: s1-lo on develop, s1 on s1-lo"
	[ "$(git rev-parse s1-lo)" = "$mid" ]
	[ "$(git rev-parse s1)" = "$s1" ]
	[ "$(parent_of s1-lo)" = develop ]
	[ "$(parent_of s1)" = s1-lo ]
	[ "$(git config branch.s1.campaignParentTip)" = "$mid" ]
	# git agrees on what each holds now
	[ "$(git log --format=%s develop..s1-lo)" = "s1 two
s1 one" ]
	[ "$(git log --format=%s s1-lo..s1)" = "s1 three" ]
	[ "$(own_patch_ids s2)" = "$s2_ids" ]
	run git campaign stack show
	assert_line '    s1-lo (2 commits)'
	assert_line '      s1 (1 commit)'
	run git campaign stack restack --all
	assert_output 'nothing to restack'
	run --separate-stderr git campaign stack split s1 --at s1 --name x
	assert_failure 128
	[ "${stderr_lines[0]}" = "fatal: 's1' is not one of the commits of 's1' below its tip" ]
	run --separate-stderr git campaign stack split s2 --at develop --name x
	assert_failure 128
	run --separate-stderr git campaign stack split s2 --at s1 --name s1-lo
	assert_failure 128
	[ "$stderr" = "fatal: a branch named 's1-lo' already exists" ]
	run --separate-stderr git campaign stack split s2 --at s2
	assert_failure 129
	run git campaign undo
	assert_success
	[ "$(snapshot_refs)" = "$before" ]
}

@test "a fold killed after any journal step is finished by continue or undone by abort, no tip lost" {
	make_stack 3
	git checkout -q s2
	tips=$(git for-each-ref --format='%(objectname)' refs/heads)
	s2=$(git rev-parse s2)
	cp -a "$WORLD/r" "$WORLD/tmpl"
	before=$(snapshot_refs)
	kills=0
	for ((n = 1; n < 20; n++)); do
		cd "$WORLD" && rm -rf k && cp -a tmpl k && cd k
		run env GIT_CAMPAIGN_TEST_KILL_AT=$n git campaign stack fold
		[ "$status" -eq 137 ] || break
		kills=$((kills + 1))
		if ((n % 2)); then
			run git campaign stack continue
			assert_success
			[ "$(git rev-parse s1)" = "$s2" ]
			[ "$(git symbolic-ref --short HEAD)" = s1 ]
			[ "$(parent_of s3)" = s1 ]
		else
			run git campaign stack abort
			assert_success
			[ "$(snapshot_refs)" = "$before" ]
		fi
		for t in $tips; do
			[ -n "$(git for-each-ref --contains "$t")" ] ||
				fail "tip $t lost after a kill at step $n"
		done
		run git campaign status
		assert_line 'unfinished none'
	done
	[ "$kills" -ge 4 ] || fail "only $kills kills"
}

@test "restack --autostash stashes the local changes, restacks and puts them back, staged and unstaged" {
	make_stack 3
	git checkout -q s1
	git commit -q --amend -m 's1 amended'
	git checkout -q s3
	old_s1=$(git rev-parse s1@{1})
	echo staged >>d
	git add d
	echo unstaged >>e
	echo untracked >new-file
	cp -a "$WORLD/r" "$WORLD/twin"
	run --separate-stderr git campaign stack restack
	assert_failure 128
	[[ $stderr == *"has changes"* ]]
	run --separate-stderr git campaign stack restack --autostash
	assert_success
	assert_line --regexp '^restacked s2: '
	assert_line --regexp '^restacked s3: '
	[[ ${stderr_lines[0]} == "saved your local changes as stash 'autostash/"* ]]
	[[ ${stderr_lines[1]} == "put your local changes back (stash 'autostash/"* ]]
	git merge-base --is-ancestor s1 s3
	[ "$(git symbolic-ref --short HEAD)" = s3 ]
	# as git rebase --autostash --update-refs leaves them on a twin
	(cd "$WORLD/twin" &&
		git rebase -q --autostash --update-refs --onto s1 "$old_s1" s3 >/dev/null 2>&1)
	[ "$(git status --porcelain)" = "$(git -C "$WORLD/twin" status --porcelain)" ]
	[ "$(git rev-parse s3^{tree})" = "$(git -C "$WORLD/twin" rev-parse s3^{tree})" ]
	[ "$(git rev-parse s2^{tree})" = "$(git -C "$WORLD/twin" rev-parse s2^{tree})" ]
	for f in a b c d e new-file; do
		cmp "$f" "$WORLD/twin/$f"
	done
	[ "$(tail -1 d)" = staged ]
	[ "$(tail -1 e)" = unstaged ]
	[ -z "$(git for-each-ref refs/campaign/stash)" ]
}

@test "restack --autostash stopped at a conflict keeps the stash, named, and continue puts it back" {
	make_stack 3
	git checkout -q s1
	echo from-s1 >>b
	git commit -q -a --amend -m 's1 two, amended'
	git checkout -q s3
	echo mine >>e
	run --separate-stderr git campaign stack restack --autostash
	assert_failure 1
	op=$(git for-each-ref --format='%(refname:short)' refs/campaign/stash)
	[[ $op == campaign/stash/autostash/op-* ]]
	assert_line --partial "stopped at a conflict in 's2'"
	[[ $stderr == *"hint: your local changes are in stash '${op#campaign/stash/}': 'git campaign stack continue' or 'git campaign stack abort' puts them back"* ]]
	# the stash holds the change, the work tree holds the conflict only
	[ "$(git show "refs/${op}:e" | tail -1)" = mine ]
	[ "$(tail -1 e)" != mine ]
	printf '%s\n' 'b 1' 'b 2' 'b 3' 'b 4' 'b 5' from-s1 s2 >b
	git add b
	run --separate-stderr git campaign stack continue
	assert_success
	[[ $stderr == *"put your local changes back (stash '${op#campaign/stash/}')"* ]]
	[ "$(git symbolic-ref --short HEAD)" = s3 ]
	[ "$(tail -1 e)" = mine ]
	[ "$(git diff --name-only)" = e ]
	[ -z "$(git for-each-ref refs/campaign/stash)" ]
}

@test "abort of a restack --autostash stopped at a conflict puts the branches and the local changes back" {
	make_stack 3
	git checkout -q s1
	echo from-s1 >>b
	git commit -q -a --amend -m 's1 two, amended'
	git checkout -q s3
	echo mine >>e
	refs=$(git for-each-ref refs/heads)
	run git campaign stack restack --autostash
	assert_failure 1
	run --separate-stderr git campaign stack abort
	assert_success
	[ "$(git for-each-ref refs/heads)" = "$refs" ]
	[ "$(git symbolic-ref --short HEAD)" = s3 ]
	[ "$(tail -1 e)" = mine ]
	[ "$(git status --porcelain)" = " M e" ]
	[ -z "$(git for-each-ref refs/campaign/stash)" ]
}

@test "move --autostash refused puts the changes back at once, nothing lost" {
	make_stack 2
	echo mine >>e
	run --separate-stderr git campaign stack move s2 --onto nowhere --autostash
	assert_failure 128
	[[ $stderr == *"fatal: "*"'nowhere'"* ]]
	[ "$(tail -1 e)" = mine ]
	[ "$(git status --porcelain)" = " M e" ]
	[ -z "$(git for-each-ref refs/campaign/stash)" ]
}

# the state a fold or rename may leave: refs, HEAD and records
refs_state() {
	git for-each-ref --format='%(refname) %(objectname)' refs/heads
	git symbolic-ref -q HEAD
	git config --get-regexp '^branch\..*\.campaignparent' | sort
}

@test "fold and rename killed at random system calls end fully done or fully undone, no tip lost" {
	command -v strace >/dev/null || skip "strace is missing (Debian package strace)"
	make_stack 3
	git checkout -q s2
	tips=$(git for-each-ref --format='%(objectname)' refs/heads)
	cp -a "$WORLD/r" "$WORLD/tmpl"
	old=$(refs_state)
	CALLS=rename,write,pwrite64,fsync,fdatasync,unlink
	RANDOM=74
	for verb in fold rename; do
		case $verb in
		fold) cmd=(git-campaign stack fold) ;;
		rename) cmd=(git-campaign stack rename s2 s2x) ;;
		esac
		cd "$WORLD" && rm -rf k && cp -a tmpl k && cd k
		"${cmd[@]}" >/dev/null
		new=$(refs_state)
		kills=0
		for try in 1 2 3 4 5 6 7 8; do
			# the n-th call of each kind that writes: SIGKILL there
			n=$((RANDOM % 12 + 1))
			cd "$WORLD" && rm -rf k && cp -a tmpl k && cd k
			run strace -o /dev/null -e trace="$CALLS" \
				-e inject="$CALLS":signal=KILL:when=$n "${cmd[@]}"
			[ "$status" -ne 137 ] || kills=$((kills + 1))
			run git campaign status
			assert_success
			if [[ $output == *"unfinished stack-"* ]]; then
				if ((try % 2)); then
					run git campaign stack continue
				else
					run git campaign stack abort
				fi
				assert_success
			fi
			now=$(refs_state)
			[ "$now" = "$old" ] || [ "$now" = "$new" ] ||
				fail "$verb killed at $n left $now"
			for t in $tips; do
				[ -n "$(git for-each-ref --contains "$t")" ] ||
					fail "tip $t lost ($verb killed at $n)"
			done
			run git campaign status
			assert_line 'unfinished none'
		done
		[ "$kills" -ge 3 ] || fail "$verb was killed $kills times only"
	done
}
