#!/usr/bin/env bats
# sync and the locks a killed one leaves (REL-15): a lock on the tracking
# notes or env refs left by a killed sync or its git fetch is removed by the next
# sync, which then works; a lock held by someone else is named, never
# broken.

load helper

setup() {
	setup_world
	git init -q --bare remote.git
	make_repo r develop
	cd r
	git remote add origin ../remote.git
	git push -q origin HEAD develop
	git campaign init demo >/dev/null
	git campaign measure add m 1 >/dev/null
	git campaign sync >/dev/null
	git campaign measure add m 2 >/dev/null
	LOCK=.git/refs/notes/remotes/origin/campaign.lock
}

@test "the tracking-ref locks left by a sync whose git fetch was killed are removed, and sync works" {
	local total n
	command -v strace >/dev/null || skip "strace is missing (Debian package strace)"
	# as a clone that never synced: the fetch writes every tracking ref
	git for-each-ref --format='%(refname)' refs/campaign/remotes refs/notes/remotes |
		while read -r ref; do git update-ref -d "$ref"; done
	remote_before=$(git -C ../remote.git rev-parse refs/notes/campaign)
	cd "$WORLD"
	cp -a r count
	# LeakSanitizer cannot run under ptrace (make asan)
	(cd count &&
		ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
			strace -f -qq -o "$WORLD/trace" -e trace=rename \
			git campaign sync >/dev/null 2>&1)
	total=$(grep -c 'rename(' "$WORLD/trace")
	for n in $(seq 1 "$total"); do
		rm -rf "$WORLD/try" "$WORLD/remote-try.git"
		cp -a "$WORLD/r" "$WORLD/try"
		cd "$WORLD/try"
		(strace -f -qq -o /dev/null -e trace=rename \
			-e inject=rename:signal=KILL:when="$n" git campaign sync || :) \
			>/dev/null 2>&1
		run --separate-stderr git campaign sync
		assert_clean
		[ ! -e "$LOCK" ] || fail "rename $n: the lock is left"
		[ -z "$(find .git -name '*.lock')" ] ||
			fail "rename $n: $(find .git -name '*.lock')"
		[ "$(git rev-parse refs/notes/campaign)" = \
			"$(git -C ../remote.git rev-parse refs/notes/campaign)" ] ||
			fail "rename $n: the remote lacks our notes"
		git -C "$WORLD/remote.git" update-ref refs/notes/campaign "$remote_before"
	done
}

@test "a tracking-ref lock of a sync killed with its git is removed by the next sync" {
	# what a killed run leaves: its record in the guard, the fetch's lock
	mkdir -p .git/campaign
	echo 999999 >.git/campaign/sync.owner
	touch "$LOCK"
	run --separate-stderr git campaign sync
	assert_clean
	[ ! -e "$LOCK" ] || fail "the lock is left"
	[ "$(git rev-parse refs/notes/campaign)" = \
		"$(git -C ../remote.git rev-parse refs/notes/campaign)" ]
}

@test "a tracking-ref lock that is no killed run's is named in the hint and kept" {
	touch "$LOCK"
	run --separate-stderr git campaign sync
	assert_fatal "another process holds its lock" hint
	[[ $stderr == *"remove a stale '"*"campaign.lock'"* ]] || fail "$stderr"
	[ -e "$LOCK" ] || fail "someone's lock was broken"
}
