#!/usr/bin/env bats
# Colour the git way: --color[=WHEN] and --no-color, color.campaign.CMD,
# color.campaign and color.ui, auto by default, NO_COLOR; colour only on a
# terminal (a real pty, from util-linux's script(1)), never in a pipe.

load helper
load records_helper

METRIC='re:time: ([0-9]+);unit=us'
ESC=$'\033'

setup() {
	setup_world
	git init -q r
	cd r
	echo one >a
	git add a
	git commit -q -m base
	git branch develop
	git campaign init demo >/dev/null
	# a stack with a branch that needs a restack
	git checkout -q develop
	git campaign stack new s1 >/dev/null
	echo s1 >>a && git commit -qam s1
	git checkout -q develop
	echo d >b && git add b && git commit -qm d
	git checkout -q s1
	export TERM=xterm
	unset NO_COLOR GIT_PAGER_IN_USE
	export GIT_PAGER=cat
}

# on_tty CMD: CMD's standard output and error, with a terminal as both
on_tty() {
	script -qec "$1" /dev/null | tr -d '\r'
}

need_script() {
	command -v script >/dev/null || skip "script (util-linux) is not installed"
}

@test "--color=always colours the stack's states; a pipe without it gets no escape" {
	run --separate-stderr git campaign stack show --color=always
	assert_clean
	assert_line "*   s1 (1 commit, ${ESC}[33mneeds restack${ESC}[m)"
	run --separate-stderr git campaign stack show
	assert_clean
	assert_line '*   s1 (1 commit, needs restack)'
	[[ $output != *"$ESC"* ]] || fail "escapes in a pipe: $output"
	# color.ui=always colours a pipe, as git's does; --no-color wins
	git config color.ui always
	run --separate-stderr git campaign stack show
	assert_line "*   s1 (1 commit, ${ESC}[33mneeds restack${ESC}[m)"
	run --separate-stderr git campaign stack show --no-color
	[[ $output != *"$ESC"* ]] || fail "--no-color coloured: $output"
}

@test "on a terminal colour is on by default; NO_COLOR, color.ui=never and color.campaign.CMD turn it off; --color=always wins" {
	need_script
	run on_tty 'git campaign stack show'
	assert_line "*   s1 (1 commit, ${ESC}[33mneeds restack${ESC}[m)"
	run on_tty 'NO_COLOR=1 git campaign stack show'
	assert_line '*   s1 (1 commit, needs restack)'
	run on_tty 'NO_COLOR=1 git campaign stack show --color=always'
	assert_line --partial "${ESC}[33mneeds restack"
	run on_tty 'TERM=dumb git campaign stack show'
	[[ $output != *"$ESC"* ]] || fail "TERM=dumb coloured: $output"
	git config color.ui never
	run on_tty 'git campaign stack show'
	[[ $output != *"$ESC"* ]] || fail "color.ui=never coloured: $output"
	run on_tty 'git -c color.ui=auto campaign stack show'
	assert_line --partial "${ESC}[33mneeds restack"
	# color.campaign over color.ui, color.campaign.CMD over both
	git config color.ui auto
	git config color.campaign false
	run on_tty 'git campaign stack show'
	[[ $output != *"$ESC"* ]] || fail "color.campaign=false coloured: $output"
	git config color.campaign.stack true
	run on_tty 'git campaign stack show'
	assert_line --partial "${ESC}[33mneeds restack"
	run on_tty 'git campaign stack show --color=never'
	[[ $output != *"$ESC"* ]] || fail "--color=never coloured: $output"
}

@test "hints are yellow on a terminal as git colours its hints; error: and fatal: stay plain" {
	need_script
	run on_tty 'git campaign stash apply nosuch'
	assert_line "fatal: no stash named 'nosuch'"
	assert_line --regexp "^${ESC}\\[33mhint: .*stash list.*${ESC}\\[m\$"
	run --separate-stderr git campaign stash apply nosuch
	[[ $stderr != *"$ESC"* ]] || fail "escapes in a pipe: $stderr"
	run on_tty 'git campaign stash apply nosuch --no-color'
	[[ $output != *"$ESC"* ]] || fail "--no-color coloured: $output"
	# the hints a command prints itself too
	run on_tty 'git campaign resume --saved'
	assert_line 'no resume pointer saved yet'
	assert_line "${ESC}[33mhint: 'git campaign resume --save' saves one${ESC}[m"
	run --separate-stderr git campaign resume --saved
	[ "$stderr" = "no resume pointer saved yet
hint: 'git campaign resume --save' saves one" ]
}

@test "status colours what needs doing on a terminal, and its kept rendering never carries colour into a pipe" {
	need_script
	# a database last changed long ago, as 21-outcache settles it: the
	# renderings are kept
	git campaign status >/dev/null
	touch -d '-10 minutes' .git/campaign/campaign.db
	run on_tty 'git campaign status'
	assert_line "          ${ESC}[33mneeds restack:${ESC}[m s1"
	[ -n "$(ls .git/campaign/cache)" ] || fail 'no rendering was kept'
	run --separate-stderr git campaign status
	assert_clean
	assert_line '          needs restack: s1'
	[[ $output != *"$ESC"* ]] || fail "escapes in a pipe: $output"
	run on_tty 'git campaign status'
	assert_line "          ${ESC}[33mneeds restack:${ESC}[m s1"
}

@test "measure compare colours a significant change by the metric's better way, not a ~" {
	git campaign measure add t - --unit ms --better lower --samples 20,21,22,23,24 >/dev/null
	git campaign measure add u - --unit ms --better lower --samples 5,5,6,6,7 >/dev/null
	git commit -q --allow-empty -m faster
	git campaign measure add t - --unit ms --better lower --samples 10,11,12,13,14 >/dev/null
	git campaign measure add u - --unit ms --better lower --samples 5,6,6,7,7 >/dev/null
	run --separate-stderr git campaign measure compare HEAD~ HEAD --color=always
	assert_clean
	assert_line --regexp "^t .* ${ESC}\\[32m-[0-9.]+%${ESC}\\[m p="
	assert_line --regexp '^u .* ~ p='
	# the columns stay where they are without colour
	plain=$(git campaign measure compare HEAD~ HEAD)
	[ "$(printf '%s\n' "$output" | sed "s/${ESC}\\[[0-9;]*m//g")" = "$plain" ]
	git commit -q --allow-empty -m slower
	git campaign measure add t - --unit ms --better lower --samples 30,31,32,33,34 >/dev/null
	run --separate-stderr git campaign measure compare HEAD~ HEAD t --color
	assert_line --regexp "^t .* ${ESC}\\[31m\\+[0-9.]+%${ESC}\\[m p="
}

@test "ab colours the verdicts and the control's state with --color=always, and prints none into a pipe" {
	git checkout -q -b p develop
	write_prog prog.in 1000 10
	write_prog ctl.in 500 0
	printf 'cp prog.in prog && cp ctl.in ctl && chmod +x prog ctl\n' >build.sh
	printf 'prog\nctl\n.runs\n' >.gitignore
	git add . && git commit -qm progs
	write_prog prog.in 1000 9
	run --separate-stderr git campaign ab --build 'sh build.sh' \
		--run './prog 100' --control ./ctl --metric "$METRIC" -n 6 --color=always
	assert_success
	assert_line --regexp "^\\| \`./prog 100\` \\|.*\\| ${ESC}\\[32mfaster${ESC}\\[m \\|\$"
	assert_line --regexp "^\\| control: \`./ctl\` \\|.*\\| ${ESC}\\[32msteady${ESC}\\[m \\|\$"
	run --separate-stderr git campaign ab --build 'sh build.sh' \
		--run './prog 100' --control ./ctl --metric "$METRIC" -n 6
	assert_success
	assert_line --regexp '\| faster \|$'
	[[ $output != *"$ESC"* ]] || fail "escapes in a pipe: $output"
}

@test "output paged on a terminal keeps its colour, as git colours for its pager" {
	need_script
	export GIT_PAGER='sed s/^/PAGED:/'
	run on_tty 'git campaign stack show'
	assert_line "PAGED:*   s1 (1 commit, ${ESC}[33mneeds restack${ESC}[m)"
	run on_tty 'git campaign stack show --no-color'
	assert_line 'PAGED:*   s1 (1 commit, needs restack)'
}
