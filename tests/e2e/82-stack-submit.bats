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
	# one list of the open PRs, the newest number, a POST each whose body
	# names the predicted numbers already: no PATCH
	fh log >log
	printf '%s\n' 'GET /repos/o/r/pulls?state=open&per_page=100 200' \
		'GET /repos/o/r/issues?state=all&sort=created&direction=desc&per_page=1 200' \
		'POST /repos/o/r/pulls 201' 'POST /repos/o/r/pulls 201' \
		'POST /repos/o/r/pulls 201' | diff - log
	[ "$(pr_field 1 .base.ref)" = develop ]
	[ "$(pr_field 2 .base.ref)" = s1 ]
	[ "$(pr_field 3 .base.ref)" = s2 ]
	[ "$(pr_field 1 .title)" = 's1 one' ]
	pr_field 2 .body >body
	# the body `pr body` renders without its placeholders, each section
	# between hashed markers, then the stack section
	git campaign pr body s2 | grep -vF '<!-- git-campaign:todo -->' >rendered
	grep -v '^<!-- git-campaign:gen' body >unwrapped
	[ "$(head -n "$(wc -l <rendered)" unwrapped)" = "$(cat rendered)" ]
	! grep -qF 'git-campaign:todo' body
	grep -qx '<!-- git-campaign:gen [0-9a-f]\{12\} -->' body
	grep -qxF '## 4. Numbers' body
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
	# one list of the open PRs, nothing else
	echo 'GET /repos/o/r/pulls?state=open&per_page=100 200' | diff - after
	pr_field 2 .body | cmp - body
	# the list did not change since: its ETag makes it a 304
	fh log >before
	run --separate-stderr git campaign stack submit
	assert_clean
	fh log | tail -n +"$(($(wc -l <before) + 1))" >after
	echo 'GET /repos/o/r/pulls?state=open&per_page=100 304' | diff - after
}

@test "a PR opened by someone else between two POSTs: the stale bodies are PATCHed" {
	make_stack 3
	# an issue takes the number predicted for s2's PR, just before its POST
	fh fault '{"method":"POST","path":"/pulls$","kind":"race","skip":1}' >/dev/null
	run --separate-stderr git campaign stack submit
	assert_clean
	assert_line --partial 'opened #1 for s1 onto develop'
	assert_line --partial 'opened #3 for s2 onto s1'
	assert_line --partial 'opened #4 for s3 onto s2'
	# s1's and s2's bodies named #2 and #3 wrongly: PATCHed; s3's POST
	# already had the moved numbers
	assert_line 'updated #1 s1 (body)'
	assert_line 'updated #3 s2 (body)'
	refute_line --partial 's3 is up to date'
	[ "$(fh_count POST)" -eq 3 ] && [ "$(fh_count PATCH)" -eq 2 ] || fail "$(fh log)"
	pr_field 1 .body >body
	grep -qxF -- '- #3 `s2`' body
	grep -qxF -- '- #4 `s3`' body
	pr_field 4 .body | grep -qxF 'Stacked on #3 (`s2`).'
	pr_field 3 .body | grep -qxF -- '- #4 `s3`'
	[ "$(sqlite3 .git/campaign/campaign.db "SELECT group_concat(number) FROM (SELECT number FROM pr ORDER BY branch)")" = '1,3,4' ]
}

@test "one git push for the whole stack, a lease per branch" {
	make_stack 3
	# git-campaign itself: git would put its exec-path first in PATH
	mkdir -p ../bin
	printf '#!/bin/sh\n[ "$1" = push ] && printf "%%s\\n" "$*" >>"%s"\nexec %s "$@"\n' \
		"$WORLD/pushes" "$(command -v git)" >../bin/git
	chmod +x ../bin/git
	PATH=$WORLD/bin:$PATH run --separate-stderr git-campaign stack submit
	assert_clean
	[ "$(wc -l <../pushes)" -eq 1 ] || fail "$(cat ../pushes)"
	grep -qF -- '--force-with-lease=refs/heads/s1: --force-with-lease=refs/heads/s2: --force-with-lease=refs/heads/s3: origin refs/heads/s1:refs/heads/s1 refs/heads/s2:refs/heads/s2 refs/heads/s3:refs/heads/s3' ../pushes || fail "$(cat ../pushes)"
	git checkout -q s3
	commit c s3-two 's3 two'
	PATH=$WORLD/bin:$PATH run --separate-stderr git-campaign stack submit
	assert_clean
	assert_line 'pushed s3'
	refute_line 'pushed s1'
	[ "$(wc -l <../pushes)" -eq 2 ] || fail "$(cat ../pushes)"
	tail -1 ../pushes | grep -qE -- '--force-with-lease=refs/heads/s3:[0-9a-f]{40} origin refs/heads/s3:refs/heads/s3$' || fail "$(cat ../pushes)"
	# nothing new: no push at all
	PATH=$WORLD/bin:$PATH run --separate-stderr git-campaign stack submit
	assert_clean
	[ "$(wc -l <../pushes)" -eq 2 ] || fail "$(cat ../pushes)"
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
	# the retarget only: the first submit needed no PATCH
	[ "$(fh_count PATCH)" -eq 1 ]
}

@test "a PR in a native GitHub stack is neither retargeted nor moved" {
	make_stack 3
	git campaign stack submit >/dev/null
	fh edit '{"repo":"o/r","number":2,"set":{"stack":{"base":{"ref":"develop","sha":"0123456789abcdef0123456789abcdef01234567"},"size":3,"position":2,"id":7,"number":1}}}' >/dev/null
	fh merge '{"repo":"o/r","number":1}' >/dev/null
	run --separate-stderr git campaign stack sync
	assert_clean
	assert_line '#1 s1: merged'
	assert_line '#2 s2 is in a native GitHub stack: not retargeted (GitHub refuses), not moved; retarget it on GitHub'
	refute_line --partial 'moved s2'
	[ "$(fh_count PATCH)" -eq 0 ] || fail "$(fh log)"
	[ "$(pr_field 2 .base.ref)" = s1 ]
	[ "$(parent_of s2)" = s1 ]
	# submit leaves it as it is too
	run --separate-stderr git campaign stack submit s3
	assert_clean
	refute_line --partial 'updated #2'
}

@test "without the newest number the PRs are opened all the same, their bodies PATCHed after" {
	make_stack 3
	fh fault '{"method":"GET","path":"/issues$","status":502,"count":3}' >/dev/null
	run --separate-stderr git campaign stack submit
	assert_clean
	assert_line 'updated #1 s1 (body)'
	assert_line 'updated #2 s2 (body)'
	# opened by this run: said once, by its "opened" line
	refute_line --partial 'is up to date'
	[ "$(fh_count POST)" -eq 3 ] && [ "$(fh_count PATCH)" -eq 2 ] || fail "$(fh log)"
	pr_field 1 .body | grep -qxF -- '- #3 `s3`'
}
