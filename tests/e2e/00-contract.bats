#!/usr/bin/env bats
# Contracts every command keeps: -h on stdout with exit 129 (also outside a
# repository), a man page whose SYNOPSIS matches -h, one-line errors.

load helper

setup() {
	setup_world
	mkdir -p "$WORLD/norepo"
	export GIT_CEILING_DIRECTORIES="$WORLD"
}

# the commands `git campaign -h` lists
commands() {
	git campaign -h | sed -n '/^commands:/,/^$/p' | awk 'NR > 1 && NF { print $1 }'
}

@test "-h prints the usage on stdout and exits 129" {
	run --separate-stderr git campaign -h
	assert_failure 129
	assert_output --partial 'usage: git campaign'
	assert_output --partial 'commands:'
	[ -z "$stderr" ]
}

@test "no arguments prints the usage on stderr and exits 129" {
	run --separate-stderr git-campaign
	assert_failure 129
	[ -z "$output" ]
	[[ "$stderr" == *'usage: git campaign'* ]]
}

@test "the command list is not empty" {
	run commands
	assert_success
	assert_line init
	assert_line status
	assert_line config
}

@test "every command answers -h on stdout with 129, also outside a repository" {
	cd "$WORLD/norepo"
	for c in $(commands); do
		run --separate-stderr git campaign "$c" -h
		[ "$status" -eq 129 ] || fail "$c -h exited $status"
		[[ "$output" == "usage: git campaign $c"* ]] || fail "$c -h: $output"
		[ -z "$stderr" ] || fail "$c -h wrote to stderr: $stderr"
	done
}

@test "every subcommand's -h prints only its own synopsis on stdout, exit 129" {
	cd "$WORLD/norepo"
	for c in $(commands); do
		verbs=$(git campaign "$c" -h |
			sed -n 's/^\(usage:\|   or:\) git campaign [^ ]* \([a-z][a-z-]*\).*/\2/p' |
			sort -u)
		for v in $verbs; do
			run --separate-stderr git campaign "$c" "$v" -h
			[ "$status" -eq 129 ] || fail "$c $v -h exited $status"
			[ -z "$stderr" ] || fail "$c $v -h wrote to stderr: $stderr"
			[[ "$output" == "usage: git campaign $c $v"* ]] ||
				fail "$c $v -h: $output"
			other=$(sed -n 's/^\(usage:\|   or:\) //p' <<<"$output" |
				grep -v "^git campaign $c $v\( \|$\)" || true)
			[ -z "$other" ] || fail "$c $v -h lists: $other"
		done
	done
}

@test "every listed command has a man page whose SYNOPSIS holds its usage" {
	for c in $(commands); do
		page="$SRC_DIR/man/git-campaign-$c.1.scd"
		assert_file_exists "$page"
		assert_file_exists "$MAN_DIR/git-campaign-$c.1"
		synopsis=$(sed -n '/^# SYNOPSIS/,/^# /p' "$page")
		git campaign "$c" -h | sed -n 's/^\(usage:\|   or:\) //p' |
			while IFS= read -r line; do
				grep -qF -- "$line" <<<"$synopsis" ||
					fail "git-campaign-$c.1 SYNOPSIS lacks: $line"
			done
	done
	assert_file_exists "$MAN_DIR/git-campaign.1"
	assert_file_exists "$MAN_DIR/git-campaign-config.5"
}

@test "every man page renders without a groff warning" {
	for page in "$MAN_DIR"/*.[15]; do
		run groff -man -ww -z "$page"
		assert_success
		[ -z "$output" ] || fail "$page: $output"
	done
}

@test "git-campaign-config(5) documents every campaign setting" {
	make_repo r
	cd r
	keys=$(git campaign config --json | sed -n 's/.*"key":[[:space:]]*"\([^"]*\)".*/\1/p')
	[ -n "$keys" ]
	for k in $keys; do
		grep -qF -- "$k" "$SRC_DIR/man/git-campaign-config.5.scd" ||
			fail "git-campaign-config.5 lacks $k"
	done
}

@test "--version names VERSION, the commit it was built from and the schema" {
	run git campaign --version
	assert_success
	[[ ${lines[0]} == "git-campaign version $(cat "$SRC_DIR/VERSION")"* ]]
	# the schema a database it creates has
	make_repo r develop
	git -C r campaign init x >/dev/null
	[ "${lines[1]}" = "database schema $(sqlite3 r/.git/campaign/campaign.db 'PRAGMA user_version')" ]
	# built from a checkout past the release's tag: the commit, as git
	# describe names it (scripts/version.sh)
	v=$(cat "$SRC_DIR/VERSION")
	if git -C "$SRC_DIR" rev-parse --git-dir >/dev/null 2>&1 &&
		[ "$(git -C "$SRC_DIR" describe --tags --match "v$v" 2>/dev/null)" != "v$v" ]; then
		[[ ${lines[0]} =~ ^git-campaign\ version\ $v\.([0-9]+\.)?g[0-9a-f]{7,} ]] ||
			fail "no commit in '${lines[0]}'"
	fi
}

@test "an unknown command is one line naming the closest commands, exit 129" {
	run --separate-stderr git campaign stauts
	assert_failure 129
	[ -z "$output" ]
	[ "$stderr" = "error: 'stauts' is not a git campaign command; did you mean 'status'?" ]
	run --separate-stderr git campaign frobnicate
	assert_failure 129
	[ "$(printf '%s\n' "$stderr" | wc -l)" -eq 1 ]
	[[ "$stderr" == *"see 'git campaign -h'"* ]]
}

@test "an unknown option is an error with the usage on stderr, exit 129" {
	run --separate-stderr git campaign status --bogus
	assert_failure 129
	[ -z "$output" ]
	[[ "$stderr" == "error: unknown option '--bogus'"* ]]
	[[ "$stderr" == *'usage: git campaign status'* ]]
}

@test "a command that needs a repository says so in one line, exit 128" {
	cd "$WORLD/norepo"
	for c in init status config; do
		run --separate-stderr git campaign "$c"
		[ "$status" -eq 128 ] || fail "$c exited $status"
		[[ "$stderr" == 'fatal: not a git repository'* ]] || fail "$c: $stderr"
		[ "$(grep -c '^fatal:' <<<"$stderr")" -eq 1 ]
	done
}

@test "a write error on stdout is reported, exit 128" {
	make_repo r
	cd r
	git campaign init >/dev/null
	run --separate-stderr sh -c 'git campaign status >/dev/full'
	assert_failure 128
	[[ "$stderr" == 'fatal: cannot write to standard output'* ]]
}

@test "make install puts the binary, pages and share folder in DESTDIR" {
	run make -C "$SRC_DIR" --no-print-directory BUILD="$BIN_DIR" \
		DESTDIR="$WORLD/inst" PREFIX=/usr install
	assert_success
	assert_file_executable "$WORLD/inst/usr/bin/git-campaign"
	assert_file_exists "$WORLD/inst/usr/share/man/man1/git-campaign.1"
	assert_file_exists "$WORLD/inst/usr/share/man/man1/git-campaign-init.1"
	assert_file_exists "$WORLD/inst/usr/share/man/man5/git-campaign-config.5"
	assert_dir_exists "$WORLD/inst/usr/share/git-campaign"
}

@test "git campaign --help and CMD --help open the installed pages" {
	command -v man >/dev/null || skip "man is not installed"
	make -C "$SRC_DIR" --no-print-directory BUILD="$BIN_DIR" \
		DESTDIR="$WORLD/inst" PREFIX=/usr install >/dev/null
	export PATH="$WORLD/inst/usr/bin:$PATH" MANPATH="$WORLD/inst/usr/share/man"
	export MANPAGER=cat PAGER=cat MANWIDTH=80
	run git campaign --help
	assert_success
	assert_output --partial 'git-campaign - '
	run git campaign status --help
	assert_success
	assert_output --partial 'git-campaign-status - '
	run git-campaign help init
	assert_success
	assert_output --partial 'git-campaign-init - '
}

@test "--help without an installed page falls back to the usage, exit 129" {
	command -v man >/dev/null || skip "man is not installed"
	mkdir -p "$WORLD/noman"
	export MANPATH="$WORLD/noman" MANPAGER=cat PAGER=cat
	run --separate-stderr git-campaign status --help
	assert_failure 129
	assert_output --partial 'usage: git campaign status'
	run --separate-stderr git-campaign help init
	assert_failure 129
	assert_output --partial 'usage: git campaign'
}

@test "GIT_CAMPAIGN_TRACE=PATH appends trace lines to that file" {
	make_repo r
	cd r
	GIT_CAMPAIGN_TRACE="$WORLD/trace.log" git campaign init >/dev/null
	run cat "$WORLD/trace.log"
	assert_output --regexp 'campaign: db: migrating .*campaign.db to version 1'
	run --separate-stderr env GIT_CAMPAIGN_TRACE= git campaign status
	[ -z "$stderr" ]
}
