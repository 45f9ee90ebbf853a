#!/usr/bin/env bats
# The progress line of ab and hypo test on a terminal (script(1) gives the
# command one): the arm, run k of all the runs, warm-ups, the iteration
# count in place of {iters}, the running median with its unit, an ETA, and
# the command shortened from the left; nothing off a terminal; the message
# after an interrupt on its own line.

load helper

setup() {
	command -v script >/dev/null || skip "script (bsdutils) is not installed"
	setup_world
	git init -q p
	cd p
	git commit -q --allow-empty -m init
	git campaign init demo --base main >/dev/null
	# a workload with a long name: 1000 us plus its argument
	prog=$WORLD/a-rather-long-benchmark-name
	printf '#!/bin/sh\necho "time: $((1000 + ${1:-0}))"\n' >"$prog"
	chmod +x "$prog"
}

# on_tty COLUMNS CMD: runs CMD on a terminal that wide; $WORLD/tty gets
# what it drew, one line per rewrite of the line, escapes removed
on_tty() {
	COLUMNS=$1 script -qec "$2" /dev/null >"$WORLD/raw" || true
	sed 's/\x1b\[K//g' "$WORLD/raw" | tr '\r' '\n' | grep . >"$WORLD/tty" || true
}

@test "on a terminal each run shows its arm, its number among all runs, the count, the median with its unit and an ETA" {
	on_tty 300 "git campaign ab --build true --run '$prog {iters}' --control '$prog 2000' --iters 16,64 -n 3 --metric 're:time: ([0-9]+);unit=us' >$WORLD/table"
	grep -q '| 64 | 1064 us | 1064 us | .* | no verdict (unvouched) |$' "$WORLD/table" ||
		fail "$(cat "$WORLD/table")"
	! grep -qF '{iters}' "$WORLD/tty" || fail "a literal {iters}: $(cat "$WORLD/tty")"
	grep -qx "A 1/24 warm-up iters 16 $prog 16" "$WORLD/tty" || fail "$(cat "$WORLD/tty")"
	grep -q "^[AB] 2/24 warm-up iters 16 $prog 16  ETA [0-9]*:[0-9][0-9]$" "$WORLD/tty" ||
		fail "$(cat "$WORLD/tty")"
	grep -q "^[AB] [0-9]*/24 iters 64 $prog 64  median 1064 us  ETA [0-9:]*$" "$WORLD/tty" ||
		fail "$(cat "$WORLD/tty")"
	# the control takes no count: one point, run once per round
	grep -q "^[AB] [0-9]*/24 $prog 2000  median 3000 us  ETA" "$WORLD/tty" ||
		fail "$(cat "$WORLD/tty")"
	# one count over every point and arm: it never starts again
	run sh -c "grep -o '^[AB] [0-9]*/24' '$WORLD/tty' | cut -d' ' -f2 | cut -d/ -f1 | tr '\n' ' '"
	[ "$output" = "$(seq -s ' ' 1 24) " ] || fail "counts: $output"
}

@test "a command too long for the terminal is shortened from the left, so its arguments stay" {
	on_tty 60 "git campaign ab --build true --run '$prog 7' --control '$prog 2000' -n 5 --metric 're:time: ([0-9]+);unit=us' >/dev/null"
	grep -q '^[AB] [0-9]*/24 \.\.\..*benchmark-name 2000' "$WORLD/tty" || fail "$(cat "$WORLD/tty")"
	grep -q '^[AB] [0-9]*/24 \.\.\..*benchmark-name 7  median 1007 us' "$WORLD/tty" || fail "$(cat "$WORLD/tty")"
	run awk '/^[AB] [0-9]/ && length($0) > 59' "$WORLD/tty"
	[ -z "$output" ] || fail "lines wider than the terminal: $output"
}

@test "off a terminal an A/B prints no progress" {
	run --separate-stderr git campaign ab --build true --run "$prog 7" -n 5 \
		--metric 're:time: ([0-9]+);unit=us'
	assert_success
	[ -z "$stderr" ] || fail "$stderr"
}

@test "the message after an interrupt starts its own line" {
	# a control that sends SIGINT to the harness on its 4th run
	cat >"$WORLD/killer" <<-'EOF'
		#!/bin/sh
		f=$0.n; n=$(cat "$f" 2>/dev/null || echo 0); n=$((n + 1)); echo $n >"$f"
		[ "$n" = 4 ] && kill -INT "$PPID"
		echo 'time: 1'
	EOF
	chmod +x "$WORLD/killer"
	on_tty 300 "git campaign ab --build true --run '$prog 7' --control $WORLD/killer -n 5 --warmup 0 --metric 're:time: ([0-9]+);unit=us' >/dev/null"
	grep -qx 'fatal: interrupted by signal 2' "$WORLD/tty" || fail "$(cat "$WORLD/tty")"
}

@test "hypo test shows the same progress line while its probe runs" {
	git campaign hypo add "the probe prints 5" --metric loop --predict 5 --unit us >/dev/null
	printf '#!/bin/sh\necho "time: 5"\n' >"$WORLD/probe"
	chmod +x "$WORLD/probe"
	on_tty 300 "git campaign hypo test 1 --probe '$WORLD/probe' -n 4 --metric 're:time: ([0-9]+);unit=us'"
	grep -qx "1/4 $WORLD/probe" "$WORLD/tty" || fail "$(cat "$WORLD/tty")"
	grep -q "^4/4 $WORLD/probe  median 5 us  ETA [0-9:]*$" "$WORLD/tty" || fail "$(cat "$WORLD/tty")"
	grep -q '^hypothesis 1 confirmed' "$WORLD/tty" || fail "$(cat "$WORLD/tty")"
}
