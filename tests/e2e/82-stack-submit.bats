#!/usr/bin/env bats
# git campaign stack submit|sync against the fake GitHub and a bare remote:
# PRs based on their parents with a "Stacked on" section, idempotent
# resubmits, pushes with a lease after a restack, retargeting after a merge.

load helper
load stack_helper
load fakehub

setup() {
	setup_world
	start_fakehub
	git init -q --bare remote.git
	git init -q r
	cd r
	local f
	for f in a b c d e; do
		printf '%s\n' "$f 1" "$f 2" "$f 3" >"$f"
	done
	git add .
	git commit -q -m base
	git branch develop
	git remote add origin "$WORLD/remote.git"
	git push -q origin develop
	git campaign init demo --forge o/r >/dev/null
	git checkout -q develop
	NTH=0
}

teardown() {
	stop_fakehub
}

# pr_field N JQ: a field of PR #N as the fake stores it
pr_field() {
	fh_http GET "/__fake/state?repo=o/r" | jq -r ".pulls[] | select(.number == $1) | $2"
}

pr_count() {
	fh_http GET "/__fake/state?repo=o/r" | jq '.pulls | length'
}

@test "submit pushes a 3-branch stack and opens 3 PRs based on their parents" {
	make_stack 3
	run --separate-stderr git campaign stack submit
	assert_clean
	assert_line 'pushed s1'
	assert_line 'pushed s3'
	assert_line --partial 'opened #1 for s1 onto develop'
	assert_line --partial 'opened #2 for s2 onto s1'
	assert_line --partial 'opened #3 for s3 onto s2'
	[ "$(pr_count)" -eq 3 ]
	# a lookup and a POST each, then the first two learn their children
	fh log >log
	[ "$(fh_count POST)" -eq 3 ] && [ "$(fh_count PATCH)" -eq 2 ] || fail "$(cat log)"
	[ "$(wc -l <log)" -eq 8 ] || fail "$(cat log)"
	[ "$(pr_field 1 .base.ref)" = develop ]
	[ "$(pr_field 2 .base.ref)" = s1 ]
	[ "$(pr_field 3 .base.ref)" = s2 ]
	[ "$(pr_field 1 .title)" = 's1 one' ]
	pr_field 2 .body >body
	grep -qxF 'Stacked on #1 (`s1`).' body
	grep -qxF -- '- #1 `s1`' body
	grep -qxF -- '- `s2` ← this PR' body
	grep -qxF -- '- #3 `s3`' body
	[ "$(grep -c '^<!-- git-campaign:stack -->$' body)" -eq 2 ]
	pr_field 1 .body | grep -qxF 'Stacked on `develop`.'
	pr_field 1 .body | grep -qxF -- '- #3 `s3`'
	for b in s1 s2 s3; do
		[ "$(git -C ../remote.git rev-parse "$b")" = "$(git rev-parse "$b")" ]
	done
	[ "$(sqlite3 .git/campaign/campaign.db "SELECT branch || ' ' || number || ' ' || state || ' ' || base FROM pr ORDER BY number" | tr '\n' ,)" = 's1 1 open develop,s2 2 open s1,s3 3 open s2,' ]
	run git campaign stack show
	assert_line --partial '#2 open'
}

@test "a second submit changes nothing: no push, no POST, no PATCH" {
	make_stack 3
	git campaign stack submit >/dev/null
	fh log >before
	pr_field 2 .body >body
	run --separate-stderr git campaign stack submit s2
	assert_clean
	assert_line '#1 s1 is up to date'
	assert_line '#3 s3 is up to date'
	refute_line --partial pushed
	[ "$(pr_count)" -eq 3 ]
	fh log | tail -n +"$(($(wc -l <before) + 1))" >after
	! grep -qE '^(POST|PATCH)' after || fail "$(cat after)"
	# one GET per PR, by its cached number
	[ "$(grep -c '^GET /repos/o/r/pulls/[0-9]* ' after)" -eq 3 ] || fail "$(cat after)"
	[ "$(wc -l <after)" -eq 3 ] || fail "$(cat after)"
	pr_field 2 .body | cmp - body
}

@test "text outside the markers is kept byte for byte" {
	make_stack 2
	git campaign stack submit >/dev/null
	body=$(pr_field 2 .body | jq -Rs .)
	fh edit "{\"repo\":\"o/r\",\"number\":2,\"set\":{\"body\":$(jq -n --argjson b "$body" '"Human intro.\n\n" + $b + "\nHuman outro.\n"')}}" >/dev/null
	run --separate-stderr git campaign stack submit
	assert_clean
	assert_line '#2 s2 is up to date'
	pr_field 2 .body >body
	[ "$(head -1 body)" = 'Human intro.' ]
	# jq -r adds a line break after the body's own
	[ "$(sed '$d' body | tail -1)" = 'Human outro.' ]
	[ "$(grep -c '^<!-- git-campaign:stack -->$' body)" -eq 2 ]
}

@test "a restacked stack is pushed with a lease on the old tip" {
	make_stack 3
	git campaign stack submit >/dev/null
	old=$(git rev-parse s2)
	git checkout -q s1
	commit a s1-three 's1 three'
	git campaign stack restack >/dev/null
	run --separate-stderr git campaign stack submit
	assert_clean
	assert_line 'pushed s1'
	assert_line 'pushed s2 (restacked: forced with a lease)'
	assert_line 'pushed s3 (restacked: forced with a lease)'
	[ "$(git -C ../remote.git rev-parse s2)" = "$(git rev-parse s2)" ]
	[ "$(git -C ../remote.git rev-parse s2)" != "$old" ]
	[ "$(pr_count)" -eq 3 ]
}

@test "a remote tip that is no restack backup is not overwritten" {
	make_stack 2
	git campaign stack submit >/dev/null
	git clone -q ../remote.git ../other
	git -C ../other checkout -q s2
	echo other >>../other/e
	git -C ../other commit -qam other
	git -C ../other push -q origin s2
	git checkout -q s1
	commit a s1-three 's1 three'
	git campaign stack restack >/dev/null
	git fetch -q origin
	run --separate-stderr git campaign stack submit
	[ "$status" -eq 1 ]
	[[ $stderr == *"'s2' on 'origin' ("*") has commits that are not in the local branch"* ]]
	[ "$(git -C ../remote.git log -1 --format=%s s2)" = other ]
}

@test "a concurrent push makes the lease fail cleanly" {
	make_stack 2
	git campaign stack submit >/dev/null
	git clone -q ../remote.git ../other
	git -C ../other checkout -q s2
	echo other >>../other/e
	git -C ../other commit -qam other
	git -C ../other push -q origin s2
	git checkout -q s1
	commit a s1-three 's1 three'
	git campaign stack restack >/dev/null
	run --separate-stderr git campaign stack submit
	[ "$status" -eq 128 ] || fail "exit $status: $stderr"
	assert_line 'pushed s1'
	[[ ${stderr_lines[0]} == "fatal: cannot push 's2' to 'origin': "* ]] || fail "$stderr"
	[[ ${stderr_lines[1]} == 'hint: someone else pushed to it'* ]]
	[ "$(git -C ../remote.git log -1 --format=%s s2)" = other ]
}

@test "sync after the bottom PR merged retargets its child, then re-parents it" {
	make_stack 3
	git campaign stack submit >/dev/null
	fh merge '{"repo":"o/r","number":1}' >/dev/null
	run --separate-stderr git campaign stack sync
	assert_clean
	assert_line '#1 s1: merged'
	assert_line '#2 s2: open'
	assert_line 'retargeted #2 s2 onto develop (#1 s1 merged)'
	assert_line 'moved s2 onto develop'
	assert_line --regexp '^restacked s2: [0-9a-f]{7} -> [0-9a-f]{7} \(1 commit\)$'
	refute_line 'nothing to restack'
	[ "$(pr_field 2 .base.ref)" = develop ]
	[ "$(pr_field 3 .base.ref)" = s2 ]
	[ "$(parent_of s2)" = develop ]
	[ "$(git merge-base s2 develop)" = "$(git rev-parse develop)" ]
	! git merge-base --is-ancestor s1 s2
	[ "$(sqlite3 .git/campaign/campaign.db "SELECT state FROM pr WHERE branch = 's1'")" = merged ]
	[ "$(sqlite3 .git/campaign/campaign.db "SELECT base FROM pr WHERE branch = 's2'")" = develop ]
	# the PATCH of the base came before anything else was written
	fh log | grep -E '^(PATCH|POST)' | tail -n 1 | grep -qx 'PATCH /repos/o/r/pulls/2 200'
	run --separate-stderr git campaign stack submit s2
	assert_clean
	assert_line 'pushed s2 (restacked: forced with a lease)'
	assert_line --partial 'updated #2 s2 (body)'
	pr_field 2 .body | grep -qxF 'Stacked on `develop`.'
}

@test "submit --dry-run pushes nothing and sends no writes" {
	make_stack 2
	run --separate-stderr git campaign stack submit --dry-run --all
	assert_clean
	assert_line 'would push s1'
	assert_line 'would open a PR for s2 onto s1: s2'
	! git -C ../remote.git rev-parse -q --verify s1
	[ "$(fh_count POST)" -eq 0 ] && [ "$(fh_count PATCH)" -eq 0 ]
	[ "$(pr_count)" -eq 0 ]
	[ -z "$(sqlite3 .git/campaign/campaign.db 'SELECT * FROM pr')" ]
}

@test "a branch that needs a restack is refused before anything is pushed" {
	make_stack 2
	git checkout -q s1
	commit a s1-three 's1 three'
	run --separate-stderr git campaign stack submit
	[ "$status" -eq 1 ]
	[ "${stderr_lines[0]}" = "error: 's2' needs a restack first" ] || fail "$stderr"
	[[ $stderr == *"git campaign stack restack"* ]]
	! git -C ../remote.git rev-parse -q --verify s1
	[ -z "$(fh log)" ]
}

@test "without a token, one clear line and nothing pushed" {
	make_stack 1
	unset GH_TOKEN
	PATH="$BIN_DIR:/usr/bin:/bin" run --separate-stderr env -u GH_TOKEN \
		GIT_ASKPASS=/bin/false SSH_ASKPASS=/bin/false git campaign stack submit
	[ "$status" -eq 128 ] || fail "exit $status: $stderr"
	[ -z "$output" ]
	[[ ${stderr_lines[0]} == 'fatal: '*GH_TOKEN* ]] || fail "$stderr"
	! git -C ../remote.git rev-parse -q --verify s1
}

@test "submit and sync usage" {
	run --separate-stderr git campaign stack submit s1 --all
	[ "$status" -eq 129 ]
	run --separate-stderr git campaign stack sync extra
	[ "$status" -eq 129 ]
	run --separate-stderr git campaign stack restack --draft
	[ "$status" -eq 129 ]
	run --separate-stderr git campaign stack submit nowhere
	assert_fatal "'nowhere' is not a stacked branch"
}

@test "sync retargets even when the move is refused; the next sync finishes it" {
	make_stack 2
	git campaign stack submit >/dev/null
	fh merge '{"repo":"o/r","number":1}' >/dev/null
	echo dirty >>b
	run --separate-stderr git campaign stack sync
	[ "$status" -ne 0 ] && [ "$status" -ne 129 ] || fail "exit $status: $stderr"
	assert_line 'retargeted #2 s2 onto develop (#1 s1 merged)'
	[[ $stderr == *"then run 'git campaign stack sync' again"* ]] || fail "$stderr"
	[ "$(pr_field 2 .base.ref)" = develop ]
	[ "$(parent_of s2)" = s1 ]
	git checkout -q -- b
	run --separate-stderr git campaign stack sync
	assert_clean
	assert_line '#2 s2 is on develop already (#1 s1 merged)'
	assert_line 'moved s2 onto develop'
	[ "$(parent_of s2)" = develop ]
	[ "$(fh_count PATCH)" -eq 2 ]
}
