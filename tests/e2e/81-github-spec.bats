#!/usr/bin/env bats
# The fake GitHub's subset of GitHub's OpenAPI description: it holds every
# operation the tool calls (tests/fakehub/operations.txt, cut by subset.py),
# and a request for any other operation, or with a query the operation does
# not declare, is a violation that fails the test.

load helper
load fakehub

setup() {
	setup_world
	start_fakehub
	git config --global init.defaultBranch develop
	git init -q --bare remote.git
	git init -q r
	cd r
	echo base >f0
	git add f0
	git commit -q -m base
	git remote add origin "$WORLD/remote.git"
	git push -q origin develop
	git campaign init demo --forge o/r >/dev/null
}

teardown() {
	stop_fakehub
}

# outside_spec: the requests of the fake's log that no operation of the
# subset answers, "METHOD PATH" each
outside_spec() {
	fh log | python3 -c '
import sys, urllib.parse
sys.path.insert(0, sys.argv[1])
from fakehub import Spec, SPEC_FILE
spec = Spec(SPEC_FILE)
for line in sys.stdin:
    method, url, _ = line.split()
    op, _ = spec.find(method, urllib.parse.urlsplit(url).path)
    if op is None:
        print(method, url)
' "$FAKEHUB_DIR"
}

@test "the subset holds exactly the operations of operations.txt" {
	run python3 "$FAKEHUB_DIR/subset.py" --check
	assert_success
	assert_output ''
}

@test "every REST path the tool builds is a path of the subset" {
	# "/repos/%s/pulls/%ld/reviews?per_page=100" -> a regex over templates
	grep -o '"/repos/%s[^"]*"' "$SRC_DIR/src/io/github/api.c" |
		tr -d '"' | sed 's/?.*//; s/%l*[sd]/X/g' | sort -u >built
	[ "$(wc -l <built)" -ge 10 ]
	python3 -c '
import json, re, sys
paths = json.load(open(sys.argv[1]))["paths"]
tmpl = [re.sub(r"\{[^}]+\}", "X", p) for p in paths]
bad = [b.replace("/repos/X", "/repos/X/X", 1) for b in open("built").read().split()]
bad = [b for b in bad if b not in tmpl]
print("\n".join(bad))
sys.exit(1 if bad else 0)
' "$FAKEHUB_DIR/api.github.com.subset.json"
}

@test "a submit, an umbrella sync and a post call only operations of the subset" {
	fh seed '{"repo":"o/r","issues":[{"title":"Umbrella"}]}' >/dev/null
	git campaign config umbrella 1 >/dev/null
	git campaign stack new s1 >/dev/null
	echo 1 >f1
	git add f1
	git commit -q -m 's1 change'
	git campaign stack new s2 >/dev/null
	echo 2 >f2
	git add f2
	git commit -q -m 's2 change'
	git campaign stack submit --all >/dev/null
	git campaign umbrella sync >/dev/null
	git campaign umbrella post -m x r1 >/dev/null
	git campaign umbrella post -m y r1 >/dev/null
	# the newest number and a lost POST's lookup read issues/list-for-repo
	fh log | grep -q '^GET /repos/o/r/issues?state=all&sort=created&direction=desc&per_page=1 200$'
	run outside_spec
	assert_success
	assert_output ''
}

@test "a request outside the subset is a spec violation that fails the test" {
	h=(-H "Authorization: Bearer test-token" -H "User-Agent: t")
	base="http://127.0.0.1:$FAKEHUB_PORT"
	run curl -s -o /dev/null -w '%{http_code}' "${h[@]}" "$base/repos/o/r/hooks"
	assert_output 404
	curl -s -o /dev/null "${h[@]}" "$base/repos/o/r/issues?state=bogus&colour=red"
	grep -q '"GET", "path": "/repos/o/r/hooks", "violation": "no such operation in the spec"' "$FAKEHUB_VIOLATIONS"
	grep -q "query parameter 'colour' is not in the spec" "$FAKEHUB_VIOLATIONS"
	grep -q "query state=bogus" "$FAKEHUB_VIOLATIONS"
	run stop_fakehub
	assert_failure
	assert_output --partial "fakehub recorded violations of GitHub's spec"
	# this test made them on purpose: teardown has nothing left to fail on
	: >"$FAKEHUB_VIOLATIONS"
	FAKEHUB_PID=
}
