#!/usr/bin/env bats
# git campaign sync: two clones and a bare remote exchange measurements
# (refs/notes/campaign, merged by cat_sort_uniq) and fingerprints
# (refs/campaign/env/*); pushes are never forced, a lost race is merged and
# tried again, and the local notes ref only ever moves forward.

bats_require_minimum_version 1.5.0
load helper

setup() {
	setup_world
	export GIT_CEILING_DIRECTORIES="$WORLD"
	git init -q --bare -b main remote.git
	make_repo a
	git -C a commit -q --allow-empty -m second
	git -C a commit -q --allow-empty -m third
	git -C a remote add origin "$WORLD/remote.git"
	git -C a push -q origin main
	git clone -q remote.git b
}

# note REPO REV LINE...: appends the lines to REV's campaign note in REPO
note() {
	local repo=$1 rev=$2
	shift 2
	local l
	for l in "$@"; do
		git -C "$repo" notes --ref campaign append -m "$l" "$rev"
	done
}

# shown REPO REV: REV's campaign note in REPO
shown() {
	git -C "$1" notes --ref campaign show "$2"
}

# jget JSON PATH: the value at PATH ($.a) of the JSON text, as sqlite prints it
jget() {
	printf '%s' "$1" >"$BATS_TEST_TMPDIR/j.json"
	sqlite3 :memory: "SELECT json_extract(CAST(readfile('$BATS_TEST_TMPDIR/j.json') AS TEXT), '$2')"
}

# refs REPO: every ref of REPO with its value, one a line
refs() {
	git -C "$1" for-each-ref --format='%(refname) %(objectname)'
}

@test "two clones appending to the same commit both end with every line, once" {
	note a HEAD '{"run":"a1"}' '{"run":"same"}'
	note a HEAD~1 '{"run":"a-old"}'
	note b HEAD '{"run":"b1"}' '{"run":"same"}'
	note b HEAD~2 '{"run":"b-first"}'
	a_before=$(git -C a rev-parse refs/notes/campaign)
	b_before=$(git -C b rev-parse refs/notes/campaign)

	cd a
	run --separate-stderr git campaign sync
	assert_clean
	assert_output "sync with 'origin': 0 lines added locally, 3 lines pushed, 0 env refs copied"
	cd ../b
	run --separate-stderr git campaign sync
	assert_clean
	assert_output "sync with 'origin': 2 lines added locally, 2 lines pushed, 0 env refs copied"
	# one merge commit, local first, remote second
	[ "$(git rev-parse refs/notes/campaign^1)" = "$b_before" ]
	[ "$(git rev-parse refs/notes/campaign^2)" = "$a_before" ]
	run git rev-list --count "$b_before..refs/notes/campaign"
	assert_output 4 # the merge and a's three notes commits
	cd ../a
	run --separate-stderr git campaign sync
	assert_clean
	assert_output "sync with 'origin': 2 lines added locally, 0 lines pushed, 0 env refs copied"
	cd ../b
	run --separate-stderr git campaign sync
	assert_clean
	assert_output "sync with 'origin': 0 lines added locally, 0 lines pushed, 0 env refs copied"
	cd ..

	want='{"run":"a1"}
{"run":"b1"}
{"run":"same"}'
	for r in a b remote.git; do
		[ "$(shown $r main)" = "$want" ] || fail "$r: $(shown $r main)"
		[ "$(shown $r main~1)" = '{"run":"a-old"}' ]
		[ "$(shown $r main~2)" = '{"run":"b-first"}' ]
	done
	[ "$(git -C a rev-parse refs/notes/campaign)" = \
		"$(git -C b rev-parse refs/notes/campaign)" ]
	[ "$(git -C a rev-parse refs/notes/campaign)" = \
		"$(git -C remote.git rev-parse refs/notes/campaign)" ]
	# no conflict left behind, no duplicate line anywhere
	[ ! -e a/.git/NOTES_MERGE_REF ] && [ ! -e b/.git/NOTES_MERGE_REF ]
	run sh -c 'git -C a notes --ref campaign list | while read -r blob obj; do
		git -C a cat-file blob "$blob"; done | sort | uniq -d'
	assert_output ''
}

@test "the local notes ref only moves forward, with a reflog entry" {
	note a HEAD 'a'
	note b HEAD 'b'
	(cd a && git campaign sync >/dev/null)
	old=$(git -C b rev-parse refs/notes/campaign)
	(cd b && git campaign sync >/dev/null)
	git -C b merge-base --is-ancestor "$old" refs/notes/campaign
	run git -C b reflog -1 --format=%gs refs/notes/campaign
	assert_output "campaign sync: merge from 'origin'"
	old=$(git -C a rev-parse refs/notes/campaign)
	(cd a && git campaign sync >/dev/null)
	git -C a merge-base --is-ancestor "$old" refs/notes/campaign
	run git -C a reflog -1 --format=%gs refs/notes/campaign
	assert_output "campaign sync: fast-forward to 'origin'"
	# the remote's ref moved forward too, never forced
	run git -C remote.git rev-list --count refs/notes/campaign
	assert_output 3
}

@test "the merged notes tree is the one git notes merge -s cat_sort_uniq writes, fan-out included" {
	# 300 commits; a notes 1-200, b notes 101-300: git fans out both trees
	{
		for i in $(seq 1 300); do
			printf 'commit refs/heads/main\nmark :%d\n' "$i"
			printf 'committer C <c@x> %d +0000\ndata 2\n%d\n' "$i" "$((i % 10))"
			[ "$i" -gt 1 ] && printf 'from :%d\n' "$((i - 1))"
			printf '\n'
		done
	} | git -C a fast-import --quiet --force
	git -C a push -q -f origin main
	git -C b fetch -q origin && git -C b reset -q --hard origin/main
	import_notes() { # REPO FIRST LAST
		git -C "$1" rev-list --reverse main | sed -n "$2,$3p" | {
			printf 'commit refs/notes/campaign\ncommitter C <c@x> 1 +0000\ndata 5\nnotes'
			n=$2
			while read -r c; do
				printf '\nN inline %s\ndata <<EOF\n{"run":"%s%d"}\n{"run":"both%d"}\nEOF\n' \
					"$c" "$1" "$n" "$n"
				n=$((n + 1))
			done
			printf '\n'
		} | git -C "$1" fast-import --quiet
	}
	import_notes a 1 200
	import_notes b 101 300
	(cd a && git campaign sync >/dev/null)
	run --separate-stderr git -C b campaign sync --json
	assert_clean
	[ "$(jget "$output" '$.notes')" = merged ]
	# a1-a200 and both1-both100; b101-b300 and both201-both300
	[ "$(jget "$output" '$.lines_added')" = 300 ]
	[ "$(jget "$output" '$.lines_pushed')" = 300 ]
	cd b
	git update-ref refs/notes/check refs/notes/campaign^1
	git notes --ref check merge -q -s cat_sort_uniq refs/notes/campaign^2
	[ "$(git rev-parse refs/notes/check^{tree})" = \
		"$(git rev-parse refs/notes/campaign^{tree})" ]
	# it is fanned out: only two-digit folders at the top
	run sh -c 'git ls-tree --name-only refs/notes/campaign | grep -v "^[0-9a-f][0-9a-f]$"'
	assert_output ''
	[ "$(git ls-tree -d refs/notes/campaign | wc -l)" -gt 100 ]
	[ "$(git notes --ref campaign list | wc -l)" = 300 ]
	[ "$(shown . main~150)" = '{"run":"a150"}
{"run":"b150"}
{"run":"both150"}' ]
}

@test "a note removed on one side is removed on both, as git notes merge does" {
	note a HEAD 'keep'
	note a HEAD~1 'drop'
	(cd a && git campaign sync >/dev/null)
	(cd b && git campaign sync >/dev/null)
	git -C a notes --ref campaign remove HEAD~1 2>/dev/null
	note b HEAD 'b'
	(cd a && git campaign sync >/dev/null)
	(cd b && git campaign sync >/dev/null)
	(cd a && git campaign sync >/dev/null)
	for r in a b remote.git; do
		run git -C $r notes --ref campaign list main~1
		assert_failure
		# only b changed this note: its text is taken as it is
		[ "$(shown $r main)" = 'keep

b' ] || fail "$r: $(shown $r main)"
	done
}

@test "a push that lost a race is merged with the winner and tried again" {
	note a HEAD 'from a'
	note b HEAD 'from b'
	# just before a pushes, b pushes its notes to the remote
	cat >a/.git/hooks/pre-push <<-EOF
		#!/bin/sh
		if [ ! -e "$WORLD/raced" ]; then
			touch "$WORLD/raced"
			git -C "$WORLD/b" push -q origin refs/notes/campaign >&2
		fi
	EOF
	chmod +x a/.git/hooks/pre-push
	cd a
	run --separate-stderr git campaign sync --json
	[ "$status" -eq 0 ] || fail "$stderr"
	[ "$(jget "$output" '$.attempts')" = 2 ]
	[ "$(jget "$output" '$.notes')" = merged ]
	[[ $stderr == "push refused ([remote rejected] "*"); trying again in 0.2 s" ]] ||
		fail "stderr: $stderr"
	[ "${#stderr_lines[@]}" -eq 1 ]
	cd ..
	for r in a remote.git; do
		[ "$(shown $r main)" = 'from a
from b' ] || fail "$r: $(shown $r main)"
	done
	[ "$(git -C a rev-parse refs/notes/campaign)" = \
		"$(git -C remote.git rev-parse refs/notes/campaign)" ]
}

@test "a remote that keeps refusing: one fatal line after the last try, nothing local lost" {
	note b HEAD 'from b'
	(cd b && git campaign sync >/dev/null)
	note a HEAD 'from a'
	old=$(git -C a rev-parse refs/notes/campaign)
	remote_before=$(refs remote.git)
	cat >remote.git/hooks/pre-receive <<-'EOF'
		#!/bin/sh
		echo "no pushes today" >&2
		exit 1
	EOF
	chmod +x remote.git/hooks/pre-receive
	cd a
	run --separate-stderr git campaign sync -q
	assert_fatal "cannot push to 'origin': refused 5 times, last: [remote rejected] (pre-receive hook declined)" hint
	cd ..
	[ "$(refs remote.git)" = "$remote_before" ]
	# what was fetched is merged here; what was here is kept
	git -C a merge-base --is-ancestor "$old" refs/notes/campaign
	[ "$(shown a main)" = 'from a
from b' ]
}

@test "first sync to an empty remote pushes; with no notes anywhere nothing is made" {
	cd a
	run --separate-stderr git campaign sync --json
	assert_clean
	[ "$(jget "$output" '$.notes')" = none ]
	[ "$(jget "$output" '$.pushed')" = 0 ]
	[ "$(jget "$output" '$.remote_had_notes')" = 0 ]
	[ "$(jget "$output" '$.tip')" = '' ]
	run git rev-parse -q --verify refs/notes/campaign
	assert_failure
	run git -C ../remote.git rev-parse -q --verify refs/notes/campaign
	assert_failure

	note . HEAD 'one' 'two'
	run --separate-stderr git campaign sync --json
	assert_clean
	[ "$(jget "$output" '$.remote_had_notes')" = 0 ]
	[ "$(jget "$output" '$.lines_pushed')" = 2 ]
	[ "$(jget "$output" '$.pushed')" = 1 ]
	[ "$(git rev-parse refs/notes/campaign)" = \
		"$(git -C ../remote.git rev-parse refs/notes/campaign)" ]
	[ "$(jget "$output" '$.tip')" = "$(git rev-parse refs/notes/campaign)" ]
	# in step again: nothing to push
	run --separate-stderr git campaign sync --json
	assert_clean
	[ "$(jget "$output" '$.notes')" = 'up to date' ]
	[ "$(jget "$output" '$.pushed')" = 0 ]
	[ "$(jget "$output" '$.remote_had_notes')" = 1 ]
}

@test "env refs are exchanged; an env ref already here is never replaced" {
	ea=$(echo '{"gpu":"a"}' | git -C a hash-object -w --stdin)
	eb=$(echo '{"gpu":"b"}' | git -C b hash-object -w --stdin)
	ca=$(echo '{"gpu":"c-a"}' | git -C a hash-object -w --stdin)
	cb=$(echo '{"gpu":"c-b"}' | git -C b hash-object -w --stdin)
	git -C a update-ref refs/campaign/env/aaaa "$ea"
	git -C a update-ref refs/campaign/env/cccc "$ca"
	git -C b update-ref refs/campaign/env/bbbb "$eb"
	git -C b update-ref refs/campaign/env/cccc "$cb"
	(cd a && git campaign sync >/dev/null)
	cd b
	run --separate-stderr git campaign sync --json
	assert_clean
	[ "$(jget "$output" '$.env_copied')" = 1 ]
	[ "$(jget "$output" '$.env_pushed')" = 1 ]
	cd ../a
	run --separate-stderr git campaign sync
	assert_clean
	assert_output "sync with 'origin': 0 lines added locally, 0 lines pushed, 1 env ref copied"
	cd ..
	for r in a b remote.git; do
		[ "$(git -C $r rev-parse refs/campaign/env/aaaa)" = "$ea" ]
		[ "$(git -C $r rev-parse refs/campaign/env/bbbb)" = "$eb" ]
		[ "$(git -C $r cat-file -p refs/campaign/env/bbbb)" = '{"gpu":"b"}' ]
	done
	[ "$(git -C a rev-parse refs/campaign/env/cccc)" = "$ca" ]
	[ "$(git -C b rev-parse refs/campaign/env/cccc)" = "$cb" ]
}

@test "a missing remote is one fatal line, exit 128, nothing changed" {
	note a HEAD 'x'
	before=$(refs a)
	cd a
	run --separate-stderr git campaign sync nope
	assert_fatal "no remote 'nope'" hint
	[ "$(refs .)" = "$before" ]
	# the default remote is campaign.remote
	git config campaign.remote upstream
	run --separate-stderr git campaign sync
	assert_fatal "no remote 'upstream'" hint
	run --separate-stderr git campaign sync 'bad name'
	assert_fatal "'bad name' is not a valid remote name" hint
	[ "$(refs .)" = "$before" ]
}

@test "an unreachable remote gives git's reason in one line, exit 128, nothing changed" {
	note a HEAD 'x'
	cd a
	git remote add gone "$WORLD/nowhere.git"
	before=$(refs .)
	run --separate-stderr git campaign sync gone
	assert_fatal "cannot fetch from 'gone': '$WORLD/nowhere.git' does not appear to be a git repository"
	[ "${#stderr_lines[@]}" -eq 1 ]
	[ "$(refs .)" = "$before" ]
}

@test "campaign.remote names the default remote; --progress reports on stderr" {
	note a HEAD 'x'
	cd a
	git remote rename origin up
	git config campaign.remote up
	run --separate-stderr git campaign sync --progress
	[ "$status" -eq 0 ] || fail "$stderr"
	assert_output "sync with 'up': 0 lines added locally, 1 line pushed, 0 env refs copied"
	[[ $stderr == *"fetching measurements from 'up'"* ]]
	[[ $stderr == *"pushing measurements to 'up'"* ]]
	# the remote-tracking ref says what the remote got
	[ "$(git rev-parse refs/notes/remotes/up/campaign)" = \
		"$(git -C ../remote.git rev-parse refs/notes/campaign)" ]
	run --separate-stderr git campaign sync -q
	assert_clean
}

@test "a dirty work tree does not matter; usage errors exit 129" {
	note a HEAD 'x'
	cd a
	echo dirt >file && git add file && echo more >>file
	run --separate-stderr git campaign sync
	assert_clean
	[ "$(git status --porcelain)" = 'AM file' ]
	run --separate-stderr git campaign sync one two
	assert_failure 129
	run --separate-stderr git campaign sync --reindex origin
	assert_failure 129
}

@test "sync refreshes the measurement index; --reindex rebuilds it without the network" {
	(cd a && git campaign init >/dev/null &&
		git campaign measure add kernel_ms 12.5 --unit ms >/dev/null &&
		git campaign measure add kernel_ms 11.5 --unit ms --commit HEAD~1 >/dev/null &&
		git campaign sync >/dev/null)
	cd b
	DB=.git/campaign/campaign.db
	run --separate-stderr git campaign sync --json
	assert_clean
	[ "$(jget "$output" '$.reindexed')" = 1 ]
	[ "$(sqlite3 "$DB" "SELECT count(*) FROM measurement WHERE metric = 'kernel_ms'")" = 2 ]
	[ "$(sqlite3 "$DB" "SELECT value FROM measurement WHERE commit_id = '$(git rev-parse HEAD~1)'")" = 11.5 ]
	sqlite3 "$DB" "DELETE FROM measurement"
	git remote set-url origin "$WORLD/nowhere.git"
	run --separate-stderr git campaign sync --reindex
	assert_clean
	assert_output 'rebuilt the measurement index from refs/notes/campaign'
	[ "$(sqlite3 "$DB" "SELECT count(*) FROM measurement")" = 2 ]
}

@test "a notes ref locked by another writer is waited for, then refused" {
	note b HEAD 'from b'
	(cd b && git campaign sync >/dev/null)
	note a HEAD 'from a'
	old=$(git -C a rev-parse refs/notes/campaign)
	cd a
	touch .git/refs/notes/campaign.lock
	run --separate-stderr git campaign sync
	assert_fatal "cannot update 'refs/notes/campaign'"
	[ "$(git rev-parse refs/notes/campaign)" = "$old" ]
	# a writer that lets go in time: the merge goes through
	(sleep 0.3 && rm .git/refs/notes/campaign.lock) &
	run --separate-stderr git campaign sync
	wait
	assert_clean
	[ "$(shown . HEAD)" = 'from a
from b' ]
}
