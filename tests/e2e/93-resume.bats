#!/usr/bin/env bats
# git campaign resume: a small campaign (a stack of two with cached PR
# states, test results from two machines, an A/B run, a next hypothesis,
# findings of three kinds, named stashes, an A/B killed half way) and its
# pointer checked whole, as Markdown and as JSON; --save and --saved; a
# repository's template; the errors.

load helper
load records_helper

STUB="$BIN_DIR/tests/stub/libcuda.so.1"
METRIC='re:time: ([0-9]+);unit=us'
PY=$(command -v /usr/bin/python3 || command -v python3)

setup() {
	setup_world
	unset CUDA_VISIBLE_DEVICES CUDA_STUB_INIT_ERROR CUDA_STUB_DEVICES \
		CUDA_STUB_LOG GIT_CAMPAIGN_TEST_KILL_AT
	# both machines are files: the same CPU and OS, so that the labels
	# do not depend on the machine the tests run on; one has no GPU, the
	# other the stand-in libcuda.so.1 answering as an H200
	ROOT="$WORLD/root"
	mkdir -p "$ROOT/proc" "$ROOT/etc"
	printf 'processor\t: 0\nmodel name\t: AMD EPYC 7B13 64-Core Processor\n' \
		>"$ROOT/proc/cpuinfo"
	printf 'NAME="Debian GNU/Linux"\nPRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\n' \
		>"$ROOT/etc/os-release"
	export GIT_CAMPAIGN_SYSROOT="$ROOT"
	mkdir -p "$WORLD/jdk"
	printf 'IMPLEMENTOR="Eclipse Adoptium"\nJAVA_RUNTIME_VERSION="21.0.5+11-LTS"\nJAVA_VERSION="21.0.5"\n' \
		>"$WORLD/jdk/release"
	export JAVA_HOME="$WORLD/jdk"
	cpu
	git init -q r
	cd r
	write_prog prog.in 1000 10
	write_prog ctl.in 500 0
	echo 'cp prog.in prog && cp ctl.in ctl && chmod +x prog ctl' >build.sh
	printf 'prog\nctl\n.runs\n' >.gitignore
	git add .
	git commit -q -m base
	git branch develop
	git remote add origin git@github.com:beehive-lab/TornadoVM.git
	git campaign init kfusion --umbrella 1028 >/dev/null
	git config campaign.backend cuda
	DB="$PWD/.git/campaign/campaign.db"
}

# the campaign the pointer is checked on
small_campaign() {
	git checkout -q develop
	git campaign stack new upload >/dev/null
	echo upload >upload.txt
	git add upload.txt
	git commit -q -m 'skip the stack-frame upload'
	git campaign stack new sync-skip >/dev/null
	echo sync >sync.txt
	git add sync.txt
	git commit -q -m 'skip the drained-stream sync'
	# the PR cache, as stack submit and stack sync leave it
	sqlite3 "$DB" "INSERT INTO pr VALUES
		('upload', 1022, 'merged', 'develop', 'https://github.com/beehive-lab/TornadoVM/pull/1022', '2026-11-29T12:00:00Z'),
		('sync-skip', 1081, 'open', 'upload', 'https://github.com/beehive-lab/TornadoVM/pull/1081', '2026-11-29T12:00:00Z')"
	# test results: machine A (no GPU) for develop and this branch,
	# machine B (H200) for develop
	{ tt foundation.TestIntegers 2 1; tt foundation.TestIf 3 0; } >"$WORLD/a1.txt"
	{ tt foundation.TestIntegers 3 0; tt foundation.TestIf 2 1; } >"$WORLD/a2.txt"
	{ tt foundation.TestIntegers 4 0; tt arrays.TestArrays 700 384
	  tt foundation.TestIf 28 0; } >"$WORLD/b1.txt"
	cpu
	git campaign tests import "$WORLD/a1.txt" --commit develop >/dev/null
	git campaign tests import "$WORLD/a2.txt" >/dev/null
	CPU_ENV=$(git campaign env --json | jpy 'd["id"]')
	h200
	git campaign tests import "$WORLD/b1.txt" --commit develop >/dev/null
	H200_ENV=$(git campaign env --json | jpy 'd["id"]')
	# the H200's dispatch floor, stored as env --floor stores it
	git campaign measure add floor.launch_sync 8.3 --unit us \
		--config kind=floor --config device=0 >/dev/null
	git campaign measure add floor.htod_24B 2.14 --unit us \
		--config kind=floor --config device=0 >/dev/null
	git campaign hypo add "the 24-byte stack-frame upload costs 2.00 µs per launch" \
		--metric launch_us --predict 2 --unit µs >/dev/null
	git campaign hypo add "cuStreamSynchronize costs 4.19 µs per execution" \
		--metric sync_us --predict 4.19 --unit µs --tolerance 5% >/dev/null
	git campaign hypo next 2 >/dev/null
	git campaign finding add --kind slow \
		"profiler makes a short graph 3.3x slower" --pr 1024 >/dev/null
	git campaign finding add --kind crash \
		"NPE in executeLaunch for a batched graph with 2 outputs" \
		--issue https://github.com/beehive-lab/TornadoVM/issues/1034 >/dev/null
	git campaign finding add --kind wrong-answer \
		"CUDA launch failures are only logged" >/dev/null
	# an A/B on the H200 of a change in the working tree
	write_prog prog.in 1000 9
	git campaign ab --build 'sh build.sh' --run './prog 100' \
		--control ./ctl --metric "$METRIC" -n 5 >"$WORLD/ab.md" 2>/dev/null
	git campaign stash save wip-timing >/dev/null
	# an A/B in stash mode killed while measuring A: its change is in
	# stash ab/2 and the operation is unfinished
	write_prog prog.in 1000 8
	GIT_CAMPAIGN_TEST_KILL_AT=measure-A run git campaign ab --mode stash \
		--build 'sh build.sh' --run './prog 100' --metric "$METRIC" -n 5
	[ "$status" -eq 137 ] || fail "the A/B was not killed: $status $output"
}

# the dates, the env ids, the commits and the world's path made names
normalize() {
	local c
	for c in HEAD develop refs/campaign/stash/ab/2 \
		refs/campaign/stash/wip-timing; do
		# 12 hex digits in lines of the pointer, 10 in the floor's
		for n in 12 10; do
			printf 's/%s/%s/g\n' "$(git rev-parse --short=$n "$c")" \
				"$(tr a-z/- A-Z__ <<<"${c#refs/campaign/stash/}")_ID"
		done
	done >"$WORLD/ids.sed"
	sed -f "$WORLD/ids.sed" \
		-e "s/$CPU_ENV/ENV_A/g" -e "s/$H200_ENV/ENV_B/g" \
		-e 's/20[0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9:]*Z/DATE/g' \
		-e "s|$WORLD|WORLD|g"
}

@test "the pointer of a small campaign, whole" {
	small_campaign
	run --separate-stderr git campaign resume
	assert_clean
	diff -u "$SRC_DIR/tests/e2e/expected/93-resume.md" \
		<(normalize <<<"$output") || fail "the pointer differs"
}

@test "--format json holds the same facts, for scripts" {
	small_campaign
	run --separate-stderr git campaign resume --format json
	assert_clean
	j=$output
	[ "$(jpy '[d["campaign"]["name"], d["branch"], d["ahead"], d["campaign"]["umbrella"]]' <<<"$j")" = \
		'["kfusion", "sync-skip", 2, 1028]' ]
	[ "$(jpy '[(s["branch"], s["parent"], s["pr"]["number"], s["pr"]["state"], s["current"]) for s in d["stack"]]' <<<"$j")" = \
		'[["sync-skip", "upload", 1081, "open", true], ["upload", "develop", 1022, "merged", false]]' ]
	# per machine, never one number
	[ "$(jpy 'sorted((b["env"], b["failed"], b["total"]) for b in d["baseline"])' <<<"$j")" = \
		"$("$PY" -c "import json; print(json.dumps(sorted([('$CPU_ENV', 1, 6), ('$H200_ENV', 384, 1116)])))")" ]
	[ "$(jpy '{b["env"]: b["floor"] and b["floor"]["launch_us"] for b in d["baseline"]}' <<<"$j")" = \
		"$("$PY" -c "import json; print(json.dumps({'$CPU_ENV': None, '$H200_ENV': 8.3}))")" ]
	[ "$(jpy '[d["table"]["id"], d["table"]["env"], d["table"]["floor"]["htod_24B_us"], d["table"]["invalid"]]' <<<"$j")" = \
		"[1, \"$H200_ENV\", 2.14, false]" ]
	# the table is drawn by the code that drew it for `git campaign ab`
	jpy 'd["table"]["markdown"]' <<<"$j" >"$WORLD/table.md"
	grep -q '^| control: `./ctl` | 500 us | 500 us | 1.000 \[0.988, 1.012\] | 1 | steady | 60.2x |$' "$WORLD/table.md"
	diff <(grep '^|' "$WORLD/ab.md") <(grep '^|' "$WORLD/table.md")
	[ "$(grep -c '^|' "$WORLD/table.md")" = 4 ]
	[ "$(jpy '[d["next_hypo"]["id"], d["next_hypo"]["predicted"], d["next_hypo"]["tolerance"]]' <<<"$j")" = '[2, 4.19, 5]' ]
	[ "$(jpy '[(f["rank"], f["id"], f["kind"]) for f in d["findings"]] + [d["findings_open"], d["findings_more"]]' <<<"$j")" = \
		'[[1, 3, "wrong-answer"], [2, 2, "crash"], [3, 1, "slow"], 3, 0]' ]
	[ "$(jpy '[s["name"] for s in d["stashes"]]' <<<"$j")" = '["ab/2", "wip-timing"]' ]
	[ "$(jpy '[(u["kind"], u["continue"], u["abort"], u["last_step"]) for u in d["unfinished"]]' <<<"$j")" = \
		'[["ab", "git campaign ab --continue", "git campaign ab --abort", "measure-A"]]' ]
	[ "$(jpy 'len(d["local"]), d["saved"]' <<<"$j")" = '[8, null]' ]
}

@test "status --json and resume --format json show an unfinished operation alike" {
	small_campaign
	s=$(git campaign status --json)
	r=$(git campaign resume --format json)
	[ "$(jpy 'sorted(d["unfinished"][0])' <<<"$s")" = \
		"$(jpy 'sorted(d["unfinished"][0])' <<<"$r")" ]
	[ "$(jpy 'd["unfinished"]' <<<"$s")" = "$(jpy 'd["unfinished"]' <<<"$r")" ]
	[ "$(jpy 'd["unfinished"][0]["updated_at"] is not None' <<<"$r")" = true ]
}

@test "--save keeps the pointer with time and author; --saved prints it back" {
	small_campaign
	run --separate-stderr git campaign resume --saved
	assert_failure 1
	[ -z "$output" ]
	[ "${stderr_lines[0]}" = 'no resume pointer saved yet' ]
	run --separate-stderr git campaign resume --save
	assert_success
	[ "$stderr" = 'saved resume pointer #1 (2026-11-29T12:00:00Z, A U Thor <author@example.com>)' ]
	saved=$output
	[ "${lines[-1]}" = 'Saved 2026-11-29T12:00:00Z by A U Thor <author@example.com>.' ]
	# the same pointer as without --save, and the saved line
	diff <(git campaign resume) <(sed '$d' <<<"$saved" | sed '$d') ||
		fail "--save printed another pointer"
	[ "$(sqlite3 "$DB" 'SELECT id, at, author, branch FROM resume_pointer')" = \
		'1|2026-11-29T12:00:00Z|A U Thor <author@example.com>|sync-skip' ]
	# the campaign moves on; --saved still prints what was saved
	git campaign finding close 3 --pr 1025 >/dev/null
	git checkout -q upload
	run --separate-stderr git campaign resume --saved
	assert_clean
	[ "$output" = "$saved" ]
	run --separate-stderr git campaign resume --saved --format json
	assert_clean
	[ "$(jpy '[d["branch"], d["saved"]["author"], len(d["findings"])]' <<<"$output")" = \
		'["sync-skip", "A U Thor <author@example.com>", 3]' ]
	# a second save is the one --saved prints
	GIT_AUTHOR_NAME='B Coder' GIT_AUTHOR_DATE='2026-11-30T08:00:00Z' \
		git campaign resume --save >/dev/null 2>&1
	run --separate-stderr git campaign resume --saved
	assert_line '## Resume: kfusion on upload'
	assert_line 'Saved 2026-11-30T08:00:00Z by B Coder <author@example.com>.'
	run --separate-stderr git campaign resume --save --saved
	assert_failure 129
}

@test "a repository's .campaign/templates/resume.md shapes the text; a broken one is refused" {
	git campaign hypo add "sync costs 4.19 µs" --metric sync_us --predict 4.19 \
		--unit µs >/dev/null
	git campaign hypo next 1 >/dev/null
	mkdir -p .campaign/templates
	cat >.campaign/templates/resume.md <<-'EOF'
		{{campaign.name}} @ {{branch_name}} / {{position}}
		{{#next_hypo}}
		next: #{{id}} {{metric}} {{predicted}} {{unit}}
		{{/next_hypo}}
		{{^baseline}}
		no baselines
		{{/baseline}}
	EOF
	run --separate-stderr git campaign resume
	assert_clean
	assert_output 'kfusion @ main / 0 ahead, 0 behind develop
next: #1 sync_us 4.19 µs
no baselines'
	# JSON does not use the template
	run --separate-stderr git campaign resume --format json
	assert_clean
	[ "$(jpy 'd["next_hypo"]["text"]' <<<"$output")" = 'sync costs 4.19 µs' ]
	echo '{{#stack}} unclosed' >.campaign/templates/resume.md
	run --separate-stderr git campaign resume
	assert_fatal "template 'resume.md' line 1: section 'stack' is not closed" hint
	[ "${stderr_lines[1]}" = "hint: fix '$PWD/.campaign/templates/resume.md', or remove it to use the built-in template" ]
}

@test "a fresh campaign: nothing recorded, each section says none" {
	run --separate-stderr git campaign resume
	assert_clean
	assert_line '## Resume: kfusion on main'
	assert_line '- Stack: none'
	assert_line '- none imported (`git campaign tests import`)'
	assert_line 'none (`git campaign ab`)'
	assert_line 'none marked (`git campaign hypo next ID`)'
	refute_output --partial 'Local to this clone'
}

@test "a corrupt database is one clear line, exit 128" {
	echo 'not a database at all, not even close to one' >"$DB"
	run --separate-stderr git campaign resume
	assert_fatal "database '$DB' is not a sqlite database" hint
	run --separate-stderr git campaign resume --saved
	assert_fatal "is not a sqlite database" hint
}

@test "outside a campaign, or outside a repository, one clear line" {
	cd "$WORLD"
	git init -q plain
	run --separate-stderr git -C plain campaign resume
	assert_fatal 'no campaign'
	mkdir -p "$WORLD/nothing"
	cd "$WORLD/nothing"
	GIT_CEILING_DIRECTORIES="$WORLD" run --separate-stderr git campaign resume
	assert_fatal 'not a git repository'
}

@test "usage: a bad format or an argument is refused with the usage, exit 129" {
	run --separate-stderr git campaign resume --format html
	assert_failure 129
	[ "${stderr_lines[0]}" = "error: unknown format 'html' (md or json)" ]
	run --separate-stderr git campaign resume now
	assert_failure 129
	run --separate-stderr git campaign resume -h
	assert_failure 129
	assert_line 'usage: git campaign resume [--format md|json] [--save]'
}

@test "the umbrella section shows the PRs, the last A/B, the next hypothesis, findings, baselines and the saved pointer" {
	small_campaign
	git campaign resume --save >/dev/null 2>&1
	run --separate-stderr git campaign umbrella sync --dry-run
	assert_success
	assert_line '### Pull requests'
	# title: the subject of the first commit of its own (upload..sync-skip,
	# not its parent's); no A/B of it, no claim
	title=$(git log --reverse --format=%s upload..sync-skip | head -1)
	assert_line "- [ ] #1081 $title (\`sync-skip\`) — open"
	assert_line --regexp '^- \[x\] #1022 .* \(`upload`\) — merged$'
	assert_line --regexp '^A/B #1 \(20[0-9-]+T[0-9:]+Z\): faster 0.950, on AMD EPYC 7B13 64-Core Processor, Debian GNU/Linux 12 \(bookworm\), GPU NVIDIA H200, JDK Eclipse Adoptium 21\.0\.5, backend cuda '
	assert_line '| control: `./ctl` | 500 us | 500 us | 1.000 [0.988, 1.012] | 1 | steady | 60.2x |'
	assert_line '#2 sync_us = 4.19 µs (within 5%): cuStreamSynchronize costs 4.19 µs per execution'
	assert_line '1. #3 wrong-answer: CUDA launch failures are only logged'
	assert_line --regexp '^- AMD EPYC 7B13 64-Core Processor, Debian GNU/Linux 12 \(bookworm\), GPU NVIDIA H200, JDK Eclipse Adoptium 21\.0\.5, backend cuda: 384 failed of 1,116 at '
	assert_line --regexp '^<details><summary>Resume pointer, saved 2026-11-29T12:00:00Z by A U Thor <author@example.com></summary>$'
	assert_line '## Resume: kfusion on sync-skip'
	# what changes with every commit or checkout is only in the saved
	# pointer, never in the section's own lines
	[ "$(grep -c '^### Unfinished$' <<<"$output")" -eq 1 ]
	[ "$(grep -c '^### Named stashes$' <<<"$output")" -eq 1 ]
}
