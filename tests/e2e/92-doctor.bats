#!/usr/bin/env bats
# git campaign doctor: the installation checked, and nothing changed.

load helper

setup() {
	setup_world
	make_repo r develop
	cd r
	git campaign init kfusion >/dev/null
	# a machine of our own: /sys as the test writes it
	SYS="$WORLD/sys"
	mkdir -p "$SYS/sys/devices/system/cpu/cpu0/cpufreq" \
		"$SYS/sys/devices/system/cpu/intel_pstate"
	echo powersave >"$SYS/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor"
	echo 0 >"$SYS/sys/devices/system/cpu/intel_pstate/no_turbo"
	export GIT_CAMPAIGN_SYSROOT="$SYS"
}

# state: every file under .git and the hooks, to prove nothing changed
state() {
	(cd .git && find . -type f -newer "$WORLD/stamp" | sort)
}

@test "doctor reports the programs, hooks, database and machine, and changes nothing" {
	git campaign hooks install >/dev/null
	touch "$WORLD/stamp"
	sleep 1
	run --separate-stderr git campaign doctor
	assert_success
	assert_line --regexp "^program +ok +$BIN_DIR/git-campaign, version "
	assert_line --regexp "^hook program +ok +$BIN_DIR/git-campaign-hook, version "
	assert_line --regexp "^hooks +ok +7 of 7 installed in $PWD/.git/hooks"
	assert_line --regexp "^database +ok +$PWD/.git/campaign/campaign.db, schema $(sqlite3 .git/campaign/campaign.db 'PRAGMA user_version')$"
	assert_line --regexp '^cpu governor +warning +powersave: '
	assert_line --regexp '^cpu turbo +warning +on: '
	[ -z "$(state)" ] || fail "doctor changed: $(state)"
	run --separate-stderr git campaign doctor --json
	assert_success
	PY=$(command -v /usr/bin/python3 || command -v python3)
	echo "$output" | "$PY" -c 'import json, sys
d = json.load(sys.stdin)
s = {c["check"]: c["state"] for c in d}
assert s["program"] == "ok" and s["cpu turbo"] == "warning", s'
}

@test "doctor says the hooks' program is gone, and that two builds differ" {
	mkdir "$WORLD/bin"
	cp "$BIN_DIR/git-campaign" "$BIN_DIR/git-campaign-hook" "$WORLD/bin/"
	"$WORLD/bin/git-campaign" hooks install >/dev/null
	rm "$WORLD/bin/git-campaign-hook"
	run --separate-stderr git campaign doctor
	assert_failure 1
	assert_line "hooks        broken   pre-commit runs '$WORLD/bin/git-campaign-hook', which is missing: run 'git campaign hooks install' again"
	# a hook program of another version beside git-campaign
	printf '#!/bin/sh\necho "git-campaign-hook version 0.0.1"\n' >"$WORLD/bin/git-campaign-hook"
	chmod +x "$WORLD/bin/git-campaign-hook"
	PATH="$WORLD/bin:$PATH" run --separate-stderr git campaign doctor
	assert_line --regexp "^hook program +broken +$WORLD/bin/git-campaign-hook, version 0.0.1: not the version of git-campaign on PATH"
}

@test "doctor reads an older database's schema without upgrading it" {
	sqlite3 .git/campaign/campaign.db 'PRAGMA user_version = 1'
	run --separate-stderr git campaign doctor
	assert_line --regexp "^database +info +.*schema 1: the next command upgrades it"
	[ "$(sqlite3 .git/campaign/campaign.db 'PRAGMA user_version')" = 1 ]
	[ ! -e .git/campaign/campaign.db.v1.bak ]
}

@test "doctor does not take a stub man's advice for a man page" {
	# Ubuntu's minimized images (seen on the GPU machine) put a man that
	# prints advice and exits 0 for every page
	mkdir "$WORLD/stub"
	cat >"$WORLD/stub/man" <<'SH'
#!/bin/sh
echo "This system has been minimized by removing packages and content that are"
echo "command. You will still need to ensure the 'man-db' package is installed."
SH
	chmod +x "$WORLD/stub/man"
	PATH="$WORLD/stub:$PATH" run --separate-stderr git campaign doctor
	assert_line --regexp "^man pages +warning +man finds no git-campaign page"
	refute_line --partial "man pages    ok"
}

@test "doctor reports a GPU's persistence and clocks as the H200 machine answered, and warns when persistence is off" {
	mkdir -p "$SYS/proc/driver/nvidia" "$WORLD/stub"
	cp "$SRC_DIR/tests/fixtures/doctor/h200-driver-version.txt" \
		"$SYS/proc/driver/nvidia/version"
	cat >"$WORLD/stub/nvidia-smi" <<SH
#!/bin/sh
[ "\$*" = "--query-gpu=index,name,persistence_mode,clocks.sm,clocks.max.sm,clocks.mem --format=csv,noheader" ] || exit 2
sed "s/Enabled/\${PERSIST:-Enabled}/" "$SRC_DIR/tests/fixtures/doctor/h200-nvidia-smi.csv"
SH
	chmod +x "$WORLD/stub/nvidia-smi"
	PATH="$WORLD/stub:$PATH" run --separate-stderr git campaign doctor
	assert_line "gpu          ok       0, NVIDIA H200, Enabled, 345 MHz, 1980 MHz, 3201 MHz (index, name, persistence, sm clock, max sm clock, memory clock)"
	PERSIST=Disabled PATH="$WORLD/stub:$PATH" run --separate-stderr git campaign doctor
	assert_line --regexp "^gpu +warning +0, NVIDIA H200, Disabled, "
	# no driver: no gpu line, and nvidia-smi is not asked
	rm -r "$SYS/proc"
	PATH="$WORLD/stub:$PATH" run --separate-stderr git campaign doctor
	refute_line --regexp "^gpu "
}
