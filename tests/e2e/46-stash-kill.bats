#!/usr/bin/env bats
# A stash pop or apply killed while it writes the working tree (SIGKILL at
# a system call, through strace) is finished by running it again: the
# paths already holding the stash's content are not "local changes"; a
# path holding anything else still is, and is never overwritten.

load helper

setup() {
	command -v strace >/dev/null || skip "strace is missing (Debian package strace)"
	setup_world
	make_repo r develop
	cd r
	git campaign init demo >/dev/null
	mkdir f
	for i in $(seq -w 1 40); do echo "$i" >"f/$i.txt"; done
	git add f && git commit -qm files
	for i in $(seq -w 1 40); do echo changed >>"f/$i.txt"; done
	mkdir u
	for i in $(seq -w 1 20); do echo "u$i" >"u/$i.txt"; done
	git campaign stash save s -u >/dev/null
	cd "$WORLD"
	cp -a r twin
	(cd twin && git campaign stash apply s >/dev/null)
	WANT=$(tree_of twin)
}

# tree_of DIR: DIR's work tree (tracked and untracked) as a tree id
tree_of() {
	(cd "$1" && rm -f "$WORLD/idx" && GIT_INDEX_FILE="$WORLD/idx" git add -A . &&
		GIT_INDEX_FILE="$WORLD/idx" git write-tree)
}

# kill_at VERB N: a fresh copy of r in try/, VERB killed at its N-th openat
kill_at() {
	rm -rf "$WORLD/try"
	cp -a "$WORLD/r" "$WORLD/try"
	cd "$WORLD/try"
	(strace -f -qq -o /dev/null -e trace=openat \
		-e inject=openat:signal=KILL:when="$2" git campaign stash "$1" s ||
		:) >/dev/null 2>&1
}

# openats VERB: how many openat calls VERB makes, uninterrupted
openats() {
	rm -rf "$WORLD/count"
	cp -a "$WORLD/r" "$WORLD/count"
	(cd "$WORLD/count" && strace -f -qq -o "$WORLD/trace" -e trace=openat \
		git campaign stash "$1" s >/dev/null 2>&1)
	grep -c 'openat(' "$WORLD/trace"
}

finishes_when_run_again() {
	local verb=$1 total n half=0
	total=$(openats "$verb")
	[ "$total" -gt 20 ] || fail "only $total openat calls"
	for n in $(seq $((total / 2)) $(((total / 2) / 8 + 1)) "$total"); do
		kill_at "$verb" "$n"
		[ "$(tree_of .)" = "$WANT" ] && continue
		[ "$(tree_of .)" = "$(tree_of "$WORLD/r")" ] && continue
		half=$((half + 1))
		run --separate-stderr git campaign stash "$verb" s
		assert_clean
		[ "$(tree_of .)" = "$WANT" ] || fail "kill at $n: not the stash's tree"
		if [ "$verb" = pop ]; then
			! git show-ref -q refs/campaign/stash/s || fail "the stash is still there"
		fi
	done
	[ "$half" -gt 0 ] || skip "no kill point left a half-written tree"
}

@test "a stash pop killed while writing the tree is finished by running it again" {
	finishes_when_run_again pop
}

@test "a stash apply killed while writing the tree is finished by running it again" {
	finishes_when_run_again apply
}

@test "after a killed pop, a path holding other content is still refused and kept" {
	local total n
	total=$(openats pop)
	for n in $(seq $((total / 2)) 3 "$total"); do
		kill_at pop "$n"
		[ -f u/20.txt ] || [ -f u/01.txt ] || continue
		[ "$(tree_of .)" != "$WANT" ] || continue
		break
	done
	[ "$(tree_of .)" != "$WANT" ] || skip "no kill point left a half-written tree"
	f=$(ls u/*.txt | head -1)
	echo mine >"$f"
	run --separate-stderr git campaign stash pop s
	assert_failure 1
	[[ $stderr == *"would overwrite"*"$f"* ]] || fail "$stderr"
	[ "$(cat "$f")" = mine ]
	git show-ref -q refs/campaign/stash/s
}

@test "a stash pop killed between truncating a file and writing it is finished by running it again" {
	local n
	for n in 1 2 17; do
		rm -rf "$WORLD/try"
		cp -a "$WORLD/r" "$WORLD/try"
		cd "$WORLD/try"
		(strace -f -qq -o /dev/null -e trace=write \
			-e inject=write:signal=KILL:when="$n" git campaign stash pop s ||
			:) >/dev/null 2>&1
		[ "$(tree_of .)" != "$WANT" ] || fail "write $n: the pop was not cut"
		run --separate-stderr git campaign stash pop s
		assert_clean
		[ "$(tree_of .)" = "$WANT" ] || fail "write $n: not the stash's tree"
		[ ! -e .git/campaign-stash-apply ] || fail "the journal is left"
	done
}
