#!/usr/bin/env bats
# git campaign status: text, --short and --json, from real repositories.

load helper

setup() {
	setup_world
	make_repo r develop
	cd r
	git campaign init kfusion --umbrella 42 >/dev/null
}

# stack CHILD PARENT: record CHILD as stacked on PARENT at PARENT's tip
stack() {
	git branch -q "$1" "$2" 2>/dev/null || true
	git config "branch.$1.campaignParent" "$2"
	git config "branch.$1.campaignParentTip" "$(git rev-parse "$2")"
}

json() {
	git campaign status --json | python3 -c "import json,sys; d=json.load(sys.stdin); print($1)"
}

@test "status outside a campaign says how to start one, exit 128" {
	cd "$WORLD"
	make_repo plain
	cd plain
	run --separate-stderr git campaign status
	assert_failure 128
	[ "$stderr" = "fatal: no campaign in this repository
hint: start one with 'git campaign init'" ]
}

@test "status of a fresh campaign, whole" {
	run --separate-stderr git campaign status
	assert_success
	[ -z "$stderr" ]
	assert_output "campaign  kfusion
base      develop, umbrella #42
branch    main (0 ahead, 0 behind develop)
stack     none
stashes   none
last ab   none
next hypo none
finding   none
unfinished none"
}

@test "ahead and behind count against the base" {
	git checkout -q -b work develop
	git commit -q --allow-empty -m w1
	git commit -q --allow-empty -m w2
	git checkout -q develop
	git commit -q --allow-empty -m d1
	git checkout -q work
	run git campaign status
	assert_line 'branch    work (2 ahead, 1 behind develop)'
	[ "$(json "d['ahead'], d['behind'], d['branch']")" = "2 1 work" ]
}

@test "the stack line walks recorded parents and marks the current branch" {
	stack a develop
	stack b a
	stack c b
	git checkout -q b
	run git campaign status
	assert_line 'stack     develop -> a -> *b*'
	refute_output --partial 'need'
}

@test "a parent that moved marks its child as needing a restack" {
	stack a develop
	stack b a
	git checkout -q a
	git commit -q --allow-empty -m 'a moved'
	git checkout -q b
	run git campaign status
	assert_line 'stack     develop -> a -> *b* (needs restack)'
	assert_line "          needs restack: b"
	[ "$(json "[(s['branch'], s['needs_restack']) for s in d['stack']]")" = "[('a', False), ('b', True)]" ]
	run git campaign status --short
	assert_output 'kfusion b +0 -0 restack:1'
}

@test "a parent branch that is gone is reported, not fatal" {
	stack a develop
	stack b a
	git checkout -q b
	git branch -q -D a
	run git campaign status
	assert_success
	assert_line --partial '-> *b* (parent gone)'
	[ "$(json "[s['parent_missing'] for s in d['stack'] if s['branch'] == 'b'][0]")" = True ]
}

@test "a cycle in recorded parents does not hang status" {
	git branch x
	git branch y
	git config branch.x.campaignParent y
	git config branch.y.campaignParent x
	git checkout -q x
	run timeout 10 git campaign status
	assert_success
	assert_line --partial 'stack     '
}

@test "branch names with dots and slashes" {
	stack feat.x/one develop
	git checkout -q feat.x/one
	run git campaign status
	assert_line 'stack     develop -> *feat.x/one*'
}

@test "named stashes are listed with their ids" {
	id=$(git rev-parse HEAD)
	git update-ref refs/campaign/stash/ab/3 "$id"
	git update-ref refs/campaign/stash/wip "$id"
	run git campaign status
	assert_line "stashes   ab/3 (${id:0:12})"
	assert_line "          wip (${id:0:12})"
	[ "$(json "[s['name'] for s in d['stashes']]")" = "['ab/3', 'wip']" ]
	run git campaign status --short
	assert_output 'kfusion main +0 -0 stashes:2'
}

@test "plain git stash entries are not named stashes" {
	echo x > f
	git add f
	git stash -q
	run git campaign status
	assert_line 'stashes   none'
}

@test "detached HEAD and an unborn branch" {
	git checkout -q --detach
	run git campaign status
	assert_line 'branch    (detached HEAD) (0 ahead, 0 behind develop)'
	[ "$(json "d['branch']")" = None ]
	cd "$WORLD"
	git init -q -b trunk u
	cd u
	git campaign init >/dev/null
	run git campaign status
	assert_success
	assert_line 'branch    trunk (no commits yet)'
}

@test "a base that does not resolve is reported, not fatal" {
	git config campaign.base nosuch
	run git campaign status
	assert_success
	assert_line "branch    main (base 'nosuch' not found)"
}

@test "--json carries the campaign and every section" {
	git remote add origin git@github.com:o/r.git
	git config campaign.forge o/r
	run json "d['campaign']['name'], d['campaign']['base'], d['campaign']['forge'], d['campaign']['umbrella'], d['stack'], d['stashes'], d['unfinished']"
	assert_success
	assert_output "kfusion develop o/r 42 [] [] []"
	[ "$(json "d['head']")" = "$(git rev-parse HEAD)" ]
}

@test "--json and --short together, or an operand, are usage errors" {
	run --separate-stderr git campaign status --json --short
	assert_failure 129
	[[ "$stderr" == 'error: --json and --short cannot be combined'* ]]
	run --separate-stderr git campaign status extra
	assert_failure 129
	[[ "$stderr" == 'error: status takes no arguments'* ]]
}

@test "status changes nothing in the repository" {
	stack a develop
	before=$(git for-each-ref; git config --list --local; git status --porcelain)
	git campaign status >/dev/null
	git campaign status --json >/dev/null
	after=$(git for-each-ref; git config --list --local; git status --porcelain)
	[ "$before" = "$after" ]
}

@test "status does not create a missing database" {
	rm -rf .git/campaign
	run git campaign status
	assert_success
	assert_line 'unfinished none'
	assert_file_not_exists .git/campaign/campaign.db
}

@test "git --work-tree with --git-dir works (libgit2 alone refuses it)" {
	cd "$WORLD"
	run git --git-dir="$WORLD/r/.git" --work-tree="$WORLD/r" campaign status --short
	assert_success
	assert_output 'kfusion main +0 -0'
}

@test "a branch outside the stack still sees which branches need a restack" {
	stack a develop
	stack b a
	git checkout -q a
	git commit -q --allow-empty -m 'a moved'
	git checkout -q main
	run git campaign status
	assert_line 'stack     main is not stacked (2 stacked branches)'
	assert_line '          needs restack: b'
}

@test "settings in an included config file count, as git reads them" {
	# git follows include and includeIf; gitlite leaves them to libgit2
	printf '[campaign]\n\tbase = work\n' >"$WORLD/campaign.inc"
	git config --global includeIf.gitdir:"$WORLD/r/".path "$WORLD/campaign.inc"
	git branch -q work develop
	git config --unset campaign.base
	[ "$(git config campaign.base)" = work ]
	run --separate-stderr git campaign status
	assert_success
	assert_line 'base      work, umbrella #42'
	assert_line 'branch    main (0 ahead, 0 behind work)'
}

@test "ahead and behind are counted again for a new HEAD or base, never reused" {
	DB=.git/campaign/campaign.db
	git checkout -q -b work develop
	git commit -q --allow-empty -m w1
	run git campaign status --short
	assert_output 'kfusion work +1 -0'
	# the count for this HEAD and base is kept, and used
	[ "$(sqlite3 "$DB" "SELECT value FROM meta WHERE key = 'status.aheadBehind'")" = \
		"$(git rev-parse HEAD) $(git rev-parse develop) 1 0" ]
	git commit -q --allow-empty -m w2
	run git campaign status --short
	assert_output 'kfusion work +2 -0'
	git checkout -q develop
	git commit -q --allow-empty -m d1
	git checkout -q work
	run git campaign status --short
	assert_output 'kfusion work +2 -1'
	# a damaged entry is a miss, counted again
	sqlite3 "$DB" "UPDATE meta SET value = 'junk' WHERE key = 'status.aheadBehind'"
	run git campaign status --short
	assert_output 'kfusion work +2 -1'
	# while another process writes, the count is not kept, and status
	# neither waits for the lock nor fails
	kept=$(sqlite3 "$DB" "SELECT value FROM meta WHERE key = 'status.aheadBehind'")
	git commit -q --allow-empty -m w3
	sqlite3 "$DB" "BEGIN IMMEDIATE" ".shell touch locked; sleep 3" "COMMIT" &
	while [ ! -e locked ]; do sleep 0.05; done
	run --separate-stderr git campaign status --short
	assert_success
	assert_output 'kfusion work +3 -1'
	[ -z "$stderr" ]
	[ "$(sqlite3 "$DB" "SELECT value FROM meta WHERE key = 'status.aheadBehind'")" = "$kept" ]
	wait
	rm locked
}

@test "status and resume name the oldest open hypothesis when none is marked" {
	git campaign hypo add "launch costs 8 us" --metric launch_ns \
		--predict 8000 --unit ns >/dev/null
	git campaign hypo add "the copy costs 2 us" --metric copy_ns \
		--predict 2000 --unit ns >/dev/null
	run --separate-stderr git campaign status
	assert_success
	assert_line 'next hypo none marked; 2 open, the oldest: #1 launch_ns 8000 ns: launch costs 8 us'
	[ "$(json "d['next_hypo']['id'], d['next_hypo']['marked'], d['open_hypotheses']")" = "1 False 2" ]
	run --separate-stderr git campaign resume
	assert_line 'none marked; 2 open, the oldest: #1 launch_ns = 8000 ns (within 10%): launch costs 8 us'
	git campaign hypo next 2 >/dev/null
	run git campaign status
	assert_line 'next hypo #2 copy_ns 2000 ns: the copy costs 2 us'
	git campaign hypo confirm 2 --measured 2000 --commit HEAD >/dev/null
	git campaign hypo falsify 1 --measured 1 --commit HEAD >/dev/null
	run git campaign status
	assert_line 'next hypo none'
	[ "$(json "d['next_hypo'], d['open_hypotheses']")" = "None 0" ]
}
