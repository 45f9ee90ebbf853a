#!/usr/bin/env bats
# The renderings of status and resume kept between runs
# (src/core/base/outcache.c): used while nothing they show changed, never after.
# A kept rendering is proved used by marking it: a run that prints the
# mark used it, one that does not read afresh.

load helper

setup() {
	setup_world
	make_repo r develop
	cd r
	git campaign init kfusion --umbrella 42 >/dev/null
	DB=.git/campaign/campaign.db
	AGO=10
}

# settle: the database's last change well in the past, as on a prompt a
# while after the last command (each call a different time, as a real
# change would give); a status first, which keeps its ahead/behind count
# for this HEAD in the database
settle() {
	git campaign status >/dev/null
	AGO=$((AGO + 1))
	touch -d "-$AGO minutes" "$DB"
}

# mark: every kept rendering gets a line that no fresh one has
mark() {
	local f
	for f in .git/campaign/cache/out-*; do
		sed -i '1a MARKED' "$f"
	done
}

@test "a kept status is used while the repository and the database are unchanged" {
	settle
	run --separate-stderr git campaign status
	assert_success
	fresh=$output
	[ "$(ls .git/campaign/cache/out-* | wc -l)" = 1 ]
	mark
	run --separate-stderr git campaign status
	assert_success
	assert_line MARKED
	# the same without the mark: the rendering is the status
	[ "$(printf '%s\n' "$output" | grep -v '^MARKED$')" = "$fresh" ]
	# unless told to read afresh
	GIT_CAMPAIGN_NO_CACHE=1 run git campaign status
	assert_output "$fresh"
	GIT_CAMPAIGN_NO_CACHE=0 run git campaign status
	assert_line MARKED
	# each form is kept apart
	run git campaign status --short
	assert_output 'kfusion main +0 -0'
	run git campaign status --json
	refute_line MARKED
}

@test "any change to what status shows reads afresh" {
	settle
	git campaign status >/dev/null
	# a commit: HEAD moved
	mark
	git commit -q --allow-empty -m more
	run git campaign status
	refute_line MARKED
	assert_line 'branch    main (1 ahead, 0 behind develop)'
	# the database changed (its time moved)
	settle
	git campaign status >/dev/null
	mark
	git campaign hypo add 'a launch costs 5 us' --metric launch_us \
		--predict 5 --unit us >/dev/null
	git campaign hypo next 1 >/dev/null
	settle
	run git campaign status
	refute_line MARKED
	assert_line --partial 'next hypo #1 launch_us 5 us'
	# the configuration
	mark
	git config campaign.umbrella 43
	run git campaign status
	refute_line MARKED
	assert_line 'base      develop, umbrella #43'
	# a named stash
	mark
	git update-ref refs/campaign/stash/wip HEAD
	run git campaign status
	refute_line MARKED
	assert_line --partial 'stashes   wip'
	# the base moved
	mark
	git commit -q --allow-empty -m d1
	git branch -f develop HEAD
	git reset -q --hard HEAD~1
	run git campaign status
	refute_line MARKED
	assert_line 'branch    main (0 ahead, 1 behind develop)'
	# a stacked branch's parent moved
	git branch -q a develop
	git config branch.a.campaignParent develop
	git config branch.a.campaignParentTip "$(git rev-parse develop)"
	git campaign status >/dev/null
	mark
	# develop gains a commit that a lacks (a branch holding its parent's
	# tip needs no restack, so moving develop back would not do)
	git branch -f develop "$(git commit-tree -p develop -m d2 'develop^{tree}')"
	run git campaign status
	refute_line MARKED
	assert_line '          needs restack: a'
}

@test "a database being written, or just written, is read and its rendering not kept" {
	settle
	git campaign status >/dev/null
	mark
	f=$(ls .git/campaign/cache/out-*)
	# another process has it open for writing: its -wal file is there
	: >"$DB-wal"
	run --separate-stderr git campaign status
	assert_success
	refute_line MARKED
	rm -f "$DB-wal" "$DB-shm"
	# a change within the last two seconds may share its time with the
	# next: nothing is kept then
	touch "$DB"
	sum=$(file_sum "$f")
	run git campaign status
	refute_line MARKED
	[ "$(file_sum "$f")" = "$sum" ]
	# a database replaced by another file of the same size and time
	settle
	git campaign status >/dev/null
	mark
	cp -p "$DB" "$DB.new"
	mv "$DB.new" "$DB"
	run git campaign status
	refute_line MARKED
}

@test "a damaged or foreign cache file is ignored, and no database means no cache" {
	settle
	git campaign status >/dev/null
	f=$(ls .git/campaign/cache/out-*)
	printf 'garbage\n' >"$f"
	run --separate-stderr git campaign status
	assert_success
	assert_line 'campaign  kfusion'
	: >"$f"
	run --separate-stderr git campaign status
	assert_success
	assert_line 'campaign  kfusion'
	rm -rf .git/campaign
	run --separate-stderr git campaign status
	assert_success
	assert_not_exists .git/campaign
}

@test "a kept resume follows the notes, the fingerprints and the template" {
	settle
	run --separate-stderr git campaign resume
	assert_success
	fresh=$output
	mark
	run git campaign resume
	assert_line MARKED
	[ "$(printf '%s\n' "$output" | grep -v '^MARKED$')" = "$fresh" ]
	run git campaign resume --format json
	refute_line MARKED
	# a fingerprint ref (another machine's, after a sync)
	mark
	git update-ref refs/campaign/env/0123456789abcdef "$(git hash-object -w --stdin <<<'{}')"
	run git campaign resume
	refute_line MARKED
	# the notes the floors are read from
	mark
	git update-ref refs/notes/campaign "$(git commit-tree -m n "$(git mktree </dev/null)")"
	run git campaign resume
	refute_line MARKED
	# the repository's template
	settle
	git campaign resume >/dev/null
	mark
	mkdir -p .campaign/templates
	printf 'campaign {{campaign.name}}\n' >.campaign/templates/resume.md
	run git campaign resume
	assert_output 'campaign kfusion'
	# --save and --saved read the database
	settle
	git campaign resume >/dev/null
	mark
	run --separate-stderr git campaign resume --save
	refute_line MARKED
}
