#!/usr/bin/env bats
# Records of one run are never merged away as duplicate lines: a record
# equal to an earlier one of its run gets a seq and a line of its own, the
# count printed is the count written, and a merge of notes by line (sync)
# keeps each line once however often it runs. An append to a big note keeps
# the old lines in place and adds the new ones once, in order.

bats_require_minimum_version 1.5.0
load helper

setup() {
	setup_world
	export GIT_CEILING_DIRECTORIES="$WORLD"
	make_repo p
	cd p
	git campaign init demo >/dev/null
}

# rows [WHERE]: the index's rows on HEAD
rows() {
	sqlite3 .git/campaign/campaign.db "SELECT count(*) FROM measurement
		WHERE commit_id = '$(git rev-parse HEAD)' ${1:+AND $1}"
}

@test "two equal lines of one batch are both written, both counted, each a line of its own" {
	printf '%s\n' '{"metric":"k","value":5}' '{"metric":"k","value":5}' \
		'{"metric":"j","value":1}' >b.jsonl
	run --separate-stderr git campaign measure add --batch b.jsonl
	assert_clean
	assert_line --index 0 --regexp '^recorded 3 measurements on '
	[ "${#lines[@]}" -eq 1 ]
	run git notes --ref campaign show HEAD
	[ "${#lines[@]}" -eq 3 ]
	# the repeat is told apart by its seq, the rest of it unchanged
	[[ ${lines[0]} != *'"seq"'* ]]
	[ "${lines[1]}" = "$(sed 's/\("run":"[0-9a-f]*"\)/\1,"seq":1/' <<<"${lines[0]}")" ]
	[[ ${lines[2]} == *'"metric":"j"'* ]]
	[ "$(rows "metric = 'k'")" = 2 ]
	run --separate-stderr git campaign measure add --json --batch b.jsonl
	assert_clean
	[ "$(sqlite3 :memory: "SELECT json_extract('$output', '\$.records')")" = 3 ]
	[ "$(rows "metric = 'k'")" = 4 ]
	# a rebuilt index counts them the same
	git campaign sync --reindex >/dev/null
	[ "$(rows "metric = 'k'")" = 4 ]
}

@test "repeats of one record keep their seqs apart, past a seq the input gave" {
	printf '%s\n' '{"metric":"k","value":5}' '{"metric":"k","value":5,"seq":1}' \
		'{"metric":"k","value":5}' '{"metric":"k","value":5}' >b.jsonl
	run --separate-stderr git campaign measure add --batch b.jsonl
	assert_clean
	assert_output --regexp '^recorded 4 measurements on '
	run git notes --ref campaign show HEAD
	[ "${#lines[@]}" -eq 4 ]
	[ "$(printf '%s\n' "${lines[@]}" | sort -u | wc -l)" -eq 4 ]
	[ "$(rows)" = 4 ]
}

@test "syncing twice between two clones keeps every repeated record once, none doubled" {
	git init -q --bare -b main ../remote.git
	git remote add origin "$WORLD/remote.git"
	git push -q origin main
	printf '%s\n' '{"metric":"k","value":5}' '{"metric":"k","value":5}' \
		'{"metric":"k","value":5}' >b.jsonl
	git campaign measure add --batch b.jsonl >/dev/null
	git campaign sync >/dev/null
	git clone -q ../remote.git ../q
	cd ../q
	git campaign init demo >/dev/null
	git campaign sync >/dev/null
	[ "$(git notes --ref campaign show HEAD | wc -l)" -eq 3 ]
	git campaign measure add --batch ../p/b.jsonl >/dev/null
	git campaign sync >/dev/null
	git campaign sync >/dev/null
	cd ../p
	git campaign sync >/dev/null
	git campaign sync >/dev/null
	# two runs of three equal records each: six lines, in both clones
	[ "$(git notes --ref campaign show HEAD | wc -l)" -eq 6 ]
	[ "$(git notes --ref campaign show HEAD | sort -u | wc -l)" -eq 6 ]
	[ "$(rows)" = 6 ]
	cd ../q
	git campaign sync >/dev/null
	[ "$(git notes --ref campaign show HEAD | wc -l)" -eq 6 ]
	[ "$(rows)" = 6 ]
}

@test "an A/B on a commit with a note of thousands of lines keeps them in place and appends its records once, in order" {
	PY=$(command -v /usr/bin/python3 || command -v python3)
	"$PY" -c 'import json
for i in range(3000):
    print(json.dumps({"metric": "m%d" % (i % 50), "value": i,
                      "samples": list(range(i, i + 10))}))' >big.jsonl
	git campaign measure add --batch big.jsonl >/dev/null
	git notes --ref campaign show HEAD >before
	[ "$(wc -l <before)" -eq 3000 ]
	run --separate-stderr git campaign ab --build true --run true -n 2 \
		--warmup 0
	assert_success
	git notes --ref campaign show HEAD >after
	[ "$(wc -l <after)" -eq 3002 ]
	# the old note is the new one's first 3000 lines, byte for byte
	cmp before <(head -n 3000 after)
	tail -n 2 after >new
	[ "$(grep -c '"source":"ab"' new)" -eq 2 ]
	[[ $(sed -n 1p new) == *'"arm":"A"'* ]]
	[[ $(sed -n 2p new) == *'"arm":"B"'* ]]
	[ "$(grep -c '"source":"ab"' after)" -eq 2 ]
	[ "$(rows)" = 3002 ]
	[ "$(rows "source = 'ab'")" = 2 ]
}
