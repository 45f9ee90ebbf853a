#!/usr/bin/env bats
# git campaign deinit: undo init, the hooks and the settings, keeping the
# data unless --all, never touching the remote.

load helper

setup() {
	setup_world
	make_repo r develop
	cd r
	git config notes.rewriteRef refs/notes/mine
	git config user.keep yes
	printf '#!/bin/sh\nexit 0\n' >.git/hooks/pre-commit
	chmod 755 .git/hooks/pre-commit
	hook=$(file_sum .git/hooks/pre-commit)
	git campaign init kfusion >/dev/null
	git campaign hooks install >/dev/null
	git switch -q -c work
	git campaign measure add kernel_ms 12 >/dev/null
}

@test "deinit removes the settings and the hooks, keeps the data and lists it" {
	run --separate-stderr git campaign deinit
	assert_success
	assert_line "removed the hooks from $PWD/.git/hooks"
	assert_line "kept    $PWD/.git/campaign"
	assert_line "kept    refs/notes/campaign"
	[ "$stderr" = "hint: 'git campaign deinit --all' removes them here too (never on a remote)" ]
	run git config --local --get-regexp '^campaign\.'
	assert_failure 1
	# the user's own values stay
	[ "$(git config --get-all notes.rewriteRef)" = refs/notes/mine ]
	[ "$(git config user.keep)" = yes ]
	# the hook that was there before is back, byte for byte
	[ "$(file_sum .git/hooks/pre-commit)" = "$hook" ]
	[ ! -e .git/hooks/commit-msg ]
	# the data is kept
	assert_file_exists .git/campaign/campaign.db
	git rev-parse -q --verify refs/notes/campaign >/dev/null
	run --separate-stderr git campaign status
	assert_failure 128
	[[ $stderr == *"no campaign"* ]]
}

@test "deinit --all removes the local data too, and the remote keeps its notes" {
	git init -q --bare ../origin.git
	git remote add origin ../origin.git
	git push -q origin refs/notes/campaign
	run --separate-stderr git campaign deinit --all
	assert_success
	assert_line "removed $PWD/.git/campaign"
	assert_line "removed refs/notes/campaign"
	[ ! -e .git/campaign ]
	[ -z "$(git for-each-ref refs/notes/campaign 'refs/campaign/')" ]
	git -C ../origin.git rev-parse -q --verify refs/notes/campaign >/dev/null
	# and init starts again from nothing
	run --separate-stderr git campaign init kfusion
	assert_success
}

@test "deinit where there is no campaign changes nothing" {
	git campaign deinit >/dev/null 2>&1
	before=$(ls -la .git/hooks; git config --local --list)
	run --separate-stderr git campaign deinit
	assert_failure 128
	[ "$stderr" = "fatal: no campaign here: nothing to undo" ]
	[ "$(ls -la .git/hooks; git config --local --list)" = "$before" ]
}
