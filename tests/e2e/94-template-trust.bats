#!/usr/bin/env bats
# Templates from a cloned repository's .campaign/templates/ are untrusted:
# only a regular file inside the repository, reached through no symbolic
# link, of bounded size, is read; anything else is refused in one line and
# nothing is read from where it points.

load helper

setup() {
	setup_world
	echo 'https://u:SECRET-TOKEN@github.com' >"$HOME/.git-credentials"
	make_repo r develop
	cd r
	git campaign init demo >/dev/null
	mkdir -p .campaign/templates
}

# refused: the last run failed with one fatal line naming the template and
# printed nothing of the secret
refused() {
	assert_fatal "is not a regular file inside the repository"
	[[ $stderr != *SECRET* ]] || fail "the secret was printed: $stderr"
}

@test "a template that is a symlink to a file outside the repository is refused and its target never printed" {
	ln -s "$HOME/.git-credentials" .campaign/templates/resume.md
	ln -s ../../../home/.git-credentials .campaign/templates/pr-body.md
	git add .campaign && git commit -qm templates
	run --separate-stderr git campaign resume
	refused
	git campaign stack new s1 >/dev/null
	git commit -q --allow-empty -m x
	run --separate-stderr git campaign pr body
	refused
}

@test "a template inside a symlinked templates folder is refused" {
	mkdir "$WORLD/elsewhere"
	cp "$HOME/.git-credentials" "$WORLD/elsewhere/resume.md"
	rmdir .campaign/templates
	ln -s "$WORLD/elsewhere" .campaign/templates
	run --separate-stderr git campaign resume
	refused
	rm .campaign/templates
	rmdir .campaign
	ln -s "$WORLD/elsewhere" .campaign
	run --separate-stderr git campaign resume
	refused
}

@test "a FIFO template is refused without waiting for a writer" {
	mkfifo .campaign/templates/resume.md
	# the guard only ends a hang: a refusal is immediate
	run --separate-stderr timeout 30 git campaign resume
	[ "$status" -ne 124 ] || fail "resume waited on the FIFO"
	refused
}

@test "a device template is refused" {
	mknod .campaign/templates/resume.md c 1 5 2>/dev/null ||
		skip "cannot make a device node (needs root)"
	run --separate-stderr git campaign resume
	refused
}

@test "a template larger than 1 MiB is refused" {
	head -c $((1024 * 1024 + 1)) /dev/zero | tr '\0' x >.campaign/templates/resume.md
	run --separate-stderr git campaign resume
	assert_fatal "is larger than 1024 KiB"
}

@test "a regular template file in the repository is still used" {
	printf 'campaign {{campaign.name}} here\n' >.campaign/templates/resume.md
	run --separate-stderr git campaign resume
	assert_clean
	assert_output --partial ' here'
}
