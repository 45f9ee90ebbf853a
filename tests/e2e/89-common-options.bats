#!/usr/bin/env bats
# The options every command takes, as git's porcelain does: -q/--quiet,
# --no-color and --color[=WHEN].

load helper

setup() {
	setup_world
	make_repo r develop
	cd r
	git campaign init kfusion >/dev/null
}

@test "--no-color, --color=WHEN and -q are accepted by every command that reads them" {
	for c in "status" "stack show" "hypo list" "finding list" "resume" \
		"measure log x" "tests baseline"; do
		for o in --no-color --color --color=never --color=auto -q --quiet; do
			run --separate-stderr git campaign $c $o
			[ "$status" -ne 129 ] || fail "'$c $o' is a usage error: $stderr"
		done
	done
	# the same output with and without --no-color where nothing is coloured
	[ "$(git campaign status --no-color)" = "$(git campaign status)" ]
}

@test "--color with a value it does not know is a usage error" {
	run --separate-stderr git campaign status --color=sometimes
	assert_failure 129
	[ "${stderr_lines[0]}" = "error: option '--color' takes never, always or auto, not 'sometimes'" ]
}

@test "-q leaves out the confirmations, not the errors" {
	run --separate-stderr git campaign hooks install -q
	assert_clean
	[ -z "$output" ]
	[ -x .git/hooks/pre-commit ]
	run --separate-stderr git campaign hooks uninstall --quiet
	assert_clean
	[ -z "$output" ]
	[ ! -e .git/hooks/pre-commit ]
	run --separate-stderr git campaign hypo show 42 -q
	assert_failure
	[ -n "$stderr" ]
}
