# Shared by the stack tests (70-stack*.bats): a campaign on develop and
# helpers to build and inspect stacks.

setup() {
	setup_world
	git init -q r
	cd r
	local f
	for f in a b c d e; do
		printf '%s\n' "$f 1" "$f 2" "$f 3" "$f 4" "$f 5" >"$f"
	done
	git add .
	git commit -q -m base
	git branch develop
	git campaign init demo >/dev/null
	git checkout -q develop
	NTH=0
}

# commit FILE TEXT MSG: append TEXT to FILE and commit it with its own
# author date
commit() {
	NTH=$((NTH + 1))
	echo "$2" >>"$1"
	git add "$1"
	GIT_AUTHOR_DATE="2026-11-2${NTH:0:1}T10:0${NTH: -1}:00Z" git commit -q -m "$3"
}

# make_stack N: develop -> s1 (2 commits on a) -> s2 (b) -> ... -> sN, with
# sN checked out
make_stack() {
	local files=(a b c d e) i
	git campaign stack new s1 >/dev/null
	commit a s1-one 's1 one'
	commit a s1-two 's1 two'
	for ((i = 2; i <= $1; i++)); do
		git campaign stack new "s$i" >/dev/null
		commit "${files[i - 1]}" "s$i" "s$i"
	done
}

parent_of() {
	git config "branch.$1.campaignParent"
}

# own_patch_ids BRANCH: the patch ids of BRANCH's commits over its parent
own_patch_ids() {
	git log -p --reverse "$(parent_of "$1")..$1" | git patch-id --stable | cut -d' ' -f1
}

# snapshot: branches, HEAD, stack records, index checksum, work tree sums
snapshot() {
	git for-each-ref refs/heads refs/notes
	git symbolic-ref -q HEAD || git rev-parse HEAD
	git config --get-regexp '^branch\..*\.campaignparent' | sort
	sha256sum .git/index | cut -d' ' -f1
	sha256sum a b c d e
}

# the op folder of the newest backup
backup_op() {
	git for-each-ref --sort=-refname --format='%(refname)' refs/campaign/backup |
		head -1 | cut -d/ -f4
}

# snapshot_refs: snapshot without the index file (git's own commands
# rewrite it)
snapshot_refs() {
	snapshot | grep -vE '^[0-9a-f]{64}$'
}
