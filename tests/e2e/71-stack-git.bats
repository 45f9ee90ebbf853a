#!/usr/bin/env bats
# Stacks that live with git's own commands in between: hand rebases, git's
# --update-refs, merge commits in the base, unfinished operations after a
# refusal or a kill (findings ST-1 to ST-11, REL-3, REL-4 of the stack and
# reliability reviews).

load helper
load stack_helper

# upstream_revert: develop gets a commit and its revert, as a base does
# when a change is tried and taken back
upstream_revert() {
	git checkout -q develop
	commit d flag 'upstream: try a flag'
	git revert --no-edit HEAD >/dev/null
}

@test "a branch rebased by hand onto its advanced base gets none of the base's commits replayed" {
	make_stack 3
	upstream_revert
	git checkout -q s1
	git rebase -q develop
	local s1
	s1=$(git rev-parse s1)
	git checkout -q s3
	run --separate-stderr git campaign stack show
	assert_success
	assert_output --partial 's1 (2 commits)'
	refute_output --partial 's1 (2 commits, needs restack)'
	run --separate-stderr git campaign stack restack
	assert_success
	[ "$(git rev-parse s1)" = "$s1" ]
	[ "$(git rev-list --count develop..s1)" -eq 2 ]
	[ "$(git rev-list --count s1..s2)" -eq 1 ]
	[ "$(git rev-list --count s2..s3)" -eq 1 ]
	git merge-base --is-ancestor s1 s2
	git merge-base --is-ancestor s2 s3
	# nothing of develop's came into s1's own commits
	run git log --format=%s develop..s1
	assert_output $'s1 two\ns1 one'
}

@test "a base that changed a line twice: restack after a hand rebase stops at no phantom conflict" {
	make_stack 2
	git checkout -q develop
	sed -i 1s/.*/v1/ d && git commit -qam 'upstream: v1'
	sed -i 1s/.*/v2/ d && git commit -qam 'upstream: v2'
	git checkout -q s1
	git rebase -q develop
	git checkout -q s2
	run --separate-stderr git campaign stack restack
	assert_success
	refute_output --partial conflict
	[ "$(git show s2:d | head -1)" = v2 ]
	[ "$(git rev-list --count develop..s2)" -eq 3 ]
}

@test "git rebase --update-refs over a base that grew by a merge: stack show, restack and pre-push agree the stack is in order" {
	make_stack 3
	git init -q --bare ../origin.git
	git remote add origin ../origin.git
	git campaign hooks install >/dev/null
	git checkout -q -b pr develop
	commit d pr 'upstream: PR'
	git checkout -q develop
	# the forge's merge, which the base-branch hook rightly refuses here
	git merge -q --no-verify --no-ff -m 'Merge pull request #1' pr
	git checkout -q s3
	git rebase -q --update-refs develop
	local before
	before=$(git for-each-ref refs/heads)
	run --separate-stderr git campaign stack show
	assert_success
	refute_output --partial 'needs restack'
	run --separate-stderr git campaign stack restack
	assert_success
	[ "$(git for-each-ref refs/heads)" = "$before" ]
	run --separate-stderr git campaign status --short
	refute_output --partial restack
	run --separate-stderr git push -q origin s2
	assert_success
	refute_output --partial 'needs a restack'
}

@test "a hand rebase that dropped a commit the base took by cherry-pick: restack replays neither that commit nor the base's" {
	make_stack 2
	# develop moves on and takes s1's first change by cherry-pick; s1 is
	# rebased onto it, git dropping that change
	git checkout -q develop
	commit d up 'upstream: change'
	git cherry-pick "$(git rev-parse s1~1)" >/dev/null
	git checkout -q s1
	git rebase -q develop
	# s2 was based on the old s1; s1 now sits on develop with one commit
	git checkout -q s2
	run --separate-stderr git campaign stack restack
	assert_success
	assert_output --partial 's2:'
	refute_output --partial 's1:'
	[ "$(git rev-list --count s1..s2)" -eq 1 ]
	[ "$(git rev-list --count develop..s1)" -eq 1 ]
	run git log --format=%s develop..s2
	assert_output $'s2\ns1 two'
	run git log --format=%s develop..s1
	assert_output 's1 two'
}

@test "a base commit cherry-picked into the branch's parent history is dropped by patch id" {
	make_stack 2
	# s2 holds a change develop also made (by a cherry-pick there)
	git checkout -q s2
	commit e shared 's2 shared'
	git checkout -q develop
	git cherry-pick s2 >/dev/null
	git checkout -q s1
	sed -i 1s/.*/amended/ a && git commit -qa --amend --no-edit
	git rebase -q develop
	git checkout -q s2
	run --separate-stderr git campaign stack restack
	assert_success
	assert_output --partial '1 already upstream, dropped'
	run git log --format=%s s1..s2
	assert_output s2
}

@test "after git rebase PARENT by hand the branch is in order: show, status and pre-push agree, restack changes nothing" {
	make_stack 2
	git init -q --bare ../origin.git
	git remote add origin ../origin.git
	git campaign hooks install >/dev/null
	git checkout -q s1
	commit a more 's1 three'
	git checkout -q s2
	git rebase -q s1
	run --separate-stderr git campaign stack show
	assert_output --partial 's2 (1 commit)'
	refute_output --partial 'needs restack'
	run --separate-stderr git campaign status --short
	refute_output --partial restack
	run --separate-stderr git push -q origin s2
	assert_success
	local tip
	tip=$(git rev-parse s2)
	run --separate-stderr git campaign stack restack
	assert_success
	[ "$(git rev-parse s2)" = "$tip" ]
}

@test "a recorded parent tip in capitals or with an extra digit: show, status and pre-push give one answer" {
	make_stack 2
	git init -q --bare ../origin.git
	git remote add origin ../origin.git
	git campaign hooks install >/dev/null
	local v
	for v in "$(git rev-parse s1 | tr a-f A-F)" "$(git rev-parse s1)0"; do
		git config branch.s2.campaignParentTip "$v"
		run --separate-stderr git campaign stack show
		refute_output --partial 'needs restack'
		run --separate-stderr git campaign status --short
		refute_output --partial restack
		run --separate-stderr git push -q origin s2
		assert_success
	done
}

@test "a branch moved off its parent by hand is marked, and its push is refused" {
	make_stack 2
	git init -q --bare ../origin.git
	git remote add origin ../origin.git
	git campaign hooks install >/dev/null
	git rebase -q --onto develop s1 s2
	run --separate-stderr git campaign stack show
	assert_output --partial 's2 (1 commit, needs restack)'
	run --separate-stderr git push -q origin s2
	assert_failure
	[[ $stderr == *"'s2' needs a restack"* ]] || fail "stderr: $stderr"
	run --separate-stderr git campaign stack restack
	assert_success
	git merge-base --is-ancestor s1 s2
	[ "$(git rev-list --count s1..s2)" -eq 1 ]
}

@test "a merge commit in a branch's own commits is refused before anything starts, leaving no operation behind" {
	make_stack 2
	git checkout -q develop
	commit d up 'upstream: change'
	git checkout -q s2
	git merge -q --no-edit develop
	git checkout -q s1
	sed -i 1s/.*/amended/ a && git commit -qa --amend --no-edit
	git checkout -q s2
	local before
	before=$(snapshot)
	run --separate-stderr git campaign stack restack
	assert_fatal "'s2' holds merge commit"
	[[ $stderr == *'hint: '* ]] || fail "no hint: $stderr"
	[ "$(snapshot)" = "$before" ]
	run --separate-stderr git campaign status
	refute_output --partial "unfinished restack"
	[ -z "$(git for-each-ref refs/campaign/backup)" ]
	run ls .git
	refute_output --partial 'index.'
	run --separate-stderr git campaign stack restack
	assert_fatal "'s2' holds merge commit"
	# git's own rebase flattens it, and the stack is in order
	git rebase -q --onto s1 "$(git config branch.s2.campaignParentTip)" s2
	run --separate-stderr git campaign stack show
	assert_output --partial 's2 (2 commits)'
	refute_output --partial 's2 (2 commits, needs restack)'
}

@test "restacked commits name the current identity and time as committer, and keep their author" {
	make_stack 2
	git checkout -q s2
	echo c >>b
	GIT_COMMITTER_NAME=Colleague GIT_COMMITTER_EMAIL=col@example.com \
		GIT_COMMITTER_DATE=2020-01-01T00:00:00Z \
		GIT_AUTHOR_NAME=Colleague GIT_AUTHOR_EMAIL=col@example.com \
		GIT_AUTHOR_DATE=2020-01-01T00:00:00Z \
		git commit -qam "s2: a colleague's change"
	git checkout -q s1
	sed -i 1s/.*/amended/ a
	git commit -qa --amend --no-edit
	GIT_COMMITTER_DATE=2026-12-01T08:00:00Z run --separate-stderr \
		git campaign stack restack --all
	assert_success
	[ "$(git log -1 --format='%cn <%ce> %cI' s2)" = 'C O Mitter <committer@example.com> 2026-12-01T08:00:00+00:00' ]
	[ "$(git log -1 --format='%an <%ae> %aI' s2)" = 'Colleague <col@example.com> 2020-01-01T00:00:00+00:00' ]
}

@test "restack --all from a detached HEAD rewrites the stack and leaves HEAD, index and files alone" {
	make_stack 3
	git checkout -q s1
	sed -i 1s/.*/amended/ a
	git commit -qa --amend --no-edit
	git checkout -q --detach develop
	local head index
	head=$(git rev-parse HEAD)
	index=$(sha256sum .git/index)
	run --separate-stderr git campaign stack restack --all
	assert_success
	assert_output --partial 'restacked s3:'
	git merge-base --is-ancestor s1 s2
	git merge-base --is-ancestor s2 s3
	[ "$(git rev-parse HEAD)" = "$head" ]
	! git symbolic-ref -q HEAD
	[ "$(sha256sum .git/index)" = "$index" ]
	# a plain restack still needs a branch
	run --separate-stderr git campaign stack restack
	assert_fatal 'HEAD is detached'
}

@test "stacked branches checked out in two other work trees: each restack rewrites what it can and names the work tree of each branch it leaves" {
	make_stack 3
	git checkout -q develop
	git worktree add -q ../wt2 s2
	git worktree add -q ../wt1 s1
	git checkout -q s3
	echo wip >>../wt2/e
	(cd ../wt1 && sed -i 1s/.*/amended/ a && git commit -qa --amend --no-edit)
	run --separate-stderr git -C ../wt1 campaign stack restack
	assert_success
	assert_output --partial "left s2: it is checked out in $WORLD/wt2, which has changes ('e'); commit or stash them there, then restack"
	refute_output --partial 'restacked'
	git -C ../wt2 stash -q
	run --separate-stderr git -C ../wt2 campaign stack restack
	assert_success
	assert_output --partial 'restacked s2:'
	# the main work tree is clean: s3 follows there
	assert_output --partial 'restacked s3:'
	git merge-base --is-ancestor s1 s2
	git merge-base --is-ancestor s2 s3
	git -C ../wt2 stash pop -q
	run --separate-stderr git campaign stack restack
	assert_success
	assert_output 'nothing to restack'
	[ "$(git symbolic-ref HEAD)" = refs/heads/s3 ]
	git diff --quiet s3 && git diff --cached --quiet s3
	[ -z "$(git status --porcelain)" ]
	[ "$(git -C ../wt2 status --porcelain)" = ' M e' ]
}

# fake_gpg: a gpg.program that signs as gpg's interface does (status on
# the --status-fd, the armoured signature on stdout) and logs each call
fake_gpg() {
	cat >"$WORLD/fake-gpg" <<'SH'
#!/bin/sh
cat >/dev/null
echo "$*" >>"$WORLD/gpg-calls"
echo '[GNUPG:] SIG_CREATED D 1 8 00 1700000000 FAKE' >&2
printf '%s\n' '-----BEGIN PGP SIGNATURE-----' '' 'ZmFrZQ==' '-----END PGP SIGNATURE-----'
SH
	chmod +x "$WORLD/fake-gpg"
	export WORLD
}

@test "with commit.gpgSign, restacked commits are signed through gpg.program, as git rebase signs them" {
	make_stack 3
	fake_gpg
	git config gpg.program "$WORLD/fake-gpg"
	git config user.signingKey ABCDEF
	git config commit.gpgSign true
	local old
	old=$(git rev-parse s1)
	git checkout -q s1
	sed -i 1s/.*/amended/ a
	git commit -qa --amend --no-edit
	git checkout -q s3
	cd "$WORLD" && cp -a r twin && cd r
	run --separate-stderr git campaign stack restack --all
	assert_success
	local c
	for c in $(git rev-list s1..s3); do
		git cat-file commit "$c" | grep -q '^gpgsig -----BEGIN PGP SIGNATURE-----' ||
			fail "$c is not signed"
	done
	grep -q -- '-bsau ABCDEF' "$WORLD/gpg-calls"
	# git's own rebase signs the same commits the same way
	(cd ../twin && git rebase -q --update-refs --onto s1 "$old" s3)
	for c in $(git -C ../twin rev-list s1..s3); do
		git -C ../twin cat-file commit "$c" | grep -q '^gpgsig -----BEGIN PGP SIGNATURE-----'
	done
	[ "$(git rev-list --count s1..s3)" = "$(git -C ../twin rev-list --count s1..s3)" ]
}

@test "with commit.gpgSign and a signer that fails, restack refuses before anything starts" {
	make_stack 2
	printf '#!/bin/sh\necho "gpg: signing failed: No secret key" >&2\nexit 2\n' >"$WORLD/bad-gpg"
	chmod +x "$WORLD/bad-gpg"
	git config gpg.program "$WORLD/bad-gpg"
	git config commit.gpgSign true
	git checkout -q s1
	sed -i 1s/.*/amended/ a
	git -c commit.gpgSign=false commit -qa --amend --no-edit
	git checkout -q s2
	local before
	before=$(git for-each-ref refs/heads)
	run --separate-stderr git campaign stack restack
	assert_fatal 'could not sign: gpg: signing failed: No secret key'
	[ "$(git for-each-ref refs/heads)" = "$before" ]
	run git campaign status
	assert_line 'unfinished none'
}

@test "with ssh signing (gpg.format ssh), restacked commits verify as good, as after git rebase" {
	command -v ssh-keygen >/dev/null || skip "ssh-keygen is not installed"
	make_stack 3
	ssh-keygen -q -t ed25519 -N '' -f "$HOME/key"
	git config gpg.format ssh
	git config user.signingKey "$HOME/key.pub"
	git config commit.gpgSign true
	echo "committer@example.com $(cat "$HOME/key.pub")" >"$HOME/allowed"
	git config gpg.ssh.allowedSignersFile "$HOME/allowed"
	git checkout -q s1
	sed -i 1s/.*/amended/ a
	git commit -qa --amend --no-edit
	git checkout -q s3
	run --separate-stderr git campaign stack restack --all
	assert_success
	run git log --format='%G?' s1..s3
	assert_output $'G\nG'
}

@test "stack new on a branch that exists: says where it is stacked, and hints only what would change something" {
	make_stack 3
	run --separate-stderr git campaign stack new s3
	assert_fatal "'s3' already exists, stacked on 's2'"
	[[ $stderr != *'adopt s3 --on s3'* ]] || fail "$stderr"
	run --separate-stderr git campaign stack new s2 --on s1
	assert_fatal "'s2' already exists, stacked on 's1'"
	[[ $stderr != *hint* ]] || fail "$stderr"
	run --separate-stderr git campaign stack new s2 --on develop
	assert_fatal "'s2' already exists, stacked on 's1'"
	[[ $stderr == *'stack move s2 --onto develop'* ]] || fail "$stderr"
}
