#!/usr/bin/env bats
# Commits that land without `git commit`: cherry-pick, revert and merge get
# the campaign's rules through the hooks git runs for them
# (prepare-commit-msg, pre-merge-commit, commit-msg), post-rewrite warns
# where git offers no gate, and git's own -x and revert lines pass.

load helper

setup() {
	setup_world
	git init -q r
	cd r
	echo a >f
	echo z >g
	git add f g
	git commit -q -m first
	git branch develop
	git switch -q -c topic
	git campaign init kfusion >/dev/null
	git campaign hooks install >/dev/null
	echo b >>f
	git commit -q -am 'Change f'
}

@test "cherry-pick, revert and merge onto the base branch are refused and leave it where it was" {
	git switch -q develop
	base=$(git rev-parse develop)
	run --separate-stderr git cherry-pick -x topic
	assert_failure
	[[ $stderr == *"error: 'develop' is the campaign's base branch: no commits directly on it"* ]]
	[[ $stderr == *"hint: 'git cherry-pick --abort' puts things back as they were"* ]]
	git cherry-pick --abort
	[ "$(git rev-parse develop)" = "$base" ]
	run --separate-stderr git revert --no-edit HEAD
	assert_failure
	[[ $stderr == *"'develop' is the campaign's base branch"* ]]
	[[ $stderr == *"hint: 'git reset --merge' puts things back as they were"* ]]
	git reset -q --merge
	[ "$(git rev-parse develop)" = "$base" ]
	[ -z "$(git status --porcelain)" ]
	run --separate-stderr git merge --no-ff --no-edit topic
	assert_failure 1
	[[ $stderr == *"'develop' is the campaign's base branch"* ]]
	[ "$(git rev-parse develop)" = "$base" ]
	git merge --abort
	# git's escape hatch stays: merge --no-verify skips the hooks
	run --separate-stderr git merge --no-verify --no-ff --no-edit topic
	assert_success
	[ "$(git rev-parse develop^1)" = "$base" ]
}

@test "cherry-pick -x is accepted whether it applied cleanly or stopped on a conflict" {
	git switch -q -c clean develop
	run --separate-stderr git cherry-pick -x topic
	assert_success
	[[ $(git log -1 --format=%B) == *"(cherry picked from commit $(git rev-parse topic))"* ]]
	git switch -q -c conflict develop
	echo c >>f
	git commit -q -am 'Other change'
	run --separate-stderr git cherry-pick -x topic
	assert_failure 1
	printf 'a\nb\nc\n' >f
	git add f
	GIT_EDITOR=true run --separate-stderr git cherry-pick --continue
	assert_success
	[[ $(git log -1 --format=%B) == *"(cherry picked from commit $(git rev-parse topic))"* ]]
	[ -z "$(git status --porcelain)" ]
}

@test "a revert's own body passes; a cherry-picked body the user wrote is refused" {
	run --separate-stderr git revert --no-edit HEAD
	assert_success
	[[ $(git log -1 --format=%B) == *"This reverts commit "* ]]
	# a commit with a body, made past the hooks, picked onto another branch
	git switch -q -c side develop
	echo y >h
	git add h
	git commit -q --no-verify -m "$(printf 'Add h\n\nwith a body')"
	git switch -q -c pick develop
	run --separate-stderr git cherry-pick side
	assert_failure
	[[ $stderr == *"the commit message has more than one line (line 3: 'with a body')"* ]]
	[ "$(git rev-parse pick)" = "$(git rev-parse develop)" ]
	git cherry-pick --abort
	# git commit --no-verify also runs prepare-commit-msg: still an escape
	run --separate-stderr git commit -q --no-verify --allow-empty -m "$(printf 'x\n\nbody')"
	assert_success
}

@test "a rewrite of the base branch's commits is warned about" {
	git switch -q develop
	git commit -q --no-verify --allow-empty -m 'on the base'
	run --separate-stderr git commit -q --no-verify --amend --allow-empty -m 'amended'
	assert_success
	[[ $stderr == *"warning: 'develop' is the campaign's base branch: 1 of its commits were rewritten here"* ]]
}
