#!/usr/bin/env bats
# Every unfinished stack operation can be finished or undone: a kill in
# the final work-tree update or at any system call, a refused continue or
# undo, a removed worktree, a stale lock, a journal with no plan
# (findings ST-2 to ST-4, ST-6, REL-3 and REL-4).

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

# amend_bottom: s1 amended on a's second line, s3 checked out
amend_bottom() {
	git checkout -q s1
	sed -i 2s/.*/amended/ a
	git commit -qa --amend --no-edit
	git checkout -q s3
}

@test "killed while the work tree is written, continue takes the files already written as done" {
	make_stack 3
	amend_bottom
	run env GIT_CAMPAIGN_TEST_KILL_AT=applied git campaign stack restack
	[ "$status" -eq 137 ] || fail "not killed: $status $output"
	# what a kill inside the checkout leaves: the file written, the index
	# not
	git show s3:a >a
	run --separate-stderr git campaign stack continue
	assert_success
	git diff --quiet s3 || fail "the work tree differs from s3"
	git diff --cached --quiet s3 || fail "the index differs from s3"
	[ -z "$(git status --porcelain)" ] || fail "$(git status --porcelain)"
	[ "$(git symbolic-ref HEAD)" = refs/heads/s3 ]
	run git campaign status
	assert_line 'unfinished none'
}

# kill_at_random N SYSCALLS: N restacks of a copy of $WORLD/tmpl, each
# killed by strace at a random call of one of SYSCALLS (seeded, the seed
# printed); after each, `continue` (even runs) or `abort` (odd) must
# finish, leave every old tip reachable, and give the after (continue) or
# the before (abort) state
kill_at_random() {
	local n=$1 round sc when seed=${KILL_SEED:-$$}
	local -a calls=($2)
	RANDOM=$seed
	echo "# seed $seed" >&3
	for ((round = 0; round < n; round++)); do
		sc=${calls[RANDOM % ${#calls[@]}]}
		when=$((RANDOM % 30 + 1))
		cd "$WORLD"
		rm -rf k
		cp -a tmpl k
		cd k
		run strace -f -o /dev/null -e trace="$sc" \
			-e inject="$sc":signal=KILL:when="$when" \
			git campaign stack restack --all
		[ "$status" -eq 137 ] || continue
		all_reachable $OLD_TIPS
		KILLED=$((KILLED + 1))
		if git campaign status | grep -qx 'unfinished none'; then
			# killed before the journal began or after it closed
			diff <(git for-each-ref refs/heads) "$WORLD/after" >/dev/null ||
				diff <(git for-each-ref refs/heads) "$WORLD/before" ||
				fail "$sc #$when: neither before nor after"
			continue
		fi
		if ((round % 2 == 0)); then
			run --separate-stderr git campaign stack continue
			[ "$status" -eq 0 ] ||
				fail "$sc #$when: continue failed: $stderr"
			# killed before its plan: it changed nothing, and
			# continue closes it (test 3)
			if [[ $output == *"stopped before its plan"* ]]; then
				diff <(git for-each-ref refs/heads) "$WORLD/before" ||
					fail "$sc #$when: a planless one moved branches"
				continue
			fi
			diff <(git for-each-ref refs/heads) "$WORLD/after" ||
				fail "$sc #$when: continue left other branches"
			git diff --quiet HEAD || fail "$sc #$when: work tree"
			git diff --cached --quiet HEAD || fail "$sc #$when: index"
		else
			run --separate-stderr git campaign stack abort
			[ "$status" -eq 0 ] ||
				fail "$sc #$when: abort failed: $stderr"
			diff <(git for-each-ref refs/heads) "$WORLD/before" ||
				fail "$sc #$when: abort left other branches"
		fi
		all_reachable $OLD_TIPS
		run git campaign status
		assert_line 'unfinished none'
	done
}

@test "killed at random system calls, continue or abort always completes and no old tip is lost" {
	command -v strace >/dev/null || skip "strace is not installed"
	make_stack 3
	local i
	mkdir big
	for ((i = 0; i < 40; i++)); do echo "$i" >big/f$i; done
	git checkout -q s1
	git add big
	git commit -q --amend --no-edit
	git checkout -q s3
	git campaign stack restack >/dev/null
	git checkout -q s1
	for ((i = 0; i < 40; i++)); do echo x >>big/f$i; done
	git commit -qa --amend --no-edit
	git checkout -q s3
	OLD_TIPS="$(git rev-parse s1@{1} s2 s3)"
	git for-each-ref refs/heads >"$WORLD/before"
	cd "$WORLD"
	cp -a r tmpl
	cp -a r ref
	(cd ref && git campaign stack restack --all >/dev/null &&
		git for-each-ref refs/heads >"$WORLD/after")
	KILLED=0
	kill_at_random 8 "openat write rename fsync unlink"
	echo "# $KILLED runs killed" >&3
	[ "$KILLED" -ge 3 ] || fail "only $KILLED runs were killed"
}

@test "killed between the journal's start and its plan, the operation changed nothing and continue, abort or a new restack close it" {
	command -v strace >/dev/null || skip "strace is not installed"
	make_stack 3
	amend_bottom
	local before
	before=$(git for-each-ref refs/heads)
	cd "$WORLD"
	cp -a r tmpl
	local how
	for how in continue abort restack; do
		cd "$WORLD"
		rm -rf k
		cp -a tmpl k
		cd k
		# the first rename is the index copy's, right after the
		# journal began
		run strace -f -o /dev/null -e trace=rename \
			-e inject=rename:signal=KILL:when=1 \
			git campaign stack restack --all
		[ "$status" -eq 137 ] || fail "not killed: $status $output"
		run git campaign status
		assert_line --regexp '^unfinished restack #1'
		[ "$(git for-each-ref refs/heads)" = "$before" ]
		case $how in
		continue) run --separate-stderr git campaign stack continue ;;
		abort) run --separate-stderr git campaign stack abort ;;
		restack) run --separate-stderr git campaign stack restack --all ;;
		esac
		[ "$status" -eq 0 ] || fail "$how: $status $stderr"
		run git campaign status
		assert_line 'unfinished none'
		run ls .git
		refute_output --partial 'campaign-'
		if [ $how = restack ]; then
			git merge-base --is-ancestor s1 s2
		else
			[ "$(git for-each-ref refs/heads)" = "$before" ]
		fi
	done
}

@test "killed while it moves the refs, the lock files it left are removed: continue and abort both complete" {
	command -v strace >/dev/null || skip "strace is not installed"
	make_stack 4
	amend_bottom
	local before after when locked=0
	before=$(git for-each-ref refs/heads)
	cd "$WORLD"
	cp -a r tmpl
	cp -a r ref
	(cd ref && git campaign stack restack --all >/dev/null)
	after=$(git -C ref for-each-ref refs/heads)
	for when in 2 3 4 5 6 7; do
		for how in continue abort; do
			cd "$WORLD"
			rm -rf k
			cp -a tmpl k
			cd k
			run strace -f -o /dev/null -e trace=rename \
				-e inject=rename:signal=KILL:when=$when \
				git campaign stack restack --all
			[ "$status" -eq 137 ] || continue
			[ -z "$(find .git -name '*.lock')" ] ||
				locked=$((locked + 1))
			run --separate-stderr git campaign stack $how
			[ "$status" -eq 0 ] ||
				fail "rename #$when, $how: $status $stderr"
			if [ $how = continue ]; then
				[ "$(git for-each-ref refs/heads)" = "$after" ] ||
					fail "rename #$when: continue left other branches"
			else
				[ "$(git for-each-ref refs/heads)" = "$before" ] ||
					fail "rename #$when: abort left other branches"
			fi
			[ -z "$(find .git -name '*.lock')" ] ||
				fail "rename #$when, $how: $(find .git -name '*.lock')"
		done
	done
	[ "$locked" -ge 1 ] || fail "no kill left a lock file"
}

@test "a lock file in the way is named, with git's hint" {
	make_stack 3
	amend_bottom
	touch -d '2026-01-01' .git/refs/heads/s2.lock
	run --separate-stderr git campaign stack restack
	[ "$status" -eq 128 ] || fail "$status $stderr"
	[[ $stderr == *"remove '$PWD/.git/refs/heads/s2.lock'"* ]] ||
		fail "the lock is not named: $stderr"
	# an older lock is not the operation's: abort leaves it, names it
	run --separate-stderr git campaign stack abort
	[ -e .git/refs/heads/s2.lock ]
	rm .git/refs/heads/s2.lock
	run --separate-stderr git campaign stack abort
	assert_success
	run git campaign status
	assert_line 'unfinished none'
}

@test "a branch that another work tree is rebasing is never rewritten" {
	make_stack 3
	git checkout -q develop
	git worktree add -q ../wt s2
	(cd ../wt && GIT_SEQUENCE_EDITOR='sed -i 1s/^pick/edit/' \
		git rebase -q -i HEAD~1 >/dev/null 2>&1)
	[ -d "$(git -C ../wt rev-parse --git-dir)/rebase-merge" ]
	git checkout -q s1
	sed -i 2s/.*/amended/ a
	git commit -qa --amend --no-edit
	local s2
	s2=$(git rev-parse s2)
	run --separate-stderr git campaign stack restack
	[ "$(git rev-parse s2)" = "$s2" ] || fail "s2 was rewritten: $output"
	[[ $output$stderr == *"s2"*"$WORLD/wt"* ]] || fail "$output $stderr"
	(cd ../wt && git commit -q --amend --no-edit && git rebase --continue)
}

@test "an undo after a new commit on a restacked branch is refused before it starts, naming the branch, and leaves nothing behind" {
	make_stack 3
	amend_bottom
	git campaign stack restack >/dev/null
	git checkout -q s2
	commit b follow-up 's2 follow-up'
	local before
	before=$(git for-each-ref refs/heads)
	run --separate-stderr git campaign undo
	assert_fatal "'s2' changed since restack #1 left it"
	[[ $stderr == *"git branch -f s2"* ]] || fail "no way out: $stderr"
	[ "$(git for-each-ref refs/heads)" = "$before" ]
	run git campaign status
	assert_line 'unfinished none'
	run --separate-stderr git campaign stack restack
	assert_success
}

@test "a branch moved by someone else during an open conflict: continue refuses, abort puts back the rest and names it" {
	make_stack 3
	git checkout -q s1
	sed -i 6s/.*/s1-amend/ b
	git commit -qa --amend --no-edit
	printf 'b 1\nb 2\nb 3\nb 4\nb 5\ns1-amend\n' >b
	git commit -qam 's1 touches b'
	git checkout -q s3
	run --separate-stderr git campaign stack restack
	[ "$status" -eq 1 ] || fail "no conflict: $status $output $stderr"
	local s3
	git worktree add -q ../wt s3 2>/dev/null || git worktree add -q -f ../wt s3
	(cd ../wt && echo z >>c && git commit -qam 's3 meanwhile')
	s3=$(git rev-parse s3)
	git checkout -q --theirs b 2>/dev/null || true
	git add b
	run --separate-stderr git campaign stack continue
	[ "$status" -ne 0 ] || fail "continue went through"
	run --separate-stderr git campaign stack abort
	assert_success
	assert_output --partial "left 'refs/heads/s3' where it is"
	[ "$(git rev-parse s3)" = "$s3" ]
	run git campaign status
	assert_line 'unfinished none'
	[ -n "$(git for-each-ref refs/campaign/backup)" ]
}

@test "an operation whose linked work tree was removed is aborted from another work tree" {
	make_stack 3
	git checkout -q develop
	git worktree add -q ../wt s3
	git checkout -q s1
	printf 'b 1\nb 2\nb 3\nb 4\nb 5\ns1-amend\n' >b
	git commit -qam 's1 touches b'
	git checkout -q develop
	(cd ../wt && git campaign stack restack >/dev/null 2>&1) || true
	run git campaign status
	assert_line --regexp '^unfinished restack #1'
	git worktree remove --force ../wt
	run --separate-stderr git campaign stack continue
	assert_fatal "which is gone"
	[[ $stderr == *'stack abort'* ]] || fail "$stderr"
	run --separate-stderr git campaign stack abort
	assert_success
	run git campaign status
	assert_line 'unfinished none'
	[ "$(git symbolic-ref HEAD)" = refs/heads/develop ]
}

@test "a resolution committed by hand with git commit --no-edit at a conflict is taken by continue, with the commit's own message" {
	make_stack 3
	git checkout -q s1
	printf 'b 1\nb 2\nb 3\nb 4\nb 5\ns1-amend\n' >b
	git commit -qam 's1 touches b'
	git checkout -q s3
	run --separate-stderr git campaign stack restack
	[ "$status" -eq 1 ] || fail "no conflict: $status $output $stderr"
	git checkout -q --theirs b
	git add b
	git commit -q --no-edit
	run --separate-stderr git campaign stack continue
	assert_success
	run git log --format=%s s1..s2
	assert_output s2
	git merge-base --is-ancestor s2 s3
	[ "$(git symbolic-ref HEAD)" = refs/heads/s3 ]
	[ ! -e .git/MERGE_MSG ]
	run git campaign status
	assert_line 'unfinished none'
}
