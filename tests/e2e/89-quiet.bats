#!/usr/bin/env bats
# -q/--quiet on every command that prints progress or confirmations, as
# git's porcelain: the confirmations go, the data asked for and the errors
# stay, and the work is done all the same.

load helper
load records_helper

PY=$(command -v /usr/bin/python3 || command -v python3)

setup() {
	setup_world
	git init -q r
	cd r
	echo one >a
	git add a
	git commit -q -m base
	git branch develop
}

@test "init, measure add, hypo add, finding add, stash save and apply say nothing with -q, and do their work" {
	run --separate-stderr git campaign init demo -q
	assert_clean
	[ -z "$output" ] || fail "init -q printed: $output"
	[ "$(git config campaign.name)" = demo ]
	run --separate-stderr git campaign measure add kernel_ms 12 --quiet
	assert_clean
	[ -z "$output" ] || fail "measure add -q printed: $output"
	[ "$(git campaign measure show | awk '{print $1, $2}')" = 'kernel_ms 12' ]
	run --separate-stderr git campaign hypo add "x is 2" --metric x --predict 2 -q
	assert_clean
	[ -z "$output" ]
	[ "$(git campaign hypo list | wc -l)" = 1 ]
	run --separate-stderr git campaign finding add "it crashes" --kind crash -q
	assert_clean
	[ -z "$output" ]
	echo change >>a
	run --separate-stderr git campaign stash save wip -q
	assert_clean
	[ -z "$output" ]
	[ "$(cat a)" = one ]
	run --separate-stderr git campaign stash apply wip -q
	assert_clean
	[ -z "$output" ]
	[ "$(tail -1 a)" = change ]
	# without -q each says what it did
	run --separate-stderr git campaign measure add kernel_ms 13
	[[ $output == "recorded 1 measurement on "* ]]
}

@test "tests import -q and stack restack -q say nothing; the data asked for is still printed" {
	git campaign init demo >/dev/null
	"$PY" -c 'import pytest' 2>/dev/null || skip "Debian's python3-pytest is not installed"
	printf 'def test_a():\n    pass\n' >test_k.py
	"$PY" -m pytest -q -p no:cacheprovider --junitxml=dev.xml test_k.py >/dev/null
	run --separate-stderr git campaign tests import dev.xml -q
	assert_clean
	[ -z "$output" ]
	run --separate-stderr git campaign tests baseline -q
	assert_clean
	[[ $output == *": 0 failed of 1"* ]] || fail "the data went too: $output"
	git checkout -q develop
	git campaign stack new s1 >/dev/null
	echo s1 >>a && git commit -qam s1
	git checkout -q develop
	echo d >b && git add b && git commit -qm d
	run --separate-stderr git campaign stack restack s1 -q
	assert_clean
	[ -z "$output" ] || fail "restack -q printed: $output"
	[ "$(git merge-base s1 develop)" = "$(git rev-parse develop)" ]
	run --separate-stderr git campaign stack show -q
	assert_line --partial 's1 (1 commit)'
}

@test "-q keeps the errors and their hints" {
	git campaign init demo >/dev/null
	run --separate-stderr git campaign measure add kernel_ms notanumber -q
	[ "$status" -ne 0 ]
	[ -z "$output" ]
	[[ $stderr == *"notanumber"* ]] || fail "no error: $stderr"
	run --separate-stderr git campaign stash apply nosuch -q
	assert_failure 128
	[ "${stderr_lines[0]}" = "fatal: no stash named 'nosuch'" ]
	[[ ${stderr_lines[1]} == "hint: "* ]]
}

@test "ab -q on a terminal draws no progress line and still prints the table" {
	command -v script >/dev/null || skip "script (util-linux) is not installed"
	git campaign init demo >/dev/null
	printf '#!/bin/sh\necho "time: 1000"\n' >"$WORLD/prog"
	chmod +x "$WORLD/prog"
	script -qec "git campaign ab --build true --run '$WORLD/prog' -n 2 --warmup 0 --metric 're:time: ([0-9]+);unit=us' -q" /dev/null >"$WORLD/raw"
	tr '\r' '\n' <"$WORLD/raw" | sed 's/\x1b\[K//g' >"$WORLD/tty"
	grep -q '^| workload |' "$WORLD/tty" || fail "no table: $(cat "$WORLD/tty")"
	! grep -q '^[AB] [0-9]*/4 ' "$WORLD/tty" || fail "a progress line: $(cat "$WORLD/tty")"
	! grep -q 'building\|worktrees and builds hold' "$WORLD/tty" || fail "progress or a note: $(cat "$WORLD/tty")"
	# without -q the same run draws it
	script -qec "git campaign ab --build true --run '$WORLD/prog' -n 2 --warmup 0 --metric 're:time: ([0-9]+);unit=us'" /dev/null >"$WORLD/raw"
	tr '\r' '\n' <"$WORLD/raw" | sed 's/\x1b\[K//g' >"$WORLD/tty"
	grep -q '^[AB] [0-9]*/4 ' "$WORLD/tty" || fail "no progress without -q: $(cat "$WORLD/tty")"
}
