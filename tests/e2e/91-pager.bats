#!/usr/bin/env bats
# The pager the git way: long outputs go through git's pager (GIT_PAGER,
# core.pager, PAGER) when standard output is a terminal, never into a pipe;
# -p, --no-pager and pager.campaign.CMD as git's. The terminal is a real
# pty, from util-linux's script(1).

load helper

setup() {
	setup_world
	command -v script >/dev/null || skip "script (util-linux) is not installed"
	make_repo r develop
	cd r
	git campaign init kfusion >/dev/null
	git switch -q -c work
	git campaign measure add kernel_ms 12 >/dev/null
	unset PAGER GIT_PAGER_IN_USE
	export GIT_PAGER='sed s/^/PAGED:/'
}

# on_tty CMD: CMD's output, run with a terminal as its standard output
on_tty() {
	script -qec "$1" /dev/null | tr -d '\r'
}

@test "a long output goes through GIT_PAGER on a terminal, never into a pipe" {
	run on_tty 'git campaign measure show'
	assert_success
	assert_line --regexp '^PAGED:kernel_ms +12 '
	run on_tty 'git campaign stack show'
	assert_line --partial 'PAGED:'
	# a pipe is not paged
	run --separate-stderr git campaign measure show
	refute_output --partial PAGED
	# and a short output is not paged by default
	run on_tty 'git campaign status'
	refute_output --partial PAGED
}

@test "core.pager when GIT_PAGER is unset; cat means no pager" {
	unset GIT_PAGER
	git config core.pager 'sed s/^/CORE:/'
	run on_tty 'git campaign measure show'
	assert_line --regexp '^CORE:kernel_ms'
	export GIT_PAGER=cat
	run on_tty 'git campaign measure show'
	assert_line --regexp '^kernel_ms'
}

@test "-p pages any command, --no-pager none, pager.campaign.CMD decides per command" {
	run on_tty 'git campaign -p status'
	assert_line --partial 'PAGED:'
	run on_tty 'git campaign --no-pager measure show'
	refute_output --partial PAGED
	assert_line --regexp '^kernel_ms'
	git config pager.campaign.measure false
	run on_tty 'git campaign measure show'
	refute_output --partial PAGED
	git config pager.campaign.status true
	run on_tty 'git campaign status'
	assert_line --partial 'PAGED:'
}

@test "a pager git started already is not started again" {
	run on_tty 'git -c pager.campaign=true campaign measure show'
	assert_success
	assert_line --regexp '^PAGED:kernel_ms'
	refute_line --regexp '^PAGED:PAGED:'
}
