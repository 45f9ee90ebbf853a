#!/usr/bin/env bats
# The git side of stack sync: the base fetched from its remote first,
# whatever the PRs say, then parents that landed in it told offline, what
# is on them moved there (their PRs retargeted first), and their deletion
# offered (point 2 of issue 18), against the fake GitHub and a bare remote.

load helper
load fakehub

setup() {
	setup_world
	start_fakehub
	git config --global init.defaultBranch develop
	git init -q --bare remote.git
	git init -q r
	cd r
	echo base >f0
	git add f0
	git commit -q -m base
	git remote add origin "$WORLD/remote.git"
	git push -q origin develop
	git campaign init demo --forge o/r >/dev/null
}

teardown() {
	stop_fakehub
}

# pr_field N JQ: a field of PR #N as the fake stores it
pr_field() {
	fh_http GET "/__fake/state?repo=o/r" | jq -r ".pulls[] | select(.number == $1) | $2"
}

# squash_pushed BRANCH: a maintainer squashes BRANCH into develop by hand
# and pushes it: no PR is merged on GitHub
squash_pushed() {
	[ -d ../gh ] || git clone -q ../remote.git ../gh
	(cd ../gh && git fetch -q origin && git checkout -q develop &&
		git reset -q --hard origin/develop &&
		git merge -q --squash "origin/$1" &&
		git commit -qm "$1, squashed by hand" && git push -q origin develop)
}

@test "sync fetches the base first; a parent squashed into it by hand is landed: its child's PR retargeted, the child moved, its deletion offered" {
	git campaign stack new s1 >/dev/null
	echo one >f1 && git add f1 && git commit -qm 's1 change'
	git campaign stack new s2 >/dev/null
	echo two >f2 && git add f2 && git commit -qm 's2 change'
	git campaign stack submit --all >/dev/null
	squash_pushed s1
	[ "$(pr_field 1 .state)" = open ]
	# the local develop is not pulled
	run --separate-stderr git campaign stack sync
	assert_clean
	assert_line --regexp '^fast-forwarded develop to origin/develop \([0-9a-f]{7}\)$'
	assert_line 'retargeted #2 s2 onto develop (s1 landed in develop)'
	assert_line 'moved s2 onto develop'
	assert_line "s1 has landed in develop: 'git campaign stack delete s1 --branch' deletes it"
	refute_line --partial conflict
	# the retarget came before any branch could be deleted, and s1 is kept
	[ "$(pr_field 2 .base.ref)" = develop ]
	[ "$(git config branch.s2.campaignParent)" = develop ]
	[ "$(git config branch.s1.campaignParent)" = develop ]
	git rev-parse -q --verify refs/heads/s1 >/dev/null
	[ "$(git rev-parse develop)" = "$(git -C ../remote.git rev-parse develop)" ]
	[ "$(git log --format=%s develop..s2)" = 's2 change' ]
	run --separate-stderr git campaign stack delete s1 --branch
	assert_clean
	! git rev-parse -q --verify refs/heads/s1 >/dev/null
}
