#!/usr/bin/env bats
# Concurrent writers lose nothing: four `measure add` at once on one commit,
# `measure add` during `sync`, two `stash save` of different names, `status`
# in a loop during a restack, and two clones syncing to one bare remote.
# Each scenario runs CONC_ROUNDS rounds (3 in make check; make crash runs
# 50): 0 lost lines or changes, and no error but a clear "busy" one.

bats_require_minimum_version 1.5.0
load helper

ROUNDS=${CONC_ROUNDS:-3}

setup() {
	setup_world
	git init -q --bare -b main remote.git
	make_repo a develop
	cd a
	git campaign init demo >/dev/null
	git remote add origin "$WORLD/remote.git"
	git push -q origin main
}

# lines REV: the record lines of REV's campaign note
lines() {
	git notes --ref campaign show "$1" 2>/dev/null | grep -c '"metric"' || true
}

# only_busy FILE...: each file (a command's stderr) is empty, or says only
# that the tool waited: busy, or a lost push race tried again
only_busy() {
	local f
	for f; do
		! grep -v -i -E 'busy|trying again' "$f" >/dev/null ||
			fail "$(basename "$f"): $(cat "$f")"
	done
}

@test "four measure add at once on one commit keep every line, round after round" {
	local r i
	for ((r = 1; r <= ROUNDS; r++)); do
		for i in 1 2 3 4; do
			git campaign measure add "m$i" "$r" --unit ms \
				>/dev/null 2>"$WORLD/err.$i" &
		done
		wait
		only_busy "$WORLD"/err.*
	done
	[ "$(lines HEAD)" -eq $((4 * ROUNDS)) ] ||
		fail "$(lines HEAD) lines of $((4 * ROUNDS))"
	# the index agrees with the notes
	[ "$(git campaign measure show --json | "$(command -v /usr/bin/python3 || command -v python3)" -c 'import json,sys; print(len(json.load(sys.stdin)["records"]))')" -eq $((4 * ROUNDS)) ]
}

@test "measure add during sync loses no line, here or on the remote" {
	local r
	for ((r = 1; r <= ROUNDS; r++)); do
		git campaign sync >/dev/null 2>"$WORLD/err.sync" &
		git campaign measure add during "$r" --unit ms >/dev/null \
			2>"$WORLD/err.add"
		wait
		only_busy "$WORLD/err.sync" "$WORLD/err.add"
	done
	git campaign sync >/dev/null
	[ "$(lines HEAD)" -eq "$ROUNDS" ]
	git clone -q "$WORLD/remote.git" "$WORLD/c"
	git -C "$WORLD/c" fetch -q origin 'refs/notes/*:refs/notes/*'
	[ "$(git -C "$WORLD/c" notes --ref campaign show HEAD | grep -c '"metric"')" -eq "$ROUNDS" ]
}

@test "two stash save of different names at once: the change is in exactly one, the tree clean" {
	local r
	for ((r = 1; r <= ROUNDS; r++)); do
		for i in $(seq 1 50); do echo "$r $i" >"f$i"; done
		git add . && git commit -q -m "round $r"
		for i in $(seq 1 50); do echo "changed $r" >>"f$i"; done
		before=$(git stash create)
		git campaign stash save "x$r" >/dev/null 2>"$WORLD/err.x" &
		git campaign stash save "y$r" >/dev/null 2>"$WORLD/err.y" &
		wait
		# saves take turns: the second finds the change saved already
		for s in x y; do
			sed -i '/^error: no local changes to save$/d' "$WORLD/err.$s"
		done
		only_busy "$WORLD/err.x" "$WORLD/err.y"
		# the change is in exactly one of the stashes, the tree is clean
		local kept=0 s
		for s in "x$r" "y$r"; do
			if git rev-parse -q --verify "refs/campaign/stash/$s" >/dev/null; then
				[ "$(git rev-parse "refs/campaign/stash/$s^{tree}")" = "$(git rev-parse "$before^{tree}")" ] ||
					fail "round $r: stash $s holds another change"
				kept=$((kept + 1))
			fi
		done
		[ -z "$(git status --porcelain -uno)" ] || fail "round $r: the tree keeps the change"
		[ "$kept" -eq 1 ] || fail "round $r: the change is in $kept stashes"
		git checkout -q -- . && git clean -qfd
	done
}

@test "status in a loop during a restack never fails" {
	git campaign stack new s1 >/dev/null
	echo s1 >s1 && git add s1 && git commit -q -m s1
	git campaign stack new s2 >/dev/null
	echo s2 >s2 && git add s2 && git commit -q -m s2
	local r n=0
	for ((r = 1; r <= ROUNDS; r++)); do
		git checkout -q s1
		echo "amend $r" >>s1 && git commit -q -a --amend --no-edit
		git checkout -q s2
		(while [ ! -e "$WORLD/stop" ]; do
			git campaign status >/dev/null 2>>"$WORLD/err.status" ||
				echo "status failed: $?" >>"$WORLD/err.status"
			echo x >>"$WORLD/status.runs"
		done) &
		git campaign stack restack --all >/dev/null 2>"$WORLD/err.restack"
		touch "$WORLD/stop"
		wait
		rm "$WORLD/stop"
		only_busy "$WORLD/err.status" "$WORLD/err.restack"
		git merge-base --is-ancestor s1 s2 || fail "round $r: s2 not on s1"
	done
	[ -s "$WORLD/status.runs" ]
}

@test "two clones syncing to one bare remote at once end with the union" {
	git clone -q "$WORLD/remote.git" "$WORLD/b"
	git -C "$WORLD/b" campaign init demo >/dev/null 2>&1 || true
	local r
	for ((r = 1; r <= ROUNDS; r++)); do
		git campaign measure add a "$r" --unit ms >/dev/null
		git -C "$WORLD/b" campaign measure add b "$r" --unit ms >/dev/null
		git campaign sync >/dev/null 2>"$WORLD/err.a" &
		git -C "$WORLD/b" campaign sync >/dev/null 2>"$WORLD/err.b" &
		wait
		only_busy "$WORLD/err.a" "$WORLD/err.b"
	done
	git campaign sync >/dev/null
	git -C "$WORLD/b" campaign sync >/dev/null
	[ "$(lines HEAD)" -eq $((2 * ROUNDS)) ]
	[ "$(git -C "$WORLD/b" notes --ref campaign show HEAD | grep -c '"metric"')" -eq $((2 * ROUNDS)) ]
}
