#!/usr/bin/env bats
# git campaign stash: named stashes on real repositories; plain git stash
# entries are never touched and no change is ever lost.

load helper

setup() {
	setup_world
	git init -q r
	cd r
	printf 'one\ntwo\nthree\n' >a
	echo b >b
	git add a b
	git commit -q -m first
}

# a plain `git stash` entry that our commands must leave alone
plain_stash() {
	echo plain >>b
	git stash push -q -m plain
	PLAIN=$(git rev-parse refs/stash)
}

assert_plain_untouched() {
	[ "$(git rev-parse refs/stash)" = "$PLAIN" ] || fail "refs/stash moved"
	[ "$(git stash list | wc -l)" -eq 1 ] || fail "$(git stash list)"
}

@test "save records index, working tree and untracked files as git stash does, then resets" {
	plain_stash
	echo staged >>a
	git add a
	echo unstaged >>a
	echo u >untracked
	run --separate-stderr git campaign stash save ab-1 -m 'frame upload' -u
	assert_clean
	assert_output --regexp "^saved stash 'ab-1' \([0-9a-f]{12}\)$"
	id=$(git rev-parse refs/campaign/stash/ab-1)
	# the shape of a git stash: HEAD, the index commit, the untracked commit
	[ "$(git rev-parse "$id^1")" = "$(git rev-parse HEAD)" ]
	[ "$(git log -1 --format=%s "$id")" = 'On main: frame upload' ]
	[[ $(git log -1 --format=%s "$id^2") == 'index on main: '* ]]
	[[ $(git log -1 --format=%s "$id^3") == 'untracked files on main: '* ]]
	[ "$(git show "$id^2:a")" = "$(printf 'one\ntwo\nthree\nstaged')" ]
	[ "$(git show "$id:a")" = "$(printf 'one\ntwo\nthree\nstaged\nunstaged')" ]
	[ "$(git show "$id^3:untracked")" = u ]
	# git's own tools read it
	run git stash show --include-untracked --name-only "$id"
	assert_line a
	# the tree is back at HEAD, the untracked file gone
	[ -z "$(git status --porcelain)" ]
	assert_file_not_exists untracked
	# reflogs: the named ref's and the stash log's
	[ "$(git reflog show --format=%gs refs/campaign/stash/ab-1)" = 'campaign stash save ab-1' ]
	[ "$(git reflog show --format=%H refs/campaign/stash-log)" = "$id" ]
	assert_plain_untouched
}

@test "save refuses an existing name, no changes, a bad name and an unborn branch; nothing changes" {
	echo x >>a
	git campaign stash save s >/dev/null
	echo y >>a
	before=$(file_sum a)
	run --separate-stderr git campaign stash save s
	assert_fatal "a stash named 's' exists already" hint
	[ "$(file_sum a)" = "$before" ]
	git checkout -q a
	run --separate-stderr git campaign stash save t
	assert_failure 1
	[ "$stderr" = 'error: no local changes to save' ]
	run --separate-stderr git campaign stash save 'a..b'
	assert_failure 129
	[[ $stderr == "error: 'a..b' is not a valid stash name"* ]]
	cd "$WORLD" && git init -q empty && cd empty && echo z >z && git add z
	run --separate-stderr git campaign stash save u
	assert_failure 1
	[[ $stderr == *'no commit yet'* ]]
	[ "$(git diff --cached --name-only)" = z ]
}

@test "keep-index leaves the staged change in place" {
	echo staged >>a
	git add a
	echo wt >>b
	git campaign stash save k --keep-index >/dev/null
	[ "$(git diff --cached --name-only)" = a ]
	[ -z "$(git diff --name-only)" ]
	[ "$(tail -1 a)" = staged ]
	[ "$(cat b)" = b ]
}

@test "list, show and the default subcommand" {
	echo x >>a
	git campaign stash save one -m 'first one' >/dev/null
	echo y >>b
	echo n >new
	git campaign stash save two -u >/dev/null
	run --separate-stderr git campaign stash list
	assert_clean
	[ "${#lines[@]}" -eq 2 ]
	assert_line --index 0 --regexp "^one +$(git rev-parse --short=12 refs/campaign/stash/one)  2026-11-29T12:00:00Z  main: first one$"
	assert_line --index 1 --regexp '^two +[0-9a-f]{12}  .*  main: [0-9a-f]{7} first$'
	run git campaign stash
	assert_success
	[ "${#lines[@]}" -eq 2 ]
	run git campaign stash list --json
	assert_success
	[ "$(python3 -c 'import json,sys; d=json.load(sys.stdin); print(d[1]["name"], d[1]["untracked"], len(d[0]["id"]))' <<<"$output")" = 'two True 40' ]
	run --separate-stderr git campaign stash show two
	assert_clean
	assert_line --partial ' b | 1 +'
	assert_line 'untracked: new'
	run git campaign stash show one -p
	assert_line '+x'
}

@test "apply restores the change and keeps the stash; pop drops it" {
	echo change >>a
	echo n >new
	git add new
	git campaign stash save s >/dev/null
	run --separate-stderr git campaign stash apply s
	assert_clean
	assert_output "applied stash 's'"
	[ "$(tail -1 a)" = change ]
	# a file the stash added comes back staged, as with git stash apply
	[ "$(git diff --cached --name-only)" = new ]
	git reset -q --hard
	run --separate-stderr git campaign stash pop s
	assert_clean
	[ "$(tail -1 a)" = change ]
	run git rev-parse --verify -q refs/campaign/stash/s
	assert_failure
}

@test "apply refuses to overwrite a local change or an untracked file, and writes nothing" {
	echo stashed >>a
	echo u >untracked
	git campaign stash save s -u >/dev/null
	echo local >>a
	before=$(file_sum a)
	run --separate-stderr git campaign stash pop s
	assert_failure 1
	[[ ${stderr_lines[0]} == "error: cannot apply stash 's': it would overwrite local changes to 'a'" ]]
	[ "$(file_sum a)" = "$before" ]
	assert_file_not_exists untracked
	git checkout -q a
	echo mine >untracked
	run --separate-stderr git campaign stash apply s
	assert_failure 1
	[[ ${stderr_lines[0]} == *"untracked files 'untracked'"* ]]
	[ "$(cat untracked)" = mine ]
	[ "$(git diff --name-only)" = '' ]
	git rev-parse --verify -q refs/campaign/stash/s >/dev/null
}

@test "a conflicting apply leaves markers and the stash; pop does not drop" {
	printf 'one\nSTASH\nthree\n' >a
	git campaign stash save s >/dev/null
	id=$(git rev-parse refs/campaign/stash/s)
	printf 'one\nCOMMITTED\nthree\n' >a
	git commit -q -am committed
	run --separate-stderr git campaign stash pop s
	assert_failure 1
	[ "${stderr_lines[0]}" = 'conflict: a' ]
	[[ ${stderr_lines[1]} == "error: stash 's' applied with conflicts in 1 file; the stash is kept" ]]
	grep -q '^<<<<<<< Updated upstream$' a
	grep -q '^STASH$' a
	grep -q '^>>>>>>> Stashed changes$' a
	[ "$(git status --porcelain)" = 'UU a' ]
	[ "$(git rev-parse refs/campaign/stash/s)" = "$id" ]
}

@test "drop only at the expected id; recover finds dropped named and plain stashes" {
	plain_stash
	echo x >>a
	git campaign stash save s >/dev/null
	id=$(git rev-parse refs/campaign/stash/s)
	run --separate-stderr git campaign stash drop s --expect 0000000
	assert_failure 1
	[[ ${stderr_lines[0]} == "error: stash 's' is ${id:0:12}, not 0000000: not dropped" ]]
	[ "$(git rev-parse refs/campaign/stash/s)" = "$id" ]
	run --separate-stderr git campaign stash drop s --expect "${id:0:12}"
	assert_clean
	assert_output "dropped stash 's' (${id:0:12}); 'git campaign stash recover ${id:0:12} --as s' brings it back"
	run git rev-parse --verify -q refs/campaign/stash/s
	assert_failure
	[ "$(git reflog show --format=%gs refs/campaign/stash-log | head -1)" = 'campaign stash drop s' ]
	run --separate-stderr git campaign stash recover
	assert_clean
	assert_output --regexp "^${id:0:12}  2026-11-29T12:00:00Z  main: [0-9a-f]{7} first$"
	# a plain stash dropped with git is found too, newest first
	export GIT_COMMITTER_DATE='2026-11-29T13:00:00Z'
	git stash drop -q
	run git campaign stash recover --json
	assert_success
	[ "$(python3 -c 'import json,sys; d=json.load(sys.stdin); print(len(d), d[0]["id"], d[0]["message"])' <<<"$output")" = "2 $PLAIN plain" ]
	run --separate-stderr git campaign stash recover "${id:0:12}" --as back
	assert_clean
	[ "$(git rev-parse refs/campaign/stash/back)" = "$id" ]
	run git campaign stash recover
	assert_output --partial "${PLAIN:0:12}"
	refute_output --partial "${id:0:12}"
	run --separate-stderr git campaign stash recover HEAD --as x
	assert_fatal "'HEAD' is not a stash commit" hint
}

@test "usage errors: missing name, unknown subcommand, recover without --as" {
	run --separate-stderr git campaign stash save
	assert_failure 129
	[[ ${stderr_lines[0]} == 'error: NAME is missing' ]]
	run --separate-stderr git campaign stash sav x
	assert_failure 129
	[[ ${stderr_lines[0]} == "error: 'sav' is not a subcommand of 'stash'; did you mean 'save'"* ]]
	run --separate-stderr git campaign stash recover abc
	assert_failure 129
	run --separate-stderr git campaign stash drop nope
	assert_fatal "no stash named 'nope'" hint
}

@test "status lists the named stashes" {
	git campaign init c --base main >/dev/null
	echo x >>a
	git campaign stash save ab/3 >/dev/null
	run git campaign status
	assert_line --regexp "^stashes   ab/3 \([0-9a-f]{12}\)$"
}
