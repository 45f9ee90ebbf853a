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

# pytest ARGS...: Debian's pytest, without its cache in the repository
pytest_run() {
	"$PY" -m pytest -q -p no:cacheprovider "$@"
}

# junit_counts FILE: "passed failed skipped" of a pytest JUnit file, read
# by Python's own XML parser
junit_counts() {
	"$PY" - "$1" <<-'EOT'
		import sys, xml.etree.ElementTree as ET
		p = f = s = 0
		for c in ET.parse(sys.argv[1]).iter("testcase"):
		    kids = {k.tag for k in c}
		    if kids & {"failure", "error"}: f += 1
		    elif "skipped" in kids: s += 1
		    else: p += 1
		print(p, f, s)
	EOT
}

@test "a JUnit file whose captured output holds ncu lines is JUnit, not ncu" {
	"$PY" -c 'import pytest' 2>/dev/null || skip "Debian's python3-pytest is not installed"
	cat >test_ncu.py <<-'EOT'
		def test_runs_under_ncu():
		    print("==PROF== Connected to process 841 (./probe)")
		    print("==WARNING== No kernels were profiled.")
		def test_fails_under_ncu():
		    print("==PROF== Disconnected from process 841")
		    assert 0
	EOT
	run pytest_run -o junit_logging=system-out --junitxml=prof.xml test_ncu.py
	assert_output --partial '1 failed, 1 passed'
	grep -q '==PROF== Connected' prof.xml
	[ "$(junit_counts prof.xml)" = '1 1 0' ]
	run --separate-stderr git campaign tests import prof.xml
	assert_clean
	[[ $output == 'imported 1 test class (junit) for '* ]]
	[ "$(baseline passed) $(baseline failed) $(baseline skipped)" = '1 1 0' ]
	# measure import detects it the same way
	run --separate-stderr git campaign measure import prof.xml
	assert_clean
	[[ $output == 'recorded '*' from junit on '* ]]
}

@test "tests import of a directory of reports reads them as JUnit without --format" {
	"$PY" -c 'import pytest' 2>/dev/null || skip "Debian's python3-pytest is not installed"
	printf 'def test_ok():\n    pass\ndef test_skip():\n    import pytest; pytest.skip("no GPU")\n' >test_a.py
	printf 'def test_bad():\n    assert 0\n' >test_b.py
	pytest_run --junitxml=reports/TEST-a.xml test_a.py >/dev/null || :
	pytest_run --junitxml=reports/TEST-b.xml test_b.py >/dev/null || :
	read -r p1 f1 s1 < <(junit_counts reports/TEST-a.xml)
	read -r p2 f2 s2 < <(junit_counts reports/TEST-b.xml)
	run --separate-stderr git campaign tests import reports
	assert_clean
	[[ $output == 'imported 2 test classes (junit) for '* ]]
	[ "$(baseline passed)" = $((p1 + p2)) ]
	[ "$(baseline failed)" = $((f1 + f2)) ]
	[ "$(baseline skipped)" = $((s1 + s2)) ]
}

@test "an input of no test format names the formats tests import reads" {
	echo hello >x.txt
	run --separate-stderr git campaign tests import x.txt
	assert_fatal "cannot tell the format of 'x.txt'" hint
	[ "${stderr_lines[1]}" = 'hint: name it with --format junit or tornado-test' ]
	run --separate-stderr git campaign measure import x.txt
	assert_fatal "cannot tell the format of 'x.txt'" hint
	[ "${stderr_lines[1]}" = 'hint: name it with --format ncu, nsys, jfr, hyperfine, junit, tornado-test, benchmark-runner or llm' ]
}

@test "a BenchmarkRunner line after 64 KiB of build output is detected" {
	yes '[INFO] Compiling 412 source files to /build/tornado-benchmarks/target/classes' |
		head -n 900 >bm.txt
	[ "$(wc -c <bm.txt)" -gt 65536 ]
	echo 'Performance: bm=saxpy-100000-512, id=java-reference, average(ns)=5.411360e+04, median(ns)=5.394000e+04, firstIteration(ns)=9.100000e+05, best(ns)=5.100000e+04' >>bm.txt
	run --separate-stderr git campaign measure import bm.txt
	assert_clean
	[[ $output == 'recorded 4 measurements from benchmark-runner on '* ]]
}

@test "a pytest run that collected no tests is refused as input, exit 128" {
	"$PY" -c 'import pytest' 2>/dev/null || skip "Debian's python3-pytest is not installed"
	printf 'def make_data():\n    pass\n' >test_none.py
	pytest_run --junitxml=none.xml test_none.py >/dev/null || :
	[ "$("$PY" -c 'import sys, xml.etree.ElementTree as ET; print(len(list(ET.parse(sys.argv[1]).iter("testcase"))))' none.xml)" = 0 ]
	run --separate-stderr git campaign tests import none.xml
	assert_fatal 'no per-class test counts in the input (junit)'
	[ ! -e .git/campaign/campaign.db ] ||
		[ "$(sqlite3 .git/campaign/campaign.db 'SELECT count(*) FROM test_result')" = 0 ]
}
