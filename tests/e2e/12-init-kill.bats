#!/usr/bin/env bats
# init killed at any write or rename (SIGKILL through strace) leaves no lock
# that stops it: running it again makes the campaign.

load helper

setup() {
	command -v strace >/dev/null || skip "strace is missing (Debian package strace)"
	setup_world
	make_repo r develop
}

@test "init killed at any write or rename is finished by running it again" {
	local kind total n
	for kind in write rename; do
		rm -rf "$WORLD/count"
		cp -a "$WORLD/r" "$WORLD/count"
		# LeakSanitizer cannot run under ptrace: no leak check in
		# the traced run of make asan
		(cd "$WORLD/count" &&
			ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
				strace -f -qq -o "$WORLD/trace" -e trace=$kind \
				git campaign init demo >/dev/null 2>&1)
		total=$(grep -c "$kind(" "$WORLD/trace")
		[ "$total" -gt 0 ] || fail "no $kind call"
		for n in $(seq 1 "$total"); do
			rm -rf "$WORLD/try"
			cp -a "$WORLD/r" "$WORLD/try"
			cd "$WORLD/try"
			(strace -f -qq -o /dev/null -e trace=$kind \
				-e inject=$kind:signal=KILL:when="$n" git campaign init demo ||
				:) >/dev/null 2>&1
			git campaign status >/dev/null 2>&1 || {
				run --separate-stderr git campaign init demo
				[ "$status" -eq 0 ] || fail "$kind $n: $stderr"
			}
			run --separate-stderr git campaign measure add m 1
			[ "$status" -eq 0 ] || fail "$kind $n: measure add: $stderr"
			[ -z "$(find .git -name '*.lock')" ] || fail "$kind $n: $(find .git -name '*.lock')"
		done
	done
}
