#!/usr/bin/env bats
# git campaign hooks install/status/uninstall: the effective hooks
# directory, chaining the user's hooks, restoring them byte for byte, and
# the pre-commit framework.

load helper

setup() {
	setup_world
	make_repo r develop
	cd r
	git campaign init kfusion >/dev/null
}

# listing DIR: every file with its mode and checksum, to compare states
listing() {
	(cd "$1" && find . -print0 | sort -z | xargs -0 stat -c '%n %A %s' &&
		find . -type f -print0 | sort -z | xargs -0 sha256sum)
}

user_hook() { # user_hook PATH EXIT: a hook that logs its run and stdin
	cat >"$1" <<-EOF
	#!/bin/sh
	echo "user \$(basename "\$0") \$*" >>"$WORLD/log"
	[ -t 0 ] || cat >>"$WORLD/log"
	exit $2
	EOF
	chmod 750 "$1"
}

@test "install, status and uninstall in .git/hooks, leaving it as it was" {
	before=$(listing .git/hooks)
	run --separate-stderr git campaign hooks install
	assert_clean
	assert_output "installed the hooks in $PWD/.git/hooks"
	# alone, each hook is a script that runs the program with its name
	for h in pre-commit commit-msg pre-push post-rewrite post-commit; do
		[ ! -L ".git/hooks/$h" ]
		grep -qx "h='$BIN_DIR/git-campaign-hook'" ".git/hooks/$h"
		grep -qx "exec \"\$h\" $h \"\$@\"" ".git/hooks/$h"
	done
	run --separate-stderr git campaign hooks status
	assert_clean
	assert_line "directory  $PWD/.git/hooks"
	assert_line "pre-commit   installed"
	assert_line "post-rewrite installed"
	assert_line "runs       $BIN_DIR/git-campaign-hook"
	# twice changes nothing
	sum=$(file_sum .git/hooks/pre-push)
	git campaign hooks install >/dev/null
	[ "$(file_sum .git/hooks/pre-push)" = "$sum" ]
	run --separate-stderr git campaign hooks uninstall
	assert_clean
	[ "$(listing .git/hooks)" = "$before" ]
	run git campaign hooks status
	assert_line "pre-commit   not installed"
}

@test "an existing hook is chained: both run, both must pass, uninstall restores it exactly" {
	user_hook .git/hooks/pre-commit 0
	user_hook .git/hooks/pre-push 0
	before=$(listing .git/hooks)
	git campaign hooks install >/dev/null
	assert_file_exists .git/hooks/pre-commit.campaign-orig
	# chained, it is a script that runs the user's hook first
	grep -q '^# git-campaign hook (installed by' .git/hooks/pre-commit
	grep -q 'pre-commit.campaign-orig' .git/hooks/pre-commit
	! grep -q 'campaign-orig' .git/hooks/commit-msg
	run git campaign hooks status
	assert_line "pre-commit   installed, after the hook that was there"
	# the user's hook runs, then ours refuses the base branch
	git checkout -q develop
	run --separate-stderr git commit -q --allow-empty -m x
	assert_failure 1
	[[ $stderr == *"'develop' is the campaign's base branch"* ]]
	grep -qx 'user pre-commit.campaign-orig ' "$WORLD/log"
	# the user's hook refusing stops the commit too
	git checkout -q -b work
	user_hook .git/hooks/pre-commit.campaign-orig 1
	run git commit -q --allow-empty -m x
	assert_failure 1
	user_hook .git/hooks/pre-commit.campaign-orig 0
	run --separate-stderr git commit -q --allow-empty -m x
	assert_clean
	# pre-push: both hooks read the same standard input
	git init -q --bare ../origin.git
	git remote add origin ../origin.git
	: >"$WORLD/log"
	run --separate-stderr git push -q origin work
	assert_clean
	grep -q "^refs/heads/work $(git rev-parse work) refs/heads/work 0000000000000000000000000000000000000000$" "$WORLD/log"
	git campaign hooks uninstall >/dev/null
	[ "$(listing .git/hooks)" = "$before" ]
}

@test "core.hooksPath is honoured, also from git -c" {
	git config core.hooksPath .githooks
	run --separate-stderr git campaign hooks install
	assert_clean
	assert_output "installed the hooks in $PWD/.githooks"
	assert_file_executable .githooks/pre-commit
	[ ! -e .git/hooks/pre-commit ]
	git checkout -q develop
	run git commit -q --allow-empty -m x
	assert_failure 1
	git campaign hooks uninstall >/dev/null
	git config --unset core.hooksPath
	run --separate-stderr git -c core.hooksPath=other campaign hooks install
	assert_clean
	assert_file_executable other/commit-msg
	run git -c core.hooksPath=other campaign hooks status
	assert_line "directory  $PWD/other (core.hooksPath)"
}

@test "a core.hooksPath outside the repository needs --force" {
	git config core.hooksPath "$WORLD/shared-hooks"
	run --separate-stderr git campaign hooks install
	assert_failure 1
	[ "${stderr_lines[0]}" = "error: core.hooksPath '$WORLD/shared-hooks' is outside this repository: other repositories use those hooks too" ]
	[ ! -e "$WORLD/shared-hooks" ]
	run --separate-stderr git campaign hooks install --force
	assert_clean
	assert_file_executable "$WORLD/shared-hooks/pre-commit"
}

@test "a foreign hook beside a leftover .campaign-orig is refused, nothing changed" {
	user_hook .git/hooks/commit-msg 0
	user_hook .git/hooks/commit-msg.campaign-orig 0
	before=$(listing .git/hooks)
	run --separate-stderr git campaign hooks install
	assert_fatal "commit-msg.campaign-orig' is there with a hook that is not ours"
	[ "$(listing .git/hooks)" = "$before" ]
}

@test "the pre-commit framework: a snippet instead of its hooks, or --chain-pre-commit" {
	cat >.pre-commit-config.yaml <<-'EOF'
	default_stages: [push]
	repos:
	-   repo: https://github.com/pre-commit/pre-commit-hooks
	    rev: v4.5.0
	    hooks:
	    -   id: trailing-whitespace
	EOF
	user_hook .git/hooks/pre-push 0
	before=$(listing .git/hooks)
	run --separate-stderr git campaign hooks install
	assert_success
	[ "$(listing .git/hooks)" = "$before" ]
	assert_line '-   repo: local'
	assert_line "        entry: git-campaign-hook pre-commit"
	assert_line '        stages: [commit]'
	assert_line '        stages: [push]'
	assert_line '        stages: [commit-msg]'
	[[ $stderr == *"nothing installed"* ]]
	run git campaign hooks status
	assert_line "framework  $PWD/.pre-commit-config.yaml (the pre-commit framework)"
	run --separate-stderr git campaign hooks install --chain-pre-commit
	assert_clean
	assert_file_exists .git/hooks/pre-push.campaign-orig
	git campaign hooks uninstall >/dev/null
	[ "$(listing .git/hooks)" = "$before" ]
}

@test "a pre-commit framework config that cannot be read is said so" {
	printf 'this: is\n  not: [a pre-commit config\n' >.pre-commit-config.yaml
	run --separate-stderr git campaign hooks install
	assert_fatal "cannot read '$PWD/.pre-commit-config.yaml' as a pre-commit framework config: no top-level 'repos:'" hint
	[ ! -e .git/hooks/pre-commit ]
}

@test "the hooks reached through the pre-commit framework's variables" {
	git branch -q a "$(git commit-tree -p develop -m a2 'develop^{tree}')"
	git branch -q b develop
	git config branch.b.campaignParent a
	git config branch.b.campaignParentTip 0000000000000000000000000000000000000001
	PRE_COMMIT_LOCAL_BRANCH=refs/heads/b PRE_COMMIT_REMOTE_BRANCH=refs/heads/b \
		PRE_COMMIT_TO_REF=$(git rev-parse b) \
		run --separate-stderr git-campaign-hook pre-push origin url </dev/null
	assert_failure 1
	[[ ${stderr_lines[0]} == "error: 'b' needs a restack: its parent 'a' moved since 'b' was based on it" ]]
}

@test "hooks usage errors" {
	run --separate-stderr git campaign hooks
	assert_failure 129
	run --separate-stderr git campaign hooks status --force
	assert_failure 129
	run --separate-stderr git campaign hooks frobnicate
	assert_failure 129
	[[ $stderr == *"unknown subcommand 'frobnicate'"* ]]
}

@test "make install puts the hook program and scripts in place" {
	run make -s -C "$SRC_DIR" BUILD="$BIN_DIR" DESTDIR="$WORLD/dest" PREFIX=/usr install
	assert_success
	assert_file_executable "$WORLD/dest/usr/bin/git-campaign-hook"
	assert_file_executable "$WORLD/dest/usr/share/git-campaign/hooks/pre-commit"
	assert_file_exists "$WORLD/dest/usr/share/man/man1/git-campaign-hooks.1"
}
