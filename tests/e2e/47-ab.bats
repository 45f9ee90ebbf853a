#!/usr/bin/env bats
# git campaign ab: planted cases on a real repository. The workloads print
# their own "time" (a fixed cost, a per-iteration cost and a small
# deterministic noise), so the verdicts do not depend on this machine's
# load; wall-clock timing is exercised by the demo and bench/ab.sh.

load helper
load records_helper

METRIC='re:time: ([0-9]+);unit=us'

setup() {
	setup_world
	git init -q p
	cd p
	# PROG FIXED PER: a workload whose time is FIXED + PER x iters + noise
	write_prog prog.in 1000 10
	write_prog ctl.in 500 0
	cat >build.sh <<-'EOF'
		cp prog.in prog && cp ctl.in ctl && chmod +x prog ctl
	EOF
	printf 'prog\nctl\n.runs\n' >.gitignore
	git add .
	git commit -q -m base
	git campaign init demo --base main >/dev/null
}

ab() {
	run --separate-stderr git campaign ab --build 'sh build.sh' \
		--run './prog 100' --metric "$METRIC" "$@"
}

sweep() {
	run --separate-stderr git campaign ab --build 'sh build.sh' \
		--run './prog {iters}' --metric "$METRIC" "$@"
}

@test "a 10% per-iteration saving is faster, and the sweep says per-iteration work was removed" {
	write_prog prog.in 1000 9
	sweep --control ./ctl --iters 64,512 -n 10
	[ "$status" -eq 0 ] || fail "exit $status: $stderr"
	assert_line --regexp '^\| `\./prog \{iters\}` \| 64 \| 1640 us \| 1576 us \| 0\.96[0-9] \[.*\] \| .* \| faster \|$'
	assert_line --regexp '^\| `\./prog \{iters\}` \| 512 \| 6120 us \| 5608 us \| 0\.91[0-9] .* faster \|$'
	assert_line --regexp '^\| control: `\./ctl` \| - \| 499\.5 us \| 499\.5 us \| 1\.000 .* steady \|$'
	assert_output --partial 'removed per-iteration work'
	assert_output --partial 'order A B B A; mode worktree'
	# B is this working tree, untouched; A was built in a kept worktree
	[ "$(git status --porcelain)" = ' M prog.in' ]
	[ -x .git/campaign/worktrees/main/prog ]
	run git campaign status
	assert_line --regexp '^last ab   #1 faster 0\.96[0-9]: \./prog \{iters\} \(2026-.*Z\)$'
	# kept in the database with every sample
	run sqlite3 .git/campaign/campaign.db "SELECT verdict, json_array_length(result, '\$.workloads[0].b') FROM ab_run"
	assert_output --regexp '^faster 0\.96[0-9]\|10$'
}

@test "the result goes into the notes on A's commit; ab attach moves B's numbers onto the committed change" {
	write_prog prog.in 1000 9
	ab --control ./ctl -n 5 --config model=tiny
	assert_success
	# the machine and the labels under the table
	assert_line --regexp '^env [0-9a-f]{16}: .*, backend none\.$'
	assert_line 'Labelled model=tiny.'
	base=$(git rev-parse HEAD)
	run git notes --ref campaign show HEAD
	assert_success
	[ "${#lines[@]}" -eq 4 ]
	assert_line --regexp '^\{"v":1,"run":"[0-9a-f]{16}","metric":"value","value":1999,"unit":"us","better":"lower","stat":"median","n":5,"samples":\[.*\],"arm":"A","ctl":false,.*"config":\{"model":"tiny","profiler":"off","workload":"\./prog 100"\},"source":"ab",'
	assert_line --regexp '"arm":"B","ctl":false,.*"b_tree":"[0-9a-f]{40}"'
	assert_line --regexp '"arm":"B","ctl":true,'
	git commit -q -am 'one pass less'
	run --separate-stderr git campaign ab attach
	assert_clean
	assert_output 'attached 2 B records to HEAD'
	run git notes --ref campaign show HEAD
	[ "${#lines[@]}" -eq 2 ]
	assert_line --regexp "\"b_tree\":\"$(git rev-parse HEAD^{tree})\""
	run git campaign measure show HEAD --json
	assert_success
	# nothing of a committed change that does not match
	echo '# more' >>prog.in
	git commit -q -am 'something else'
	run git campaign ab attach
	assert_output 'attached 0 B records to HEAD'
	[ "$(git notes --ref campaign show "$base" | wc -l)" -eq 4 ]
}

@test "an INVALID A/B writes no records" {
	write_prog ctl.in 525 0
	ab --control ./ctl -n 10
	assert_failure 1
	run git notes --ref campaign show HEAD
	assert_failure
}

@test "a fixed cost that moved is told apart from per-iteration work" {
	write_prog prog.in 800 10
	sweep --iters 64,512 -n 10
	assert_success
	assert_output --partial 'displaced fixed cost'
}

@test "no change at all gives ~" {
	echo '# a comment' >>prog.in
	ab --control ./ctl -n 10
	assert_success
	assert_line --regexp '^\| `\./prog 100` \| 2000 us \| 2000 us \| 1\.000 .* \| ~ \|$'
}

@test "a control that moves makes the whole A/B INVALID, exit 1" {
	write_prog prog.in 1000 9
	write_prog ctl.in 525 0
	ab --control ./ctl -n 10
	assert_failure 1
	assert_line --index 0 --regexp '^\*\*INVALID\*\*: control `\./ctl` moved \+5\.0%, beyond the 2\.0% tolerance '
	ab --control ./ctl -n 10 --json
	assert_failure 1
	[ "$(python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["invalid"], d["workloads"][1]["verdict"], len(d["workloads"][0]["a"]))' <<<"$output")" = 'True moved 10' ]
}

@test "fewer than 5 runs per arm give numbers but no verdict, and say why" {
	write_prog prog.in 1000 9
	ab -n 3
	assert_success
	assert_line --regexp '\| no verdict \|$'
	assert_output --partial 'n = 3 per arm: 5 are needed for a verdict'
}

@test "stash mode: the user's procedure, blocked, and the working tree comes back exactly" {
	write_prog prog.in 1000 9
	sum=$(file_sum prog.in)
	git stash list >"$WORLD/before"
	ab --mode stash -n 6
	[ "$status" -eq 0 ] || fail "exit $status: $stderr"
	assert_line --regexp '\| faster \|$'
	assert_output --partial 'mode stash'
	assert_output --partial 'warning: blocked order'
	[ "$(file_sum prog.in)" = "$sum" ]
	[ "$(git status --porcelain)" = ' M prog.in' ] || fail "$(git status --porcelain)"
	[ -z "$(git for-each-ref refs/campaign/stash/)" ]
	git stash list | diff - "$WORLD/before"
	# the stash it used stays recoverable
	git reflog show --format=%gs refs/campaign/stash-log | grep -q 'campaign stash drop ab/'
}

@test "on a terminal the builds are announced on stderr, off one nothing is" {
	write_prog prog.in 1000 9
	# script(1) gives the harness a terminal for stderr; stdout, the
	# table, goes to a file
	cmd="git campaign ab --build 'sh build.sh' --run './prog 100' --metric '$METRIC' -n 5 >$WORLD/table"
	script -qec "$cmd" /dev/null >"$WORLD/tty"
	grep -qF 'building A (base worktree)...' "$WORLD/tty"
	grep -qF 'building B (working tree)...' "$WORLD/tty"
	! grep -qF 'built already' "$WORLD/tty"
	grep -q '| faster |$' "$WORLD/table"
	# A's worktree holds its build now
	script -qec "$cmd" /dev/null >"$WORLD/tty"
	grep -qF "A is built already (tree $(git rev-parse --short=12 HEAD^{tree}))" "$WORLD/tty"
	! grep -qF 'building A' "$WORLD/tty"
	grep -qF 'building B (working tree)...' "$WORLD/tty"
	ab -n 5
	assert_clean
}

@test "artifact mode: builds kept by tree id, runs interleaved on the copies, a cached arm not rebuilt" {
	cat >build.sh <<-'EOF'
		mkdir -p dist && cp prog.in dist/prog && chmod +x dist/prog
		echo built >>"$HOME/builds"
	EOF
	git commit -q -am 'build into dist'
	write_prog prog.in 1000 9
	run --separate-stderr git campaign ab --mode artifact --artifact dist \
		--build 'sh build.sh' --run '{artifact}/prog 100' \
		--metric "$METRIC" -n 5
	[ "$status" -eq 0 ] || fail "exit $status: $stderr"
	assert_line --regexp '\| faster \|$'
	assert_output --partial 'order A B B A; mode artifact'
	[ "$(wc -l <"$HOME/builds")" -eq 2 ]
	a=$(git rev-parse HEAD^{tree})
	[ -x ".git/campaign/builds/$a/prog" ]
	[ "$(git status --porcelain)" = ' M prog.in' ]
	# both trees are cached now: no build at all
	run --separate-stderr git campaign ab --mode artifact --artifact dist \
		--build 'sh build.sh' --run '{artifact}/prog 100' \
		--metric "$METRIC" -n 5
	assert_success
	[ "$(wc -l <"$HOME/builds")" -eq 2 ]
	run --separate-stderr git campaign ab --mode artifact --artifact nothing \
		--build true --run true -n 5
	assert_fatal "the build of A made no 'nothing' (--artifact)"
	[ "$(git status --porcelain)" = ' M prog.in' ]
}

@test "stash mode killed at every step: --abort puts the change back, nothing lost" {
	write_prog prog.in 1000 9
	sum=$(file_sum prog.in)
	for step in stash build-A measure-A restore build-B measure-B; do
		GIT_CAMPAIGN_TEST_KILL_AT=$step ab --mode stash -n 5
		[ "$status" -eq 137 ] || fail "$step: exit $status, $stderr"
		run git campaign status
		assert_line --partial 'unfinished ab #'
		assert_line --partial 'git campaign ab --abort'
		run --separate-stderr git campaign ab --abort
		[ "$status" -eq 0 ] || fail "$step: abort exit $status: $stderr"
		[ "$(file_sum prog.in)" = "$sum" ] || fail "$step: prog.in differs"
		[ -z "$(git for-each-ref refs/campaign/stash/)" ] || fail "$step: stash left"
		run git campaign status
		assert_line 'unfinished none'
	done
}

@test "--continue after a kill puts the change back and runs the A/B again" {
	write_prog prog.in 1000 9
	GIT_CAMPAIGN_TEST_KILL_AT=measure-A ab --mode stash -n 5
	[ "$status" -eq 137 ]
	[ "$(git status --porcelain)" = '' ]
	run --separate-stderr git campaign ab --continue
	[ "$status" -eq 0 ] || fail "exit $status: $stderr"
	assert_line --regexp '\| faster \|$'
	[ "$(git status --porcelain)" = ' M prog.in' ]
}

@test "a failed build stops, names its arm and restores the tree" {
	echo 'exit 3' >>build.sh
	sum=$(file_sum build.sh)
	ab --mode stash -n 5
	assert_fatal 'the build of B (working tree) failed with exit 3'
	[ "$(file_sum build.sh)" = "$sum" ]
	[ -z "$(git for-each-ref refs/campaign/stash/)" ]
	git checkout -q build.sh
	echo 'echo broken >&2; exit 2' >>build.sh
	git commit -q -am 'break the build'
	git checkout -q HEAD~1 -- build.sh
	ab -n 5
	assert_fatal 'the build of A (base worktree) failed with exit 2: broken'
	run git campaign status
	assert_line 'unfinished none'
}

@test "artifact mode: a failed build of A puts the change back" {
	echo 'echo broken >&2; exit 2' >>build.sh
	git commit -q -am 'break the build'
	git checkout -q HEAD~1 -- build.sh
	sum=$(file_sum build.sh)
	run --separate-stderr git campaign ab --mode artifact --artifact prog \
		--build 'sh build.sh' --run './prog 100' --metric "$METRIC" -n 5
	assert_fatal 'the build of A (HEAD) failed with exit 2: broken' hint
	[ "${stderr_lines[1]}" = 'hint: the working tree holds your change again' ]
	[ "$(file_sum build.sh)" = "$sum" ]
	[ -z "$(git for-each-ref refs/campaign/stash/)" ]
	run git campaign status
	assert_line 'unfinished none'
}

@test "a run that fails is recorded, with no verdict" {
	cat >>prog.in <<-'EOF'
		exit 1
	EOF
	ab -n 5
	assert_success
	assert_line --regexp '\| failed \|$'
	assert_output --partial '0 run(s) of A and 5 of B exited non-zero'
}

@test "honest numbers: required and forbidden flags are checked before anything builds" {
	ab -n 5 --require-flag -Dtornado.recover.bailout=False
	assert_failure 1
	[[ ${stderr_lines[0]} == "error: './prog 100' lacks the required flag '-Dtornado.recover.bailout=False'" ]]
	[ ! -e .git/campaign/worktrees ]
	git campaign config forbidFlag -- -Dtornado.profiler=True
	git campaign config forbidFlag -- -Dother=1
	[ "$(git config --get-all campaign.forbidflag | wc -l)" -eq 2 ]
	run --separate-stderr git campaign ab --build 'sh build.sh' \
		--run './prog -Dtornado.profiler=True' --metric "$METRIC" -n 5
	assert_failure 1
	[[ ${stderr_lines[0]} == *"holds the forbidden flag '-Dtornado.profiler=True'" ]]
	run --separate-stderr git campaign ab --build 'sh build.sh' \
		--run './prog -Dtornado.profiler=True' --metric "$METRIC" -n 5 \
		--config profiler=on
	assert_success
	assert_line 'Labelled profiler=on.'
	assert_line '**Profiler on**: these numbers are not comparable with unprofiled runs.'
}

@test "the number from JSON the run prints, or through an importer; output without the number stops the A/B" {
	cat >prog.in <<-'EOF'
		#!/bin/sh
		echo "starting"
		echo '{"decode": {"tok_s": [41.5, 42.0]}}'
	EOF
	git commit -q -am 'print JSON'
	run --separate-stderr git campaign ab --build 'sh build.sh' --run ./prog \
		--metric 'json:decode.tok_s.1;unit=tok/s;better=higher' -n 5
	assert_success
	assert_line --regexp '^\| `\./prog` \| 42 tok/s \| 42 tok/s \| 1\.000 .* ~ \|$'
	assert_output --partial 'decode.tok_s.1, median of n = 5'
	cp "$SRC_DIR/tests/fixtures/hyperfine/sleep-two-commands.json" out.json
	printf '#!/bin/sh\ncat %s\n' "$PWD/out.json" >prog.in
	git commit -q -am 'print hyperfine JSON'
	run --separate-stderr git campaign ab --build 'sh build.sh' --run ./prog \
		--metric 'import:hyperfine:hyperfine.time;unit=ns' -n 5
	assert_success
	assert_line --regexp '^\| `\./prog` \| 17057700 ns \| 17057700 ns \|'
	run --separate-stderr git campaign ab --build 'sh build.sh' --run ./prog \
		--metric 're:nothing ([0-9]+)' -n 5
	assert_fatal "no number for --metric in the output of './prog' (arm A)"
	run --separate-stderr git campaign ab --build true --run true --metric 'import:nope:x'
	assert_failure 129
	[[ ${stderr_lines[0]} == "error: --metric 'import:nope:x': no importer of that name" ]]
}

@test "SIGTERM in stash mode puts the change back before the command ends" {
	write_prog prog.in 1000 9
	sum=$(file_sum prog.in)
	# an untracked control (stash mode stashes tracked files only) that
	# sends SIGTERM to the harness on A's third run
	cat >killer <<-'EOF'
		#!/bin/sh
		if [ "$GIT_CAMPAIGN_ARM" = A ] && [ "$(cat .runs 2>/dev/null)" = 3 ]; then
			kill -TERM "$PPID"
		fi
		echo 'time: 1'
	EOF
	chmod +x killer
	echo 'killer' >>.git/info/exclude
	ab --mode stash -n 5 --control ./killer
	assert_fatal 'interrupted by signal 15'
	[ "$(file_sum prog.in)" = "$sum" ]
	[ -z "$(git for-each-ref refs/campaign/stash/)" ]
	run git campaign status
	assert_line 'unfinished none'
}

@test "usage errors: missing --build, bad --iters, bad --metric, stash mode with nothing to stash" {
	run --separate-stderr git campaign ab --run ./prog
	assert_failure 129
	[[ ${stderr_lines[0]} == 'error: --build is missing' ]]
	sweep --iters 64,x
	assert_failure 129
	sweep
	assert_failure 129
	[[ ${stderr_lines[0]} == "error: {iters} in './prog {iters}' needs --iters" ]]
	run --separate-stderr git campaign ab --build true --run true --metric 're:no group'
	assert_failure 129
	[[ ${stderr_lines[0]} == "error: --metric regex 'no group' needs exactly one group, the number" ]]
	ab --mode stash
	assert_failure 1
	[[ ${stderr_lines[0]} == 'error: nothing to compare: the working tree has no change to stash' ]]
	run --separate-stderr git campaign ab --abort
	assert_fatal 'no unfinished A/B to abort'
}

@test "a mistyped --mode or --order is a usage error naming the closest value" {
	run --separate-stderr git campaign ab --build true --run true --mode stsh
	assert_failure 129
	[ -z "$output" ]
	[[ ${stderr_lines[0]} == "error: --mode 'stsh' is not one of worktree, stash, artifact; did you mean 'stash'?" ]]
	run --separate-stderr git campaign ab --build true --run true --order=abab
	assert_failure 129
	[[ ${stderr_lines[0]} == "error: --order 'abab' is not one of abba, random, blocked; did you mean 'abba'?" ]]
	run --separate-stderr git campaign ab frob
	assert_failure 129
	[[ ${stderr_lines[0]} == "error: unknown subcommand 'frob'" ]]
}
