#!/usr/bin/env bats
# The hooks' rules, with the hooks installed and real `git commit` and
# `git push` to a bare remote: what each refuses and what it lets through.

load helper

setup() {
	setup_world
	git init -q --bare origin.git
	make_repo r develop
	cd r
	git remote add origin ../origin.git
	git campaign init kfusion >/dev/null
	git campaign hooks install >/dev/null
	DB=.git/campaign/campaign.db
}

# seed_pr BRANCH NUMBER [STATE]: the PR cache as the GitHub part fills it
seed_pr() {
	local b=${1//\'/\'\'}
	sqlite3 "$DB" "INSERT INTO pr (branch, number, state, base, url,
		updated_at) VALUES ('$b', $2, '${3:-open}', 'develop',
		'https://github.com/o/r/pull/$2', '2026-11-29T12:00:00Z')"
}

# stack CHILD PARENT: CHILD on PARENT at PARENT's tip
stack() {
	git branch -q "$1" "$2"
	git config "branch.$1.campaignParent" "$2"
	git config "branch.$1.campaignParentTip" "$(git rev-parse "$2")"
}

@test "git-campaign-hook does not load libgit2 or libcurl" {
	run readelf -d "$BIN_DIR/git-campaign-hook"
	assert_success
	assert_output --partial 'libc.so'
	refute_output --partial 'libgit2'
	refute_output --partial 'libcurl'
}

@test "a commit on the base branch is refused and leaves everything as it was" {
	git checkout -q develop
	echo x >f && git add f
	before=$(git rev-parse HEAD)
	run --separate-stderr git commit -q -m 'Add f'
	assert_failure 1
	[ "${stderr_lines[0]}" = "error: 'develop' is the campaign's base branch: no commits directly on it" ]
	[[ $stderr == *"hint: start a branch for this change: 'git switch -c NAME'"* ]]
	[ "$(git rev-parse HEAD)" = "$before" ]
	[ "$(git diff --cached --name-only)" = f ]
	git switch -q -c work
	run --separate-stderr git commit -q -m 'Add f'
	assert_clean
}

@test "a branch with an open PR refuses commits, counting what is unpushed" {
	git checkout -q -b feat
	git commit -q --allow-empty -m one
	git push -q origin feat
	git commit -q --allow-empty -m two
	git commit -q --allow-empty -m three
	seed_pr feat 12
	before=$(git rev-parse HEAD)
	run --separate-stderr git commit -q --allow-empty -m four
	assert_failure 1
	[ "${stderr_lines[0]}" = "error: branch 'feat' has open PR #12 (https://github.com/o/r/pull/12): a commit here goes into that PR" ]
	[[ $stderr == *"hint: 'feat' holds 2 commits not on 'origin/feat' yet"* ]]
	[[ $stderr == *"'git campaign belongs 12'"* ]]
	[[ $stderr == *"CAMPAIGN_PR=12 git commit"* ]]
	[[ $stderr == *"start a new branch stacked on it"* ]]
	[ "$(git rev-parse HEAD)" = "$before" ]
}

@test "draft PRs refuse too; closed and merged ones do not" {
	for s in draft closed merged; do
		git checkout -q -b "b-$s" main
		seed_pr "b-$s" 7 "$s"
		run --separate-stderr git commit -q --allow-empty -m x
		if [ "$s" = draft ]; then
			assert_failure 1
		else
			assert_clean
		fi
	done
}

@test "CAMPAIGN_PR=N lets a commit into PR N, and only N" {
	git checkout -q -b feat
	seed_pr feat 12
	CAMPAIGN_PR=12 run --separate-stderr git commit -q --allow-empty -m x
	assert_clean
	CAMPAIGN_PR=13 run --separate-stderr git commit -q --allow-empty -m y
	assert_failure 1
	[[ $stderr == *"hint: CAMPAIGN_PR=13 does not name it"* ]]
	[ "$(git log -1 --format=%s)" = x ]
}

@test "belongs allows exactly the next commit, also after a refused one" {
	git checkout -q -b feat
	seed_pr feat 12
	run --separate-stderr git campaign belongs 12
	assert_success
	assert_output "the next commit on 'feat' may go into PR #12"
	[ -z "$stderr" ]
	# a commit refused for its message does not use the allowance up
	run git commit -q --allow-empty -m 'x' -m 'a body'
	assert_failure 1
	run --separate-stderr git commit -q --allow-empty -m 'belongs'
	assert_clean
	run --separate-stderr git commit -q --allow-empty -m 'next'
	assert_failure 1
	[ "$(git log -1 --format=%s)" = belongs ]
}

@test "belongs refuses another PR's number, warns without a cached PR" {
	git checkout -q -b feat
	seed_pr feat 12
	run --separate-stderr git campaign belongs 13
	assert_failure 1
	[ "$stderr" = "error: branch 'feat' has open PR #12, not #13" ]
	git checkout -q -b other
	run --separate-stderr git campaign belongs '#5'
	assert_success
	[ "$stderr" = "warning: the PR cache holds no open PR #5 for 'other'; allowing it anyway" ]
	run --separate-stderr git campaign belongs 0
	assert_failure 129
	git checkout -q --detach
	run --separate-stderr git campaign belongs 5
	assert_fatal 'HEAD is detached'
}

@test "a branch name with odd characters is judged and quoted as it is" {
	b="feat/ü'\"x"
	git checkout -q -b "$b"
	seed_pr "$b" 9
	run --separate-stderr git commit -q --allow-empty -m x
	assert_failure 1
	[ "${stderr_lines[0]}" = "error: branch '$b' has open PR #9 (https://github.com/o/r/pull/9): a commit here goes into that PR" ]
}

@test "a commit message with a body is refused, quoting the line" {
	git checkout -q -b work
	run --separate-stderr git commit -q --allow-empty -m 'Cut the upload' -m 'Because it is slow.'
	assert_failure 1
	[ "${stderr_lines[0]}" = "error: the commit message has more than one line (line 3: 'Because it is slow.')" ]
	[ "$(git rev-list --count HEAD)" = 1 ]
}

@test "AI attribution is refused in any line" {
	git checkout -q -b work
	git config campaign.hooks.oneLine false
	run --separate-stderr git commit -q --allow-empty -m 'Cut it' \
		-m 'Co-authored-by: Claude <noreply@anthropic.com>'
	assert_failure 1
	[ "${stderr_lines[0]}" = "error: the commit message credits an AI tool or a bot (line 3: 'Co-authored-by: Claude <noreply@anthropic.com>')" ]
	run --separate-stderr git commit -q --allow-empty -m 'Cut it' \
		-m '🤖 Generated with [Claude Code](https://claude.com/claude-code)'
	assert_failure 1
	run --separate-stderr git commit -q --allow-empty -m 'Cut it' \
		-m 'Co-authored-by: Ada <ada@example.com>'
	assert_clean
}

@test "messages are judged after git's cleanup: editor comments, -m '#1'" {
	git checkout -q -b work
	cat >"$WORLD/ed" <<-'EOF'
	#!/bin/sh
	{ printf 'Subject from the editor\n\n'; cat "$1"; printf '\n\n\n'; } >"$1.new"
	mv "$1.new" "$1"
	EOF
	chmod +x "$WORLD/ed"
	GIT_EDITOR="$WORLD/ed" run --separate-stderr git commit -q --allow-empty
	assert_clean
	[ "$(git log -1 --format=%B)" = 'Subject from the editor' ]
	run --separate-stderr git commit -q --allow-empty -m '#12 fix the probe'
	assert_clean
}

@test "fixup!, squash! and amend! commits work as git users expect" {
	git checkout -q -b work
	git commit -q --allow-empty -m 'Cut the upload'
	run --separate-stderr git commit -q --allow-empty --fixup HEAD
	assert_clean
	run --separate-stderr git commit -q --allow-empty --squash HEAD~1 -m 'more detail'
	assert_clean
	GIT_EDITOR=true run --separate-stderr git commit -q --allow-empty --fixup amend:HEAD~2
	assert_clean
	[ "$(git log -1 --format=%B)" = "amend! Cut the upload

Cut the upload" ]
	run --separate-stderr git commit -q --allow-empty -m 'amend! Cut the upload' -m 'New subject' -m 'with a body'
	assert_failure 1
	[[ ${stderr_lines[0]} == *"'with a body'"* ]]
}

@test "a merge commit keeps git's message" {
	git checkout -q -b a
	echo a >f && git add f && git commit -q -m 'a'
	git checkout -q -b b main
	echo b >f && git add f && git commit -q -m 'b'
	run git merge -q a
	assert_failure
	echo ab >f && git add f
	# git's message, with its commented conflict list, through the editor
	GIT_EDITOR=true run --separate-stderr git commit -q
	assert_clean
	[ "$(git rev-list --count --merges HEAD)" = 1 ]
}

@test "campaign.hooks.denyPattern refuses, the switches turn checks off, also with git -c" {
	git checkout -q -b work
	git config --add campaign.hooks.denyPattern '^wip'
	run --separate-stderr git commit -q --allow-empty -m 'WIP try'
	assert_failure 1
	[ "${stderr_lines[0]}" = "error: the commit message matches campaign.hooks.denyPattern '^wip' (line 1: 'WIP try')" ]
	run --separate-stderr git -c campaign.hooks.enabled=false commit -q --allow-empty -m 'WIP try' -m body
	assert_clean
	git checkout -q develop
	run --separate-stderr git -c campaign.hooks.base=false commit -q --allow-empty -m 'on base'
	assert_clean
	git config campaign.hooks.base off
	run --separate-stderr git commit -q --allow-empty -m 'on base again'
	assert_clean
}

@test "a message that is not UTF-8 is refused; a missing file is the tool failing" {
	git checkout -q -b work
	printf 'caf\351\n' >"$WORLD/msg"
	run --separate-stderr git commit -q --allow-empty -F "$WORLD/msg"
	assert_failure 1
	[ "${stderr_lines[0]}" = "error: the commit message is not valid UTF-8 (line 1)" ]
	git config i18n.commitEncoding ISO-8859-1
	run --separate-stderr git commit -q --allow-empty -F "$WORLD/msg"
	assert_clean
	run --separate-stderr git campaign hook commit-msg "$WORLD/none"
	assert_failure 128
	[[ ${stderr_lines[0]} == "fatal: git-campaign's commit-msg hook failed: cannot read the message file '$WORLD/none': No such file or directory" ]]
	[[ ${stderr_lines[1]} == *"this is the tool failing, not a campaign rule; 'git commit --no-verify' skips the hook" ]]
}

@test "a corrupt database blocks only with a clear message, and --no-verify passes" {
	git checkout -q -b work
	printf 'not a database at all, just some bytes %.0s' {1..200} >"$DB"
	rm -f "$DB-wal" "$DB-shm"
	sum=$(file_sum "$DB")
	run --separate-stderr git commit -q --allow-empty -m x
	assert_failure 1
	[[ ${stderr_lines[0]} == "fatal: git-campaign's pre-commit hook failed: cannot read the PR cache in '"*"': file is not a database" ]]
	[[ $stderr == *"'git commit --no-verify' skips the hook"* ]]
	run --separate-stderr git commit -q --no-verify --allow-empty -m x
	assert_clean
	[ "$(file_sum "$DB")" = "$sum" ]
}

@test "outside a campaign the hooks pass and say nothing" {
	cd "$WORLD"
	make_repo plain develop
	cd plain
	git campaign hooks install >/dev/null
	git checkout -q develop
	run --separate-stderr git commit -q --allow-empty -m 'x' -m 'a body'
	assert_clean
	run --separate-stderr git campaign hook pre-push origin url </dev/null
	assert_clean
}

@test "pushing to the base branch is refused; deleting it too" {
	git push -q --no-verify origin develop
	git checkout -q -b work
	git commit -q --allow-empty -m w
	run --separate-stderr git push -q origin work:develop
	assert_failure
	[[ $stderr == *"error: 'develop' is the campaign's base branch: pushing to it is refused"* ]]
	[ "$(git --git-dir=../origin.git rev-parse develop)" = "$(git rev-parse main)" ]
	run --separate-stderr git push -q origin :develop
	assert_failure
	[[ $stderr == *"deleting it is refused"* ]]
	run --separate-stderr git push -q origin work
	assert_clean
}

@test "a stacked branch whose parent moved is refused at push, then let through" {
	git checkout -q -b a develop
	git commit -q --allow-empty -m a1
	stack b a
	git checkout -q b
	git commit -q --allow-empty -m b1
	run --separate-stderr git push -q origin b
	assert_clean
	git checkout -q a
	# post-commit names the children that now need a restack
	run --separate-stderr git commit -q --allow-empty -m a2
	assert_success
	[[ $stderr == *"hint: 'b' is stacked on 'a', which moved: restack it"* ]]
	git checkout -q b
	git commit -q --allow-empty -m b2
	run --separate-stderr git push -q origin b
	assert_failure
	[[ $stderr == *"error: 'b' needs a restack: its parent 'a' moved since 'b' was based on it"* ]]
	[ "$(git --git-dir=../origin.git rev-parse b)" = "$(git rev-parse b~1)" ]
	# what a restack records
	git rebase -q a
	git config branch.b.campaignParentTip "$(git rev-parse a)"
	run --separate-stderr git push -q -f origin b
	assert_clean
}

# b stacked on a with `stack new`, both with a commit of their own
stack_new_ab() {
	git checkout -q develop
	git campaign stack new a >/dev/null
	git commit -q --allow-empty -m a1
	git campaign stack new b >/dev/null
	git commit -q --allow-empty -m b1
}

# restack_answers BRANCH: whether status --json and stack show --json say
# BRANCH needs a restack, as "STATUS SHOW"
restack_answers() {
	local st show
	st=$(git campaign status --json | python3 -c 'import json,sys; print([s["needs_restack"] for s in json.load(sys.stdin)["stack"] if s["branch"] == sys.argv[1]][0])' "$1")
	show=$(git campaign stack show --json | python3 -c 'import json,sys; print([s["needs_restack"] for s in json.load(sys.stdin)["branches"] if s["branch"] == sys.argv[1]][0])' "$1")
	echo "$st $show"
}

@test "an upper-case campaignParentTip is the same commit: status, stack show and pre-push all let it through" {
	stack_new_ab
	git config branch.b.campaignParentTip "$(git config branch.b.campaignParentTip | tr a-f A-F)"
	[ "$(git config branch.b.campaignParentTip)" = "$(git rev-parse a | tr a-f A-F)" ]
	run --separate-stderr git campaign status --short
	assert_success
	refute_output --partial restack
	[ "$(restack_answers b)" = "False False" ]
	run --separate-stderr git push -q origin b
	assert_clean
	[ "$(git --git-dir=../origin.git rev-parse b)" = "$(git rev-parse b)" ]
}

@test "a parent that really moved needs a restack for status, stack show and pre-push alike" {
	stack_new_ab
	git checkout -q a
	git commit -q --allow-empty -m a2
	git checkout -q b
	git config branch.b.campaignParentTip "$(git config branch.b.campaignParentTip | tr a-f A-F)"
	run --separate-stderr git campaign status --short
	assert_success
	assert_output --partial ' restack:1'
	[ "$(restack_answers b)" = "True True" ]
	run --separate-stderr git push -q origin b
	assert_failure 1
	[[ $stderr == *"error: 'b' needs a restack: its parent 'a' moved since 'b' was based on it"* ]]
	run git --git-dir=../origin.git rev-parse --verify -q b
	assert_failure
}

@test "post-rewrite names the children of an amended or rebased parent" {
	git checkout -q -b a develop
	git commit -q --allow-empty -m a1
	stack b a
	stack c b
	run --separate-stderr git commit -q --amend --allow-empty -m 'a1 amended'
	assert_success
	[[ $stderr == *"hint: 'b' is stacked on 'a', which moved"* ]]
	[[ $stderr != *"'c' is stacked"* ]]
	git checkout -q b
	run --separate-stderr git rebase -q a
	assert_success
	# b now holds a's tip: only c, on the old b, needs a restack
	[ "$(git campaign status --json | python3 -c 'import json,sys; print([s["branch"] for s in json.load(sys.stdin)["stack"] if s["needs_restack"]])')" = "['c']" ]
	[[ $stderr == *"'c' is stacked on 'b', which moved"* ]]
}

@test "the hooks work in a linked worktree" {
	git worktree add -q ../wt -b feat
	seed_pr feat 3
	cd ../wt
	run --separate-stderr git commit -q --allow-empty -m x
	assert_failure 1
	[[ ${stderr_lines[0]} == "error: branch 'feat' has open PR #3"* ]]
	run --separate-stderr git campaign belongs 3
	assert_success
	run --separate-stderr git commit -q --allow-empty -m x
	assert_clean
}

@test "git campaign hook NAME runs the same checks; an unknown hook is a usage error" {
	git checkout -q develop
	run --separate-stderr git campaign hook pre-commit
	assert_failure 1
	[ "${stderr_lines[0]}" = "error: 'develop' is the campaign's base branch: no commits directly on it" ]
	run --separate-stderr git-campaign-hook pre-commit
	assert_failure 1
	[ "${stderr_lines[0]}" = "error: 'develop' is the campaign's base branch: no commits directly on it" ]
	run --separate-stderr git campaign hook pre-rebase
	assert_failure 129
	run --separate-stderr git-campaign-hook -h
	assert_failure 129
	assert_output --partial 'usage: git campaign hook NAME'
}
