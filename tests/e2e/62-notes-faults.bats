#!/usr/bin/env bats
# Faults of the notes: refs/notes/campaign at a commit that is no notes
# commit is refused by every reader and writer in one line with the way
# back, and nothing is written or pushed (REL-13); a note line that is not
# JSON is named, kept and never taken for a record.

load helper

setup() {
	setup_world
	git init -q --bare remote.git
	make_repo r develop
	cd r
	echo 1 >f1
	git add f1
	git commit -qm files
	git remote add origin ../remote.git
	git push -q origin HEAD develop
	git campaign init demo >/dev/null
	git campaign measure add m0 1 >/dev/null
}

@test "refs/notes/campaign at an ordinary commit is refused by add, log and sync, and nothing is pushed" {
	good=$(git rev-parse refs/notes/campaign)
	git update-ref refs/notes/campaign HEAD
	run --separate-stderr git campaign measure add m1 2
	assert_fatal "is not a notes commit: its tree holds 'f1'" hint
	[[ $stderr == *"git update-ref refs/notes/campaign"* ]] || fail "$stderr"
	[ "$(git rev-parse refs/notes/campaign)" = "$(git rev-parse HEAD)" ] ||
		fail "the ref moved"
	run --separate-stderr git campaign measure log m0
	assert_fatal "is not a notes commit" hint
	run --separate-stderr git campaign sync
	assert_fatal "is not a notes commit" hint
	! git -C ../remote.git rev-parse -q --verify refs/notes/campaign ||
		fail "the commit was pushed"
	# the way back the hint names
	git update-ref refs/notes/campaign "$good"
	run --separate-stderr git campaign measure log m0
	assert_clean
	assert_output --partial "1"
}

@test "a remote's notes ref at an ordinary commit is refused by sync, nothing merged" {
	git -C ../remote.git update-ref refs/notes/campaign "$(git rev-parse HEAD)"
	before=$(git rev-parse refs/notes/campaign)
	run --separate-stderr git campaign sync
	assert_fatal "is not a notes commit" hint
	[ "$(git rev-parse refs/notes/campaign)" = "$before" ] || fail "merged"
}

@test "a note line that is not JSON is named by show, kept by add and left out of log" {
	git notes --ref campaign append -m 'not json {' HEAD
	run --separate-stderr git campaign measure show
	assert_success
	[[ $stderr == "warning: 1 line of the note on "*" is not measurement records"* ]] ||
		fail "$stderr"
	run --separate-stderr git campaign measure add m0 3
	assert_clean
	git notes --ref campaign show HEAD | grep -qx 'not json {' ||
		fail "the line was dropped"
	run --separate-stderr git campaign measure log m0
	assert_success
	assert_output --partial "median of 2"
}
