#!/usr/bin/env bats
# The crash-point harness (tests/crash/crash.sh) on a bounded sample: each
# command killed at a few of its rename and write calls and at a random
# instant survives (see crash.sh for what surviving means). `make crash`
# runs every kill point.

load helper

setup() {
	command -v strace >/dev/null || skip "strace is missing (Debian package strace)"
	command -v sqlite3 >/dev/null || skip "sqlite3 is missing"
}

crash() {
	run "$SRC_DIR/tests/crash/crash.sh" -f 10 -k "rename write" -n 3 -t 1 \
		-s 1 -v "$1"
	echo "$output" >&3
	assert_success
}

@test "stash save survives kills at its rename and write calls and at a random instant" {
	crash stash-save
}

@test "sync survives kills at its rename and write calls and at a random instant" {
	crash sync
}

@test "stack restack survives kills at its rename and write calls and at a random instant" {
	crash restack
}

@test "init survives kills at its rename and write calls and at a random instant" {
	crash init
}

@test "ab in stash mode survives kills at its rename and write calls and at a random instant" {
	crash ab-stash
}

@test "stash pop survives kills at its rename and write calls and at a random instant" {
	crash stash-pop
}

@test "stash apply survives kills at its rename and write calls and at a random instant" {
	crash stash-apply
}

@test "measure add survives kills at its rename and write calls and at a random instant" {
	crash measure-add
}

@test "measure add --batch survives kills at its rename and write calls and at a random instant" {
	crash measure-batch
}

@test "measure import survives kills at its rename and write calls and at a random instant" {
	crash measure-import
}
