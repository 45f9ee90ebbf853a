#!/usr/bin/env bats
# Imports of what the real producers write, made inside each test (ctest,
# pytest, bats, hyperfine, java + jfr) and read back by a few lines of
# Debian's python3: the numbers recorded are the numbers in the file.

load helper

PY=$(command -v /usr/bin/python3 || command -v python3)

setup() {
	setup_world
	git init -q -b develop r
	cd r
	git commit -q --allow-empty -m first
	git campaign init >/dev/null
}

# need PROGRAM: skip, saying why, when the producer is not installed
need() {
	command -v "$1" >/dev/null || skip "$1 is not installed (scripts/deps.sh)"
}

# baseline KEY: KEY of this machine's test baseline, from --json
baseline() {
	git campaign tests baseline --json |
		"$PY" -c 'import json, sys; print(json.load(sys.stdin)[0][sys.argv[1]])' "$1"
}

@test "a test that ctest disabled counts as skipped, not passed" {
	need ctest
	need cmake
	mkdir ct
	cat >ct/CMakeLists.txt <<-'EOT'
		cmake_minimum_required(VERSION 3.13)
		project(t NONE)
		enable_testing()
		add_test(NAME ok COMMAND true)
		add_test(NAME bad COMMAND false)
		add_test(NAME off COMMAND false)
		set_tests_properties(off PROPERTIES DISABLED TRUE)
		add_test(NAME skp COMMAND sh -c "exit 77")
		set_tests_properties(skp PROPERTIES SKIP_RETURN_CODE 77)
	EOT
	cmake -S ct -B ct/b >/dev/null
	run bash -c 'cd ct/b && ctest --output-junit ct.xml'
	assert_output --partial '1 tests failed out of 3'
	assert_output --partial 'off (Disabled)'
	# ctest's own reading of its file: the status attribute of each case
	read -r pass fail skip < <("$PY" - ct/b/ct.xml <<-'EOT'
		import sys, xml.etree.ElementTree as ET
		s = [c.get("status") for c in ET.parse(sys.argv[1]).iter("testcase")]
		print(s.count("run"), s.count("fail"),
		      s.count("disabled") + s.count("notrun"))
	EOT
	)
	[ "$pass $fail $skip" = "1 1 2" ]
	run --separate-stderr git campaign tests import ct/b/ct.xml
	assert_clean
	[ "$(baseline passed)" = "$pass" ]
	[ "$(baseline failed)" = "$fail" ]
	[ "$(baseline skipped)" = "$skip" ]
}
