#!/usr/bin/env bats
# Shell completion: `make install` puts the bash file where git's own
# completion loads it, and git's completion functions, driven with
# COMP_WORDS, offer the campaign's commands, subcommands, options,
# branches, stashes, metrics, formats and settings.

load helper

setup() {
	setup_world
	[ -r /usr/share/bash-completion/completions/git ] ||
		skip "git's bash completion is not installed (bash-completion, git)"
	make -s -C "$SRC_DIR" BUILD="$BIN_DIR" DESTDIR="$WORLD/dest" \
		PREFIX=/usr install >/dev/null
	make_repo r develop
	cd r
	git campaign init kfusion >/dev/null
	git branch topic
	echo x >f
	git campaign stash save wip -u >/dev/null
	git campaign measure add kernel_ms 12 --unit ms >/dev/null
}

# complete LINE: the candidates bash offers for LINE, one a line, through
# git's completion, which must find _git_campaign on its own (through
# bash-completion's loader, in the installed share folder; a stand-in
# that looks where it looks when bash-completion itself is missing)
complete_line() {
	XDG_DATA_DIRS="$WORLD/dest/usr/share" bash -c '
		if [ -r /usr/share/bash-completion/bash_completion ]; then
			. /usr/share/bash-completion/bash_completion
		else
			# bash-completion'"'"'s loader, as it looks: NAME in
			# each XDG data folder'"'"'s bash-completion/completions
			_completion_loader() {
				local d
				for d in ${XDG_DATA_DIRS//:/ }; do
					[ -r "$d/bash-completion/completions/$1" ] &&
						. "$d/bash-completion/completions/$1" && return
				done
			}
		fi
		. /usr/share/bash-completion/completions/git
		COMP_LINE="$1"; COMP_POINT=${#1}
		read -ra COMP_WORDS <<<"$1"
		[ "${1: -1}" = " " ] && COMP_WORDS+=("")
		COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
		COMPREPLY=()
		__git_wrap__git_main
		printf "%s\n" "${COMPREPLY[@]}" | sed "s/ *$//"' _ "$1"
}

@test "git campaign <TAB> offers the commands, from the installed completion" {
	run complete_line "git campaign "
	assert_success
	assert_line status
	assert_line stack
	assert_line hooks
	# every command the program lists, and nothing else
	[ "$(echo "$output" | sort)" = "$(git campaign -h | sed -n '/^commands:/,/^$/s/^   \([a-z][a-z-]*\) .*/\1/p' | sort)" ]
	run complete_line "git campaign st"
	assert_output "$(printf 'stack\nstash\nstatus')"
}

@test "subcommands and each subcommand's options are offered" {
	run complete_line "git campaign stack "
	assert_line restack
	assert_line show
	refute_line status
	run complete_line "git campaign stack restack --"
	assert_line --all
	assert_line --no-checkout
	refute_line --json
	run complete_line "git campaign hooks install --"
	assert_line --chain-pre-commit
	assert_line --quiet
}

@test "branch, stash, metric, format and setting names are offered where they go" {
	run complete_line "git campaign stack restack "
	assert_line topic
	assert_line develop
	run complete_line "git campaign stash apply "
	assert_output wip
	run complete_line "git campaign measure log "
	assert_output kernel_ms
	run complete_line "git campaign measure import out.json --format "
	assert_line hyperfine
	assert_line junit
	run complete_line "git campaign measure import out.json --format=hy"
	assert_output hyperfine
	run complete_line "git campaign config campaign.hooks.one"
	assert_output campaign.hooks.oneLine
}

@test "make install puts the zsh completion where zsh's git completion looks" {
	assert_file_exists "$WORLD/dest/usr/share/zsh/site-functions/_git-campaign"
	grep -q '^_git-campaign ()' "$WORLD/dest/usr/share/zsh/site-functions/_git-campaign"
	if command -v zsh >/dev/null; then
		run zsh -n "$WORLD/dest/usr/share/zsh/site-functions/_git-campaign"
		assert_success
	fi
}

@test "--format offers text, json and csv where it exports, the import formats where it imports" {
	run complete_line "git campaign measure log kernel_ms --format "
	assert_output "$(printf 'text\njson\ncsv')"
	run complete_line "git campaign tests baseline --format=c"
	assert_output csv
	run complete_line "git campaign measure import out.json --format=ju"
	assert_output junit
}
