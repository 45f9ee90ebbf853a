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
	git checkout -q s1
	run git campaign stack top s2
	assert_output "on 's2'"
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
