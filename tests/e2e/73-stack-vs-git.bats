#!/usr/bin/env bats
# The differential test: the same edits restacked by `git campaign stack
# restack --all` and by git's own `git rebase --update-refs` on twin
# repositories give, for every branch, the same tree, the same patch ids
# (git patch-id --stable), the same messages and authors, and the same
# notes on the same changes.

load helper
load stack_helper

# note_all: a note under refs/notes/campaign on every commit of the stack
note_all() {
	local c
	for c in $(git rev-list develop..s3); do
		git notes --ref=campaign add -m "{\"c\":\"$(git log -1 --format=%s "$c")\"}" "$c"
	done
}

# branch_facts B: what must agree on branch B: its tree, then per commit
# above develop its patch id, author, message, note and depth
branch_facts() {
	local b=$1 c
	echo "tree $(git rev-parse "$b^{tree}")"
	for c in $(git rev-list --reverse "develop..$b"); do
		printf '%s %s|%s|%s|%s\n' \
			"$(git show "$c" | git patch-id --stable | cut -d' ' -f1)" \
			"$(git log -1 --format='%an <%ae> %ad' "$c")" \
			"$(git log -1 --format=%B "$c" | sha256sum | cut -c1-16)" \
			"$(git notes --ref=campaign show "$c" 2>/dev/null)" \
			"$(git rev-list --count "develop..$c")"
	done
	# each branch holds exactly its parent (the base, for one on a parent
	# that has landed, $LANDED)
	local parent="s$((${b#s} - 1))"
	[ "$parent" != "${LANDED:-}" ] || parent=develop
	[ "$b" = s1 ] || git merge-base --is-ancestor "$parent" "$b"
}

# compare_twins GITCMD...: restacks r with the tool, runs GITCMD in twin
# (a copy made before), and compares every branch
compare_twins() {
	cd "$WORLD"
	rm -rf twin
	cp -a r twin
	(cd twin && git config notes.rewriteRef refs/notes/campaign &&
		git checkout -q s3 && "$@" >/dev/null 2>&1) ||
		fail "git's own way failed: $*"
	cd r
	run --separate-stderr git campaign stack restack --all
	assert_success
	local b
	for b in s1 s2 s3; do
		diff <(branch_facts "$b") <(cd ../twin && branch_facts "$b") ||
			fail "$b differs from git's: $*"
	done
	[ -z "$(git status --porcelain --untracked-files=no)" ]
}

setup_stack() {
	make_stack 3
	note_all
}

@test "twins agree: the bottom amended" {
	setup_stack
	local old
	old=$(git rev-parse s1)
	git checkout -q s1
	sed -i 1s/.*/amended/ a
	git commit -qa --amend --no-edit
	git checkout -q s3
	compare_twins git rebase -q --update-refs --onto s1 "$old" s3
}

@test "twins agree: the middle amended" {
	setup_stack
	local old
	old=$(git rev-parse s2)
	git checkout -q s2
	sed -i 1s/.*/amended/ b
	git commit -qa --amend --no-edit
	git checkout -q s3
	compare_twins git rebase -q --update-refs --onto s2 "$old" s3
}

@test "twins agree: the bottom rebased by hand onto an advanced base" {
	setup_stack
	local old
	old=$(git rev-parse s1)
	git checkout -q develop
	commit e up 'upstream: change'
	git checkout -q s1
	git rebase -q develop
	git checkout -q s3
	compare_twins git rebase -q --update-refs --onto s1 "$old" s3
}

@test "twins agree: a base that grew by a merge commit" {
	setup_stack
	git checkout -q -b pr develop
	commit e pr 'upstream: PR'
	git checkout -q develop
	git merge -q --no-ff -m 'Merge pull request #1' pr
	git checkout -q s3
	compare_twins git rebase -q --update-refs develop
}

@test "twins agree: a revert pair upstream" {
	setup_stack
	git checkout -q develop
	commit e flag 'upstream: try a flag'
	git revert --no-edit HEAD >/dev/null
	git checkout -q s3
	compare_twins git rebase -q --update-refs develop
}

@test "twins agree: a rename in the amended bottom, edited above it" {
	setup_stack
	local old
	old=$(git rev-parse s1)
	git checkout -q s1
	git mv b b-renamed
	git commit -q --amend --no-edit
	git checkout -q s3
	compare_twins git rebase -q --update-refs --onto s1 "$old" s3
	[ -e b-renamed ] && [ ! -e b ]
	grep -q s2 b-renamed
}

@test "twins agree: the bottom rebased by hand onto a base that tried a change and took it back" {
	setup_stack
	local old
	old=$(git rev-parse s1)
	git checkout -q develop
	commit e flag 'upstream: try a flag'
	git revert --no-edit HEAD >/dev/null
	git checkout -q s1
	git rebase -q develop
	git checkout -q s3
	compare_twins git rebase -q --update-refs --onto s1 "$old" s3
	[ "$(git rev-list --count develop..s1)" -eq 2 ]
}

@test "twins agree: the bottom squash-merged into the base" {
	setup_stack
	git checkout -q develop
	git merge -q --squash s1 >/dev/null
	git commit -qm 's1 (#1)'
	git checkout -q s3
	LANDED=s1
	compare_twins git rebase -q --update-refs --onto develop s1 s3
	assert_line --partial 's1 has landed in develop'
	[ "$(git config branch.s2.campaignParent)" = develop ]
	[ "$(git rev-list --count develop..s2)" -eq 1 ]
}

@test "twins agree: the bottom rebase-merged into an advanced base" {
	setup_stack
	git checkout -q develop
	commit e up 'upstream: change'
	git cherry-pick s1~1 s1 >/dev/null
	git checkout -q s3
	LANDED=s1
	compare_twins git rebase -q --update-refs --onto develop s1 s3
	assert_line --partial 's1 has landed in develop'
	[ "$(git rev-list --count develop..s3)" -eq 2 ]
}

@test "twins agree: the bottom merged into the base by a merge commit" {
	setup_stack
	git checkout -q develop
	commit e up 'upstream: change'
	git merge -q --no-ff -m 'Merge pull request #1' s1
	git checkout -q s3
	LANDED=s1
	compare_twins git rebase -q --update-refs --onto develop s1 s3
	assert_line --partial 's1 has landed in develop'
}
