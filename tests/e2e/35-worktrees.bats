#!/usr/bin/env bats
# Finding the repository as git does: linked worktrees share the campaign
# and its database through the common dir; git -C, --git-dir/--work-tree,
# subdirectories and -c overrides work; bare repositories and folders
# outside any repository are refused with one fatal line.

bats_require_minimum_version 1.5.0
load helper

setup() {
	setup_world
	# nothing above the world may pass for a repository
	export GIT_CEILING_DIRECTORIES="$WORLD"
	make_repo r
	DB="$WORLD/r/.git/campaign/campaign.db"
}

# a running operation in the journal, as a stopped restack leaves it
seed_op() {
	sqlite3 "$1" "INSERT INTO operation (id, kind, state, worktree, summary,
		continue_cmd, abort_cmd, pid, started_at, updated_at) VALUES
		(7, 'restack', 'running', '$WORLD/wt', 'restack feature onto main',
		 'git campaign stack continue', 'git campaign stack abort', 13,
		 '2026-11-29T12:00:00Z', '2026-11-29T12:05:00Z');
		INSERT INTO journal (op_id, seq, step, data, at) VALUES
		(7, 1, 'rebase feature', '{}', '2026-11-29T12:05:00Z')"
}

# every campaign.db* under DIR, one a line
campaign_dbs() {
	find "$1" -name 'campaign.db*' | sort
}

# json_get FILE PATH: the value at the JSON path PATH (`$.a.b`) of the JSON
# document FILE, as JSON; sqlite3's JSON functions as a small jq
json_get() {
	sqlite3 :memory: "SELECT CAST(readfile('$1') AS TEXT) -> '$2'"
}

@test "a linked worktree sees the campaign and the database of its repository" {
	git -C r campaign init >/dev/null
	git -C r worktree add -q -b feature ../wt
	seed_op "$DB"
	cd "$WORLD/wt"
	run --separate-stderr git campaign status
	assert_clean
	assert_line 'campaign  r'
	assert_line --regexp '^branch +feature '
	assert_line --partial 'unfinished restack #7: restack feature onto main'
	assert_line --partial 'last step rebase feature'
	cd "$WORLD/r"
	run --separate-stderr git campaign status
	assert_clean
	assert_line --regexp '^branch +main '
	assert_line --partial 'unfinished restack #7: restack feature onto main'
	# one database, in the common dir; none in the worktree's git dir
	assert_dir_exists "$WORLD/r/.git/worktrees/wt"
	run campaign_dbs "$WORLD"
	assert_output "$DB"
	assert_not_exists "$WORLD/r/.git/worktrees/wt/campaign"
}

@test "init from a linked worktree writes to the common dir" {
	git -C r worktree add -q -b feature ../wt
	cd "$WORLD/wt"
	run --separate-stderr git campaign init
	assert_clean
	assert_line --partial "$WORLD/r/.git/campaign/"
	assert_file_exists "$DB"
	run campaign_dbs "$WORLD"
	assert_output "$DB"
	assert_not_exists "$WORLD/r/.git/worktrees/wt/campaign"
	# the settings are the repository's, seen from the main work tree
	assert_equal "$(git -C "$WORLD/r" config campaign.name)" wt
	cd "$WORLD/r"
	run --separate-stderr git campaign status
	assert_clean
	assert_line 'campaign  wt'
	# and the journal is the one status reads in the main work tree
	seed_op "$DB"
	run --separate-stderr git campaign status
	assert_clean
	assert_line --partial 'unfinished restack #7'
}

# two_campaigns: r (on branch topic, with a running operation) and other,
# the current directory being other's work tree
two_campaigns() {
	git -C r checkout -q -b topic
	git -C r campaign init >/dev/null
	seed_op "$DB"
	make_repo other
	git -C other campaign init >/dev/null
	cd "$WORLD/other"
}

# assert_reads_r: the last `run --separate-stderr` showed the status of r
assert_reads_r() {
	assert_clean
	assert_line 'campaign  r'
	assert_line --regexp '^branch +topic '
	assert_line --partial 'unfinished restack #7'
}

@test "git -C DIR campaign status reads DIR, not the current repository" {
	two_campaigns
	run --separate-stderr git -C ../r campaign status
	assert_reads_r
	run --separate-stderr git campaign status
	assert_clean
	assert_line 'campaign  other'
	assert_line 'unfinished none'
}

@test "git --git-dir=DIR/.git --work-tree=DIR campaign status reads DIR" {
	two_campaigns
	run --separate-stderr git --git-dir="$WORLD/r/.git" \
		--work-tree="$WORLD/r" campaign status
	assert_reads_r
	# and from outside any repository
	mkdir "$WORLD/outside"
	cd "$WORLD/outside"
	run --separate-stderr git --git-dir="$WORLD/r/.git" \
		--work-tree="$WORLD/r" campaign status
	assert_reads_r
	run campaign_dbs "$WORLD"
	assert_output "$WORLD/other/.git/campaign/campaign.db"$'\n'"$DB"
}

@test "status from a nested subdirectory finds the repository above" {
	git -C r campaign init >/dev/null
	seed_op "$DB"
	mkdir -p "$WORLD/r/a/b/c"
	cd "$WORLD/r/a/b/c"
	run --separate-stderr git campaign status
	assert_clean
	assert_line 'campaign  r'
	assert_line --partial 'unfinished restack #7'
	run campaign_dbs "$WORLD"
	assert_output "$DB"
	assert_equal "$(ls -A "$WORLD/r/a/b/c")" ''
}

@test "git -c campaign.base=other overrides the base for one run" {
	cd "$WORLD/r"
	git branch other
	git checkout -q other
	git commit -q --allow-empty -m 'on other'
	git checkout -q main
	git campaign init --base main >/dev/null
	run --separate-stderr git -c campaign.base=other campaign status --json
	assert_clean
	printf '%s\n' "$output" >"$WORLD/status.json"
	run json_get "$WORLD/status.json" '$.campaign.base'
	assert_output '"other"'
	run json_get "$WORLD/status.json" '$.behind'
	assert_output 1
	run --separate-stderr git -c campaign.base=other campaign status
	assert_clean
	assert_line --regexp '^base +other$'
	assert_line --regexp '^branch +main \(0 ahead, 1 behind other\)$'
	# for that run only: the setting and a plain run are unchanged
	assert_equal "$(git config campaign.base)" main
	run --separate-stderr git campaign status --json
	assert_clean
	printf '%s\n' "$output" >"$WORLD/status.json"
	run json_get "$WORLD/status.json" '$.campaign.base'
	assert_output '"main"'
	run json_get "$WORLD/status.json" '$.behind'
	assert_output 0
}

@test "a bare repository is refused by init and status" {
	git init -q --bare bare.git
	cd "$WORLD/bare.git"
	run --separate-stderr git campaign init
	assert_fatal 'work tree'
	assert_not_exists "$WORLD/bare.git/campaign"
	run git config campaign.name
	assert_failure 1
	# a campaign set by hand does not make status run there
	git config campaign.name x
	run --separate-stderr git campaign status
	assert_fatal 'work tree'
	cd "$WORLD"
	run --separate-stderr git --git-dir=bare.git campaign status
	assert_fatal 'work tree'
	run campaign_dbs "$WORLD"
	assert_output ''
}

@test "outside any repository status and init say so" {
	mkdir "$WORLD/outside"
	cd "$WORLD/outside"
	run --separate-stderr git campaign status
	assert_fatal 'not a git repository'
	run --separate-stderr git campaign init
	assert_fatal 'not a git repository'
	assert_equal "$(ls -A "$WORLD/outside")" ''
	run campaign_dbs "$WORLD"
	assert_output ''
}
