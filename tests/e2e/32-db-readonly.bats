#!/usr/bin/env bats
# A read-only .git/campaign (a read-only bind mount, made when the tests run
# as root): the reading commands work from the database opened read-only;
# a writing command fails in one line and records nothing (REL-11).

load helper

setup() {
	setup_world
	make_repo r develop
	cd r
	git campaign init demo >/dev/null
	git campaign measure add m 1 >/dev/null
	git campaign measure add m 2 >/dev/null
	git campaign hypo add 'the second is faster' --metric m --predict 2 >/dev/null
	RO="$PWD/.git/campaign"
	mount --bind "$RO" "$RO" 2>/dev/null ||
		skip "cannot bind-mount (needs root): no read-only folder"
	mount -o remount,ro,bind "$RO" || {
		umount "$RO"
		skip "cannot remount read-only"
	}
	touch "$RO/probe" 2>/dev/null && skip "the folder is still writable"
	NOTES=$(git rev-parse refs/notes/campaign)
}

teardown() {
	cd /
	if [ -n "${RO:-}" ] && mountpoint -q "$RO"; then umount "$RO"; fi
}

@test "status, resume, measure log and show, hypo list work on a read-only .git/campaign" {
	run --separate-stderr git campaign status
	assert_clean
	assert_output --partial "campaign  demo"
	assert_output --partial "the second is faster"
	run --separate-stderr git campaign resume
	assert_clean
	assert_output --partial "the second is faster"
	run --separate-stderr git campaign measure log m
	assert_clean
	assert_output --partial "median of 2"
	run --separate-stderr git campaign measure show
	assert_clean
	assert_output --partial "m "
	run --separate-stderr git campaign hypo list
	assert_clean
	assert_output --partial "the second is faster"
}

@test "a writing command on a read-only .git/campaign fails in one line and records nothing" {
	run --separate-stderr git campaign measure add m 3
	assert_fatal "cannot write database" hint
	[[ $stderr == *"read-only here"* ]] || fail "$stderr"
	[ "$(git rev-parse refs/notes/campaign)" = "$NOTES" ] || fail "the notes moved"
	run --separate-stderr git campaign hypo add another --metric m --predict 3
	assert_fatal "cannot write database" hint
}
