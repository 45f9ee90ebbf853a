#!/usr/bin/env bats
# git campaign hypo test: a prediction with a unit is decided only by a
# number in that unit; a refused test decides and records nothing.

load helper

setup() {
	setup_world
	git init -q -b develop r
	cd r
	git commit -q --allow-empty -m first
	git campaign init >/dev/null
}

state() {
	git campaign hypo list --json |
		python3 -c 'import json, sys; print(" ".join(h["state"] for h in json.load(sys.stdin)))'
}

@test "hypo test refuses a unitless probe number for a prediction in us" {
	git campaign hypo add "sync costs 4 us" --metric sync --predict 4 \
		--unit us >/dev/null
	run --separate-stderr git campaign hypo test 1 \
		--probe "sh -c 'echo sync: 4000'" --metric 're:sync: ([0-9]+)'
	assert_failure 129
	[ "${stderr_lines[0]}" = "error: the probe's metric has no unit but hypothesis 1 predicts 'us'" ]
	[ "${stderr_lines[1]}" = "hint: read the number in its unit: --metric 're:REGEX;unit=us'" ]
	[ "$(state)" = open ]
	# the same number read in the prediction's unit decides
	run --separate-stderr git campaign hypo test 1 \
		--probe "sh -c 'echo sync: 4'" --metric 're:sync: ([0-9]+);unit=us'
	assert_clean
	[ "$(state)" = confirmed ]
}

@test "hypo test of a unitless prediction takes a unitless number" {
	git campaign hypo add "8 launches" --metric launches --predict 8 >/dev/null
	run --separate-stderr git campaign hypo test 1 \
		--probe "sh -c 'echo n: 8'" --metric 're:n: ([0-9]+)'
	assert_clean
	[ "$(state)" = confirmed ]
}
