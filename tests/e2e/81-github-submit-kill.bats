#!/usr/bin/env bats
# A stack submit killed (kill -9) at a point of its run, its PR POSTs slowed
# so that the kill lands between them or while one is applied but not yet
# answered: the next stack submit opens only the PRs still missing, no PR
# twice, and leaves every body naming only PRs that exist, in the right
# places, even when someone else opened an issue in between.

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
	local i
	for i in 1 2 3 4; do
		git campaign stack new "s$i" >/dev/null
		echo "$i" >"f$i"
		git add "f$i"
		git commit -q -m "s$i change"
	done
}

teardown() {
	[ -z "${SUBMIT_PID:-}" ] || kill -9 "$SUBMIT_PID" 2>/dev/null || true
	stop_fakehub
}

state() {
	fh_http GET "/__fake/state?repo=o/r"
}

# kill_submit_at K: starts stack submit --all and kills it (-9) at point K:
# K = 0, while it waits for the newest number, before any POST; K = 1..3,
# once K PR POSTs were sent, the first K - 1 answered and the K-th applied
# by GitHub and held unanswered (the nastiest instant: a PR that exists and
# that the killed run never heard of)
kill_submit_at() {
	local i
	if [ "$1" -eq 0 ]; then
		fh fault '{"method":"GET","path":"/issues$","kind":"slow","seconds":20}' >/dev/null
	else
		fh fault "{\"method\":\"POST\",\"path\":\"/pulls\$\",\"kind\":\"slow\",\"seconds\":20,\"skip\":$(($1 - 1))}" >/dev/null
	fi
	# the program itself, not git's wrapper, which a kill would leave
	git-campaign stack submit --all >"$WORLD/killed.out" 2>&1 &
	SUBMIT_PID=$!
	for i in $(seq 500); do
		if [ "$1" -eq 0 ]; then
			fh log | grep -q '^GET /repos/o/r/issues?state=all' && break
		else
			[ "$(fh log | grep -c '^POST /repos/o/r/pulls ')" -ge "$1" ] && break
		fi
		sleep 0.05
	done
	# the held request has been applied
	sleep 0.3
	kill -9 "$SUBMIT_PID"
	wait "$SUBMIT_PID" 2>/dev/null || true
	SUBMIT_PID=
	fh fault '{"clear":true}' >/dev/null
}

# kill_submit_between K: kills stack submit --all (-9) once K PR POSTs
# were answered, in the pause before the next write (GitHub's second
# between writes, made 3 s here)
kill_submit_between() {
	local i
	GIT_CAMPAIGN_WRITE_GAP_MS=3000 git-campaign stack submit --all \
		>"$WORLD/killed.out" 2>&1 &
	SUBMIT_PID=$!
	for i in $(seq 500); do
		[ "$(fh log | grep -c '^POST /repos/o/r/pulls 201$')" -ge "$1" ] && break
		sleep 0.05
	done
	kill -9 "$SUBMIT_PID"
	wait "$SUBMIT_PID" 2>/dev/null || true
	SUBMIT_PID=
}

# check_stack: one open PR per branch, based on its parent, and each body's
# stack section naming the stack's own numbers: "Stacked on #N" for the
# parent's PR, and in its list every other branch with its PR's number
check_stack() {
	state >"$WORLD/state.json"
	python3 - "$WORLD/state.json" <<'PY'
import json, re, sys
st = json.load(open(sys.argv[1]))
# no PR opened twice (GitHub refuses a second open one for a head, so a
# duplicate would be one closed, or a 422 the run gave up on)
assert len(st["pulls"]) == 4, "%d PRs" % len(st["pulls"])
prs = [p for p in st["pulls"] if p["state"] == "open"]
heads = [p["head"]["ref"] for p in prs]
assert sorted(heads) == ["s1", "s2", "s3", "s4"], "PRs: %s" % heads
num = {p["head"]["ref"]: p["number"] for p in prs}
issues = {i["number"] for i in st["issues"]}
for p in prs:
    b, i = p["head"]["ref"], int(p["head"]["ref"][1:])
    parent = "develop" if i == 1 else "s%d" % (i - 1)
    assert p["base"]["ref"] == parent, (b, p["base"]["ref"])
    body = p["body"]
    sec = body.split("<!-- git-campaign:stack -->")[1]
    named = [int(n) for n in re.findall(r"#(\d+)", sec)]
    for n in named:
        assert n in num.values(), "%s names #%d, not a PR of the stack" % (b, n)
        assert n not in issues
    want = "Stacked on `develop`." if i == 1 else \
        "Stacked on #%d (`%s`)." % (num[parent], parent)
    assert want in sec, (b, sec)
    for other in num:
        if other != b:
            assert "- #%d `%s`" % (num[other], other) in sec, (b, other, sec)
PY
}

@test "a submit killed at any of its PRs is finished by the next submit: no PR twice, no body naming a PR that is not there" {
	local k
	for k in 0 1 2 3; do
		fh reset >/dev/null
		# a world anew: no PR, no pushed branch
		git push -q origin --delete s1 s2 s3 s4 2>/dev/null || true
		kill_submit_at "$k"
		# killed where it was meant to be: K PRs open, no more
		[ "$(state | jq '.pulls | length')" -eq "$k" ] || fail "k=$k: $(fh log)"
		run --separate-stderr git campaign stack submit --all
		[ "$status" -eq 0 ] || fail "k=$k: exit $status: $stderr"
		check_stack || fail "k=$k: $(fh log)"
		# and one more changes nothing
		n=$(fh log | wc -l)
		git campaign stack submit --all >/dev/null
		[ "$(fh log | tail -n +$((n + 1)) | grep -vc '^GET')" -eq 0 ] || fail "k=$k: $(fh log | tail -n +$((n + 1)))"
	done
}

@test "a submit killed between two PR POSTs is finished by the next submit" {
	local k
	for k in 1 3; do
		fh reset >/dev/null
		git push -q origin --delete s1 s2 s3 s4 2>/dev/null || true
		kill_submit_between "$k"
		[ "$(state | jq '.pulls | length')" -eq "$k" ] || fail "k=$k: $(fh log)"
		run --separate-stderr git campaign stack submit --all
		[ "$status" -eq 0 ] || fail "k=$k: exit $status: $stderr"
		check_stack || fail "k=$k: $(fh log)"
	done
}

@test "an issue someone opens between the kill and the next submit is named by no body" {
	kill_submit_at 2
	# the killed run named #3 for s3 in the bodies of #1 and #2
	state | jq -r '.pulls[0].body' | grep -q '^- #3 `s3`$'
	fh seed '{"repo":"o/r","issues":[{"title":"an issue by someone else"}]}' >/dev/null
	[ "$(state | jq '.issues[0].number')" -eq 3 ]
	# what was stopped, and what finishes it
	run --separate-stderr git campaign stack show
	assert_line "a stack submit was stopped while opening #1 s1, #2 s2, #3 s3, #4 s4: 'git campaign stack submit' again finishes it"
	run --separate-stderr git campaign stack submit --all
	[ "$status" -eq 0 ] || fail "exit $status: $stderr"
	assert_line 'finishing the submit stopped midway (#1 s1, #2 s2, #3 s3, #4 s4)'
	assert_line --partial 'updated #1 s1 (body)'
	check_stack
	[ "$(state | jq -r '.pulls[] | select(.head.ref == "s3") | .number')" -eq 4 ]
	run --separate-stderr git campaign stack show
	refute_line --partial 'stopped while opening'
}
