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

# jdk17: put the Debian JDK 17's bin first on PATH, or skip
jdk17() {
	local bin=/usr/lib/jvm/java-17-openjdk-amd64/bin
	[ -x "$bin/java" ] && [ -x "$bin/jfr" ] && [ -x "$bin/javac" ] ||
		skip "openjdk-17-jdk-headless is not installed (scripts/deps.sh)"
	export PATH="$bin:$PATH" JAVA_HOME=${bin%/bin}
}

@test "a JFR recording imports its sample counts as jfr print --json has them; its text form is refused with what to do" {
	jdk17
	cat >Hot.java <<-'EOT'
		public class Hot {
		    static double slow(int i) { double s = 0; for (int k = 0; k < 2000; k++) s += Math.sqrt(i + k); return s; }
		    public static void main(String[] a) {
		        long end = System.currentTimeMillis() + 1500; double s = 0;
		        for (int i = 0; System.currentTimeMillis() < end; i++) s += slow(i);
		        System.out.println(s);
		    }
		}
	EOT
	javac -d . Hot.java
	java -XX:StartFlightRecording=filename=run.jfr,settings=profile Hot >/dev/null 2>&1
	jfr print --json --events jdk.ExecutionSample run.jfr >run.json
	want=$("$PY" -c 'import json, sys; print(len(json.load(open(sys.argv[1]))["recording"]["events"]))' run.json)
	[ "$want" -gt 0 ]
	jfr print --stack-depth 96 --events ExecutionSample,NativeMethodSample run.jfr >run.txt
	before=$(git rev-parse refs/notes/campaign)
	run --separate-stderr git campaign measure import run.txt
	assert_fatal "run.txt:$(grep -n '^jdk\.[A-Za-z]* {$' run.txt | head -1 | cut -d: -f1): expected jfr print --json output, not the text of jfr print" hint
	[ "${stderr_lines[1]}" = "hint: import the .jfr recording itself, or the output of 'jfr print --json'" ]
	[ "$(git rev-parse refs/notes/campaign)" = "$before" ]
	run --separate-stderr git campaign measure import run.jfr
	assert_clean
	# the total is jfr's own event count, and the methods add up to it
	got=$(git notes --ref campaign show HEAD | "$PY" -c '
import json, sys
rs = [r for r in map(json.loads, sys.stdin)
      if r["metric"] == "jfr.samples" and r["config"]["event"] == "jdk.ExecutionSample"]
total = [r["value"] for r in rs if "method" not in r["config"]]
print(int(total[0]), int(sum(r["value"] for r in rs if "method" in r["config"])))')
	[ "$got" = "$want $want" ]
}

@test "hyperfine --export-json imports every median and sample as the file has them, in ns" {
	need hyperfine
	hyperfine --runs 5 --warmup 1 --export-json hf.json -N 'sleep 0.01' 'sleep 0.02' >/dev/null 2>&1 ||
		hyperfine --runs 5 --warmup 1 --export-json hf.json 'sleep 0.01' 'sleep 0.02' >/dev/null
	run --separate-stderr git campaign measure import hf.json
	assert_clean
	# per command: the median and the samples, x 1e9, as Python reads them
	want=$("$PY" -c '
import json, sys
for r in json.load(open(sys.argv[1]))["results"]:
    print(r["command"], round(r["median"] * 1e9), [round(t * 1e9) for t in r["times"]])' hf.json)
	# hyperfine prints seconds with ns digits: equal to the nearest ns
	got=$(git notes --ref campaign show HEAD | "$PY" -c '
import json, sys
for r in map(json.loads, sys.stdin):
    if r["metric"] == "hyperfine.time" and r["stat"] == "median":
        print(r["config"]["command"], round(r["value"]), [round(t) for t in r["samples"]])')
	[ "$(sort <<<"$got")" = "$(sort <<<"$want")" ]
	[ "$(wc -l <<<"$want")" = 2 ]
}

@test "bats --formatter junit counts as bats itself counts" {
	need bats
	mkdir suite
	# printf: bats would take @test lines of a here-document for its own
	printf '%s\n' '@test "one" { true; }' '@test "two" { false; }' \
		'@test "three" { skip "not here"; }' >suite/t.bats
	# a bats of its own, out of this one's environment
	env -i PATH="$PATH" HOME="$HOME" LANG=C /usr/bin/bats --formatter junit suite/t.bats >bats.xml || :
	f=bats.xml
	grep -q '<testsuite ' "$f" || fail "bats wrote no JUnit: $(cat "$f")"
	# bats writes raw control bytes Python's parser refuses: strip them
	read -r p fl s < <(tr -d '\001\002\007' <"$f" | "$PY" -c '
import sys, xml.etree.ElementTree as ET
p = f = s = 0
for c in ET.fromstring(sys.stdin.read()).iter("testcase"):
    kids = {k.tag for k in c}
    if kids & {"failure", "error"}: f += 1
    elif "skipped" in kids: s += 1
    else: p += 1
print(p, f, s)')
	[ "$p $fl $s" = '1 1 1' ]
	run --separate-stderr git campaign tests import "$f"
	assert_clean
	[ "$(baseline passed) $(baseline failed) $(baseline skipped)" = "$p $fl $s" ]
}
