#!/usr/bin/env bats
# A stash save killed while it resets the working tree (SIGKILL at a system
# call, through strace) leaves a journal: status names it, running the save
# again finishes it, and `stash pop` undoes it; a held lock is waited for
# and never leaves a stash half made (REL-7, REL-14).

load helper

setup() {
	setup_world
	make_repo r develop
	cd r
	git campaign init demo >/dev/null
	mkdir f
	for i in $(seq -w 1 40); do echo "$i" >"f/$i.txt"; done
	git add f && git commit -qm files
	for i in $(seq -w 1 40); do echo changed >>"f/$i.txt"; done
	echo staged >>f/01.txt
	git add f/01.txt
	echo new >f/new.txt
	git add f/new.txt
	mkdir u
	for i in $(seq -w 1 20); do echo "u$i" >"u/$i.txt"; done
	BEFORE=$(tree_of .)
	cd "$WORLD"
	cp -a r twin
	(cd twin && git campaign stash save s -u >/dev/null)
	AFTER=$(tree_of twin)
	AFTER_INDEX=$(git -C twin write-tree)
}

# tree_of DIR: DIR's work tree (tracked and untracked) as a tree id
tree_of() {
	(cd "$1" && rm -f "$WORLD/idx" && GIT_INDEX_FILE="$WORLD/idx" git add -A . &&
		GIT_INDEX_FILE="$WORLD/idx" git write-tree)
}

# kill_at KIND N: a fresh copy of r in try/, stash save killed at its N-th
# KIND system call
kill_at() {
	rm -rf "$WORLD/try"
	cp -a "$WORLD/r" "$WORLD/try"
	cd "$WORLD/try"
	(strace -f -qq -o /dev/null -e trace="$1" \
		-e inject="$1:signal=KILL:when=$2" git campaign stash save s -u ||
		:) >/dev/null 2>&1
}

# calls KIND: how many KIND calls an uninterrupted save makes
calls() {
	rm -rf "$WORLD/count"
	cp -a "$WORLD/r" "$WORLD/count"
	# LeakSanitizer cannot run under ptrace (make asan)
	(cd "$WORLD/count" &&
		ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
			strace -f -qq -o "$WORLD/trace" -e trace="$1" \
			git campaign stash save s -u >/dev/null 2>&1)
	grep -c "$1(" "$WORLD/trace"
}

# half_kills KIND: the kill points of KIND that leave a half-reset tree
half_kills() {
	local total n
	command -v strace >/dev/null || skip "strace is missing (Debian package strace)"
	total=$(calls "$1")
	for n in $(seq $((total / 2)) $((total / 12 + 1)) "$total"); do
		kill_at "$1" "$n"
		[ "$(tree_of .)" = "$AFTER" ] && continue
		[ "$(tree_of .)" = "$BEFORE" ] && continue
		echo "$n"
	done
}

@test "a stash save killed while resetting the tree is named by status and finished by running it again" {
	local n points
	points=$(half_kills openat)
	[ -n "$points" ] || fail "no kill point left a half-reset tree"
	for n in $points; do
		kill_at openat "$n"
		run --separate-stderr git campaign status
		assert_clean
		assert_output --partial "unfinished stash save: stash save 's' was stopped"
		assert_output --partial "finish it: git campaign stash save s"
		assert_output --partial "undo it:   git campaign stash pop s"
		run --separate-stderr git campaign stash save s -u
		assert_clean
		[ "$(tree_of .)" = "$AFTER" ] || fail "kill at $n: not the reset tree"
		[ "$(git write-tree)" = "$AFTER_INDEX" ] || fail "kill at $n: index"
		[ ! -e .git/campaign-stash-save ] || fail "the journal is left"
		run git campaign status
		assert_output --partial "unfinished none"
		[ -z "$(find .git -name '*.lock')" ] || fail "$(find .git -name '*.lock')"
	done
}

@test "a stash save killed at a rename is finished by running it again, its locks removed" {
	local n total
	command -v strace >/dev/null || skip "strace is missing (Debian package strace)"
	total=$(calls rename)
	for n in $(seq 1 "$total"); do
		kill_at rename "$n"
		if git campaign status | grep -q 'unfinished stash save'; then
			run --separate-stderr git campaign stash save s -u
			assert_clean
		fi
		[ "$(tree_of .)" = "$AFTER" ] || [ "$(tree_of .)" = "$BEFORE" ] ||
			fail "rename $n: neither the old tree nor the reset one"
		echo next >next.txt
		run --separate-stderr git campaign stash save next -u
		assert_clean
		[ -z "$(find .git -name '*.lock')" ] || fail "rename $n: $(find .git -name '*.lock')"
	done
}

@test "a stash save killed half way is undone by stash pop" {
	local points
	points=$(half_kills openat)
	[ -n "$points" ] || fail "no kill point left a half-reset tree"
	kill_at openat "$(echo "$points" | head -1)"
	run --separate-stderr git campaign stash pop s
	assert_clean
	[ "$(tree_of .)" = "$BEFORE" ] || fail "not the tree before the save"
	[ ! -e .git/campaign-stash-save ] || fail "the journal is left"
	run git campaign status
	assert_output --partial "unfinished none"
}

@test "after a killed save, a path changed since is refused and kept" {
	local points
	points=$(half_kills openat)
	[ -n "$points" ] || fail "no kill point left a half-reset tree"
	kill_at openat "$(echo "$points" | head -1)"
	echo mine >f/20.txt
	run --separate-stderr git campaign stash save s -u
	assert_failure 1
	[[ $stderr == *"cannot finish saving stash 's'"*"f/20.txt"* ]] || fail "$stderr"
	[ "$(cat f/20.txt)" = mine ]
	git show-ref -q refs/campaign/stash/s
}

@test "stash save under a held stash-log lock makes no stash, and the retry works" {
	cd r
	mkdir -p .git/refs/campaign
	touch .git/refs/campaign/stash-log.lock
	run --separate-stderr git campaign stash save two -u
	assert_fatal "another process holds its lock" hint
	[[ $stderr == *"stash-log.lock"* ]] || fail "$stderr"
	! git show-ref -q refs/campaign/stash/two || fail "the stash was named"
	[ "$(tree_of .)" = "$BEFORE" ] || fail "the tree was reset"
	rm .git/refs/campaign/stash-log.lock
	run --separate-stderr git campaign stash save two -u
	assert_clean
	git show-ref -q refs/campaign/stash/two
}

@test "stash save waits for a stash-log lock released meanwhile" {
	cd r
	mkdir -p .git/refs/campaign
	touch .git/refs/campaign/stash-log.lock
	(sleep 1; rm -f .git/refs/campaign/stash-log.lock) &
	run --separate-stderr git campaign stash save two -u
	wait
	assert_clean
	git show-ref -q refs/campaign/stash/two
}

@test "stash save leaves the branch's ref alone: a held branch lock does not stop the reset" {
	cd r
	touch .git/refs/heads/master.lock .git/refs/heads/main.lock
	run --separate-stderr git campaign stash save two -u
	rm -f .git/refs/heads/master.lock .git/refs/heads/main.lock
	assert_clean
	[ -z "$(git status --porcelain)" ] || fail "$(git status --porcelain)"
}

@test "status names a stash pop killed half way with the command that finishes it" {
	local total n
	command -v strace >/dev/null || skip "strace is missing (Debian package strace)"
	cd twin
	rm -rf "$WORLD/pop"
	cp -a "$WORLD/twin" "$WORLD/pop"
	total=$(cd "$WORLD/pop" && strace -f -qq -o "$WORLD/trace" -e trace=openat \
		git campaign stash pop s >/dev/null 2>&1; grep -c 'openat(' "$WORLD/trace")
	for n in $(seq $((total / 2)) 5 "$total"); do
		rm -rf "$WORLD/pop"
		cp -a "$WORLD/twin" "$WORLD/pop"
		cd "$WORLD/pop"
		(strace -f -qq -o /dev/null -e trace=openat \
			-e inject=openat:signal=KILL:when="$n" git campaign stash pop s ||
			:) >/dev/null 2>&1
		[ "$(tree_of .)" != "$BEFORE" ] || continue
		[ "$(tree_of .)" != "$AFTER" ] || continue
		run --separate-stderr git campaign status
		assert_clean
		assert_output --partial "unfinished stash pop: stash pop 's' was stopped"
		assert_output --partial "finish it: git campaign stash pop s"
		run --separate-stderr git campaign stash pop s
		assert_clean
		[ "$(tree_of .)" = "$BEFORE" ] || fail "pop $n: not the stash's tree"
		return 0
	done
	fail "no kill point left a half-written tree"
}
