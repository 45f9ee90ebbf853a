#!/usr/bin/env bats
# The kill test: a restack killed (SIGKILL) right after each of its journal
# steps; `stack continue` or `stack abort` then leaves every branch fully
# new or fully old, and no commit unreachable.

load helper
load stack_helper

# every old tip is still reachable from some ref
all_reachable() {
	local t
	for t in "$@"; do
		[ -n "$(git for-each-ref --contains "$t")" ] ||
			fail "commit $t is unreachable"
	done
}

# kill_each CMD...: in a fresh copy of $WORLD/tmpl for N = 1, 2, ..., runs
# CMD killed after journal step N, then calls after_kill; stops at the
# first N the command survives. Fails unless at least 4 kills happened.
kill_each() {
	local n
	for ((n = 1; n < 40; n++)); do
		cd "$WORLD"
		rm -rf k
		cp -a tmpl k
		cd k
		run env GIT_CAMPAIGN_TEST_KILL_AT=$n "$@"
		if [ "$status" -ne 137 ]; then
			[ "$n" -gt 4 ] || fail "only $((n - 1)) steps"
			KILLS=$((n - 1))
			return 0
		fi
		run git campaign status
		assert_line --regexp '^unfinished restack #'
		after_kill "$n"
	done
	fail "never finished"
}

setup_clean_restack() {
	make_stack 4
	git notes --ref=campaign add -m '{"v":1}' s3
	git checkout -q s1
	echo amended >>a
	git commit -q -a --amend -m 's1 amended'
	git checkout -q s4
	OLD_TIPS="$(git rev-parse s2 s3 s4)"
	snapshot >"$WORLD/before"
	cd "$WORLD"
	cp -a r tmpl
	cp -a r ref
	cd ref
	git campaign stack restack --all >/dev/null
	git for-each-ref refs/heads >"$WORLD/after"
	snapshot_refs | grep -v refs/notes >"$WORLD/after-full"
}

@test "killed at every step of a restack, continue finishes it" {
	setup_clean_restack
	after_kill() {
		run --separate-stderr git campaign stack continue
		assert_success
		diff <(git for-each-ref refs/heads) "$WORLD/after" ||
			fail "after a kill at step $1, continue left other branches"
		diff <(snapshot_refs | grep -v refs/notes) "$WORLD/after-full"
		[ -z "$(git status --porcelain)" ] || fail "step $1: $(git status --porcelain)"
		[ "$(git notes --ref=campaign show s3)" = '{"v":1}' ]
		all_reachable $OLD_TIPS
		run git campaign status
		assert_line 'unfinished none'
	}
	kill_each git campaign stack restack --all
	echo "# $KILLS kills" >&3
}

@test "killed at every step of a restack, abort puts everything back" {
	setup_clean_restack
	after_kill() {
		run --separate-stderr git campaign stack abort
		assert_success
		diff <(snapshot) "$WORLD/before" ||
			fail "after a kill at step $1, abort did not restore"
		all_reachable $OLD_TIPS
	}
	kill_each git campaign stack restack --all
}

setup_conflict() {
	make_stack 3
	git checkout -q s1
	echo from-s1 >>b
	git commit -q -a --amend -m 's1 amended'
	git checkout -q s3
	OLD_TIPS="$(git rev-parse s2 s3)"
	snapshot >"$WORLD/before"
	cd "$WORLD"
	cp -a r tmpl
}

@test "killed at every step before a conflict: abort restores, continue shows the conflict" {
	setup_conflict
	after_kill() {
		cp -a . ../k2
		run --separate-stderr git campaign stack abort
		assert_success
		diff <(snapshot) "$WORLD/before" || fail "step $1"
		cd ../k2
		# the conflict is shown again, or was shown in full already
		run --separate-stderr git campaign stack continue
		if [ "$status" -eq 1 ]; then
			assert_line '  conflict: b'
		else
			assert_fatal "unresolved conflicts remain: 'b'"
		fi
		grep -q '^<<<<<<< ' b
		git campaign stack abort >/dev/null
		diff <(snapshot) "$WORLD/before" || fail "step $1, second abort"
		all_reachable $OLD_TIPS
		cd ..
		rm -rf k2
	}
	kill_each git campaign stack restack
	[ "$status" -eq 1 ]
}

@test "killed at every step of continue after a resolution" {
	setup_conflict
	cd "$WORLD/tmpl"
	run git campaign stack restack
	assert_failure 1
	printf '%s\n' 'b 1' 'b 2' 'b 3' 'b 4' 'b 5' from-s1 s2 >b
	git add b
	cd "$WORLD"
	cp -a tmpl ref
	cd ref
	git campaign stack continue >/dev/null
	git for-each-ref refs/heads >"$WORLD/after"
	after_kill() {
		run --separate-stderr git campaign stack continue
		assert_success
		diff <(git for-each-ref refs/heads) "$WORLD/after" || fail "step $1"
		[ "$(git symbolic-ref --short HEAD)" = s3 ]
		[ -z "$(git status --porcelain)" ]
		all_reachable $OLD_TIPS
	}
	kill_each git campaign stack continue
}

@test "a branch moved while a restack was stopped: continue refuses and changes nothing" {
	setup_clean_restack
	cd "$WORLD/tmpl"
	run env GIT_CAMPAIGN_TEST_KILL_AT=apply git campaign stack restack --all
	assert_equal "$status" 137
	git update-ref refs/heads/s3 s3~1
	git for-each-ref refs/heads >"$WORLD/moved"
	run --separate-stderr git campaign stack continue
	assert_fatal "'refs/heads/s3' moved during the operation; nothing was changed"
	[[ ${stderr_lines[1]} == 'hint: its tip before the operation is kept under refs/campaign/backup/'*/ ]] ||
		fail "no backup hint: $stderr"
	diff <(git for-each-ref refs/heads) "$WORLD/moved"
}
