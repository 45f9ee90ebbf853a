#!/usr/bin/env bats
# git campaign measure: records in refs/notes/campaign and their index,
# written in one step; show, log, compare; refusals across env and config.

load helper

setup() {
	setup_world
	make_repo r
	cd r
	git campaign init >/dev/null
	DB=.git/campaign/campaign.db
}

# notes commits with notes in them: init starts the ref with an empty one
notes_commits() {
	git log --format=%s refs/notes/campaign 2>/dev/null |
		grep -vc '^Notes of git campaign$' || :
}

rows() {
	sqlite3 "$DB" "SELECT count(*) FROM measurement ${1:+WHERE $1}"
}

# commit MSG: an empty commit
commit() {
	git commit -q --allow-empty -m "$1"
}

@test "add writes one schema-1 line to the note and one index row" {
	run --separate-stderr git campaign measure add kernel_ms 12.5 --unit ms \
		--better lower --samples 12.1,12.5,12.9 --config model=x
	assert_clean
	[[ $output == "recorded 1 measurement on $(git rev-parse --short=10 HEAD) (run "* ]]
	[ "$(notes_commits)" = 1 ]
	run git notes --ref campaign show HEAD
	assert_success
	[ "${#lines[@]}" -eq 1 ]
	assert_output --regexp '^\{"v":1,"run":"[0-9a-f]{16}","metric":"kernel_ms","value":12.5,"unit":"ms","better":"lower","stat":"value","n":3,"samples":\[12.1,12.5,12.9\],"env":"[0-9a-f]{16}","config":\{"model":"x","profiler":"off"\},"source":"add","at":"[0-9-]{10}T[0-9:]{8}Z"\}$'
	[ "$(rows "commit_id = '$(git rev-parse HEAD)' AND metric = 'kernel_ms' AND value = 12.5")" = 1 ]
	[ "$(sqlite3 "$DB" "SELECT value FROM meta WHERE key = 'measurement.notes'")" = "$(git rev-parse refs/notes/campaign)" ]
	run git reflog show --format=%gs refs/notes/campaign
	assert_output 'campaign: measure add
campaign: init'
	run --separate-stderr git campaign measure show
	assert_clean
	assert_output --regexp '^kernel_ms +12.5 ms  n=3  model=x,profiler=off  env=[0-9a-f]{16} run=[0-9a-f]{16} add '
}

@test "add appends to a note git wrote, and VALUE - takes the median" {
	git notes --ref campaign add -m 'written by hand'
	git campaign measure add tok_s - --samples 3,1,2,10 >/dev/null
	git campaign measure add tok_s 7 >/dev/null
	run git notes --ref campaign show
	[ "${#lines[@]}" -eq 3 ]
	[ "${lines[0]}" = 'written by hand' ]
	[[ ${lines[1]} == *'"value":2.5,"stat":"median","n":4,"samples":[3,1,2,10]'* ]]
	[[ ${lines[2]} == *'"value":7,"stat":"value","n":1,'* ]]
	[ "$(notes_commits)" = 3 ]
	run --separate-stderr git campaign measure show --json
	assert_success
	[[ $stderr == 'warning: 1 line of the note on '*' is not measurement records' ]]
	[ "$(jq '.records | length' <<<"$output")" = 2 ]
	[ "$(jq .unreadable <<<"$output")" = 1 ]
	[ "$(rows)" = 2 ]
}

@test "a batch of 1000 records is one notes commit" {
	commit second
	for i in $(seq 1000); do
		echo "{\"metric\":\"m$((i % 10))\",\"value\":$i,\"unit\":\"ns\",\"config\":{\"kernel\":\"k$i\"}}"
	done >batch.jsonl
	before=$(notes_commits)
	run --separate-stderr git campaign measure add --batch batch.jsonl --commit HEAD~
	assert_clean
	[[ $output == "recorded 1000 measurements on $(git rev-parse --short=10 HEAD~) "* ]]
	[ "$(notes_commits)" = $((before + 1)) ]
	[ "$(git notes --ref campaign show HEAD~ | wc -l)" = 1000 ]
	[ "$(git notes --ref campaign show HEAD~ | grep -c '"source":"batch"')" = 1000 ]
	[ "$(git notes --ref campaign show HEAD~ | sed 's/.*"run":"\([0-9a-f]*\)".*/\1/' | sort -u | wc -l)" = 1 ]
	[ "$(rows "commit_id = '$(git rev-parse HEAD~)'")" = 1000 ]
	run git campaign measure add --batch batch.jsonl --json
	[ "$(jq .records <<<"$output")" = 1000 ]
}

@test "a malformed batch line names the file and line, and writes nothing" {
	printf '{"metric":"a","value":1}\n{"metric":"b"}\n' >bad.jsonl
	run --separate-stderr git campaign measure add --batch bad.jsonl
	assert_fatal "bad.jsonl:2: key 'value' is missing, and there are no samples"
	[ "$(notes_commits)" = 0 ]
	printf '{"metric":"a","value":1}\nnot json\n' >bad.jsonl
	run --separate-stderr git campaign measure add --batch bad.jsonl
	assert_fatal 'bad.jsonl:2: not a JSON object'
	[ "$(notes_commits)" = 0 ]
}

@test "notes in git's fan-out folders are appended in place and read" {
	# 300 commits with notes made by fast-import, which fans out
	{
		for i in $(seq 300); do
			printf 'commit refs/heads/main\nmark :%d\ncommitter C <c@x> %d +0000\ndata 2\nc%d\n' \
				"$i" $((1700000000 + i)) $((i % 10))
			[ "$i" -gt 1 ] || printf 'from main^0\n'
			printf '\n'
		done
		printf 'commit refs/notes/campaign\ncommitter C <c@x> 1700000999 +0000\ndata 6\nnotes\nfrom refs/notes/campaign^0\n'
		for i in $(seq 300); do
			printf 'N inline :%d\ndata 5\nold%d\n' "$i" $((i % 10))
		done
	} | git fast-import --quiet
	git ls-tree -r --name-only refs/notes/campaign | grep -q '^[0-9a-f][0-9a-f]/' ||
		fail "fast-import made no fan-out"
	old=$(git ls-tree -r --name-only refs/notes/campaign | grep "$(git rev-parse HEAD~5 | cut -c3-)")
	git campaign measure add m 1 --commit HEAD~5 >/dev/null
	git campaign measure add m 2 --commit main~300 >/dev/null # "first", no note
	[ "$(git ls-tree -r --name-only refs/notes/campaign | grep -c "$(git rev-parse HEAD~5 | cut -c3-)")" = 1 ]
	git ls-tree -r --name-only refs/notes/campaign | grep -qx "$old"
	git ls-tree -r --name-only refs/notes/campaign |
		grep -qx "$(git rev-parse main~300 | sed 's/^\(..\)/\1\//')" ||
		fail "the new note is not in the fan-out folder"
	run git notes --ref campaign show HEAD~5
	[ "${#lines[@]}" -eq 2 ]
	[ "${lines[0]}" = old5 ]
	run git notes --ref campaign show main~300
	[[ $output == '{"v":1,'*'"value":2,'* ]]
	[ "$(git notes --ref campaign list | wc -l)" = 301 ]
	[ "$(rows)" = 2 ]
}

@test "log follows first-parent history, one row per commit, newest first" {
	git campaign measure add lat 10 --unit ms >/dev/null
	commit a
	git campaign measure add lat 8 --unit ms >/dev/null
	git campaign measure add lat 9 --unit ms >/dev/null
	git checkout -q -b side
	commit s
	git campaign measure add lat 99 --unit ms >/dev/null
	git checkout -q main
	commit b
	git merge -q --no-ff -m merge side
	git campaign measure add lat 7 --unit ms >/dev/null
	run --separate-stderr git campaign measure log lat
	assert_clean
	[ "${#lines[@]}" -eq 3 ]
	assert_line -n 0 "$(git rev-parse --short=10 HEAD)  7 ms  merge"
	assert_line -n 1 "$(git rev-parse --short=10 main~2)  8.5 ms (median of 2)  a"
	assert_line -n 2 "$(git rev-parse --short=10 main~3)  10 ms  first"
	run git campaign measure log lat HEAD~2..HEAD
	[ "${#lines[@]}" -eq 1 ]
	run git campaign measure log lat --json
	[ "$(jq '.points | length' <<<"$output")" = 3 ]
	[ "$(jq -r '.points[1].value, .points[1].records, .unit' <<<"$output" | tr '\n' ' ')" = '8.5 2 ms ' ]
	run --separate-stderr git campaign measure log nosuch
	assert_fatal "no measurements of 'nosuch'"
}

@test "log draws a sparkline on a terminal only" {
	for v in 1 2 3 4; do
		git campaign measure add lat $v >/dev/null
		commit "c$v"
	done
	# the sparkline is for a terminal; the pager (git's, as git starts it) is not
	# under test here
	GIT_PAGER=cat run script -qec 'git campaign measure log lat' /dev/null
	assert_success
	[[ ${lines[0]} == 'lat  ▁'*'█'* ]] || fail "no sparkline: ${lines[0]}"
	# through git's pager too, as the person at the terminal reads it
	GIT_PAGER='sed s/^/paged:/' run script -qec 'git campaign measure log lat' /dev/null
	assert_success
	[[ ${lines[0]} == 'paged:lat  ▁'*'█'* ]] || fail "no sparkline through the pager: ${lines[0]}"
	run git campaign measure log lat
	refute_output --partial '▁'
}

@test "log refuses to mix configs, naming the keys; --cross-config marks every line" {
	git campaign measure add t 1 --config profiler=ncu --config model=a >/dev/null
	git campaign measure add t 2 --config model=a >/dev/null
	run --separate-stderr git campaign measure log t
	assert_failure 1
	[ -z "$output" ]
	[ "$stderr" = "error: refusing to mix configs of 't': they differ in 'profiler'
hint: choose one with --config profiler=VALUE, or show them all with --cross-config" ]
	run --separate-stderr git campaign measure log t --config profiler=off
	assert_clean
	assert_output "$(git rev-parse --short=10 HEAD)  2  first"
	run --separate-stderr git campaign measure log t --cross-config
	assert_clean
	[ "${#lines[@]}" -eq 2 ]
	for l in "${lines[@]}"; do
		[[ $l == '[cross env='* ]] || fail "unmarked: $l"
	done
	assert_line --partial 'model=a,profiler=ncu] '
}

@test "log refuses numbers of other machines only; --cross-env shows them marked" {
	git campaign measure add t 1 --backend cuda >/dev/null
	commit b
	git campaign measure add t 2 --backend opencl >/dev/null
	run --separate-stderr git campaign measure log t --backend ptx
	assert_failure 1
	[[ ${stderr_lines[0]} == "error: 't' was not measured on this machine (env "*"): 2 other envs measured it; env "*" differs in "*"'backend'"* ]] ||
		fail "$stderr"
	[ "${stderr_lines[1]}" = 'hint: show them with --cross-env' ]
	run --separate-stderr git campaign measure log t --backend cuda
	assert_clean
	[ "${#lines[@]}" -eq 1 ]
	run --separate-stderr git campaign measure log t --cross-env
	assert_clean
	[ "${#lines[@]}" -eq 2 ]
	for l in "${lines[@]}"; do
		[[ $l == '[cross env='*'profiler=off] '* ]] || fail "unmarked: $l"
	done
}

@test "compare prints medians, change, p and CI; ~ when not significant" {
	git campaign measure add k - --unit ms --samples 10,11,12,13,14,15 >/dev/null
	git campaign measure add slow - --samples 5,6,7 >/dev/null
	commit b
	git campaign measure add k - --unit ms --samples 20,21,22,23,24,25 >/dev/null
	git campaign measure add slow - --samples 6,5,7 >/dev/null
	run --separate-stderr git campaign measure compare HEAD~ HEAD
	assert_clean
	[ "${#lines[@]}" -eq 3 ]
	[[ ${lines[0]} == metric*'HEAD~'*HEAD*delta*p*'95% CI of B/A' ]]
	# the delta is the Hodges-Lehmann estimate, the centre of its CI
	[[ ${lines[1]} =~ ^k\ +12.5\ ms\ +22.5\ ms\ +\+80.19%\ p=0.002\ n=6\+6\ +\[ ]] || fail "${lines[1]}"
	[[ ${lines[2]} =~ ^slow\ +6\ +6\ +~\ p=1.000\ n=3\+3\ +- ]] || fail "${lines[2]}"
	run git campaign measure compare HEAD~ HEAD k --json
	[ "$(jq '.rows | length' <<<"$output")" = 1 ]
	[ "$(jq '.rows[0].significant, .rows[0].a.median, .rows[0].b.n' <<<"$output" | tr '\n' ' ')" = 'true 12.5 6 ' ]
	jq -e '.rows[0].ci[0] > 1 and .rows[0].ci[0] < 1.8 and .rows[0].ci[1] > 1.8' <<<"$output" >/dev/null
	run --separate-stderr git campaign measure compare HEAD~ HEAD nosuch
	assert_fatal "no measurement of 'nosuch' at 'HEAD~'"
}

@test "compare refuses across envs naming the keys; --cross-env marks every line" {
	git campaign measure add k 1 --backend cuda >/dev/null
	commit b
	git campaign measure add k 2 --backend opencl >/dev/null
	run --separate-stderr git campaign measure compare HEAD~ HEAD
	assert_failure 1
	[ -z "$output" ]
	[[ ${stderr_lines[0]} == "error: refusing to compare 'k' of 'HEAD~' and 'HEAD': envs "*" and "*" differ in "*"'backend'"* ]] ||
		fail "$stderr"
	[ "${stderr_lines[1]}" = 'hint: compare them anyway with --cross-env (every line is then marked)' ]
	run --separate-stderr git campaign measure compare HEAD~ HEAD --cross-env
	assert_clean
	[ "${#lines[@]}" -eq 2 ]
	for l in "${lines[@]}"; do
		[[ $l == '[cross env=* '* ]] || fail "unmarked: $l"
	done
	[[ ${lines[1]} == '[cross env=* profiler=off] k '* ]] || fail "${lines[1]}"
}

@test "compare refuses profiler-on against profiler-off numbers" {
	git campaign measure add k 1 >/dev/null
	commit b
	git campaign measure add k 2 --config profiler=nsys >/dev/null
	run --separate-stderr git campaign measure compare HEAD~ HEAD
	assert_failure 1
	[ "${stderr_lines[0]}" = "error: refusing to compare 'k' of 'HEAD~' and 'HEAD': configs differ in 'profiler'" ]
	[ "${stderr_lines[1]}" = 'hint: compare them anyway with --cross-config (every line is then marked)' ]
	run --separate-stderr git campaign measure compare HEAD~ HEAD --cross-config
	assert_clean
	for l in "${lines[@]}"; do
		[[ $l == '[cross env='*' *] '* ]] || fail "unmarked: $l"
	done
}

@test "git commit --amend carries the notes, and the index follows" {
	git campaign measure add k 5 >/dev/null
	old=$(git rev-parse HEAD)
	git commit -q --amend --allow-empty -m amended
	[ "$(git rev-parse HEAD)" != "$old" ]
	run git notes --ref campaign show HEAD
	assert_output --partial '"metric":"k","value":5'
	run --separate-stderr git campaign measure log k
	assert_clean
	assert_output "$(git rev-parse --short=10 HEAD)  5  amended"
	[ "$(rows "commit_id = '$(git rev-parse HEAD)'")" = 1 ]
}

@test "notes changed by git are indexed incrementally; a deleted database is rebuilt" {
	git campaign measure add k 5 >/dev/null
	git notes --ref campaign show >note
	sed 's/"value":5/"value":6/; s/"run":"[0-9a-f]*"/"run":"0123456789abcdef"/' note >>note
	git notes --ref campaign add -f -F note
	run git campaign measure log k
	assert_output "$(git rev-parse --short=10 HEAD)  5.5 (median of 2)  first"
	[ "$(rows)" = 2 ]
	rm -f "$DB" "$DB-wal" "$DB-shm"
	run --separate-stderr git campaign measure log k
	assert_clean
	assert_output "$(git rev-parse --short=10 HEAD)  5.5 (median of 2)  first"
	[ "$(rows)" = 2 ]
	[ "$(sqlite3 "$DB" "SELECT value FROM meta WHERE key = 'measurement.notes'")" = "$(git rev-parse refs/notes/campaign)" ]
}

@test "a locked notes ref fails the add and leaves no index row" {
	git campaign measure add k 1 >/dev/null
	tip=$(git rev-parse refs/notes/campaign)
	touch .git/refs/notes/campaign.lock
	run --separate-stderr git campaign measure add k 2
	assert_fatal "cannot update 'refs/notes/campaign'"
	[[ $stderr == *'hint: nothing was written'* ]]
	[ "$(git rev-parse refs/notes/campaign)" = "$tip" ]
	[ "$(rows)" = 1 ]
	[ "$(rows 'value = 2')" = 0 ]
	rm .git/refs/notes/campaign.lock
	git campaign measure add k 3 >/dev/null
	[ "$(rows)" = 2 ]
}

@test "a database that refuses the write leaves no notes commit" {
	git campaign measure add k 1 >/dev/null
	tip=$(git rev-parse refs/notes/campaign)
	sqlite3 "$DB" "CREATE TRIGGER no_write BEFORE INSERT ON measurement
		BEGIN SELECT RAISE(ABORT, 'disk says no'); END;"
	run --separate-stderr git campaign measure add k 2
	assert_fatal 'disk says no'
	[ "$(git rev-parse refs/notes/campaign)" = "$tip" ]
	[ "$(git notes --ref campaign show | wc -l)" = 1 ]
	run --separate-stderr git campaign measure add --batch - <<<'{"metric":"b","value":1}'
	assert_fatal 'disk says no'
	[ "$(git rev-parse refs/notes/campaign)" = "$tip" ]
}

@test "bad arguments: samples, values, better, config, commit, campaign" {
	run --separate-stderr git campaign measure add k 1 --samples 1,x,3
	assert_failure 129
	[ "${stderr_lines[0]}" = "error: --samples: 'x' is not a number" ]
	run --separate-stderr git campaign measure add k 1 --samples 1,,3
	assert_failure 129
	run --separate-stderr git campaign measure add k abc
	assert_failure 129
	[ "${stderr_lines[0]}" = "error: VALUE 'abc' is not a number" ]
	run --separate-stderr git campaign measure add k -
	assert_failure 129
	run --separate-stderr git campaign measure add k 1 --better more
	assert_failure 129
	run --separate-stderr git campaign measure add k 1 --config nokey
	assert_failure 129
	[ "${stderr_lines[0]}" = "error: config 'nokey' is not of the form key=value" ]
	run --separate-stderr git campaign measure add k 1 --commit nosuch
	assert_fatal "unknown commit 'nosuch'"
	run --separate-stderr git campaign measure frob
	assert_failure 129
	[ "$(notes_commits)" = 0 ]
	git config --unset campaign.name
	run --separate-stderr git campaign measure add k 1
	assert_fatal 'no campaign in this repository'
	run --separate-stderr git campaign measure show
	assert_fatal 'no campaign in this repository'
	[ "$(notes_commits)" = 0 ]
}

@test "show of a commit without measurements is a no" {
	run --separate-stderr git campaign measure show
	assert_failure 1
	[ -z "$output" ]
	[ "$stderr" = "error: no measurements on 'HEAD'" ]
}

@test "import: an unknown format lists the formats; an undetectable input writes nothing" {
	run --separate-stderr git campaign measure import x.txt --format nosuch
	assert_failure 129
	[ "${stderr_lines[0]}" = "error: unknown format 'nosuch'" ]
	assert_equal "$(grep -c '^formats:' <<<"$stderr")" 1
	echo 'hello' >x.txt
	run --separate-stderr git campaign measure import x.txt
	assert_fatal "cannot tell the format of 'x.txt'" hint
	[ "$(notes_commits)" = 0 ]
	run --separate-stderr git campaign measure import nosuch.txt --format nosuch
	assert_failure 129
}

@test "every import format of this build is in the man page" {
	formats=$(git campaign measure import x --format nosuch 2>&1 |
		sed -n 's/^formats://p')
	for f in $formats; do
		[ "$f" = '(none)' ] && continue
		grep -qx "\*$f\*" "$SRC_DIR/man/git-campaign-measure.1.scd" ||
			fail "format $f is not in git-campaign-measure.1.scd"
	done
}

@test "import writes every record of a tool's output in one notes commit" {
	F=$SRC_DIR/tests/fixtures
	run --separate-stderr git campaign measure import "$F/hyperfine/sleep-two-commands.json" --json
	assert_clean
	[ "$(jq .records <<<"$output")" -gt 1 ]
	n=$(jq .records <<<"$output")
	[ "$(notes_commits)" = 1 ]
	[ "$(git notes --ref campaign show | grep -c '"source":"hyperfine"')" = "$n" ]
	[ "$(git notes --ref campaign show | grep -c '"profiler":"off"')" = "$n" ]
	[ "$(rows)" = "$n" ]
	run git reflog show -1 --format=%gs refs/notes/campaign
	assert_output 'campaign: measure import'
	# ncu: a profiler, summarised per kernel over its 2 launches; --config
	# is added
	git campaign measure import - --config model=x <"$F/ncu/h200-vadd-import-details.csv" >/dev/null
	[ "$(notes_commits)" = 2 ]
	run git notes --ref campaign show
	assert_line --regexp '"n":2,"summary":.*"kernel":"vadd","model":"x","profiler":"ncu"'
	# a directory of TEST-*.xml files, with its format named
	git campaign measure import "$F/junit/dir" --format junit --commit HEAD >/dev/null
	[ "$(notes_commits)" = 3 ]
	[ "$(git notes --ref campaign show | grep -c '"source":"junit"')" -gt 0 ]
}

@test "an import the importer refuses writes nothing and exits 128" {
	F=$SRC_DIR/tests/fixtures
	run --separate-stderr git campaign measure import "$F/ncu/err-nvgpuctrperm.txt"
	assert_fatal 'ERR_NVGPUCTRPERM'
	[ "$(notes_commits)" = 0 ]
	[ "$(rows)" = 0 ]
	printf '{"results": [{"command": "x", "times": "no"}]}\n' >bad.json
	run --separate-stderr git campaign measure import bad.json --format hyperfine
	assert_fatal 'bad.json'
	[ "$(notes_commits)" = 0 ]
}

@test "an add waits while another process holds the env ref's lock" {
	git campaign measure add first 1 >/dev/null
	env=$(git notes --ref campaign show | sed 's/.*"env":"\([0-9a-f]*\)".*/\1/')
	git update-ref -d "refs/campaign/env/$env"
	mkdir -p .git/refs/campaign/env
	: >".git/refs/campaign/env/$env.lock"
	git campaign measure add second 2 >out 2>err &
	pid=$!
	sleep 0.5
	rm ".git/refs/campaign/env/$env.lock"
	wait "$pid" || fail "add failed: $(cat err)"
	git rev-parse -q --verify "refs/campaign/env/$env" >/dev/null
	[ "$(rows "metric = 'second'")" = 1 ]
}

@test "concurrent adds all land, each in its own notes commit" {
	for i in 1 2 3 4 5 6; do
		git campaign measure add race "$i" >/dev/null &
	done
	wait
	[ "$(notes_commits)" = 6 ]
	[ "$(git notes --ref campaign show | wc -l)" = 6 ]
	[ "$(rows "metric = 'race'")" = 6 ]
	for i in 1 2 3 4 5 6; do
		git notes --ref campaign show | grep -q "\"value\":$i," ||
			fail "value $i is missing"
	done
}

@test "a corrupt database fails the add before the notes ref moves" {
	git campaign measure add k 1 >/dev/null
	tip=$(git rev-parse refs/notes/campaign)
	rm -f "$DB-wal" "$DB-shm"
	printf 'this is not a database at all, not even close...' >"$DB"
	sum=$(file_sum "$DB")
	run --separate-stderr git campaign measure add k 2
	assert_fatal "is not a sqlite database" hint
	[ "$(git rev-parse refs/notes/campaign)" = "$tip" ]
	[ "$(file_sum "$DB")" = "$sum" ]
}
