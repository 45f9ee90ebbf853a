#!/usr/bin/env bats
# gc prunes the A/B worktrees and artifact builds unused for
# campaign.gc.abDays days (else --days), through git worktree remove, and
# ab says on a terminal how much they hold.

load helper

setup() {
	setup_world
	git init -q p
	cd p
	printf 'mkdir -p dist && cp f dist/f\n' >build.sh
	printf 'dist/\n' >.gitignore
	echo base >f
	git add .
	git commit -q -m base
	git campaign init demo --base main >/dev/null
}

# an A/B on a new branch NAME (worktree mode keeps A's worktree as NAME)
ab_on() {
	git switch -q -c "$1" main
	echo "$1" >>f
	run --separate-stderr git campaign ab --build 'sh build.sh' --run true -n 5 "${@:2}"
	[ "$status" -eq 0 ] || fail "ab on $1: exit $status: $stderr"
	git commit -q -am "$1"
}

@test "gc prunes the A/B worktrees unused for campaign.gc.abDays days and keeps the others" {
	ab_on topic-1
	ab_on topic-2
	wt=.git/campaign/worktrees
	[ -d $wt/topic-1 ] && [ -d $wt/topic-2 ]
	[ "$(git worktree list | wc -l)" -eq 3 ]
	touch -d '40 days ago' $wt/topic-1.built
	touch -d '3 days ago' $wt/topic-2.built
	git config campaign.gc.abDays 10
	run --separate-stderr git campaign gc --dry-run
	assert_success
	assert_line --regexp '^would prune A/B worktree topic-1 \([0-9.]+ [KM]iB\)$'
	refute_line --partial 'topic-2'
	[ -d $wt/topic-1 ]
	run --separate-stderr git campaign gc
	assert_success
	assert_line --regexp '^pruned A/B worktree topic-1 \([0-9.]+ [KM]iB\)$'
	refute_line --partial 'topic-2'
	[ ! -e $wt/topic-1 ] && [ ! -e $wt/topic-1.built ]
	[ -d $wt/topic-2 ] && [ -e $wt/topic-2.built ]
	# git forgets it too
	run git worktree list
	refute_output --partial topic-1
	assert_output --partial topic-2
	[ "${#lines[@]}" -eq 2 ]
}

@test "without campaign.gc.abDays gc prunes A/B worktrees and builds by --days" {
	ab_on topic-1
	git switch -q -c topic-2 main
	echo x >>f
	run --separate-stderr git campaign ab --mode artifact --artifact dist \
		--build 'sh build.sh' --run true -n 5
	assert_success
	[ "$(ls .git/campaign/builds | grep -vc built)" -eq 2 ]
	run --separate-stderr git campaign gc --days 0
	assert_success
	assert_line --regexp '^pruned A/B worktree topic-1 '
	[ "$(grep -c '^pruned A/B build [0-9a-f]\{40\} ' <<<"$output")" -eq 2 ] || fail "$output"
	[ -z "$(ls .git/campaign/builds)" ]
	[ -z "$(ls .git/campaign/worktrees)" ]
	[ "$(git worktree list | wc -l)" -eq 1 ]
	# the change under test is untouched
	[ "$(git status --porcelain)" = ' M f' ]
}

@test "an A/B marks its worktree used, so gc keeps what was just used" {
	ab_on topic-1
	touch -d '40 days ago' .git/campaign/worktrees/topic-1.built
	git switch -q topic-1
	echo again >>f
	run --separate-stderr git campaign ab --build 'sh build.sh' --run true -n 5
	assert_success
	run --separate-stderr git campaign gc --days 30
	assert_success
	refute_output --partial 'A/B worktree'
	[ -d .git/campaign/worktrees/topic-1 ]
}

@test "a bad campaign.gc.abDays is a usage error and nothing is pruned" {
	ab_on topic-1
	git config campaign.gc.abDays soon
	run --separate-stderr git campaign gc --days 0
	[ "$status" -eq 129 ] || fail "exit $status: $stderr"
	[[ ${stderr_lines[0]} == *"campaign.gc.abDays must be 0 or more days, not 'soon'"* ]] || fail "$stderr"
	[ -d .git/campaign/worktrees/topic-1 ]
}

@test "on a terminal ab says how much its worktrees and builds hold" {
	command -v script >/dev/null || skip "script (bsdutils) is not installed"
	git switch -q -c topic-1
	echo x >>f
	script -qec "git campaign ab --build 'sh build.sh' --run true -n 5 >/dev/null" /dev/null >"$WORLD/tty"
	grep -q "A/B worktrees and builds hold [0-9.]* [KM]iB; 'git campaign gc' prunes those unused for 30 days" "$WORLD/tty" ||
		fail "$(cat "$WORLD/tty")"
}
