#!/usr/bin/env bats
# Upgrading an older database: a copy of it is kept first, at
# campaign.db.vN.bak, and the command says so.

load helper

setup() {
	setup_world
	command -v sqlite3 >/dev/null || skip "sqlite3 is not installed"
	make_repo r develop
	cd r
	git campaign init kfusion >/dev/null
	DB=.git/campaign/campaign.db
	rm -f "$DB" "$DB-wal" "$DB-shm"
	# a schema-1 database, as the first release wrote it: step 1 of the
	# append-only migrations in src/io/db.c, marked as ours, one row in
	sqlite3 "$DB" <<-'SQL'
	CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;
	CREATE TABLE operation (id INTEGER PRIMARY KEY, kind TEXT NOT NULL,
	  state TEXT NOT NULL CHECK (state IN ('running', 'done', 'aborted')),
	  worktree TEXT NOT NULL, summary TEXT NOT NULL,
	  continue_cmd TEXT NOT NULL, abort_cmd TEXT NOT NULL,
	  pid INTEGER NOT NULL, started_at TEXT NOT NULL,
	  updated_at TEXT NOT NULL) STRICT;
	CREATE INDEX operation_running ON operation(state)
	  WHERE state = 'running';
	CREATE TABLE journal (
	  op_id INTEGER NOT NULL REFERENCES operation(id) ON DELETE CASCADE,
	  seq INTEGER NOT NULL, step TEXT NOT NULL, data TEXT NOT NULL,
	  at TEXT NOT NULL, PRIMARY KEY (op_id, seq)) STRICT;
	INSERT INTO meta VALUES ('kept', 'from schema 1');
	PRAGMA application_id = 1195593040;
	PRAGMA user_version = 1;
	SQL
}

@test "a schema upgrade keeps a copy of the old database first and says so" {
	sum=$(file_sum "$DB")
	run --separate-stderr git campaign status
	assert_success
	new=$(sqlite3 "$DB" 'PRAGMA user_version')
	[ "$new" -gt 1 ]
	[ "$stderr" = "note: upgraded the database from schema 1 to $new; the old one is kept as '$PWD/$DB.v1.bak'" ]
	# the copy is the old database, as it was
	[ "$(sqlite3 "$DB.v1.bak" 'PRAGMA user_version')" = 1 ]
	[ "$(sqlite3 "$DB.v1.bak" "SELECT value FROM meta WHERE key = 'kept'")" = 'from schema 1' ]
	[ "$(sqlite3 "$DB.v1.bak" 'PRAGMA application_id')" = 1195593040 ]
	[ "$(sqlite3 "$DB" "SELECT value FROM meta WHERE key = 'kept'")" = 'from schema 1' ]
	# once upgraded, nothing more is said or copied
	run --separate-stderr git campaign status
	assert_clean
	[ "$(ls .git/campaign | grep -c '\.bak$')" = 1 ]
}

@test "an upgrade that cannot keep its copy changes nothing" {
	sum=$(file_sum "$DB")
	mkdir "$DB.v1.bak"
	run --separate-stderr git campaign status
	assert_failure 128
	[[ ${stderr_lines[0]} == "fatal: "*"$DB.v1.bak"* ]]
	[ "${stderr_lines[1]}" = "hint: the upgrade keeps a copy at '$PWD/$DB.v1.bak' first: nothing was changed; make room for it and try again" ]
	[ "$(sqlite3 "$DB" 'PRAGMA user_version')" = 1 ]
	[ "$(sqlite3 "$DB" "SELECT value FROM meta WHERE key = 'kept'")" = 'from schema 1' ]
	rmdir "$DB.v1.bak"
	run --separate-stderr git campaign status
	assert_success
}
