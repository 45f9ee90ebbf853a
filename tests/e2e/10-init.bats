#!/usr/bin/env bats
# git campaign init: base branch and forge detection, settings, refusals.

load helper

setup() {
	setup_world
}

@test "init in a fresh repository with develop takes develop as the base" {
	make_repo r develop
	cd r
	run git campaign init kfusion
	assert_success
	assert_line "Started campaign 'kfusion'"
	assert_line "  database  $WORLD/r/.git/campaign/campaign.db"
	assert_line '  base      develop'
	[ "$(git config campaign.name)" = kfusion ]
	[ "$(git config campaign.base)" = develop ]
	[ "$(git config campaign.remote)" = origin ]
	[ "$(git config --get-all notes.rewriteRef)" = refs/notes/campaign ]
	assert_file_exists .git/campaign/campaign.db
}

@test "an amend right after init carries notes without a warning" {
	make_repo r develop
	cd r
	git campaign init kfusion >/dev/null
	# the notes ref exists, empty, so git finds what notes.rewriteRef names
	[ -z "$(git notes --ref campaign list)" ]
	echo x >f
	git add f
	git commit -q -m one
	git notes --ref campaign add -m 'a line' HEAD
	echo y >>f
	run --separate-stderr git commit -q -a --amend -m 'one, amended'
	assert_clean
	[ "$(git notes --ref campaign show HEAD)" = 'a line' ]
	# and with no note at all
	git notes --ref campaign remove HEAD 2>/dev/null
	run --separate-stderr git commit -q --amend -m 'one, again'
	assert_clean
}

@test "without develop the base is main, else master" {
	make_repo r
	cd r
	run git campaign init
	assert_success
	assert_line '  base      main'
	# the name defaults to the work tree's folder
	[ "$(git config campaign.name)" = r ]
	cd "$WORLD"
	git init -q -b master m
	git -C m commit -q --allow-empty -m x
	run git -C m campaign init
	assert_success
	assert_line '  base      master'
}

@test "the remote's default branch is the base when there is no develop" {
	git init -q --bare remote.git
	make_repo seed
	git -C seed branch -m trunk
	git -C seed push -q "$WORLD/remote.git" trunk
	git -C remote.git symbolic-ref HEAD refs/heads/trunk
	git clone -q remote.git r
	cd r
	git checkout -q -b work
	git branch -D trunk -q
	run git campaign init
	assert_success
	assert_line '  base      trunk'
}

@test "develop on the remote only is still the base" {
	git init -q --bare remote.git
	make_repo seed develop
	git -C seed push -q "$WORLD/remote.git" main develop
	git clone -q remote.git r
	cd r
	run git campaign init
	assert_success
	assert_line '  base      develop'
}

@test "a repository without commits takes its unborn branch" {
	git init -q -b trunk r
	cd r
	run git campaign init
	assert_success
	assert_line '  base      trunk'
}

@test "--base names the base; a missing branch is refused and nothing is written" {
	make_repo r feature
	cd r
	run --separate-stderr git campaign init --base nosuch
	assert_failure 128
	[ "$stderr" = "fatal: no branch 'nosuch' here or on 'origin'" ]
	run git config campaign.name
	assert_failure
	assert_file_not_exists .git/campaign/campaign.db
	run git campaign init --base feature
	assert_success
	assert_line '  base      feature'
}

@test "the forge comes from origin's URL, SSH and HTTPS forms" {
	make_repo r
	cd r
	git remote add origin git@github.com:beehive-lab/TornadoVM.git
	run git campaign init
	assert_success
	assert_line '  forge     beehive-lab/TornadoVM on github.com, from origin'
	[ "$(git config campaign.forge)" = beehive-lab/TornadoVM ]
	[ "$(git config campaign.forgeHost)" = github.com ]

	git remote set-url origin https://ghe.example.com/team/kfusion.git
	run git campaign init --force
	assert_success
	[ "$(git config campaign.forge)" = team/kfusion ]
	[ "$(git config campaign.forgeHost)" = ghe.example.com ]

	git remote set-url origin ssh://git@github.com:22/o/r
	run git campaign init --force
	assert_success
	[ "$(git config campaign.forge)" = o/r ]
}

@test "--forge and --remote override; a bad forge is a usage error" {
	make_repo r
	cd r
	git remote add upstream https://github.com/up/stream.git
	run git campaign init --remote upstream
	assert_success
	[ "$(git config campaign.forge)" = up/stream ]
	[ "$(git config campaign.remote)" = upstream ]
	run git campaign init --force --forge me/fork
	assert_success
	[ "$(git config campaign.forge)" = me/fork ]
	run --separate-stderr git campaign init --force --forge not-a-repo
	assert_failure 129
	[ "$stderr" = "error: 'not-a-repo' is not OWNER/REPO" ]
}

@test "no remote: no forge, and init says how to set one" {
	make_repo r
	cd r
	run git campaign init
	assert_success
	assert_output --partial "forge     none (set it with 'git campaign config forge OWNER/REPO')"
	run git config campaign.forge
	assert_failure
}

@test "--umbrella records the issue; zero or negative is refused" {
	make_repo r
	cd r
	run git campaign init --umbrella 1028
	assert_success
	assert_line '  umbrella  #1028'
	[ "$(git config campaign.umbrella)" = 1028 ]
	run --separate-stderr git campaign init --force --umbrella 0
	assert_failure 129
	[[ "$stderr" == "error: '0' is not an issue number"* ]]
	run git campaign init --force --umbrella x
	assert_failure 129
	run git campaign init --force --umbrella +5
	assert_failure 129
	run git campaign init --force --umbrella ' 7'
	assert_failure 129
	run --separate-stderr git campaign init --force --umbrella=-1
	assert_failure 129
	[[ "$stderr" == "error: '-1' is not an issue number"* ]]
	[ "$(git config campaign.umbrella)" = 1028 ]
}

@test "a second init is refused; --force re-initialises and drops stale settings" {
	make_repo r
	cd r
	git remote add origin https://github.com/o/r.git
	git campaign init one --umbrella 7 >/dev/null
	run --separate-stderr git campaign init two
	assert_failure 128
	[ "$stderr" = "fatal: campaign 'one' is already set up in this repository
hint: change it with 'git campaign config', or start over with 'init --force'" ]
	[ "$(git config campaign.name)" = one ]
	git remote remove origin
	run git campaign init two --force
	assert_success
	[ "$(git config campaign.name)" = two ]
	run git config campaign.umbrella
	assert_failure
	run git config campaign.forge
	assert_failure
	# notes.rewriteRef is not added twice
	[ "$(git config --get-all notes.rewriteRef | wc -l)" -eq 1 ]
}

@test "init keeps a user's own notes.rewriteRef values" {
	make_repo r
	cd r
	git config --add notes.rewriteRef refs/notes/commits
	git campaign init >/dev/null
	run git config --get-all notes.rewriteRef
	assert_output "refs/notes/commits
refs/notes/campaign"
}

@test "notes on refs/notes/campaign follow git commit --amend" {
	make_repo r
	cd r
	git campaign init >/dev/null
	git notes --ref campaign add -m '{"v":1}' HEAD
	git commit -q --allow-empty --amend -m 'first, amended'
	run git notes --ref campaign show HEAD
	assert_success
	assert_output '{"v":1}'
}

@test "init from a subdirectory and with git -C" {
	make_repo r
	mkdir -p r/a/b
	cd r/a/b
	run git campaign init sub
	assert_success
	assert_file_exists "$WORLD/r/.git/campaign/campaign.db"
	cd "$WORLD"
	make_repo s
	run git -C s campaign init viaC
	assert_success
	[ "$(git -C s config campaign.name)" = viaC ]
}

@test "a bare repository is refused" {
	git init -q --bare b.git
	cd b.git
	run --separate-stderr git campaign init
	assert_failure 128
	[ "$stderr" = "fatal: this operation must be run in a work tree
hint: '$WORLD/b.git/' is a bare repository; campaigns need a checkout" ]
	run git config campaign.name
	assert_failure
	assert_file_not_exists campaign/campaign.db
}

@test "too many arguments is a usage error" {
	make_repo r
	cd r
	run --separate-stderr git campaign init a b
	assert_failure 129
	[[ "$stderr" == "error: too many arguments"* ]]
}

@test "--remote must name an existing remote; nothing is written" {
	make_repo r
	cd r
	run --separate-stderr git campaign init --remote nosuch
	assert_failure 128
	[ "$stderr" = "fatal: no remote 'nosuch'
hint: 'git remote -v' lists the remotes" ]
	run git config --get-regexp '^campaign\.'
	assert_failure
}

@test "an init stopped before its last write leaves no campaign and runs again" {
	make_repo r develop
	cd r
	# what an init killed half-way leaves: settings, but no name yet
	git config campaign.base develop
	git config campaign.remote origin
	run git campaign status
	assert_failure 128
	run git campaign init again
	assert_success
	[ "$(git config campaign.name)" = again ]
}
