# Shared set-up for the end-to-end tests: each test gets its own world in
# a temporary folder, with HOME inside it, no system git config, fixed
# identities, dates, time zone and locale, and the built binary first on
# PATH so that `git campaign` runs it.
bats_require_minimum_version 1.5.0
load '/usr/lib/bats/bats-support/load'
load '/usr/lib/bats/bats-assert/load'
load '/usr/lib/bats/bats-file/load'

: "${BIN_DIR:?BIN_DIR must name the build folder (make check sets it)}"
: "${SRC_DIR:=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)}"

setup_world() {
	WORLD="$BATS_TEST_TMPDIR/world"
	mkdir -p "$WORLD/home"
	export HOME="$WORLD/home"
	export XDG_CONFIG_HOME="$HOME/.config"
	export GIT_CONFIG_NOSYSTEM=1
	export GIT_AUTHOR_NAME='A U Thor' GIT_AUTHOR_EMAIL='author@example.com'
	export GIT_COMMITTER_NAME='C O Mitter'
	export GIT_COMMITTER_EMAIL='committer@example.com'
	export GIT_AUTHOR_DATE='2026-11-29T12:00:00Z'
	export GIT_COMMITTER_DATE='2026-11-29T12:00:00Z'
	export TZ=UTC LANG=C LC_ALL=C
	export PATH="$BIN_DIR:$PATH"
	unset GIT_DIR GIT_WORK_TREE GIT_CAMPAIGN_DB GIT_CAMPAIGN_TRACE \
		GIT_CONFIG_PARAMETERS GIT_CONFIG_COUNT
	git config --global init.defaultBranch main
	git config --global advice.detachedHead false
	cd "$WORLD"
}

# make_repo DIR [BRANCH...]: a repository with one commit on main and the
# given extra branches at the same commit.
make_repo() {
	local dir=$1
	shift
	git init -q "$dir"
	git -C "$dir" commit -q --allow-empty -m 'first'
	local b
	for b in "$@"; do
		git -C "$dir" branch "$b"
	done
}

# file_sum PATH: a checksum to prove a file was left untouched
file_sum() {
	sha256sum "$1" | cut -d' ' -f1
}

# assert_clean: the last `run --separate-stderr` exited 0 and wrote
# nothing on stderr
assert_clean() {
	[ "$status" -eq 0 ] || fail "exit $status; stderr: $stderr"
	[ -z "$stderr" ] || fail "stderr: $stderr"
}

# assert_fatal TEXT [hint]: the last `run --separate-stderr` exited 128
# (not a signal, not another code), printed nothing on stdout, and wrote
# one `fatal: ` line holding TEXT followed only by `hint: ` lines; with
# "hint", by exactly one.
assert_fatal() {
	local text=$1 want_hint=${2:-} l
	[ "$status" -le 128 ] || fail "killed by a signal: exit $status; $stderr"
	assert_failure 128
	[ -z "$output" ] || fail "stdout is not empty: $output"
	[ "${#stderr_lines[@]}" -ge 1 ] || fail "nothing on stderr"
	[[ ${stderr_lines[0]} == 'fatal: '* ]] ||
		fail "stderr does not start with 'fatal: ': $stderr"
	[[ ${stderr_lines[0]} == *"$text"* ]] ||
		fail "the fatal line lacks '$text': ${stderr_lines[0]}"
	for l in "${stderr_lines[@]:1}"; do
		[[ $l == 'hint: '* ]] || fail "more than one line of error: $stderr"
	done
	if [ -n "$want_hint" ]; then
		[ "${#stderr_lines[@]}" -eq 2 ] ||
			fail "want one fatal and one hint line: $stderr"
	fi
}
