#!/usr/bin/env bats
# git campaign ab: what the controls said of a run (steady, unvouched, no
# control) travels with its records in the notes, so that measure show and
# a clone that synced them see it, not only the database row of the run.
# The workloads replay planted samples.

load helper

METRIC='re:t: ([0-9.]+) us;unit=us'

setup() {
	setup_world
	export GIT_CEILING_DIRECTORIES="$WORLD"
	S="$WORLD/s"
	mkdir -p "$S"
	# r.sh NAME: its k-th run in arm A (B) prints line k of $S/NAME.A (.B)
	cat >"$WORLD/r.sh" <<-EOF
		f=$S/\$1.\$GIT_CAMPAIGN_ARM
		k=\$((\$(cat "\$f.n" 2>/dev/null || echo 0) + 1))
		echo \$k >"\$f.n"
		v=\$(sed -n "\${k}p" "\$f")
		[ -n "\$v" ] || exit 3
		echo "t: \$v us"
	EOF
	R="sh $WORLD/r.sh"
	git init -q p
	cd p
	echo v1 >k.txt
	git add k.txt
	git commit -q -m base
	git campaign init demo --base main >/dev/null
	echo v2 >k.txt
	# the main workload: B is 10% faster
	plant m A 100 100 100 100 100 100 100 100 100 100
	plant m B 90 90 90 90 90 90 90 90 90 90
}

# plant NAME ARM VALUE...: the samples NAME replays in ARM
plant() {
	local f=$S/$1.$2
	shift 2
	printf '%s\n' "$@" >"$f"
}

ab() {
	rm -f "$S"/*.n
	run --separate-stderr git campaign ab --build true --run "$R m" \
		--warmup 0 --metric "$METRIC" -n 10 "$@"
}

# vouches REV: the vouch of every line of REV's note, one a line
vouches() {
	git notes --ref campaign show "$1" |
		sed -n 's/.*"vouch":"\([a-z]*\)".*/\1/p'
}

@test "the records of an A/B whose control cannot vouch say unvouched, in the notes, in measure show and in a clone that synced them" {
	# +2.0% at p = 0.007, its CI past a 2.5% tolerance: cannot vouch
	plant c A 101.14 98.34 99.19 100.45 98.79 99.91 100.22 99.01 98.44 100.23
	plant c B 102.72 100.72 101.09 103.52 100.82 100.88 104.47 99.65 102.47 99.09
	ab --control "$R c" --control-tolerance 2.5
	[ "$status" -eq 0 ] || fail "exit $status: $stderr"
	assert_line --index 0 --partial '**UNVOUCHED**'
	[ "$(git notes --ref campaign show HEAD | wc -l)" -eq 4 ]
	[ "$(vouches HEAD | sort | uniq -c | tr -s ' ')" = ' 4 unvouched' ]
	run --separate-stderr git campaign measure show HEAD
	assert_clean
	[ "${#lines[@]}" -eq 4 ]
	[ "$(printf '%s\n' "${lines[@]}" | grep -c ' controls=unvouched$')" -eq 4 ]
	# a clone that syncs the notes sees it
	git init -q --bare -b main ../remote.git
	git remote add origin "$WORLD/remote.git"
	git push -q origin main
	git campaign sync >/dev/null
	git clone -q ../remote.git ../q
	cd ../q
	git campaign init demo --base main >/dev/null
	git campaign sync >/dev/null
	run --separate-stderr git campaign measure show HEAD --json
	assert_clean
	[ "$(sqlite3 :memory: "SELECT group_concat(json_extract(value, '\$.vouch'))
		FROM json_each(json_extract('$output', '\$.records'))")" = \
		'unvouched,unvouched,unvouched,unvouched' ]
}

@test "a steady control's records say steady, and those of an A/B without a control say none" {
	plant c A 100 100 100 100 100 100 100 100 100 100
	plant c B 100 100 100 100 100 100 100 100 100 100
	ab --control "$R c"
	assert_success
	refute_output --partial 'UNVOUCHED'
	[ "$(vouches HEAD | sort | uniq -c | tr -s ' ')" = ' 4 steady' ]
	ab
	assert_success
	assert_line --index 0 --partial '**No control**'
	[ "$(git notes --ref campaign show HEAD | wc -l)" -eq 6 ]
	[ "$(vouches HEAD | sort | uniq -c | tr -s ' ')" = ' 2 none
 4 steady' ]
	run --separate-stderr git campaign measure show HEAD
	[ "$(printf '%s\n' "${lines[@]}" | grep -c ' controls=none$')" -eq 2 ]
}
