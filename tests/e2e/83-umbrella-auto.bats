#!/usr/bin/env bats
# campaign.umbrella.auto: the commands that change what the umbrella shows
# update it at their end; GitHub out of reach never fails them, the update
# is queued, status shows it, and the next command sends it.

load helper
load fakehub

setup() {
	setup_world
	start_fakehub
	campaign_repo
	fh seed '{"repo":"o/r","issues":[{"title":"Umbrella","body":"Human text."}]}' >/dev/null
}

teardown() {
	stop_fakehub
}

@test "init --umbrella turns the automatic updates on; config shows the setting" {
	[ "$(git config campaign.umbrella.auto)" = true ]
	run --separate-stderr git campaign config umbrella.auto
	assert_clean
	assert_output true
	git campaign init --force kfusion >/dev/null
	run git config campaign.umbrella.auto
	[ "$status" -eq 1 ]
}

@test "measure add updates the umbrella at its end; a command that changes nothing sends nothing" {
	run --separate-stderr git campaign measure add kernel_ms 12.5 --unit ms
	assert_clean
	fh body o/r 1 >body
	[ "$(head -1 body)" = 'Human text.' ]
	grep -qx '<!-- git-campaign:begin -->' body
	grep -q 'kernel_ms' body
	printf '%s\n' 'GET /repos/o/r/issues/1 200' 'PATCH /repos/o/r/issues/1 200' | diff - <(fh log)
	# nothing it shows changed: no request at all
	run --separate-stderr git campaign hypo list
	[ "$status" -eq 0 ] && [ "$stderr" = 'no hypotheses' ] || fail "$stderr"
	[ "$(fh log | wc -l)" -eq 2 ]
	run --separate-stderr git campaign measure show
	assert_clean
	[ "$(fh log | wc -l)" -eq 2 ]
	# the second measurement: one conditional GET (a 304) and one PATCH
	git campaign measure add kernel_ms 11.5 --unit ms >/dev/null
	printf '%s\n' 'GET /repos/o/r/issues/1 304' 'PATCH /repos/o/r/issues/1 200' | diff - <(fh log | tail -n 2)
}

# the queued update's last try, an hour ago: its back-off is over
age_last_try() {
	sqlite3 "$(git rev-parse --git-common-dir)/campaign/campaign.db" \
		"UPDATE umbrella_state SET last_try = strftime('%Y-%m-%dT%H:%M:%SZ', 'now', '-1 hour')"
}

@test "GitHub out of reach: the command succeeds, the update is queued, status shows it, the next command sends it" {
	export GIT_CAMPAIGN_API_URL=http://127.0.0.1:1
	run --separate-stderr git campaign measure add kernel_ms 12.5 --unit ms
	[ "$status" -eq 0 ] || fail "exit $status: $stderr"
	[[ $output == "recorded 1 measurement on "* ]] || fail "$output"
	[[ ${stderr_lines[0]} == "warning: umbrella #1 not updated: cannot read issue #1: cannot reach '127.0.0.1:1': "* ]] || fail "$stderr"
	[ "${stderr_lines[1]}" = "hint: queued; the next command or 'git campaign umbrella sync' sends it" ] || fail "$stderr"
	[ "${#stderr_lines[@]}" -eq 2 ] || fail "$stderr"
	[ "$(fh log | wc -l)" -eq 0 ]
	run --separate-stderr git campaign status
	assert_clean
	assert_line --regexp "^umbrella  #1 update pending since [0-9-]{10}T[0-9:]{8}Z \(1 tries\): cannot read issue #1: cannot reach '127.0.0.1:1': "
	run --separate-stderr git campaign status --short
	assert_output --partial ' umbrella:pending'
	[ "$(git campaign status --json | jq -r '.umbrella_pending.issue, .umbrella_pending.tries')" = "1
1" ]
	# within the back-off (30 s after one failure) no command tries again
	run --separate-stderr git campaign hypo list
	[ "$status" -eq 0 ] && [ "$stderr" = 'no hypotheses' ] || fail "$stderr"
	[ "$(git campaign status --json | jq -r .umbrella_pending.tries)" = 1 ]
	# after it, a second failure counts its try, keeps the first date and
	# says nothing more (status does)
	age_last_try
	run --separate-stderr git campaign hypo list
	[ "$status" -eq 0 ] && [ "$stderr" = 'no hypotheses' ] || fail "$stderr"
	[ "$(git campaign status --json | jq -r .umbrella_pending.tries)" = 2 ]
	# GitHub back: the next command after the back-off, one that changed
	# nothing, sends it
	export GIT_CAMPAIGN_API_URL=http://127.0.0.1:$FAKEHUB_PORT
	age_last_try
	run --separate-stderr git campaign hypo list
	[ "$status" -eq 0 ] && [ "$stderr" = 'no hypotheses' ] || fail "$stderr"
	fh body o/r 1 | grep -q kernel_ms
	[ "$(git campaign status --json | jq -r .umbrella_pending)" = null ]
	run --separate-stderr git campaign status
	refute_line --partial 'update pending'
}

@test "umbrella sync sends a queued update and clears it" {
	fh fault '{"method":"GET","path":"/issues/1$","status":502,"count":3}' >/dev/null
	run --separate-stderr git campaign measure add kernel_ms 12.5 --unit ms
	[ "$status" -eq 0 ] && [[ $stderr == *"HTTP 502"* ]] || fail "$stderr"
	[ "$(git campaign status --json | jq -r .umbrella_pending.issue)" = 1 ]
	run --separate-stderr git campaign umbrella sync
	assert_clean
	assert_line --partial 'umbrella #1 updated'
	fh body o/r 1 | grep -q kernel_ms
	[ "$(git campaign status --json | jq -r .umbrella_pending)" = null ]
}

@test "without campaign.umbrella.auto nothing is sent" {
	git config campaign.umbrella.auto false
	run --separate-stderr git campaign measure add kernel_ms 12.5 --unit ms
	assert_clean
	[ "$(fh log | wc -l)" -eq 0 ]
}

@test "stack submit updates the umbrella's PR list at its end" {
	git init -q --bare ../remote.git
	git remote set-url origin "$WORLD/remote.git"
	git config campaign.forge o/r
	git push -q origin develop
	git campaign stack new s1 >/dev/null
	git commit -q --allow-empty -m 's1 one'
	run --separate-stderr git campaign stack submit
	assert_clean
	assert_line --partial 'opened #2 for s1 onto '
	fh body o/r 1 | grep -qF -- '- [ ] #2' || fail "$(fh body o/r 1)"
}
