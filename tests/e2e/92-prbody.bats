#!/usr/bin/env bats
# git campaign pr body|lint: a small campaign end to end (two hypotheses,
# three findings, planted A/B runs on two machines, test results of both
# machines for the branch and its base), the body rendered from those
# records, the lint on that body and on bodies that break one rule each,
# a repository's own template, and a PR's body read from the fake GitHub.

load helper
load records_helper
load fakehub

STUB="$BIN_DIR/tests/stub/libcuda.so.1"
METRIC='re:time: ([0-9]+);unit=us'
TODO='<!-- git-campaign:todo -->'

setup() {
	setup_world
	mkdir -p "$WORLD/jdk"
	printf 'IMPLEMENTOR="Eclipse Adoptium"\nJAVA_RUNTIME_VERSION="21.0.5+11-LTS"\nJAVA_VERSION="21.0.5"\n' \
		>"$WORLD/jdk/release"
	export JAVA_HOME="$WORLD/jdk"
	unset CUDA_VISIBLE_DEVICES CUDA_STUB_INIT_ERROR CUDA_STUB_DEVICES \
		CUDA_STUB_LOG GIT_CAMPAIGN_SYSROOT
	cpu
	git init -q p
	cd p
	# PROG FIXED PER: a workload whose time is FIXED + PER x iters + noise
	write_prog prog.in 1000 10
	write_prog ctl.in 500 0
	printf 'cp prog.in prog && cp ctl.in ctl && chmod +x prog ctl\n' >build.sh
	printf 'prog\nctl\n.runs\n' >.gitignore
	git add .
	git commit -q -m base
	git campaign init kfusion --base main >/dev/null
	git config campaign.backend cuda
	DB="$PWD/.git/campaign/campaign.db"
}

teardown() {
	stop_fakehub
}

# section BODY N: the lines of section N of a body, heading excluded
section() {
	awk -v n="$2" '/^## [0-9]\./ { on = ($2 == n ".") ; next } on' "$1"
}

# The campaign: branch fix-pass saves one us per iteration of prog; an A/B
# on this machine (a sweep over 1 and 100 iterations, with a control) and
# one on the H200 (against main); hypotheses decided by the first; three
# findings, two of them this branch's; tests of both machines
campaign() {
	git checkout -q -b fix-pass
	git campaign hypo add "one pass of prog costs 1 us per iteration" \
		--metric per_iter_us --predict 1 --unit us >/dev/null
	git campaign hypo add "the 500 us setup is what the pass costs" \
		--metric setup_us --predict 50 --unit us >/dev/null
	git config --add campaign.backends cuda
	git config --add campaign.backends opencl
	write_prog prog.in 1000 9
	git campaign ab --build 'sh build.sh' --run './prog {iters}' \
		--metric "$METRIC" --control ./ctl --iters 1,100 -n 6 \
		>"$WORLD/ab1.txt"
	git commit -q -am 'one pass less per iteration'
	AB1=$(sqlite3 "$DB" 'SELECT max(id) FROM ab_run')
	CPU_ENV=$(git campaign env --json | jpy 'd["id"]')
	git campaign hypo confirm 1 --measured 1 --ab "$AB1" >/dev/null
	git campaign hypo falsify 2 --measured 0 --ab "$AB1" >/dev/null
	h200
	git campaign ab --build 'sh build.sh' --run './prog 100' --base main \
		--metric "$METRIC" --control ./ctl -n 6 >"$WORLD/ab2.txt"
	H200_ENV=$(git campaign env --json | jpy 'd["id"]')
	cpu
	git campaign finding add --kind slow "an unrelated slow path" >/dev/null
	git campaign finding add --kind crash "prog crashes at 0 iterations" \
		--pr 7 >/dev/null
	git campaign finding add --kind wrong-answer \
		"prog prints the wrong time after a rebuild" --commit HEAD >/dev/null
	sqlite3 "$DB" "INSERT INTO pr VALUES ('fix-pass', 7, 'open', 'main',
		'https://github.com/o/r/pull/7', '2026-11-29T12:00:00Z')"
	{ tt unittests.TestA 10 2; tt unittests.TestB 5 1; } >"$WORLD/cpu-main.txt"
	{ tt unittests.TestA 11 1; tt unittests.TestB 5 1; } >"$WORLD/cpu-fix.txt"
	{ tt unittests.TestA 40 0; tt unittests.TestB 50 9; } >"$WORLD/h200-main.txt"
	{ tt unittests.TestA 40 0; tt unittests.TestB 51 8; } >"$WORLD/h200-fix.txt"
	git campaign tests import "$WORLD/cpu-main.txt" --commit main >/dev/null
	git campaign tests import "$WORLD/cpu-fix.txt" >/dev/null
	h200
	git campaign tests import "$WORLD/h200-main.txt" --commit main >/dev/null
	git campaign tests import "$WORLD/h200-fix.txt" >/dev/null
	cpu
}

# fill BODY: the prose written by hand, as a user would: the figure of
# the bug, the code of the cause, what the change leaves alone, why a
# backend was not tested
fill() {
	awk -v todo="$TODO" '/^## [0-9]\./ { s = $2 }
		index($0, todo) {
			p = substr($0, 1, index($0, todo) - 1)
			if (s == "1.") $0 = p "Each pass costs 1 us per iteration, 10 % of the run."
			else if (s == "2.") $0 = p "```c\nfor (i = 0; i < n; i++)\n\tpass(i);\n```"
			else if (s == "3.") $0 = p "Drop the second pass; the first is unchanged."
			else $0 = p "no OpenCL device here."
		} { print }' "$1"
}

# drop BODY N: BODY without its section N, heading and all
drop() {
	awk -v n="$2" '/^## [0-9]\./ { on = ($2 == n ".") } !on' "$1"
}

# lint_one BODY LINE: pr lint BODY exits 1 with LINE alone
lint_one() {
	run --separate-stderr git campaign pr lint "$1"
	[ "$status" -eq 1 ] || fail "exit $status: $stderr"
	[ -z "$stderr" ] || fail "stderr: $stderr"
	[ "$output" = "$2" ] || fail "lint of $1 said: $output"
}

@test "a campaign's PR body: numbers and testing from the records, per machine; lint-clean once the prose is written" {
	campaign
	CPU_LABEL=$(git campaign tests baseline --env "$CPU_ENV" --json |
		jpy 'd[0]["label"]')
	H200_LABEL=$(git campaign tests baseline --env "$H200_ENV" --json |
		jpy 'd[0]["label"]')
	[[ $H200_LABEL == *', GPU NVIDIA H200, JDK '*'21.0.5, backend cuda' ]]
	[ "$CPU_ENV" != "$H200_ENV" ]
	MAIN=$(git rev-parse --short=12 main)
	HEAD=$(git rev-parse --short=12 HEAD)
	run --separate-stderr git campaign pr body
	assert_clean
	printf '%s\n' "$output" >body.md
	# 1: this branch's findings, ranked; not the unrelated one
	[ "$(section body.md 1)" = "
- wrong-answer: prog prints the wrong time after a rebuild
- crash: prog crashes at 0 iterations
$TODO **To do:** the profile line: where the time goes." ] || fail "$(section body.md 1)"
	# 2: the confirmed hypothesis with its number, and the code still asked
	# for (an effect is not a cause); 3: the commits
	[ "$(section body.md 2)" = "
- one pass of prog costs 1 us per iteration: per_iter_us predicted 1 us, measured 1 us (ab #$AB1)
$TODO **To do:** the cause, with the 3 to 5 lines of code behind it." ] || fail "$(section body.md 2)"
	section body.md 3 | grep -qx -- "- $HEAD one pass less per iteration"
	# 4: one table per A/B, each with its control rows and its machine
	section body.md 4 >numbers
	grep -qx "A/B #$AB1 (20[0-9-]*T[0-9:]*Z), env $CPU_ENV:" numbers
	grep -qx "| workload | iters | A: main ($MAIN) | B: fix-pass ($HEAD) | B/A \[95% CI\] | p | verdict |" numbers
	grep -qE '^\| `\./prog \{iters\}` \| 100 \| 1999 us \| 1899 us \| 0\.95[0-9] \[.*\] \| .* \| faster \|$' numbers
	grep -qE '^\| `\./prog \{iters\}` \| 1 \| 1010 us \| 1009 us \| 0\.999 .* \| ~ \|$' numbers
	# ./ctl takes no count: one row per A/B, not one per count
	[ "$(grep -c '^| control: `./ctl` | .* | steady |$' numbers)" -eq 2 ]
	grep -qx "value, median of n = 6 per arm after 1 warm-up run; order A B B A; mode worktree." numbers
	grep -q "^env $CPU_ENV: .*, no GPU, .*, backend cuda\.$" numbers
	grep -q "^env $H200_ENV: .*, GPU NVIDIA H200, .*, backend cuda\.$" numbers
	grep -qx 'Sweep (Theil-Sen per arm, time = fixed + per-iteration x iters): removed per-iteration work.' numbers
	grep -qE '^\| `\./prog 100` \| 2000 us \| 1901 us \| .* faster \|$' numbers
	# 5: each machine's branch and base, never added together
	[ "$(section body.md 5)" = "
$CPU_LABEL (env $CPU_ENV):

- this branch ($HEAD): 2 failed of 18 (16 passed, 0 skipped, 0 unsupported; 2 classes)
- base main ($MAIN): 3 failed of 18 (15 passed, 0 skipped, 0 unsupported; 2 classes)

$H200_LABEL (env $H200_ENV):

- this branch ($HEAD): 8 failed of 99 (91 passed, 0 skipped, 0 unsupported; 2 classes)
- base main ($MAIN): 9 failed of 99 (90 passed, 0 skipped, 0 unsupported; 2 classes)" ] || fail "$(section body.md 5)"
	! grep -q 'of 117' body.md
	# 6: both machines, and the backend of campaign.backends not run
	section body.md 6 >backends
	grep -qxF -- "- $CPU_LABEL (env $CPU_ENV)" backends
	grep -qxF -- "- $H200_LABEL (env $H200_ENV)" backends
	grep -qx -- "- not tested: opencl. $TODO \*\*To do:\*\* why not." backends
	# 7: what did not help, and the falsified hypothesis
	[ "$(section body.md 7)" = "
- \`./prog {iters}\` at 1 iteration: no change (~), B/A 0.999 $(grep -o '0\.999 \[[0-9.]*, [0-9.]*\]' numbers | head -1 | cut -c7-) (A/B #$AB1, env $CPU_ENV)
- falsified: the 500 us setup is what the pass costs (setup_us predicted 50 us, measured 0 us; ab #$AB1)" ] ||
		fail "$(section body.md 7)"

	# the prose is missing, and only that
	run --separate-stderr git campaign pr lint body.md
	assert_failure 1
	[ -z "$stderr" ]
	assert_output "section 'The bug and its cost' has a placeholder left
section 'Cause' has a placeholder left
section 'Change' has a placeholder left
section 'Backends and OS tested' has a placeholder left"
	fill body.md >filled.md
	run --separate-stderr git campaign pr lint filled.md
	assert_clean
	[ -z "$output" ]
	run --separate-stderr git campaign pr lint --json - <filled.md
	assert_clean
	[ "$(jpy '[d["ok"], d["problems"], d["kind"], d["notes"]]' <<<"$output")" = '[true, [], "perf", []]' ]

	# the data
	git campaign pr body --json >data.json
	[ "$(jpy '[d["branch"], d["base"], d["pr"]["number"], [f["kind"] for f in d["findings"]], [h["id"] for h in d["confirmed"]], [h["id"] for h in d["falsified"]], len(d["ab_runs"]), d["has_control"], d["multi_env"], d["backends_untested"], d["tests_complete"]]' <data.json)" = \
		'["fix-pass", "main", 7, ["wrong-answer", "crash"], [1], [2], 2, true, true, ["opencl"], true]' ]
	[ "$(jpy 'sorted(t["id"] for t in d["tests"]) == sorted([e["id"] for e in d["envs"]])' <data.json)" = true ]

	# each rule, broken alone, is one line
	drop filled.md 2 >b1.md
	lint_one b1.md "section 'Cause' is missing (or the code behind the bug, quoted under it)"
	sed '/^## 7\. Negatives/q' filled.md >b2.md
	lint_one b2.md "section 'Negatives' is empty"
	sed "/^## 2\. Cause/a $TODO **To do:** the cause." filled.md >b3.md
	lint_one b3.md "section 'Cause' has a placeholder left"
	sed '/^|/d' filled.md >b4.md
	lint_one b4.md "no numbers table in section 'Numbers'"
	sed '/^| control: /d' filled.md >b5.md
	lint_one b5.md 'no control row in the numbers table (a workload that must not move, or a reference row)'
	{ sed '/^## 7\. Negatives/q' filled.md; printf '\nNone.\n'; } >b6.md
	lint_one b6.md "section 'Negatives' states no negative"
	sed '/^- base main /d' filled.md >b7.md
	lint_one b7.md "section 'Testing' lacks the test-suite numbers of the base"
	sed '/^- this branch /d' filled.md >b8.md
	lint_one b8.md "section 'Testing' lacks the test-suite numbers of the branch"
	# the rows of the second machine pasted under the first table
	awk '/^\| workload / { t++ } t == 1 && /^\|/ { print; next }
		t == 1 && !/^\|/ { t = 1.5; skip = 1 }
		skip && /^\|---/ { skip = 0; next }
		skip { next } { print }' filled.md >b9.md
	grep -qx "A/B #$AB1 (.*), env $CPU_ENV:" b9.md
	[ "$(grep -c '^| control: ' b9.md)" -eq 2 ]
	lint_one b9.md 'numbers table 1 is not labelled with its env (the numbers come from 2 envs)'
	# the umbrella's PR list says what the newest A/B of the branch says
	git config campaign.umbrella 5
	run --separate-stderr git campaign umbrella sync --dry-run
	assert_success
	assert_line --regexp '^- \[ \] #7 .* \(`fix-pass`\) — open: faster, B/A 0\.950 \[0\.9[0-9]+, 0\.9[0-9]+\] on `\./prog 100` \(A/B #[0-9]+\)$'
}

@test "one machine has one label: the A/B table, the test baselines and the backends tested name it alike" {
	campaign
	for env in "$CPU_ENV" "$H200_ENV"; do
		label=$(git campaign tests baseline --env "$env" --json |
			jpy 'd[0]["label"]')
		run --separate-stderr git campaign pr body
		assert_clean
		assert_line "env $env: $label."
		assert_line "$label (env $env):"
		assert_line "- $label (env $env)"
	done
}

@test "a repository's own pr-body.md is rendered, and template list shows it" {
	git checkout -q -b fix
	git commit -q --allow-empty -m 'the fix'
	mkdir -p .campaign/templates
	printf '%s\n' 'PR of {{branch}} into {{base}}' '{{#commits}}' '* {{subject}}' \
		'{{/commits}}' '{{^ab_runs}}no A/B yet{{/ab_runs}}' \
		>.campaign/templates/pr-body.md
	run --separate-stderr git campaign pr body
	assert_clean
	assert_output 'PR of fix into main
* the fix
no A/B yet'
	run --separate-stderr git campaign template list
	assert_clean
	assert_line "pr-body.md       $PWD/.campaign/templates/pr-body.md"
	# the built-in one still lints as a body with every placeholder
	git campaign template show --builtin pr-body.md >/dev/null
	rm .campaign/templates/pr-body.md
	run --separate-stderr git campaign pr body fix
	assert_clean
	assert_line '## 4. Numbers'
	[ "$(grep -c "^$TODO" <<<"$output")" -ge 6 ]
	# a broken override names itself
	printf '{{#commits}}\n' >.campaign/templates/pr-body.md
	run --separate-stderr git campaign pr body
	assert_failure 129
	[ -z "$output" ]
	[ "$stderr" = "error: template 'pr-body.md' line 1: section 'commits' is not closed" ]
}

# gh_pr BRANCH BODY: opens a PR on the fake as a client would; prints its
# number
gh_pr() {
	local json
	json=$(python3 -c 'import json, sys
print(json.dumps({"head": sys.argv[1], "base": "main", "title": "t", "body": sys.argv[2]}))' "$1" "$2")
	exec 5<>"/dev/tcp/127.0.0.1/$FAKEHUB_PORT"
	printf 'POST /repos/o/r/pulls HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: bats\r\nAuthorization: Bearer test-token\r\nAccept: application/vnd.github+json\r\nX-GitHub-Api-Version: 2022-11-28\r\nContent-Type: application/json\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s' \
		"${#json}" "$json" >&5
	sed '1,/^\r$/d' <&5 | jpy 'd["number"]'
	exec 5<&-
}

@test "pr lint reads a PR's body from GitHub, by number or by branch" {
	start_fakehub
	git remote add origin https://github.com/o/r.git
	git campaign config forge o/r >/dev/null
	git checkout -q -b fix
	git commit -q --allow-empty -m 'the fix'
	printf '%s\n' '## The bug' 'x costs 2 us' '## Cause' '`y`' '## Change' \
		'z, only' '## Numbers' 'median of n = 5' '| w | A | B |' \
		'|---|---|---|' '| control: c | 1 | 1 |' '## Testing' \
		'- fix: 1 failed of 3' '- base: 2 failed of 3' '## Backends' \
		'cuda on linux' '## Negatives' 'n/a' >want.md
	n=$(gh_pr fix "$(cat want.md)")
	[ -n "$n" ]
	run --separate-stderr git campaign pr lint --pr "$n"
	assert_failure 1
	[ -z "$stderr" ]
	assert_output "section 'Negatives' states no negative"
	# BRANCH: its PR in the cache
	run --separate-stderr git campaign pr lint fix
	assert_fatal "branch 'fix' has no PR yet" hint
	sqlite3 .git/campaign/campaign.db "INSERT INTO pr VALUES ('fix', $n,
		'open', 'main', '', '2026-11-29T12:00:00Z')"
	run --separate-stderr git campaign pr lint
	assert_failure 1
	assert_output "section 'Negatives' states no negative"
	run --separate-stderr git campaign pr lint --pr 999
	assert_fatal '404'
	[ "$(fh_count GET '/pulls/')" -ge 3 ]
}

@test "pr view shows a branch's PR from GitHub, as JSON, or opens it in a browser" {
	start_fakehub
	git remote add origin https://github.com/o/r.git
	git campaign config forge o/r >/dev/null
	git checkout -q -b fix
	git commit -q --allow-empty -m 'the fix'
	run --separate-stderr git campaign pr view
	assert_fatal "branch 'fix' has no PR yet" hint
	n=$(gh_pr fix "the body of the fix")
	sqlite3 .git/campaign/campaign.db "INSERT INTO pr VALUES ('fix', $n,
		'open', 'main', '', '2026-11-29T12:00:00Z')"
	run --separate-stderr git campaign pr view
	assert_success
	assert_line --index 0 "#$n t"
	assert_line --index 1 --regexp "^open · fix into main · updated "
	assert_line --regexp "^https?://.*/pull/$n$"
	assert_line "the body of the fix"
	run --separate-stderr git campaign pr view fix --json
	assert_success
	[ "$(jpy '[d["number"], d["title"], d["state"], d["base"], d["body"]]' <<<"$output")" = \
		"[$n, \"t\", \"open\", \"main\", \"the body of the fix\"]" ]
	url=$(jpy 'd["url"]' <<<"$output")
	# no display: the address is printed
	DISPLAY= WAYLAND_DISPLAY= run --separate-stderr git campaign pr view --web
	assert_success
	assert_output "$url"
	# a display: xdg-open gets it
	mkdir "$WORLD/xbin"
	printf '#!/bin/sh\necho "$1" >"%s/opened"\n' "$WORLD" >"$WORLD/xbin/xdg-open"
	chmod +x "$WORLD/xbin/xdg-open"
	DISPLAY=:9 PATH="$WORLD/xbin:$PATH" run --separate-stderr git campaign pr view --web
	assert_success
	[ -z "$output" ]
	[ "$(cat "$WORLD/opened")" = "$url" ]
}

@test "pr: usage, unknown branches and files, outside a campaign" {
	run --separate-stderr git campaign pr lint a b
	assert_failure 129
	run --separate-stderr git campaign pr lint --pr 3 x
	assert_failure 129
	run --separate-stderr git campaign pr
	assert_failure 129
	run --separate-stderr git campaign pr body nosuch
	assert_fatal "no branch 'nosuch'"
	run --separate-stderr git campaign pr lint nosuch.md
	assert_fatal "no file or branch 'nosuch.md'"
	# a file lints anywhere
	cd "$WORLD"
	printf '# Cause\n' >x.md
	run --separate-stderr git campaign pr lint x.md
	assert_failure 1
	# judged a docs PR: it only lacks its change
	assert_output "section 'Cause' is empty
section 'Change' is missing"
	[[ $stderr == *'linted as a docs PR'* ]]
	run --separate-stderr git campaign pr lint --kind perf x.md
	assert_failure 1
	assert_line "section 'Cause' is empty"
	assert_line "section 'Negatives' is missing"
	[ "${#lines[@]}" -eq 7 ]
	run --separate-stderr git campaign pr body
	assert_fatal 'not a git repository'
}
