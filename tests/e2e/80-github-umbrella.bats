#!/usr/bin/env bats
# git campaign umbrella sync|post against the fake GitHub: the section
# between the markers, the human text kept byte for byte (LF and CRLF),
# request counts, body limits, marked comments.

load helper
load fakehub

setup() {
	setup_world
	start_fakehub
	campaign_repo
}

teardown() {
	stop_fakehub
}

# seed_umbrella BODY: issue #1 of o/r with that body (JSON string escapes)
seed_umbrella() {
	fh seed "{\"repo\":\"o/r\",\"issues\":[{\"title\":\"Umbrella\",\"body\":\"$1\"}]}" >/dev/null
}

@test "sync appends the section when the markers are missing, then a second sync is one 304" {
	seed_umbrella 'Human text.\n\nMore text, no final newline'
	run --separate-stderr git campaign umbrella sync
	assert_clean
	assert_line 'umbrella #1 updated (the markers were missing: the section was added at the end)'
	assert_line '  https://github.com/o/r/issues/1'
	fh body o/r 1 >body
	printf 'Human text.\n\nMore text, no final newline\n\n' >want
	head -c "$(wc -c <want)" body | cmp - want
	grep -qx '<!-- git-campaign:begin -->' body
	grep -qx '## Campaign kfusion' body
	grep -qx 'Base branch `develop`.' body
	[ "$(tail -n 1 body)" = '<!-- git-campaign:end -->' ]
	[ "$(fh_count GET)" -eq 1 ] && [ "$(fh_count PATCH)" -eq 1 ]

	run --separate-stderr git campaign umbrella sync
	assert_clean
	assert_line 'umbrella #1 is up to date'
	fh log >log
	[ "$(wc -l <log)" -eq 3 ] || fail "$(cat log)"
	[ "$(tail -n 1 log)" = 'GET /repos/o/r/issues/1 304' ]
	fh body o/r 1 | cmp - body
}

@test "sync replaces only the bytes between the markers, in a CRLF body" {
	seed_umbrella 'Intro\r\n\r\n<!-- git-campaign:begin -->\r\nold - [x] ticked by hand\r\n<!-- git-campaign:end -->\r\n\r\nNotes after\r\n'
	run --separate-stderr git campaign umbrella sync
	assert_clean
	assert_line 'umbrella #1 updated'
	fh body o/r 1 >body
	printf 'Intro\r\n\r\n<!-- git-campaign:begin -->\r\n## Campaign kfusion\r\n' >want
	head -c "$(wc -c <want)" body | cmp - want
	printf '<!-- git-campaign:end -->\r\n\r\nNotes after\r\n' >want
	tail -c "$(wc -c <want)" body | cmp - want
	! grep -q 'ticked by hand' body
	# every line break is CRLF: no bare LF
	[ "$(tr -cd '\n' <body | wc -c)" -eq "$(grep -c $'\r$' body)" ]
	[ "$(fh_count PATCH)" -eq 1 ]
}

@test "sync lists the cached PRs as a task list and the newest measurements" {
	seed_umbrella 'x'
	DB=.git/campaign/campaign.db
	sqlite3 "$DB" "INSERT INTO pr VALUES ('inline-args', 12, 'merged', 'develop', NULL, 'now');
		INSERT INTO pr VALUES ('frame-upload', 13, 'open', 'inline-args', NULL, 'now');
		INSERT INTO measurement (commit_id, line, run, metric, value, unit, env, config, at)
		VALUES ('abcdef0123456789', 'l1', 'r1', 'kernel_ms', 1.25, 'ms', 'h200', 'c1', '2026-11-29T12:00:00Z');"
	run --separate-stderr git campaign umbrella sync
	assert_clean
	fh body o/r 1 >body
	grep -qxF -- '- [x] #12 `inline-args` — merged' body
	grep -qxF -- '- [ ] #13 `frame-upload` — open' body
	grep -qxF -- '| abcdef0123 | kernel_ms | 1.25 | ms |  | h200 | c1 |' body
}

@test "sync --dry-run prints the section and sends nothing" {
	run --separate-stderr git campaign umbrella sync --dry-run
	assert_clean
	assert_line --index 0 '<!-- git-campaign:begin -->'
	assert_line '## Campaign kfusion'
	assert_line 'No pull requests yet.'
	[ "${lines[-1]}" = '<!-- git-campaign:end -->' ]
	[ "$(fh log | wc -l)" -eq 0 ]
}

@test "a begin marker without an end marker is refused and nothing is sent" {
	seed_umbrella 'a <!-- git-campaign:begin --> b'
	run --separate-stderr git campaign umbrella sync
	assert_fatal "issue #1 has '<!-- git-campaign:begin -->' without '<!-- git-campaign:end -->' after it" hint
	[ "$(fh_count PATCH)" -eq 0 ]
}

@test "a body over GitHub's limit is refused before sending; measurements fold to fit" {
	human=$(head -c 65500 /dev/zero | tr '\0' 'h')
	seed_umbrella "$human"
	run --separate-stderr git campaign umbrella sync
	assert_fatal "issue #1 would be"
	[[ $stderr == *"over GitHub's limit of 65536"* ]]
	[ "$(fh_count PATCH)" -eq 0 ]

	# 64,000 characters of text leave room for a few rows only
	fh edit "{\"repo\":\"o/r\",\"number\":1,\"set\":{\"body\":\"$(head -c 64000 /dev/zero | tr '\0' 'h')\"}}" >/dev/null
	for i in $(seq 1 40); do
		echo "INSERT INTO measurement (commit_id, line, run, metric, value, env, config, at) VALUES ('c$i', 'l', 'r', 'a_rather_long_metric_name_$i', $i, 'machine-$i', 'configuration-$i', '2026-11-29T12:$(printf %02d $i):00Z');"
	done | sqlite3 .git/campaign/campaign.db
	run --separate-stderr git campaign umbrella sync
	assert_clean
	assert_line 'older measurements were folded to stay within GitHub'"'"'s limit'
	fh body o/r 1 >body
	grep -q 'older measurements folded' body
	[ "$(python3 -c 'import sys; print(len(open(sys.argv[1], encoding="utf-8").read()))' body)" -le 65536 ]
	grep -q 'a_rather_long_metric_name_40' body
	! grep -q 'a_rather_long_metric_name_1 ' body
}

@test "post adds one marked comment, updates it in place, and leaves it when unchanged" {
	seed_umbrella 'x'
	run --separate-stderr git campaign umbrella post -m 'frame upload: -12% (CI 9-15%)' frame-upload
	assert_clean
	assert_line "posted 'frame-upload' on umbrella #1"
	[ "$(fh comments o/r)" = '["<!-- git-campaign:result frame-upload -->\nframe upload: -12% (CI 9-15%)\n"]' ]

	run --separate-stderr git campaign umbrella post -m 'frame upload: -12% (CI 9-15%)' frame-upload
	assert_clean
	assert_line "unchanged: 'frame-upload' on umbrella #1"

	echo 'frame upload: -11%' | git campaign umbrella post frame-upload
	[ "$(fh comments o/r)" = '["<!-- git-campaign:result frame-upload -->\nframe upload: -11%\n"]' ]
	[ "$(fh_count POST)" -eq 1 ] && [ "$(fh_count PATCH)" -eq 1 ]
}

@test "post finds its comment on the second page of comments" {
	seed_umbrella 'x'
	# posted from another clone: this one's database keeps no record of
	# the comment (a copy of it, made before, is that clone's)
	python3 -c 'import sqlite3, sys; sqlite3.connect(sys.argv[1]).backup(sqlite3.connect(sys.argv[2]))' \
		"$(git rev-parse --git-common-dir)/campaign/campaign.db" "$WORLD/other.db"
	GIT_CAMPAIGN_DB="$WORLD/other.db" git campaign umbrella post -m first r1 >/dev/null
	fh seed '{"repo":"o/r","comments_on":[1,120]}' >/dev/null
	run --separate-stderr git campaign umbrella post -m second r1
	assert_clean
	assert_line "updated 'r1' on umbrella #1"
	fh log | grep -q 'GET /repos/o/r/issues/1/comments?per_page=100&page=2 200'
	[ "$(fh_count POST)" -eq 1 ]
}

@test "post keeps its comment's id: among 121 comments the same text again is one GET (then 304s), new text one PATCH" {
	seed_umbrella 'x'
	fh seed '{"repo":"o/r","comments_on":[1,120]}' >/dev/null
	git campaign umbrella post -m first r1 >/dev/null
	id=$(fh_http GET "/__fake/state?repo=o/r" | jq -r '.comments[] | select(.body | contains("result r1")) | .id')
	[ -n "$id" ]
	n=$(fh log | wc -l)
	run --separate-stderr git campaign umbrella post -m first r1
	assert_clean
	assert_line "unchanged: 'r1' on umbrella #1"
	[ "$(fh log | tail -n +$((n + 1)))" = "GET /repos/o/r/issues/comments/$id 200" ] || fail "$(fh log | tail -n +$((n + 1)))"
	n=$(fh log | wc -l)
	git campaign umbrella post -m first r1 >/dev/null
	[ "$(fh log | tail -n +$((n + 1)))" = "GET /repos/o/r/issues/comments/$id 304" ] || fail "$(fh log | tail -n +$((n + 1)))"
	n=$(fh log | wc -l)
	run --separate-stderr git campaign umbrella post -m second r1
	assert_clean
	assert_line "updated 'r1' on umbrella #1"
	[ "$(fh log | tail -n +$((n + 1)))" = "PATCH /repos/o/r/issues/comments/$id 200" ] || fail "$(fh log | tail -n +$((n + 1)))"
	n=$(fh log | wc -l)
	git campaign umbrella post -m second r1 >/dev/null
	[ "$(fh log | tail -n +$((n + 1)))" = "GET /repos/o/r/issues/comments/$id 304" ] || fail "$(fh log | tail -n +$((n + 1)))"
	[ "$(fh comments o/r | jq '[.[] | select(contains("result r1"))]')" = "$(jq -n '["<!-- git-campaign:result r1 -->\nsecond\n"]')" ]
}

@test "a result whose comment was changed on GitHub is written back, in place" {
	seed_umbrella 'x'
	git campaign umbrella post -m mine r1 >/dev/null
	id=$(fh_http GET "/__fake/state?repo=o/r" | jq -r '.comments[0].id')
	fh edit "{\"repo\":\"o/r\",\"comment\":$id,\"set\":{\"body\":\"edited\"}}" >/dev/null
	run --separate-stderr git campaign umbrella post -m mine r1
	assert_clean
	assert_line "updated 'r1' on umbrella #1"
	[ "$(fh comments o/r)" = '["<!-- git-campaign:result r1 -->\nmine\n"]' ] || fail "$(fh comments o/r)"
	[ "$(fh_count POST)" -eq 1 ]
}

@test "a result whose comment was deleted on GitHub is posted anew" {
	seed_umbrella 'x'
	git campaign umbrella post -m one r1 >/dev/null
	id=$(fh_http GET "/__fake/state?repo=o/r" | jq -r '.comments[0].id')
	fh edit "{\"repo\":\"o/r\",\"comment\":$id,\"delete\":true}" >/dev/null
	run --separate-stderr git campaign umbrella post -m two r1
	assert_clean
	assert_line "posted 'r1' on umbrella #1"
	[ "$(fh comments o/r)" = '["<!-- git-campaign:result r1 -->\ntwo\n"]' ] || fail "$(fh comments o/r)"
}

@test "a comment POST applied but whose answer was dropped is found, not posted twice" {
	seed_umbrella 'x'
	fh fault '{"kind":"drop-after-apply","method":"POST","path":"/comments$"}' >/dev/null
	run --separate-stderr git campaign umbrella post -m once r1
	assert_clean
	assert_line "posted 'r1' on umbrella #1"
	[ "$(fh comments o/r)" = '["<!-- git-campaign:result r1 -->\nonce\n"]' ] ||
		fail "$(fh comments o/r) $(fh log)"
	[ "$(fh_count POST)" -eq 1 ]
}

@test "a comment POST answered 502 and not applied is looked up, then posted again, a second apart" {
	seed_umbrella 'x'
	unset GIT_CAMPAIGN_WRITE_GAP_MS
	fh fault '{"kind":"status","status":502,"method":"POST","path":"/comments$"}' >/dev/null
	start=$(date +%s%N)
	run --separate-stderr git campaign umbrella post -m once r1
	end=$(date +%s%N)
	assert_clean
	fh log >log
	[ "$(awk '{print $1, $3}' log | tr '\n' ' ')" = 'GET 200 POST 502 GET 304 POST 201 ' ] || fail "$(cat log)"
	[ $(((end - start) / 1000000)) -ge 1000 ]
	[ "$(fh comments o/r)" = '["<!-- git-campaign:result r1 -->\nonce\n"]' ]
}

@test "without an umbrella issue, sync says how to set one" {
	git config --unset campaign.umbrella
	run --separate-stderr git campaign umbrella sync
	assert_fatal 'the campaign has no umbrella issue' hint
	[[ $stderr == *"git campaign config umbrella N"* ]]
}

@test "usage errors exit 129" {
	run --separate-stderr git campaign umbrella
	assert_failure 129
	run --separate-stderr git campaign umbrella frob
	assert_failure 129
	[[ $stderr == *"unknown subcommand 'frob'"* ]]
	run --separate-stderr git campaign umbrella post -m x 'bad name'
	assert_failure 129
	run --separate-stderr git campaign umbrella post -m x -F f r1
	assert_failure 129
	[ "$(fh log | wc -l)" -eq 0 ]
}

@test "init --umbrella create opens the issue with the section and records its number" {
	make_repo r2 develop
	cd r2
	git remote add origin https://github.com/o/r.git
	fh seed '{"repo":"o/r","issues":[{"title":"older","body":"x"}]}' >/dev/null
	run --separate-stderr git campaign init kfusion --umbrella create
	assert_clean
	# the campaign first, then the issue opened for it
	[ "${lines[0]}" = "Started campaign 'kfusion'" ] || fail "$output"
	[ "${lines[${#lines[@]} - 1]}" = 'Opened umbrella issue #2: https://github.com/o/r/issues/2' ] || fail "$output"
	assert_line '  umbrella  #2'
	[ "$(git config campaign.umbrella)" = 2 ]
	fh body o/r 2 >body
	[ "$(head -n 1 body)" = '<!-- git-campaign:begin -->' ]
	grep -qx '## Campaign kfusion' body
	[ "$(fh_count POST)" -eq 1 ]
	run --separate-stderr git campaign umbrella sync
	assert_clean
	assert_line 'umbrella #2 is up to date'
}

@test "init --umbrella create without GitHub leaves a started campaign and says so" {
	make_repo r2 develop
	cd r2
	git remote add origin https://github.com/o/r.git
	unset GH_TOKEN
	run --separate-stderr git campaign init kfusion --umbrella create
	assert_failure 128
	[[ ${stderr_lines[0]} == "fatal: no GitHub token for 'github.com'"* ]]
	[ "${stderr_lines[1]}" = "hint: set GH_TOKEN, or run 'gh auth login'; the campaign was started without an umbrella issue; 'git campaign config umbrella N' sets one" ]
	[ "$(git config campaign.name)" = kfusion ]
	! git config campaign.umbrella
}
