#!/usr/bin/env bats
# The seed's honest-number rules, campaign.requireFlag and
# campaign.forbidFlag, read the way the JVM reads -D properties: by name,
# the last occurrence winning, booleans in any case.

load helper

setup() {
	setup_world
	git init -q p
	cd p
	git commit -q --allow-empty -m init
	git campaign init demo --base main >/dev/null
	git config campaign.requireFlag -Dtornado.recover.bailout=False
	git config campaign.forbidFlag -Dtornado.profiler=True
}

ab() {
	run --separate-stderr git campaign ab --build true --run "$1" -n 5 \
		--warmup 0
}

@test "a required -D property overridden by a later one is refused, naming the word that wins" {
	ab 'echo -Dtornado.recover.bailout=False -Dtornado.recover.bailout=True'
	assert_failure 1
	[ "${stderr_lines[0]}" = "error: 'echo -Dtornado.recover.bailout=False -Dtornado.recover.bailout=True' lacks the required flag '-Dtornado.recover.bailout=False': its last '-Dtornado.recover.bailout=True' wins" ] ||
		fail "$stderr"
	[ -z "$(git notes --ref campaign list)" ]
}

@test "a required -D property with another value that starts the same is refused" {
	ab 'echo -Dtornado.recover.bailout=FalseX'
	assert_failure 1
	[[ ${stderr_lines[0]} == *"lacks the required flag"* ]] || fail "$stderr"
}

@test "the profiler turned on in lower case is the forbidden profiler, and no record calls it off" {
	ab 'echo -Dtornado.recover.bailout=False -Dtornado.profiler=true'
	assert_failure 1
	[[ ${stderr_lines[0]} == *"holds the forbidden flag '-Dtornado.profiler=True'"* ]] ||
		fail "$stderr"
	[ -z "$(git notes --ref campaign list)" ]
}

@test "booleans match in any case and the last -D wins for the forbidden flag too" {
	ab 'echo -Dtornado.recover.bailout=false -Dtornado.profiler=True -Dtornado.profiler=false'
	[ "$status" -eq 0 ] || fail "exit $status: $stderr"
	[ -n "$(git notes --ref campaign list)" ]
}
