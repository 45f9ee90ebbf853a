#!/usr/bin/env bats
# git campaign config: campaign.* settings, kept in git config.

load helper

setup() {
	setup_world
	make_repo r develop
	cd r
}

@test "config lists every setting, set or not" {
	git campaign init kfusion >/dev/null
	run git campaign config
	assert_success
	assert_line --regexp '^campaign.name +kfusion$'
	assert_line --regexp '^campaign.base +develop$'
	assert_line --regexp '^campaign.umbrella +\(unset\)$'
	assert_line --regexp '^campaign.forgeHost +\(unset, default github.com\)$'
}

@test "config KEY VALUE writes git config, readable by git and by KEY" {
	git campaign init >/dev/null
	run git campaign config umbrella 1028
	assert_success
	[ "$(git config campaign.umbrella)" = 1028 ]
	run git campaign config campaign.umbrella
	assert_success
	assert_output 1028
	git config campaign.base develop
	run git campaign config BASE
	assert_output develop
}

@test "values are checked before they are written" {
	git campaign init >/dev/null
	run --separate-stderr git campaign config umbrella abc
	assert_failure 129
	[ "$stderr" = "error: 'abc' is not an issue number" ]
	run --separate-stderr git campaign config forge nope
	assert_failure 129
	run --separate-stderr git campaign config base 'bad..name'
	assert_failure 129
	[ "$stderr" = "error: 'bad..name' is not a valid branch name" ]
	run git config campaign.umbrella
	assert_failure
}

@test "an unknown key is refused with the closest name" {
	run --separate-stderr git campaign config bsae develop
	assert_failure 129
	[ "$stderr" = "error: unknown setting 'bsae'
hint: did you mean 'campaign.base'?" ]
	run --separate-stderr git campaign config campaign.umbrela 3
	assert_failure 129
	[[ "$stderr" == *"did you mean 'campaign.umbrella'?"* ]]
}

@test "reading an unset key exits 1 and prints nothing" {
	run --separate-stderr git campaign config umbrella
	assert_failure 1
	[ -z "$output" ]
	[ -z "$stderr" ]
}

@test "--unset removes a key; unsetting it again is a no, exit 1" {
	git campaign init --umbrella 5 >/dev/null
	run git campaign config --unset umbrella
	assert_success
	run git config campaign.umbrella
	assert_failure
	run --separate-stderr git campaign config --unset umbrella
	assert_failure 1
	[ "$stderr" = "error: 'campaign.umbrella' is not set in this repository's config" ]
}

@test "git -c overrides are seen, as git sees them" {
	git campaign init >/dev/null
	run git -c campaign.umbrella=77 campaign config umbrella
	assert_success
	assert_output 77
	run git -c campaign.base=other campaign status
	assert_line --partial "base 'other' not found"
}

@test "--json lists keys, values, defaults and types" {
	git campaign init k >/dev/null
	run sh -c "git campaign config --json | python3 -c 'import json,sys; d={e[\"key\"]: e for e in json.load(sys.stdin)}; print(d[\"campaign.name\"][\"value\"], d[\"campaign.umbrella\"][\"value\"], d[\"campaign.remote\"][\"default\"], d[\"campaign.umbrella\"][\"type\"])'"
	assert_success
	assert_output 'k None origin integer'
}

@test "wrong argument counts are usage errors" {
	run git campaign config a b c
	assert_failure 129
	run git campaign config --unset
	assert_failure 129
	run git campaign config --json name
	assert_failure 129
}

@test "a hand-edited bad value is refused on reading, with how to fix it" {
	git campaign init >/dev/null
	git config campaign.name "$(printf 'esc\033[31mred')"
	run --separate-stderr git campaign status --short
	assert_failure 128
	[ -z "$output" ]
	[ "$stderr" = "fatal: bad campaign.name in git config: the value holds a control character
hint: fix it with 'git campaign config name VALUE'" ]
	git config campaign.name ok
	git config campaign.umbrella 12abc
	run --separate-stderr git campaign status
	assert_failure 128
	[[ "$stderr" == "fatal: bad campaign.umbrella in git config: '12abc' is not an issue number"* ]]
}

@test "git -c wins over GIT_CONFIG_COUNT, as in git" {
	git campaign init >/dev/null
	export GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=campaign.umbrella GIT_CONFIG_VALUE_0=5
	run git campaign config umbrella
	assert_output 5
	run git -c campaign.umbrella=7 campaign config umbrella
	assert_output 7
	[ "$(git -c campaign.umbrella=7 config campaign.umbrella)" = 7 ]
}

@test "notes.rewriteRef is added once, also by inits at the same time" {
	git config notes.rewriteRef ''
	for i in 1 2 3 4 5 6; do
		git campaign init --force "n$i" >/dev/null 2>&1 &
	done
	wait
	run git config --get-all notes.rewriteRef
	assert_output "
refs/notes/campaign"
}
