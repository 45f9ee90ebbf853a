#!/usr/bin/env bats
# Test baselines per machine: the base branch's result kept apart from the
# branch's, and results filed under the machine that ran them.

load helper

PY=$(command -v /usr/bin/python3 || command -v python3)

setup() {
	setup_world
	git init -q -b develop r
	cd r
	git commit -q --allow-empty -m first
	git campaign init >/dev/null
	HERE=$(git campaign env --json | jget id)
}

# jget KEY: KEY of the JSON object on stdin
jget() {
	"$PY" -c 'import json, sys; print(json.load(sys.stdin)[sys.argv[1]])' "$1"
}

# report CLASS PASS FAIL: a Surefire report of one class
report() {
	local i
	printf '<?xml version="1.0" encoding="UTF-8"?>\n<testsuite name="%s" tests="%d">\n' "$1" $(($2 + $3))
	printf '  <properties>\n    <property name="java.version" value="21.0.5"/>\n  </properties>\n'
	for ((i = 0; i < $2; i++)); do
		printf '  <testcase classname="%s" name="p%d" time="0.1"/>\n' "$1" "$i"
	done
	for ((i = 0; i < $3; i++)); do
		printf '  <testcase classname="%s" name="f%d" time="0.1"><failure message="x"/></testcase>\n' "$1" "$i"
	done
	printf '</testsuite>\n'
}

@test "tests import --env files a CI machine's results under that machine" {
	CI=$(git campaign env --backend opencl --json | jget id)
	[ "$CI" != "$HERE" ]
	report uk.ac.manchester.tornado.unittests.TestHello 1 1 >TEST-ci.xml
	run --separate-stderr git campaign tests import --env "$CI" TEST-ci.xml
	assert_clean
	[[ $output == *"(env $CI)" ]]
	run --separate-stderr git campaign tests baseline --env "$CI" --json
	assert_clean
	[ "$(echo "$output" | "$PY" -c 'import json, sys; d = json.load(sys.stdin); print(len(d), d[0]["failed"], d[0]["passed"])')" = '1 1 1' ]
	# nothing was filed under this machine
	run --separate-stderr git campaign tests baseline --env "$HERE" --json
	[ "$(echo "$output" | "$PY" -c 'import json, sys; print(len(json.load(sys.stdin)))')" = 0 ]
	# an environment this repository does not know is refused
	run --separate-stderr git campaign tests import --env 0123456789abcdef TEST-ci.xml
	assert_fatal "unknown environment '0123456789abcdef'" hint
	run --separate-stderr git campaign tests import --env nothex TEST-ci.xml
	assert_failure 129
}

@test "the test baseline is the base branch's result, the branch's latest shown apart with its branch" {
	"$PY" -c 'import pytest' 2>/dev/null || skip "Debian's python3-pytest is not installed"
	printf 'def test_a():\n    pass\ndef test_b():\n    assert 0\ndef test_c():\n    pass\n' >test_k.py
	git add test_k.py && git commit -qm tests
	"$PY" -m pytest -q -p no:cacheprovider --junitxml=dev.xml test_k.py >/dev/null || :
	git campaign tests import dev.xml >/dev/null
	dev=$(git rev-parse HEAD)
	git switch -q -c fix
	sed -i '6s/pass/assert 0/' test_k.py
	git commit -qam 'fix the cache'
	"$PY" -m pytest -q -p no:cacheprovider --junitxml=fix.xml test_k.py >/dev/null || :
	git campaign tests import fix.xml >/dev/null
	fix=$(git rev-parse HEAD)
	# what each file says, read by Python
	failed() {
		"$PY" -c 'import sys, xml.etree.ElementTree as ET; print(sum(1 for c in ET.parse(sys.argv[1]).iter("testcase") if c.find("failure") is not None))' "$1"
	}
	[ "$(failed dev.xml) $(failed fix.xml)" = '1 2' ]
	git switch -q develop
	run --separate-stderr git campaign tests baseline
	assert_clean
	assert_line --index 0 --regexp ": $(failed dev.xml) failed of 3$"
	assert_line --index 1 "    env $HERE, commit ${dev:0:12} on develop: 2 passed, 0 skipped, 0 unsupported, 1 class"
	assert_line --index 2 "    latest import: $(failed fix.xml) failed of 3 at ${fix:0:12} on fix"
	run --separate-stderr git campaign tests baseline --json
	assert_clean
	[ "$(echo "$output" | "$PY" -c 'import json, sys; e = json.load(sys.stdin)[0]; print(e["commit"], e["failed"], e["on_base"], e["latest"]["commit"], e["latest"]["failed"], e["latest"]["branch"])')" = \
		"$dev 1 True $fix 2 fix" ]
	# resume and the umbrella show both, base and branch, per machine
	run --separate-stderr git campaign resume
	assert_line --regexp "^- .*: 1 failed of 3 at ${dev:0:12} on develop \(env $HERE\); latest import 2 failed of 3 at ${fix:0:12} on fix$"
	git campaign config forge example/r >/dev/null
	git campaign config umbrella 7 >/dev/null
	run git campaign umbrella sync --dry-run
	assert_line --regexp "^- .*: 1 failed of 3 at ${dev:0:12} on develop \(env $HERE\); latest import 2 failed of 3 at ${fix:0:12} on fix$"
}

@test "a machine tested only on a branch has no base result, and says so" {
	git switch -q -c fix
	git commit -q --allow-empty -m work
	report a.B 2 1 >TEST-a.B.xml
	git campaign tests import TEST-a.B.xml >/dev/null
	run --separate-stderr git campaign tests baseline
	assert_clean
	assert_line --index 0 --regexp ': 1 failed of 3 at the latest import, none on develop$'
	assert_line --index 1 --regexp "^    env $HERE, commit [0-9a-f]{12} on fix: "
	run --separate-stderr git campaign resume
	assert_line --regexp ': 1 failed of 3 at [0-9a-f]{12}, the latest import: none on develop \(env '
}
