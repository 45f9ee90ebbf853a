#!/usr/bin/env bats
# A nearly full disk (a small tmpfs, mounted when the tests run as root):
# a measure command that fails has recorded nothing, so a retry never
# doubles a record, and the error names the full disk.

load helper

setup() {
	setup_world
	SMALL="$BATS_TEST_TMPDIR/small"
	mkdir -p "$SMALL"
	mount -t tmpfs -o size=2m tmpfs "$SMALL" 2>/dev/null ||
		skip "cannot mount a tmpfs (needs root): no small disk to fill"
	cd "$SMALL"
	make_repo r develop
	cd r
	git campaign init demo >/dev/null
	git campaign measure add m0 1 >/dev/null
	seq 200 | sed 's/.*/{"metric":"b&","value":&}/' >"$SMALL/b.jsonl"
}

teardown() {
	cd /
	if mountpoint -q "$SMALL"; then umount "$SMALL"; fi
}

# fill_to KIB: leaves about KIB KiB free on the small disk
fill_to() {
	rm -f "$SMALL/fill"
	local avail
	avail=$(df -k --output=avail "$SMALL" | tail -1)
	[ "$avail" -gt "$1" ] || return 0
	dd if=/dev/zero of="$SMALL/fill" bs=1k count=$((avail - $1)) \
		2>/dev/null || :
}

note_lines() {
	git notes --ref campaign show HEAD | wc -l
}

@test "a measure add --batch that fails on a full disk records nothing and its retry records each line once" {
	local free done=
	for free in 16 32 40 48 64 96 128; do
		fill_to "$free"
		run --separate-stderr git campaign measure add --batch "$SMALL/b.jsonl"
		if [ "$status" -eq 0 ]; then
			done=1
			break
		fi
		[ "$status" -eq 128 ] || fail "free $free: exit $status: $stderr"
		[ "$(note_lines)" -eq 1 ] ||
			fail "free $free: failed ($stderr) yet the note holds $(note_lines) lines"
	done
	rm -f "$SMALL/fill"
	if [ -z "$done" ]; then
		run --separate-stderr git campaign measure add --batch "$SMALL/b.jsonl"
		assert_clean
	fi
	[ "$(note_lines)" -eq 201 ]
	run --separate-stderr git campaign measure log b5
	assert_clean
	refute_output --partial 'median of 2'
	[ "$(sqlite3 .git/campaign/campaign.db "SELECT count(*) FROM measurement WHERE metric LIKE 'b%'")" = 200 ]
}

@test "a measure add that fails on a full disk records nothing and its retry records it once" {
	local free done=
	for free in 16 32 40 48 64; do
		fill_to "$free"
		run --separate-stderr git campaign measure add m1 7
		if [ "$status" -eq 0 ]; then
			done=1
			break
		fi
		[ "$(note_lines)" -eq 1 ] ||
			fail "free $free: exit $status ($stderr) and the note holds $(note_lines) lines"
	done
	rm -f "$SMALL/fill"
	if [ -z "$done" ]; then
		run --separate-stderr git campaign measure add m1 7
		assert_clean
	fi
	[ "$(note_lines)" -eq 2 ]
	[ "$(sqlite3 .git/campaign/campaign.db "SELECT count(*) FROM measurement WHERE metric = 'm1'")" = 1 ]
}

@test "on a full disk status and measure add name the full disk, and blame no lock that is not there" {
	fill_to 0
	run --separate-stderr git campaign status
	assert_fatal "no space left on device"
	local free
	for free in 16 32 40 64; do
		fill_to "$free"
		run --separate-stderr git campaign measure add m1 7
		[ "$status" -ne 0 ] || break
		assert_fatal "pace left on device" # libgit2 says "No space"
		[[ $stderr != *stale* ]] || fail "free $free: a stale lock is blamed: $stderr"
	done
}
