#!/usr/bin/env bats
# What a stacked-PR user sees of GitHub: stack show --remote gives each PR's
# review decision and CI (conditional requests, 304s when nothing changed),
# and stack submit asks campaign.github.reviewers and adds
# campaign.github.labels, once, only what is not there yet.

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

# stack N: branches s1..sN stacked in a line, one commit each
stack() {
	local i
	for i in $(seq "$1"); do
		git campaign stack new "s$i" >/dev/null
		echo "$i" >"f$i"
		git add "f$i"
		git commit -q -m "s$i change"
	done
}

pr_field() {
	fh_http GET "/__fake/state?repo=o/r" | jq -r ".pulls[] | select(.number == $1) | $2"
}

# since N: the fake's log past its first N lines
since() {
	fh log | tail -n +$(($1 + 1))
}

@test "stack show --remote gives each PR's review decision and CI" {
	stack 3
	git campaign stack submit --all >/dev/null
	# s1: approved after changes were asked; CI: a status and a check pass
	fh review '{"repo":"o/r","number":1,"user":"alice","state":"CHANGES_REQUESTED"}' >/dev/null
	fh review '{"repo":"o/r","number":1,"user":"alice","state":"APPROVED"}' >/dev/null
	fh review '{"repo":"o/r","number":1,"user":"bob","state":"COMMENTED"}' >/dev/null
	fh status '{"repo":"o/r","number":1,"context":"ci/jenkins","state":"success"}' >/dev/null
	fh check '{"repo":"o/r","number":1,"name":"build","conclusion":"success"}' >/dev/null
	# s2: one approval, one change request standing; a check fails, one runs
	fh review '{"repo":"o/r","number":2,"user":"alice","state":"APPROVED"}' >/dev/null
	fh review '{"repo":"o/r","number":2,"user":"carol","state":"CHANGES_REQUESTED"}' >/dev/null
	fh check '{"repo":"o/r","number":2,"name":"build","conclusion":"failure"}' >/dev/null
	fh check '{"repo":"o/r","number":2,"name":"test","status":"in_progress"}' >/dev/null
	# s3: nothing yet
	run --separate-stderr git campaign stack show --remote
	assert_clean
	assert_line '  #1 s1: open, approved, CI passing (2 passing)'
	assert_line '  #2 s2: open, changes requested, CI failing (1 failing, 1 pending)'
	assert_line '  #3 s3: open, no review, CI none'
	run --separate-stderr git campaign stack show --remote --json
	assert_clean
	[ "$(jq -c '.remote[1]' <<<"$output")" = '{"branch":"s2","number":2,"state":"open","review":"changes requested","ci":{"state":"failing","failing":1,"pending":1,"passing":0,"statuses":0,"check_runs":2}}' ] ||
		fail "$output"
	[ "$(jq -r '.branches[0].branch' <<<"$output")" = s1 ]
}

@test "stack show --remote is one conditional GET for the list and three a PR, all 304s when nothing changed" {
	stack 2
	git campaign stack submit --all >/dev/null
	n=$(fh log | wc -l)
	git campaign stack show --remote >/dev/null
	since "$n" | sed 's/ [0-9]*$//' >first
	[ "$(wc -l <first)" -eq 7 ] || fail "$(cat first)"
	grep -qx 'GET /repos/o/r/pulls?state=open&per_page=100' first
	sha=$(pr_field 2 .head.sha)
	grep -qx "GET /repos/o/r/pulls/2/reviews?per_page=100" first
	grep -qx "GET /repos/o/r/commits/$sha/status?per_page=100" first
	grep -qx "GET /repos/o/r/commits/$sha/check-runs?per_page=100" first
	n=$(fh log | wc -l)
	git campaign stack show --remote >/dev/null
	[ "$(since "$n" | awk '{print $1, $3}' | sort | uniq -c | awk '{$1=$1; print}')" = '7 GET 304' ] || fail "$(since "$n")"
	# a new review changes that PR's reviews alone
	fh review '{"repo":"o/r","number":2,"user":"alice","state":"APPROVED"}' >/dev/null
	n=$(fh log | wc -l)
	run --separate-stderr git campaign stack show --remote
	assert_line '  #2 s2: open, approved, CI none'
	[ "$(since "$n" | grep -c ' 200$')" -eq 1 ]
	since "$n" | grep -q '^GET /repos/o/r/pulls/2/reviews?per_page=100 200$'
}

@test "stack show --remote names a branch without a PR and a merged one, and reads nothing for them" {
	stack 2
	git campaign stack submit s1 >/dev/null 2>&1 || true
	git campaign stack submit --all >/dev/null
	fh merge '{"repo":"o/r","number":1}' >/dev/null
	git campaign stack new s3 >/dev/null
	echo 3 >f3
	git add f3
	git commit -q -m 's3 change'
	n=$(fh log | wc -l)
	run --separate-stderr git campaign stack show --remote
	assert_clean
	assert_line '  #1 s1: merged'
	assert_line '  s3: no PR'
	! since "$n" | grep -q '/pulls/1/reviews'
}

@test "stack submit asks the campaign's reviewers and adds its labels once; an unchanged submit sends nothing" {
	stack 2
	git config --add campaign.github.reviewers alice
	git config --add campaign.github.reviewers o/perf-team
	git config --add campaign.github.labels performance
	run --separate-stderr git campaign stack submit --all
	assert_clean
	assert_line 'asked alice, @perf-team to review #1 s1'
	assert_line 'labelled #2 s2: performance'
	[ "$(pr_field 1 '[.requested_reviewers[].login] | join(",")')" = alice ]
	[ "$(pr_field 2 '[.labels[].name] | join(",")')" = performance ]
	fh log >log
	grep -q '^POST /repos/o/r/pulls/2/requested_reviewers 201$' log
	grep -q '^POST /repos/o/r/issues/1/labels 200$' log
	# the team went as team_reviewers, the login as reviewers
	fh_http GET /__fake/log | jq -e '[.[] | select(.path == "/repos/o/r/pulls/1/requested_reviewers") | .body | fromjson] == [{"reviewers":["alice"],"team_reviewers":["perf-team"]}]' >/dev/null
	n=$(wc -l <log)
	run --separate-stderr git campaign stack submit --all
	assert_clean
	[ "$(since "$n" | wc -l)" -eq 1 ] || fail "$(since "$n")"
}

@test "a reviewer who has reviewed and a label removed on GitHub are not asked again; a new one is" {
	stack 1
	git config --add campaign.github.reviewers alice
	git config --add campaign.github.labels performance
	git campaign stack submit --all >/dev/null
	# alice reviews (GitHub drops her from the requested list), someone
	# removes the label
	fh review '{"repo":"o/r","number":1,"user":"alice","state":"APPROVED"}' >/dev/null
	fh edit '{"repo":"o/r","number":1,"set":{"labels":[]}}' >/dev/null
	n=$(fh log | wc -l)
	run --separate-stderr git campaign stack submit --all
	assert_clean
	refute_line --partial 'asked'
	refute_line --partial 'labelled'
	! since "$n" | grep -q '^POST'
	git config --add campaign.github.reviewers bob
	run --separate-stderr git campaign stack submit --all
	assert_clean
	assert_line 'asked bob to review #1 s1'
	[ "$(pr_field 1 '[.requested_reviewers[].login] | join(",")')" = bob ]
}

@test "a dry run says whom it would ask; a reviewer added to the config later is asked alone" {
	stack 1
	git campaign stack submit --all >/dev/null
	git config --add campaign.github.reviewers alice
	git config --add campaign.github.reviewers bob
	run --separate-stderr git campaign stack submit --all --dry-run
	assert_clean
	assert_line 'would ask alice, bob to review #1 s1'
	! fh log | grep -q '^POST /repos/o/r/pulls/1/requested_reviewers'
	git campaign stack submit --all >/dev/null
	git config --add campaign.github.reviewers carol
	run --separate-stderr git campaign stack submit --all
	assert_line 'asked carol to review #1 s1'
	fh_http GET /__fake/log | jq -e '[.[] | select(.path == "/repos/o/r/pulls/1/requested_reviewers") | .body | fromjson] == [{"reviewers":["alice","bob"]},{"reviewers":["carol"]}]' >/dev/null
}

@test "a reviewer that is not a GitHub login is refused by config" {
	run --separate-stderr git campaign config github.reviewers 'not a login'
	[ "$status" -eq 129 ] || [ "$status" -eq 128 ] || fail "exit $status"
	[[ $stderr == *"'not a login' is not a GitHub login or ORG/TEAM"* ]] || fail "$stderr"
}

@test "a review request GitHub refuses is a line, not a failed submit, and is asked again next time" {
	stack 1
	git config --add campaign.github.reviewers alice
	fh fault '{"method":"POST","path":"/requested_reviewers$","status":422,"body":{"message":"Reviews may only be requested from collaborators.","documentation_url":"x"}}' >/dev/null
	run --separate-stderr git campaign stack submit --all
	assert_clean
	assert_line --partial 'opened #1 for s1 onto develop'
	assert_line "could not ask alice for #1 s1: cannot request reviews of PR #1: HTTP 422: Reviews may only be requested from collaborators."
	run --separate-stderr git campaign stack submit --all
	assert_clean
	assert_line 'asked alice to review #1 s1'
	[ "$(fh_count POST /requested_reviewers)" -eq 2 ]
}
