#!/usr/bin/env bats
# The hooks beside the real pre-commit framework (Debian's pre-commit):
# the printed `repo: local` block, `pre-commit install` before and after
# `hooks install --chain-pre-commit`, what `hooks status` says, and hooks
# whose program is gone. Every config is `repo: local`: no network.

load helper

setup() {
	setup_world
	command -v pre-commit >/dev/null ||
		skip "Debian's pre-commit is not installed (scripts/deps.sh)"
	export PRE_COMMIT_HOME="$WORLD/pre-commit-home"
	git init -q r
	cd r
	# the framework's own hook: refuses a commit while a file BAD exists,
	# and logs each run
	cat >.pre-commit-config.yaml <<-EOF
	repos:
	-   repo: local
	    hooks:
	    -   id: no-bad
	        name: no-bad
	        entry: sh -c 'echo ran >>"$WORLD/fw.log"; test ! -e BAD'
	        language: system
	        pass_filenames: false
	        always_run: true
	        stages: [commit]
	EOF
	git add .pre-commit-config.yaml
	git commit -q -m 'framework config'
	git branch develop
	git switch -q -c work
	git campaign init kfusion >/dev/null
}

# both_refuse: the framework's hook and ours both run, and each refuses
# what it should; a good commit passes
both_refuse() {
	: >"$WORLD/fw.log"
	run --separate-stderr git commit -q --allow-empty -m 'one line'
	[ "$status" -eq 0 ] || fail "a good commit failed: $stderr"
	grep -qx ran "$WORLD/fw.log" || fail "the framework's hook did not run"
	touch BAD
	run --separate-stderr git commit -q --allow-empty -m 'with BAD'
	rm BAD
	[ "$status" -eq 1 ] || fail "the framework's hook did not refuse"
	local base
	base=$(git rev-parse develop)
	git switch -q develop
	run --separate-stderr git commit -q --allow-empty -m 'on the base'
	git switch -q work
	[ "$status" -eq 1 ] || fail "our pre-commit did not refuse: $stderr"
	[[ $stderr == *"'develop' is the campaign's base branch"* ]]
	[ "$(git rev-parse develop)" = "$base" ]
}

# listing DIR: every file with its mode and checksum, to compare states
listing() {
	(cd "$1" && find . -print0 | sort -z | xargs -0 stat -c '%n %A %s' &&
		find . -type f -print0 | sort -z | xargs -0 sha256sum)
}

@test "the printed repo: local block validates under the installed pre-commit and refuses what it should" {
	run --separate-stderr git campaign hooks install
	assert_success
	block=$output
	printf '%s\n' "$block" | grep -v '^#' >>.pre-commit-config.yaml
	run pre-commit validate-config .pre-commit-config.yaml
	assert_success
	# the block names the program on PATH, not this build's path
	run printf '%s\n' "$block"
	refute_output --partial "entry: /"
	assert_line '        entry: git-campaign-hook pre-commit'
	git add .pre-commit-config.yaml
	git commit -q -m 'campaign block'
	git branch -f develop HEAD
	pre-commit install -t pre-commit -t commit-msg >/dev/null
	both_refuse
	run --separate-stderr git commit -q --allow-empty -m "$(printf 'two\n\nlines')"
	assert_failure 1
	[[ $stderr == *"the commit message has more than one line"* ]]
}

@test "hooks status reports the hooks the pre-commit framework runs" {
	git campaign hooks install 2>/dev/null | grep -v '^#' \
		>>.pre-commit-config.yaml
	git add .pre-commit-config.yaml
	git commit -q -m 'campaign block'
	pre-commit install -t pre-commit -t commit-msg >/dev/null
	run --separate-stderr git campaign hooks status
	assert_clean
	assert_line "pre-commit   run by the pre-commit framework (git-campaign-pre-commit in its config)"
	assert_line "commit-msg   run by the pre-commit framework (git-campaign-commit-msg in its config)"
	assert_line "pre-push     not installed (git-campaign-pre-push is in the framework's config: run 'pre-commit install --hook-type pre-push')"
}

@test "--chain-pre-commit, then pre-commit install: both run and refuse, uninstall leaves the framework's" {
	run --separate-stderr git campaign hooks install --chain-pre-commit
	assert_clean
	run pre-commit install -t pre-commit -t commit-msg
	assert_success
	assert_output --partial 'migration mode'
	both_refuse
	run --separate-stderr git campaign hooks status
	assert_line "pre-commit   installed, run by the pre-commit framework's migration mode (as pre-commit.legacy)"
	fw=$(listing .git/hooks | grep -E '\./(pre-commit|commit-msg)$')
	run --separate-stderr git campaign hooks uninstall
	assert_clean
	# every file of ours is gone, the framework's scripts are as they were
	run ls .git/hooks
	refute_output --partial legacy
	refute_output --partial campaign
	[ "$(listing .git/hooks | grep -E '\./(pre-commit|commit-msg)$')" = "$fw" ]
	for h in pre-push post-rewrite post-commit; do
		[ ! -e ".git/hooks/$h" ]
	done
	run --separate-stderr git commit -q --allow-empty -m after
	assert_success
}

@test "pre-commit install, then --chain-pre-commit, then pre-commit install again: both run, uninstall restores the framework's byte for byte" {
	pre-commit install -t pre-commit -t commit-msg >/dev/null
	before=$(listing .git/hooks)
	run --separate-stderr git campaign hooks install --chain-pre-commit
	assert_clean
	both_refuse
	run pre-commit install -t pre-commit -t commit-msg
	assert_success
	both_refuse
	run --separate-stderr git commit -q --allow-empty -m "$(printf 'two\n\nlines')"
	assert_failure 1
	run --separate-stderr git campaign hooks uninstall
	assert_clean
	[ "$(listing .git/hooks)" = "$before" ]
	run --separate-stderr git commit -q --allow-empty -m after
	assert_success
}

@test "a user's hook the framework kept as NAME.legacy is chained and given back" {
	printf '#!/bin/sh\necho user >>"%s/user.log"\n' "$WORLD" >.git/hooks/pre-commit
	chmod 755 .git/hooks/pre-commit
	pre-commit install >/dev/null
	before=$(listing .git/hooks)
	git campaign hooks install --chain-pre-commit >/dev/null
	both_refuse
	grep -q user "$WORLD/user.log"
	git campaign hooks uninstall >/dev/null
	[ "$(listing .git/hooks)" = "$before" ]
}

@test "a hook renamed NAME.legacy still knows which hook it is" {
	ln -s "$BIN_DIR/git-campaign-hook" .git/hooks/pre-commit.legacy
	git switch -q develop
	run --separate-stderr .git/hooks/pre-commit.legacy
	assert_failure 1
	[[ $stderr == "error: 'develop' is the campaign's base branch"* ]]
	ln -s "$BIN_DIR/git-campaign-hook" .git/hooks/commit-msg.campaign-orig
	echo 'one line' >"$WORLD/msg"
	run --separate-stderr .git/hooks/commit-msg.campaign-orig "$WORLD/msg"
	assert_clean
}

@test "a hook whose program is gone refuses with one line naming the fix" {
	rm .pre-commit-config.yaml
	git commit -q -am 'no framework'
	mkdir "$WORLD/bin"
	cp "$BIN_DIR/git-campaign" "$BIN_DIR/git-campaign-hook" "$WORLD/bin/"
	"$WORLD/bin/git-campaign" hooks install >/dev/null
	run --separate-stderr git commit -q --allow-empty -m 'works'
	assert_success
	rm "$WORLD/bin/git-campaign-hook"
	head=$(git rev-parse HEAD)
	run --separate-stderr git commit -q --allow-empty -m 'on the base'
	assert_failure 1
	[ "${#stderr_lines[@]}" -eq 1 ] || fail "stderr: $stderr"
	[ "$stderr" = "fatal: git-campaign's pre-commit hook cannot run: $WORLD/bin/git-campaign-hook is missing or not executable; reinstall git-campaign, or run 'git campaign hooks uninstall'" ]
	[ "$(git rev-parse HEAD)" = "$head" ]
	# not executable is the same
	cp "$BIN_DIR/git-campaign-hook" "$WORLD/bin/" && chmod -x "$WORLD/bin/git-campaign-hook"
	run --separate-stderr git commit -q --allow-empty -m 'on the base'
	assert_failure 1
	run --separate-stderr git campaign hooks status
	assert_line "pre-commit   installed, but its program '$WORLD/bin/git-campaign-hook' is missing: run 'git campaign hooks install' again"
	assert_line "runs       $WORLD/bin/git-campaign-hook"
	# the way out the line names works
	git campaign hooks uninstall >/dev/null
	run ls .git/hooks
	refute_output --regexp '^(pre-commit|commit-msg|pre-push|post-commit|post-rewrite)$'
}
