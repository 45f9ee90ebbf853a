#!/usr/bin/env bats
# The sqlite store: where init makes it and how; what it refuses (not a
# sqlite file, damaged, foreign, newer) with one fatal line, exit 128 and
# the file left as it was; two processes at once; unfinished operations
# of the journal as status shows them.

bats_require_minimum_version 1.5.0
load helper

# PRAGMA application_id of our databases: "GCMP"
APP_ID=$((0x47434d50))

setup() {
	setup_world
	make_repo r
	cd r
	DB="$WORLD/r/.git/campaign/campaign.db"
	HOLDER=
}

teardown() {
	# let a lock holder go, whatever the test did
	if [ -n "$HOLDER" ]; then
		touch "$WORLD/release"
		kill "$HOLDER" 2>/dev/null || true
		wait "$HOLDER" 2>/dev/null || true
	fi
}

# a campaign named r with its database
init_campaign() {
	git campaign init >/dev/null || fail "git campaign init failed"
	[ -f "$DB" ] || fail "init made no database at $DB"
}

# the refusal names the database it refused
assert_names_db() {
	[[ ${stderr_lines[0]} == *"/.git/campaign/campaign.db'"* ]] ||
		fail "the fatal line does not name the database: ${stderr_lines[0]}"
}

# the folder of the database holds the database and nothing else but the
# guards of the tool's own locks (NAME.owner: io/ownlock.c)
assert_no_side_files() {
	assert_equal "$(ls -A "$WORLD/r/.git/campaign" | grep -v '\.owner$')" campaign.db
}

# the settings init writes are as they were after init_campaign
assert_config_untouched() {
	assert_equal "$(git config campaign.name)" r
	assert_equal "$(git config campaign.base)" main
}

# status_refuses TEXT: status refuses the database with one fatal line
# holding TEXT and a hint, naming it, and leaves it byte for byte as it was
# (its checksum stays in $before for init_refuses)
status_refuses() {
	before=$(file_sum "$DB")
	run --separate-stderr git campaign status
	assert_fatal "$1" hint
	assert_names_db
	assert_equal "$(file_sum "$DB")" "$before"
	assert_no_side_files
}

# init_refuses TEXT: init --force makes no new database over the refused
# one and writes no setting
init_refuses() {
	run --separate-stderr git campaign init --force renamed
	assert_fatal "$1" hint
	assert_equal "$(file_sum "$DB")" "$before"
	assert_no_side_files
	assert_config_untouched
}

# the schema version this build knows, as its refusal of a newer one says
known_schema_version() {
	local probe="$BATS_TEST_TMPDIR/probe.db" err
	sqlite3 "$probe" "PRAGMA application_id = $APP_ID;
		PRAGMA user_version = 9999"
	err=$(GIT_CAMPAIGN_DB=$probe git campaign status 2>&1 >/dev/null) || true
	sed -n 's/.*newer than this git-campaign knows (\([0-9][0-9]*\)).*/\1/p' \
		<<<"$err"
}

# seed_ops DB: operations in every state, journal steps whose last one
# (by seq) is neither the last inserted nor the greatest by name or text
seed_ops() {
	sqlite3 "$1" <<-'EOF'
		INSERT INTO operation (id, kind, state, worktree, summary,
		  continue_cmd, abort_cmd, pid, started_at, updated_at) VALUES
		 (1, 'ab', 'done', '/w/r', 'a finished A/B',
		  'git campaign ab --continue', 'git campaign ab --abort', 11,
		  '2026-11-28T10:00:00Z', '2026-11-28T10:30:00Z'),
		 (2, 'submit', 'aborted', '/w/r', 'an aborted submit',
		  'git campaign stack submit --continue',
		  'git campaign stack submit --abort', 12,
		  '2026-11-28T11:00:00Z', '2026-11-28T11:01:00Z'),
		 (3, 'restack', 'running', '/w/r', 'restack feature onto main',
		  'git campaign stack continue', 'git campaign stack abort', 13,
		  '2026-11-29T12:00:00Z', '2026-11-29T12:05:00Z'),
		 (5, 'ab', 'running', '/w/r', 'A/B of the upload path',
		  'git campaign ab --continue', 'git campaign ab --abort', 15,
		  '2026-11-29T13:00:00Z', '2026-11-29T13:00:00Z');
		INSERT INTO journal (op_id, seq, step, data, at) VALUES
		 (3, 2, 'write backup', '{}', '2026-11-29T12:01:00Z'),
		 (3, 10, 'rebase feature', '{}', '2026-11-29T12:05:00Z'),
		 (3, 1, 'check tree', '{}', '2026-11-29T12:00:00Z'),
		 (1, 1, 'measure B', '{}', '2026-11-28T10:30:00Z');
	EOF
}

# json_rows FILE PATH FIELD...: one line per element of the array at PATH
# (a JSON path, `$.a.b`) in the JSON document FILE, its FIELDs as JSON
# values separated by spaces; sqlite3's JSON functions as a small jq
json_rows() {
	local file=$1 path=$2 cols= f
	shift 2
	for f in "$@"; do
		cols="$cols${cols:+, }value -> '\$.$f'"
	done
	sqlite3 -separator ' ' :memory: \
		"SELECT $cols FROM json_each(CAST(readfile('$file') AS TEXT), '$path')"
}

# json_get FILE PATH: the value at PATH, as JSON
json_get() {
	sqlite3 :memory: "SELECT CAST(readfile('$1') AS TEXT) -> '$2'"
}

# wait_for FILE: until FILE exists, at most 5 s
wait_for() {
	local i
	for i in $(seq 100); do
		[ -e "$1" ] && return 0
		sleep 0.05
	done
	fail "timed out waiting for $1"
}

# hold_write_lock SQL: a sqlite3 process opens a write transaction on the
# database, runs SQL in it and holds it until $WORLD/release appears
# (10 s at most), then commits. Returns once the lock is held.
hold_write_lock() {
	local sql=$1
	rm -f "$WORLD/locked" "$WORLD/release"
	{
		printf '.timeout 5000\nBEGIN IMMEDIATE;\n%s\n' "$sql"
		printf ".shell touch '%s'\n" "$WORLD/locked"
		for _ in $(seq 200); do
			[ -e "$WORLD/release" ] && break
			sleep 0.05
		done
		printf 'COMMIT;\n'
	} 2>/dev/null 3>&- |
		sqlite3 -bail "$DB" >"$WORLD/holder.out" 2>&1 3>&- &
	HOLDER=$!
	wait_for "$WORLD/locked"
	# the lock is really held: a second writer that does not wait fails
	run sqlite3 "$DB" 'BEGIN IMMEDIATE; ROLLBACK;'
	assert_failure
	assert_output --partial 'database is locked'
}

release_write_lock() {
	touch "$WORLD/release"
	wait "$HOLDER" || fail "the lock holder failed: $(cat "$WORLD/holder.out")"
	HOLDER=
}

now_ms() {
	echo $(($(date +%s%N) / 1000000))
}

@test "init creates the database in the common dir: WAL, current schema, marked as ours" {
	assert_not_exists "$WORLD/r/.git/campaign"
	run --separate-stderr git campaign init
	assert_clean
	assert_output --partial "$DB"
	assert_file_exists "$DB"
	run sqlite3 "$DB" 'PRAGMA journal_mode'
	assert_output wal
	run sqlite3 "$DB" 'PRAGMA application_id'
	assert_output "$APP_ID"
	known=$(known_schema_version)
	[ -n "$known" ] && [ "$known" -ge 1 ] ||
		fail "cannot tell the schema version this build knows: '$known'"
	run sqlite3 "$DB" 'PRAGMA user_version'
	assert_output "$known"
	run sqlite3 "$DB" "SELECT name FROM sqlite_schema WHERE type = 'table'
		ORDER BY name"
	assert_line meta
	assert_line operation
	assert_line journal
	run sqlite3 "$DB" "SELECT value FROM meta WHERE key = 'campaign'"
	assert_output r
	# nothing else in the repository or the work tree
	assert_equal "$(find "$WORLD/r" -name 'campaign.db*' | wc -l)" 1
}

@test "GIT_CAMPAIGN_DB puts the database elsewhere and creates its folders" {
	export GIT_CAMPAIGN_DB="$WORLD/elsewhere/deeper/c.db"
	assert_not_exists "$WORLD/elsewhere"
	run --separate-stderr git campaign init
	assert_clean
	assert_output --partial "$GIT_CAMPAIGN_DB"
	assert_file_exists "$GIT_CAMPAIGN_DB"
	# only the guards of the tool's own locks stay in the repository
	[ -z "$(find "$WORLD/r/.git/campaign" -type f ! -name '*.owner' 2>/dev/null)" ]
	run sqlite3 "$GIT_CAMPAIGN_DB" 'PRAGMA application_id; PRAGMA journal_mode'
	assert_output "$APP_ID"$'\n'wal
	# status reads it from there
	seed_ops "$GIT_CAMPAIGN_DB"
	run --separate-stderr git campaign status
	assert_clean
	assert_line --partial 'restack feature onto main'
	[ -z "$(find "$WORLD/r/.git/campaign" -type f ! -name '*.owner' 2>/dev/null)" ]
	# and without the variable, the one in the common dir, which is not
	# there: nothing unfinished
	unset GIT_CAMPAIGN_DB
	run --separate-stderr git campaign status
	assert_clean
	assert_line 'unfinished none'
	refute_output --partial 'restack feature onto main'
}

@test "random bytes at the database path are refused and left as they are" {
	init_campaign
	head -c 4096 /dev/urandom >"$DB"
	status_refuses 'is not a sqlite database'
	init_refuses 'is not a sqlite database'
}

@test "a text file at the database path is refused and left as it is" {
	init_campaign
	printf '[campaign]\n\tname = r\n' >"$DB"
	status_refuses 'is not a sqlite database'
}

@test "a database with every page after the first overwritten is refused as corrupt" {
	init_campaign
	page=$(sqlite3 "$DB" 'PRAGMA page_size')
	size=$(stat -c %s "$DB")
	[ "$size" -ge $((3 * page)) ] || fail "database too small: $size"
	head -c $((size - page)) /dev/zero | tr '\0' '\377' |
		dd of="$DB" bs="$page" seek=1 conv=notrunc status=none
	assert_equal "$(stat -c %s "$DB")" "$size"
	status_refuses 'corrupt'
	init_refuses 'corrupt'
}

@test "a database whose schema page is damaged after its header is refused as corrupt" {
	init_campaign
	# the b-tree of sqlite_schema starts at byte 100 of page 1
	head -c 512 /dev/zero | dd of="$DB" bs=1 seek=100 conv=notrunc status=none
	status_refuses 'corrupt'
}

@test "a database truncated to half its size is refused as corrupt" {
	init_campaign
	size=$(stat -c %s "$DB")
	truncate -s $((size / 2)) "$DB"
	before=$(file_sum "$DB")
	run --separate-stderr git campaign status
	assert_fatal 'corrupt' hint
	assert_names_db
	assert_equal "$(stat -c %s "$DB")" $((size / 2))
	assert_equal "$(file_sum "$DB")" "$before"
	assert_no_side_files
}

@test "a database of a newer schema version is refused, naming the version" {
	init_campaign
	sqlite3 "$DB" 'PRAGMA user_version = 99'
	before=$(file_sum "$DB")
	run --separate-stderr git campaign status
	assert_fatal 'version 99' hint
	assert_names_db
	[[ ${stderr_lines[0]} == *newer* ]] || fail "does not say newer: $stderr"
	assert_equal "$(file_sum "$DB")" "$before"
	assert_no_side_files
	init_refuses 'version 99'
	run sqlite3 "$DB" 'PRAGMA user_version'
	assert_output 99
}

@test "a foreign sqlite database is refused and left as it is" {
	init_campaign
	rm "$DB"
	sqlite3 "$DB" "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT);
		INSERT INTO notes (body) VALUES ('keep me')"
	status_refuses 'is not a git-campaign database'
	init_refuses 'is not a git-campaign database'
}

@test "an empty sqlite database of another application is refused" {
	init_campaign
	rm "$DB"
	sqlite3 "$DB" 'PRAGMA application_id = 42'
	status_refuses 'is not a git-campaign database'
}

@test "an empty sqlite database with a user_version but no mark is refused as foreign" {
	init_campaign
	rm "$DB"
	# no table, no application_id: only the version says it was used
	sqlite3 "$DB" 'PRAGMA user_version = 1'
	status_refuses 'is not a git-campaign database'
	init_refuses 'is not a git-campaign database'
}

@test "a directory at the database path is refused" {
	init_campaign
	rm "$DB"
	mkdir "$DB"
	run --separate-stderr git campaign status
	assert_fatal 'is not a regular file'
	assert_names_db
	assert_dir_exists "$DB"
	assert_equal "$(ls -A "$DB")" ''
	assert_no_side_files
}

@test "two status at once read while another process holds a write transaction" {
	init_campaign
	seed_ops "$DB"
	hold_write_lock "INSERT INTO operation (kind, state, worktree, summary,
		continue_cmd, abort_cmd, pid, started_at, updated_at) VALUES
		('undo', 'running', '/w/r', 'an uncommitted operation', 'c', 'a',
		 99, '2026-11-29T14:00:00Z', '2026-11-29T14:00:00Z');"
	git campaign status >"$WORLD/s1.out" 2>"$WORLD/s1.err" 3>&- &
	p1=$!
	git campaign status >"$WORLD/s2.out" 2>"$WORLD/s2.err" 3>&- &
	p2=$!
	rc1=0 rc2=0
	wait "$p1" || rc1=$?
	wait "$p2" || rc2=$?
	# readers did not wait for the writer: it still holds its transaction
	kill -0 "$HOLDER" || fail "the lock holder ended before the readers"
	for i in 1 2; do
		rc_var=rc$i
		[ "${!rc_var}" -eq 0 ] ||
			fail "status $i exited ${!rc_var}: $(cat "$WORLD/s$i.err")"
		[ ! -s "$WORLD/s$i.err" ] ||
			fail "status $i wrote to stderr: $(cat "$WORLD/s$i.err")"
		run cat "$WORLD/s$i.out"
		assert_line 'campaign  r'
		assert_line --partial 'unfinished restack #3: restack feature onto main'
		assert_line --partial 'unfinished ab #5: A/B of the upload path'
		refute_output --partial 'an uncommitted operation'
	done
	release_write_lock
	run --separate-stderr git campaign status
	assert_clean
	assert_line --partial 'an uncommitted operation'
}

@test "a writer waits on the busy timeout for a held transaction, then succeeds" {
	init_campaign
	hold_write_lock "INSERT INTO meta VALUES ('x', 'y');"
	t0=$(now_ms)
	git campaign init --force renamed >"$WORLD/init.out" 2>"$WORLD/init.err" 3>&- &
	pid=$!
	sleep 1
	# still waiting for the lock, not failed nor done around it
	kill -0 "$pid" || fail "init did not wait: $(cat "$WORLD/init.err")"
	run sqlite3 "$DB" "SELECT value FROM meta WHERE key = 'campaign'"
	assert_output r
	release_write_lock
	rc=0
	wait "$pid" || rc=$?
	elapsed=$(($(now_ms) - t0))
	[ "$rc" -eq 0 ] || fail "init exited $rc: $(cat "$WORLD/init.err")"
	[ ! -s "$WORLD/init.err" ] || fail "init wrote to stderr: $(cat "$WORLD/init.err")"
	grep -q "^Started campaign 'renamed'" "$WORLD/init.out" ||
		fail "init said: $(cat "$WORLD/init.out")"
	[ "$elapsed" -ge 1000 ] || fail "init finished in $elapsed ms"
	run sqlite3 "$DB" "SELECT key || '=' || value FROM meta ORDER BY key"
	assert_line campaign=renamed
	assert_line x=y
	assert_equal "$(git config campaign.name)" renamed
}

@test "status shows running operations with their last step; finished ones not" {
	init_campaign
	seed_ops "$DB"
	run --separate-stderr git campaign status
	assert_clean
	assert_line --regexp '^unfinished restack #3: restack feature onto main \(since 2026-11-29T12:00:00Z, last step rebase feature\)$'
	assert_line --regexp '^unfinished ab #5: A/B of the upload path \(since 2026-11-29T13:00:00Z\)$'
	assert_line --regexp '^ +finish it: git campaign stack continue$'
	assert_line --regexp '^ +undo it: +git campaign stack abort$'
	assert_line --regexp '^ +finish it: git campaign ab --continue$'
	assert_line --regexp '^ +undo it: +git campaign ab --abort$'
	refute_line 'unfinished none'
	refute_output --partial 'a finished A/B'
	refute_output --partial 'an aborted submit'
	refute_output --partial 'measure B'
	assert_equal "$(grep -c '^unfinished ' <<<"$output")" 2
	# the restack is listed before the A/B (by id)
	[[ $output == *'#3:'*'#5:'* ]] || fail "not in id order: $output"

	run --separate-stderr git campaign status --short
	assert_clean
	assert_output --partial 'unfinished:2'

	run --separate-stderr git campaign status --json
	assert_clean
	printf '%s\n' "$output" >"$WORLD/status.json"
	run json_rows "$WORLD/status.json" '$.unfinished' id kind summary \
		last_step continue abort started_at
	assert_success
	assert_output - <<-'EOF'
		3 "restack" "restack feature onto main" "rebase feature" "git campaign stack continue" "git campaign stack abort" "2026-11-29T12:00:00Z"
		5 "ab" "A/B of the upload path" null "git campaign ab --continue" "git campaign ab --abort" "2026-11-29T13:00:00Z"
	EOF
}

@test "status without unfinished operations says none" {
	init_campaign
	sqlite3 "$DB" "INSERT INTO operation (kind, state, worktree, summary,
		continue_cmd, abort_cmd, pid, started_at, updated_at) VALUES
		('ab', 'done', '/w/r', 'a finished A/B', 'c', 'a', 1,
		 '2026-11-28T10:00:00Z', '2026-11-28T10:00:00Z')"
	run --separate-stderr git campaign status
	assert_clean
	assert_line 'unfinished none'
	refute_output --partial 'a finished A/B'
	run --separate-stderr git campaign status --json
	assert_clean
	printf '%s\n' "$output" >"$WORLD/status.json"
	run json_get "$WORLD/status.json" '$.unfinished'
	assert_success
	assert_output '[]'
}

@test "status leaves an empty file at the database path empty" {
	init_campaign
	: >"$DB"
	run --separate-stderr git campaign status
	assert_success
	assert_line 'unfinished none'
	[ ! -s "$DB" ]
}
