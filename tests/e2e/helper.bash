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
