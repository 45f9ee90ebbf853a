#!/usr/bin/env bats
# An override's mistakes are said: an empty pr-body.md, or a misspelt key,
# renders nothing (as Mustache does), so the command warns on stderr and
# names the command that lists the keys; the built-ins warn of nothing.

load helper

setup() {
	setup_world
	make_repo r develop
	cd r
	git campaign init demo >/dev/null
	git switch -q -c fix
	git commit -q --allow-empty -m 'skip the upload'
	mkdir -p .campaign/templates
}

@test "an empty pr-body.md override is warned of, not rendered in silence" {
	: >.campaign/templates/pr-body.md
	run --separate-stderr git campaign pr body
	assert_success
	[ -z "$output" ]
	[[ $stderr == *"warning: the override '$PWD/.campaign/templates/pr-body.md' is empty, so it renders nothing: remove it to use the built-in pr-body.md"* ]] ||
		fail "no warning: $stderr"
}

@test "a key the data lack is named with its line, and the keys' command is given" {
	printf '## 1. The bug\nBranch {{branch.name}} {{brnach}}.\n{{#commits}}- {{subjcet}}\n{{/commits}}' \
		>.campaign/templates/pr-body.md
	run --separate-stderr git campaign pr body
	assert_success
	[[ $stderr == *"pr-body.md line 2: {{brnach}} names a key the data do not have, and renders as nothing ('git campaign pr body --json' lists the keys)"* ]] ||
		fail "no warning for brnach: $stderr"
	[[ $stderr == *"line 3: {{subjcet}}"* ]] || fail "no warning inside a section: $stderr"
	# the keys that exist are not warned of
	[[ $stderr != *"{{#commits}}"* ]] || fail "commits warned: $stderr"
	git campaign pr body --json | "$(command -v /usr/bin/python3 || command -v python3)" -c '
import json, sys
d = json.load(sys.stdin)
d = d.get("data", d)
assert "brnach" not in d and "commits" in d, sorted(d)'
}

@test "the built-in templates, copied as overrides, render without a warning" {
	for t in pr-body.md resume.md; do
		git campaign template show --builtin "$t" >".campaign/templates/$t"
	done
	run --separate-stderr git campaign pr body
	assert_success
	[[ $stderr != *warning* ]] || fail "pr body warned: $stderr"
	run --separate-stderr git campaign resume
	assert_success
	[[ $stderr != *warning* ]] || fail "resume warned: $stderr"
}
