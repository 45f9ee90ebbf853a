#!/usr/bin/env bats
# Names that reach terminals, the umbrella issue and PR bodies: a metric
# name that is not clean UTF-8 text is refused on every way in, and what
# arrives from other machines is defused before it is rendered, so that no
# text ends the umbrella's section or makes its body invalid JSON.

load helper
load fakehub

PY=$(command -v /usr/bin/python3 || command -v python3)

setup() {
	setup_world
}

teardown() {
	stop_fakehub
}

# body_of: issue #1's body as the fake stores it
body_of() {
	fh body o/r 1
}

@test "a metric name with invalid UTF-8, a control character, an edge space or over 1024 bytes is refused and nothing is recorded" {
	make_repo r develop
	cd r
	git campaign init demo >/dev/null
	git campaign measure add ok 1 >/dev/null
	tip=$(git rev-parse refs/notes/campaign)
	local name
	for name in $'bad\xff\xfeutf8' $'esc\e]0;TITLE\a\e[31mred' $'two\nlines' \
		$'tab\there' ' ' ' lead' "$(printf 'a%.0s' $(seq 1025))"; do
		run --separate-stderr git campaign measure add "$name" 1
		assert_failure 129
		[[ ${stderr_lines[0]} == 'error: the metric name '* ]] ||
			fail "no reason given: $stderr"
		[[ $stderr != *$'\e'* ]] || fail "the escape was printed"
		printf '{"metric":"%s","value":1}\n' "$name" >batch.jsonl
		run --separate-stderr git campaign measure add --batch batch.jsonl
		[ "$status" -ne 0 ] || fail "--batch took $(printf %q "$name")"
	done
	[ "$(git rev-parse refs/notes/campaign)" = "$tip" ]
	run --separate-stderr git campaign measure add 'time μs/op' 2
	assert_clean
}

@test "a finding title holding the end marker leaves one section in the umbrella, and syncing again does not grow it" {
	start_fakehub
	campaign_repo
	fh seed '{"repo":"o/r","issues":[{"title":"Umbrella","body":"Human text.\n"}]}' >/dev/null
	git campaign measure add m 1 >/dev/null
	git campaign finding add --kind wrong-answer \
		'evil <!-- git-campaign:end --> tail' >/dev/null
	run --separate-stderr git campaign umbrella sync
	assert_clean
	git campaign finding add --kind crash second >/dev/null
	git campaign umbrella sync >/dev/null
	body_of >one
	git campaign umbrella sync >/dev/null
	body_of >two
	cmp one two || fail "the body grew: $(diff one two)"
	[ "$(grep -c 'git-campaign:end' two)" -eq 2 ] # the marker, the title
	[ "$(grep -c '^<!-- git-campaign:end -->$' two)" -eq 1 ]
	[ "$(grep -c '^<!-- git-campaign:begin -->$' two)" -eq 1 ]
	grep -qF 'evil &lt;!-- git-campaign:end --> tail' two
	[ "$(grep -c '^Human text.$' two)" -eq 1 ]
}

@test "a metric name with invalid UTF-8 arriving in the notes from elsewhere still lets the umbrella update, as valid UTF-8" {
	start_fakehub
	campaign_repo
	fh seed '{"repo":"o/r","issues":[{"title":"Umbrella","body":"Human text.\n"}]}' >/dev/null
	git campaign measure add m 1 >/dev/null
	# another machine's tool wrote it, and sync brought it: git appends it
	line=$(git notes --ref campaign show HEAD | sed 's/"metric":"m"/"metric":"bad\xff\xfeutf8"/')
	printf '%s\n' "$line" | git notes --ref campaign append -F - HEAD
	# the umbrella reads the index: brought up to date by a reader
	git campaign measure log m >/dev/null
	run --separate-stderr git campaign umbrella sync
	assert_clean
	body_of >body
	"$PY" -c 'import sys; sys.stdin.buffer.read().decode("utf-8", "strict")' <body ||
		fail "the body is not valid UTF-8"
	grep -qF "bad$(printf "\xef\xbf\xbd\xef\xbf\xbd")utf8" body
}

@test "campaign.forgeHost takes a host name with an optional port and nothing else" {
	make_repo r develop
	cd r
	git campaign init demo >/dev/null
	local h
	for h in '127.0.0.1:1@evil' 'evil.example.com/../x' 'a..b' 'h:0' \
		'h:70000' 'h:' 'x?y' 'u@h' 'h/p' $'h\n' '[::1]x' '[zz]'; do
		run --separate-stderr git campaign config forgeHost "$h"
		assert_failure 129
		[ -z "$(git config campaign.forgeHost)" ] || fail "'$h' was stored"
	done
	for h in ghe.example.com:8443 '[::1]:8080' my_host.local; do
		run --separate-stderr git campaign config forgeHost "$h"
		assert_clean
		[ "$(git config campaign.forgeHost)" = "$h" ]
	done
	# a hand-edited value is refused on reading, in one line and a hint
	git config campaign.forgeHost 'x@evil.example.com'
	run --separate-stderr git campaign status
	assert_fatal "bad campaign.forgeHost" hint
}
