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
