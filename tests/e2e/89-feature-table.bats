#!/usr/bin/env bats
# Rows of the ecosystem findings' feature table that no other file shows:
# what a user of git expects of a git subcommand.

load helper

setup() {
	setup_world
	make_repo r develop
	cd r
	git campaign init kfusion >/dev/null
}

@test "a mistyped subcommand of every command that has them names the closest, as git does for its commands" {
	cmds=$(git campaign -h | sed -n '/^commands:/,/^$/s/^   \([a-z][a-z-]*\) .*/\1/p')
	n=0
	for c in $cmds; do
		subs=$(git campaign "$c" -h | sed -n "s/^\(usage:\|   or:\) git campaign $c \([a-z][a-z-]*\).*/\2/p" | sort -u)
		for s in $subs; do
			[ ${#s} -ge 4 ] || continue
			# the last two letters swapped: "stack nwe" for "stack new"
			typo="${s:0:${#s}-2}${s: -1}${s: -2:1}"
			[ "$typo" != "$s" ] || continue
			run --separate-stderr git campaign "$c" "$typo"
			[ "$status" -eq 129 ] || fail "'$c $typo': exit $status"
			[[ ${stderr_lines[0]} == "error: '$typo' is not a subcommand of '$c'; did you mean "*"'$s'"* ]] ||
				fail "'$c $typo': ${stderr_lines[0]}"
			n=$((n + 1))
		done
	done
	# stack, measure, stash, hypo, tests, finding... at least a dozen
	[ "$n" -ge 12 ] || fail "only $n subcommands tried"
}
