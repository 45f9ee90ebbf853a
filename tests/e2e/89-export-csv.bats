#!/usr/bin/env bats
# --format csv beside --json: a header row and one row per record, quoted
# as RFC 4180 says, read back by Python's csv module (Debian's python3),
# which a spreadsheet reads the same way.

load helper
load records_helper

PY=$(command -v /usr/bin/python3 || command -v python3)
METRIC='re:time: ([0-9]+);unit=us'

setup() {
	setup_world
	git init -q -b develop r
	cd r
	git commit -q --allow-empty -m 'first, with "quotes"'
	git campaign init >/dev/null
}

# readcsv FILE: the rows of FILE as a JSON list of dicts, by Python's csv
readcsv() {
	"$PY" -c 'import csv, json, sys
with open(sys.argv[1], newline="") as f:
    print(json.dumps(list(csv.DictReader(f))))' "$1"
}

@test "measure log --format csv reads back with the names, subjects and config values, commas, quotes and newlines kept" {
	name='kernel "fused", ms'
	git campaign measure add "$name" 12.5 --unit ms --config "note=$(printf 'a, "b"\nc')" >/dev/null
	git commit -q --allow-empty -m 'second, "again"'
	git campaign measure add "$name" 11 --unit ms --config "note=$(printf 'a, "b"\nc')" >/dev/null
	run --separate-stderr git campaign measure log "$name" --format csv
	assert_clean
	echo "$output" >log.csv
	git campaign measure log "$name" --json >log.json
	readcsv log.csv >rows.json
	"$PY" -c 'import json, subprocess, sys
rows = json.load(open("rows.json"))
j = json.load(open("log.json"))
assert list(rows[0]) == ["commit", "subject", "metric", "unit", "value",
    "records", "env", "config.note", "config.profiler"], list(rows[0])
assert len(rows) == len(j["points"]) == 2, rows
for r, p in zip(rows, j["points"]):
    subject = subprocess.run(["git", "log", "-1", "--format=%s", p["commit"]],
        capture_output=True, text=True).stdout.strip()
    assert r["commit"] == p["commit"] and r["subject"] == subject, (r, subject)
    assert r["metric"] == j["metric"] == sys.argv[1], r
    assert float(r["value"]) == p["value"] and int(r["records"]) == p["records"]
    assert r["config.note"] == p["config"]["note"] == "a, \"b\"\nc", r
    assert r["unit"] == "ms" and r["env"] == p["env"]
' "$name"
}

@test "measure compare --format csv has a header row and the rows --json has" {
	git campaign measure add m - --samples 10,11,12,13,14 >/dev/null
	git campaign measure add 'n,"x"' - --samples 5,5,6,6,7 >/dev/null
	git commit -q --allow-empty -m second
	git campaign measure add m - --samples 20,21,22,23,24 >/dev/null
	git campaign measure add 'n,"x"' - --samples 5,6,6,7,7 >/dev/null
	run --separate-stderr git campaign measure compare HEAD~ HEAD --format=csv
	assert_clean
	echo "$output" >cmp.csv
	git campaign measure compare HEAD~ HEAD --json >cmp.json
	readcsv cmp.csv >rows.json
	# cJSON prints a double to within one ulp; the CSV prints it exactly
	"$PY" -c 'import json, math
rows = json.load(open("rows.json"))
j = json.load(open("cmp.json"))["rows"]
eq = lambda a, b: math.isclose(float(a), b, rel_tol=1e-15)
assert len(rows) == len(j) == 2, rows
for r, e in zip(rows, j):
    assert r["metric"] == e["metric"], (r, e)
    assert eq(r["a_median"], e["a"]["median"]) and int(r["a_n"]) == e["a"]["n"]
    assert eq(r["b_median"], e["b"]["median"]) and int(r["b_n"]) == e["b"]["n"]
    assert eq(r["ratio"], e["ratio"]) and eq(r["p"], e["p"]), (r, e)
    assert eq(r["ci_low"], e["ci"][0]) and eq(r["ci_high"], e["ci"][1]), (r, e)
    assert r["significant"] == ("true" if e["significant"] else "false")
assert rows[1]["metric"] == "n,\"x\"" or rows[0]["metric"] == "n,\"x\""
'
	# the medians are the samples', as Python computes them
	"$PY" -c 'import json, statistics
rows = {r["metric"]: r for r in json.load(open("rows.json"))}
assert float(rows["m"]["a_median"]) == statistics.median([10, 11, 12, 13, 14])
assert float(rows["m"]["b_median"]) == statistics.median([20, 21, 22, 23, 24])'
}

@test "tests baseline --format csv gives one row per machine with pytest's counts" {
	"$PY" -c 'import pytest' 2>/dev/null || skip "Debian's python3-pytest is not installed"
	printf 'def test_a():\n    pass\ndef test_b():\n    assert 0\ndef test_c():\n    pass\n' >test_k.py
	git add test_k.py && git commit -qm tests
	"$PY" -m pytest -q -p no:cacheprovider --junitxml=dev.xml test_k.py >/dev/null || :
	git campaign tests import dev.xml >/dev/null
	run --separate-stderr git campaign tests baseline --format csv
	assert_clean
	echo "$output" >base.csv
	git campaign tests baseline --json >base.json
	readcsv base.csv >rows.json
	"$PY" -c 'import json, xml.etree.ElementTree as ET, subprocess
rows = json.load(open("rows.json"))
j = json.load(open("base.json"))
cases = list(ET.parse("dev.xml").iter("testcase"))
failed = sum(1 for c in cases if c.find("failure") is not None)
assert len(rows) == len(j) == 1, rows
r = rows[0]
assert int(r["failed"]) == failed == 1 and int(r["total"]) == len(cases) == 3, r
assert int(r["passed"]) == 2 and r["on_base"] == "true" and r["branch"] == "develop", r
head = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
assert r["commit"] == head == j[0]["commit"] and r["label"] == j[0]["label"], (r, j)
assert r["env"] == j[0]["env"] and r["latest_commit"] == head'
}

@test "ab --format csv gives the table's rows, control included" {
	write_prog prog.in 1000 10
	write_prog ctl.in 500 0
	printf 'cp prog.in prog && cp ctl.in ctl && chmod +x prog ctl\n' >build.sh
	printf 'prog\nctl\n.runs\n' >.gitignore
	git add . && git commit -qm base
	write_prog prog.in 1000 9
	run --separate-stderr git campaign ab --build 'sh build.sh' \
		--run './prog 100 # "fast", path' --control ./ctl \
		--metric "$METRIC" -n 6 --format csv
	assert_success
	echo "$output" >ab.csv
	readcsv ab.csv >rows.json
	"$PY" -c 'import json
rows = json.load(open("rows.json"))
assert len(rows) == 2, rows
w, c = rows
assert w["workload"] == "./prog 100 # \"fast\", path" and w["control"] == "false", w
assert c["workload"] == "./ctl" and c["control"] == "true", c
assert w["verdict"] == "faster" and c["verdict"] == "steady", rows
assert int(w["a_n"]) == int(w["b_n"]) == 6 and w["unit"] == "us", w
assert float(w["b_median"]) < float(w["a_median"]), w
assert 0.85 < float(w["ratio"]) < 0.95 and float(w["ci_high"]) < 1, w'
}

@test "--json with --format csv is a usage error, and --format takes only text, json or csv" {
	git campaign measure add m 1 >/dev/null
	run --separate-stderr git campaign measure log m --json --format csv
	assert_failure 129
	[ "${stderr_lines[0]}" = "error: --json and --format csv, not both" ]
	run --separate-stderr git campaign tests baseline --format xml
	assert_failure 129
	[[ ${stderr_lines[0]} == "error: "*"xml"* ]]
	# --format json is --json
	[ "$(git campaign measure log m --format json)" = "$(git campaign measure log m --json)" ]
}

@test "measure show --format csv gives a row per sample, as hyperfine's --export-csv a row per run" {
	git campaign measure add 'k, "x"' - --unit ms --samples 3,1,2 --config 'dev=gpu, 0' >/dev/null
	git campaign measure add plain 7 >/dev/null
	run --separate-stderr git campaign measure show --format csv
	assert_clean
	echo "$output" >show.csv
	git campaign measure show --json >show.json
	readcsv show.csv >rows.json
	"$PY" -c 'import json
rows = json.load(open("rows.json"))
recs = json.load(open("show.json"))["records"]
k = [r for r in rows if r["metric"] == "k, \"x\""]
p = [r for r in rows if r["metric"] == "plain"]
assert len(rows) == 4 and len(k) == 3 and len(p) == 1, rows
assert [float(r["sample"]) for r in k] == next(e["samples"] for e in recs if e["metric"] == "k, \"x\"")
assert [r["index"] for r in k] == ["0", "1", "2"] and k[0]["config.dev"] == "gpu, 0", k
assert float(k[0]["value"]) == 2 and k[0]["unit"] == "ms", k
assert p[0]["sample"] == "" and float(p[0]["value"]) == 7 and p[0]["config.dev"] == "", p'
}
