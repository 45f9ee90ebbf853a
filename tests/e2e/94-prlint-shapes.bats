#!/usr/bin/env bats
# pr lint judges like a TornadoVM maintainer: it passes bodies in the
# shapes the campaign really merged (headings "The problem", "Why",
# "Summary", "Fix", "Commit 1 — …", "Backend/s tested", setext headings; a
# docs PR, a correctness fix and a crash fix without numbers) and fails
# hollow ones (headings without content, a control that could not vouch,
# tests that got worse without a word, a speed claim given in prose only).
# The bodies are tests/fixtures/prlint/ (its README says what they follow).

load helper

F="$SRC_DIR/tests/fixtures/prlint"

setup() {
	setup_world
}

@test "pr lint passes every body in the shapes the campaign merged" {
	local f n=0
	for f in "$F"/merged-*.md; do
		run --separate-stderr git campaign pr lint "$f"
		[ "$status" -eq 0 ] || fail "$(basename "$f"): exit $status: $output"
		[ -z "$output" ] || fail "$(basename "$f"): $output"
		n=$((n + 1))
	done
	[ "$n" -ge 8 ]
}

@test "pr lint reads setext headings as the ATX ones" {
	local f
	for f in "$F"/merged-*.md; do
		sed -E 's/^#+ (.*)$/\1\n----------/' "$f" >setext.md
		grep -q '^----------$' setext.md
		run --separate-stderr git campaign pr lint setext.md
		[ "$status" -eq 0 ] || fail "$(basename "$f") as setext: $output"
	done
}

@test "pr lint fails a body whose headings are all there and say nothing" {
	run --separate-stderr git campaign pr lint "$F/hollow-headings-only.md"
	assert_failure 1
	assert_output "section 'The bug and its cost' gives no measured figure (the profile line: where the time goes, with its number)
section 'Cause' quotes no code (the 3 to 5 lines behind the bug, fenced or \`inline\`)
section 'Change' does not say what is deliberately not changed
the numbers table gives no medians (a median column, or 'median of n = N per arm')
section 'Numbers' gives no configuration line (machine, build, workload and its arguments)
section 'Testing' gives a count without its total (as in '9 failed of 1,040')
section 'Backends and OS tested' names no backend
section 'Backends and OS tested' names no OS
section 'Negatives' is too short to state a negative (where it does not help, what it costs)"
	[ -z "$stderr" ]
}

@test "pr lint fails a body whose control is noisy and whose tests got worse without a word" {
	run --separate-stderr git campaign pr lint "$F/hollow-noisy-regressed.md"
	assert_failure 1
	assert_output "control 'bench nbody' is noisy: the run is not vouched for
section 'Testing' shows more failures on the branch than on the base (2 against 1) and names no new one
section 'Negatives' only says that nothing regressed: say where it does not help and what it costs"
}

@test "pr lint fails a body none of whose controls could vouch" {
	run --separate-stderr git campaign pr lint --json "$F/hollow-unvouched.md"
	assert_failure 1
	/usr/bin/python3 - "$output" <<'PY'
import json, sys
d = json.loads(sys.argv[1])
assert d["ok"] is False and d["kind"] == "perf", d
assert d["problems"] == [
    "control 'bench nbody' could not vouch: the run is not vouched for",
    "control 'saxpy 2000 16777216' moved: the run is not vouched for",
], d["problems"]
PY
}

@test "pr lint asks a speed claim made in prose for its numbers, and --kind overrides the judgement" {
	run --separate-stderr git campaign pr lint "$F/hollow-prose-claim.md"
	assert_failure 1
	assert_line "section 'Numbers' is missing"
	[[ $stderr == *"it claims a change of speed"* ]]
	run --separate-stderr git campaign pr lint --kind docs "$F/hollow-prose-claim.md"
	assert_clean
	run --separate-stderr git campaign pr lint --kind fix "$F/merged-1038-docs.md"
	assert_failure 1
	assert_line "section 'The bug and its cost' is missing"
	run --separate-stderr git campaign pr lint --kind speed "$F/merged-1038-docs.md"
	assert_failure 129
}

@test "pr lint takes a reference row for the control and says so" {
	run --separate-stderr git campaign pr lint "$F/merged-1081-problem-change.md"
	assert_clean_but_notes
}

# assert_clean_but_notes: exit 0, nothing on stdout, the reference note on
# stderr
assert_clean_but_notes() {
	[ "$status" -eq 0 ] || fail "exit $status: $output"
	[ -z "$output" ]
	[ "$stderr" = "note: row 'hand-written CUDA (reference)' taken as the control row" ]
}

@test "pr lint outside a campaign knows the base from --base" {
	printf '## The bug\n\nA wrong answer for `x`.\n\n## Change\n\nFlip it; nothing else.\n\n## Reproduction\n\nrun it.\n\n## Testing\n\nthis branch: 1 failed of 9\ntrunk: 1 failed of 9\n\n## Backends\n\nCUDA on Linux.\n' >fix.md
	run --separate-stderr git campaign pr lint fix.md
	assert_failure 1
	assert_output "section 'Testing' lacks the test-suite numbers of the base"
	run --separate-stderr git campaign pr lint --base trunk fix.md
	assert_clean
}

@test "in a repository with a checkstyle configuration, Testing must say checkstyle passed" {
	make_repo r develop
	cd r
	mkdir -p tornado-assembly/src/etc
	echo '<module name="Checker"/>' >tornado-assembly/src/etc/checkstyle.xml
	git add . && git commit -q -m 'checkstyle rules'
	run --separate-stderr git campaign pr lint "$F/merged-template.md"
	assert_failure 1
	assert_output "section 'Testing' does not say checkstyle passed (the repository has 'tornado-assembly/src/etc/checkstyle.xml')"
	# the template's last section is its Testing: say it there
	{ cat "$F/merged-template.md"; echo; echo 'checkstyle: clean (`make checkstyle`).'; } >said.md
	run --separate-stderr git campaign pr lint said.md
	assert_success
	[ -z "$output" ]
	git config campaign.lint.checkstyle false
	run --separate-stderr git campaign pr lint "$F/merged-template.md"
	assert_success
}
